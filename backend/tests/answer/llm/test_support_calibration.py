"""The default sentence-support threshold on the calibration cases (decisions/0025)."""

from __future__ import annotations

import numpy as np

from bookchat.answer.llm.check import embedding_key
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.markdown.units import split_units
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import VectorStore
from tests.answer.llm.support_cases import CASES, OFF_TOPIC


def _supports(store: VectorStore, embedder: Embedder) -> dict[str, list[float]]:
    """Best cosine of each case sentence with any sentence of the question's top passages."""
    retriever = Retriever(store, hybrid=False)
    out: dict[str, list[float]] = {"supported": [], "made_up": [], "off_topic": []}
    for question, supported, made_up in CASES:
        hits = retriever.search(question, embedder.embed([question])[0].tolist(), limit=5)
        texts = [str(h.payload["text"]) for h in hits if h.score >= 0.3][:4]
        sentences = embedder.embed([s for t in texts for s in (u.plain for u in split_units(t))])
        for kind, group in (
            ("supported", supported),
            ("made_up", made_up),
            ("off_topic", OFF_TOPIC),
        ):
            for row in embedder.embed([embedding_key(s) for s in group]):
                out[kind].append(float(np.max(sentences @ row)))
    return out


def test_the_default_threshold_separates_book_sentences_from_invented_ones(
    book_store: VectorStore, embedder: Embedder, make_settings: object
) -> None:
    threshold = Settings.model_fields["llm_min_sentence_support"].default
    scores = _supports(book_store, embedder)
    flagged = sum(s < threshold for s in scores["supported"])
    caught = sum(s < threshold for s in scores["made_up"])
    # Off-topic claims are always caught; a few faithful paraphrases and most on-topic
    # fabrications sit in the overlap embeddings cannot resolve (decisions/0025).
    assert all(s < threshold for s in scores["off_topic"])
    assert flagged <= 0.1 * len(scores["supported"])
    assert caught >= 0.2 * len(scores["made_up"])
    assert np.median(scores["supported"]) > np.median(scores["made_up"]) + 0.1
