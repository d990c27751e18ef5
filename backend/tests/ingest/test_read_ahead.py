"""The worker process hands over exactly what the ingest would compute itself, and never a
different error or a hang."""

from pathlib import Path

import pytest

from bookchat.embedding.embedder import MAX_TOKENS
from bookchat.ingest.corpus import Corpus, build_corpus
from bookchat.ingest.read_ahead import ReadAhead, corpus_texts
from bookchat.ingest.tokens import model_length


def test_the_worker_sends_the_corpus_its_catalog_and_word_pieces(sample_docs: Path) -> None:
    here = build_corpus(sample_docs)
    ahead = ReadAhead(lambda: build_corpus(sample_docs))
    try:
        ahead.ask(word_pieces=True, catalog_fields=True)
        corpus = ahead.corpus()
        texts = list(dict.fromkeys(corpus_texts(corpus)))
        pieces = ahead.word_pieces(texts)
        fields = ahead.catalog_fields()
    finally:
        ahead.close()
    assert corpus.chunks == here.chunks and corpus.version == here.version
    assert fields == here.catalog_fields()
    assert pieces == {t: min(model_length(t), MAX_TOKENS) for t in texts}


def test_unasked_results_are_computed_here(sample_docs: Path) -> None:
    ahead = ReadAhead(lambda: build_corpus(sample_docs))
    try:
        corpus = ahead.corpus()  # no ask: the worker sends only the corpus
        text = corpus.chunks[0].embed_text
        assert ahead.word_pieces([text]) == {text: min(model_length(text), MAX_TOKENS)}
        assert ahead.catalog_fields() == corpus.catalog_fields()
    finally:
        ahead.close()


def test_a_failing_read_raises_its_own_error_here(tmp_path: Path) -> None:
    def read() -> Corpus:
        return build_corpus(tmp_path / "missing")

    ahead = ReadAhead(read)
    try:
        ahead.ask(word_pieces=True, catalog_fields=True)
        with pytest.raises(FileNotFoundError):
            ahead.corpus()
    finally:
        ahead.close()
