"""How often the reader's best span lands on a readers' question's answer when it reads the whole
answering section: a few minutes' check of a reader recipe on a book no model here trained on,
before the end-to-end runs (decisions.md, "The reader anchors in any passage of the cited
section", session 32).

    backend/.venv/bin/python backend/training/span_yardstick.py --book rust-book [--weights F]

The rows are those `readers_fixtures.py` writes (the Rust book's all, another book's held-out
fifth). The section is read as ingest stores it, chunk by chunk, each as the service reads a
passage (`passage_text`); a span lands when it overlaps the answer's words in its chunk. Prints
JSON: the rows read, the share whose best span lands, and the share with one of the best three.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bookchat.answer.reader import WEIGHTS, Reader, Reading
from bookchat.answer.short_answer import passage_text
from bookchat.ingest.corpus import build_corpus

TOP = 3


def landing(readings: Sequence[Reading], passages: Sequence[str], answer: str) -> int | None:
    """The rank (0 = best) of the first of the readings' spans, all passages' pooled by score,
    that overlaps `answer` where a passage holds it; None when none of them does."""
    spans = sorted(
        ((span, passages[r.passage]) for r in readings for span in r.spans),
        key=lambda pair: -pair[0].score,
    )
    for rank, (span, passage) in enumerate(spans):
        start = passage.find(answer)
        if start >= 0 and span.start < start + len(answer) and span.end > start:
            return rank
    return None


def main() -> int:
    """Read each measured question's answering section and print where the answer's span ranks."""
    # The books' layout lives beside this script; imported here so that `landing` imports alone.
    sys.path.insert(0, str(Path(__file__).parent))
    from readers_fixtures import fixture_rows, measured_book

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--book", default="rust-book", help="rank_data.py's name of a book")
    parser.add_argument("--weights", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        try:
            source = measured_book(args.book, Path(scratch))
        except LookupError as unknown:
            print(f"error: {unknown}", file=sys.stderr)
            return 2
        chunks = [c.payload for c in build_corpus(source.docs).chunks]
        rows = [r for r in fixture_rows(source, chunks) if r["expected_status"] == "grounded"]
    reader = Reader(args.weights)
    ranks: list[int | None] = []
    for row in rows:
        where = row["expected_sources"][0]
        passages = [
            passage_text(c)
            for c in chunks
            if c.get("path") == where["path"] and c.get("section") == where["section"]
        ]
        answer = row["reference_answer"]
        ranks.append(landing(reader.read(row["question"], passages), passages, answer))
    read = len(ranks)
    best = sum(r == 0 for r in ranks)
    top = sum(r is not None and r < TOP for r in ranks)
    print(
        json.dumps(
            {
                "book": args.book,
                "weights": str(args.weights),
                "rows": read,
                "best_span_lands": round(best / max(read, 1), 3),
                f"one_of_best_{TOP}_lands": round(top / max(read, 1), 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
