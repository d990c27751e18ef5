"""How often the reader's best span lands on a readers' question's answer when it reads the whole
answering section: a few minutes' check of a reader recipe on a book no model here trained on,
before the end-to-end runs (decisions.md, "The reader anchors in any passage of the cited
section", session 32).

    backend/.venv/bin/python backend/training/span_yardstick.py --book rust-book [--weights F]
        [--rows EVAL_ROWS]

The rows are those `readers_fixtures.py` writes (the Rust book's all, another book's held-out
fifth). The section is read as ingest stores it, chunk by chunk, each as the service reads a
passage (`passage_text`); a span lands when it overlaps the answer's words in its chunk. Prints
JSON: the rows read, the share whose best span lands, and the share with one of the best three.
With `--rows` (what `bookchat eval --out` wrote for the same fixture) it also counts how the rows
whose best span lands fared end to end: a span found there reaches a reader only where the answer
opens in that section (decisions.md, "A span branch beside the reader", session 33).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bookchat.answer.reader import WEIGHTS, Reader, Reading
from bookchat.answer.short_answer import passage_text

TOP = 3
# How a row whose best span lands fared end to end (`fates`), in the order printed.
FATES = (
    "passed",
    "section cited, answer not quoted",
    "another section cited",
    "declined",
    "not in the rows",
)
EVAL_FIELDS = ("fixture_id", "passed", "actual_status", "citation_ok")


def eval_rows(path: Path) -> list[dict[str, Any]]:
    """The rows `bookchat eval --out` wrote to `path`; ValueError naming the first line that is
    not one (not JSON, or without the fields `fates` reads)."""
    rows = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise ValueError(f"line {number} is not JSON") from None
            if not isinstance(row, dict) or any(field not in row for field in EVAL_FIELDS):
                raise ValueError(f"line {number} is not an eval row ({', '.join(EVAL_FIELDS)})")
            rows.append(row)
    return rows


def fates(landed: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How the eval `rows` (`bookchat eval --out`) of the `landed` fixture ids fared: passed,
    the answering section cited without the answer, another section cited, or declined."""
    by_id = {str(r["fixture_id"]): r for r in rows}
    counts = dict.fromkeys(FATES, 0)
    for fixture in landed:
        row = by_id.get(fixture)
        if row is None:
            counts["not in the rows"] += 1
        elif row["passed"]:
            counts["passed"] += 1
        elif row["actual_status"] != "grounded":
            counts["declined"] += 1
        elif row["citation_ok"]:
            counts["section cited, answer not quoted"] += 1
        else:
            counts["another section cited"] += 1
    return counts


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
    from readers_fixtures import measured_fixtures

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--book", default="rust-book", help="rank_data.py's name of a book")
    parser.add_argument("--weights", type=Path, default=WEIGHTS)
    parser.add_argument(
        "--rows", type=Path, help="`bookchat eval --out` rows of the same fixture, to join"
    )
    args = parser.parse_args()
    evaluated = None
    if args.rows is not None:
        # Checked before the few minutes of reading, not after.
        try:
            evaluated = eval_rows(args.rows)
        except (OSError, UnicodeDecodeError, ValueError) as bad:
            reason = bad.strerror if isinstance(bad, OSError) else str(bad)
            print(f"error: --rows {args.rows}: {reason}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as scratch:
        try:
            _, chunks, rows = measured_fixtures(args.book, Path(scratch))
        except LookupError as unknown:
            print(f"error: {unknown}", file=sys.stderr)
            return 2
    rows = [r for r in rows if r["expected_status"] == "grounded"]
    reader = Reader(args.weights)
    ranks: list[int | None] = []
    landed: list[str] = []
    for row in rows:
        where = row["expected_sources"][0]
        passages = [
            passage_text(c)
            for c in chunks
            if c.get("path") == where["path"] and c.get("section") == where["section"]
        ]
        answer = row["reference_answer"]
        ranks.append(landing(reader.read(row["question"], passages), passages, answer))
        if ranks[-1] == 0:
            landed.append(str(row["id"]))
    read = len(ranks)
    top = sum(r is not None and r < TOP for r in ranks)
    figures: dict[str, Any] = {
        "book": args.book,
        "weights": str(args.weights),
        "rows": read,
        "best_span_lands": round(len(landed) / max(read, 1), 3),
        f"one_of_best_{TOP}_lands": round(top / max(read, 1), 3),
    }
    if evaluated is not None:
        figures["where_best_lands_end_to_end"] = fates(landed, evaluated)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
