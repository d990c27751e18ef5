"""Check the unanswerable questions in squad-unanswerable/ (and its held-back/) against the
paragraphs they were written for.

    backend/.venv/bin/python backend/training/check_unanswerable.py

Every row has the fields of the format (backend/training/README.md), a unique id and question
ending with "?", a known kind and a `pid` naming a squad11-train paragraph outside the first 10
articles (squad-train10's, which calibrate the reader); its `plausible_answer` is a verbatim
substring of that paragraph, and the question is none of the paragraph's own SQuAD questions.
Exits 1 when a row fails, 2 when the shared corpora are not beside the project.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reader_data import HELD_OUT_ARTICLES, squad_articles

HERE = Path(__file__).parent
ARTICLES = HERE.parents[2] / "shared" / "corpora" / "squad11-train" / "articles.jsonl.gz"
FIELDS = {"id", "pid", "question", "plausible_answer", "kind"}
KINDS = {"negation", "antonym", "entity-swap", "mutual-exclusion", "impossible-condition", "other"}


def problems(row: dict[str, Any], articles: list[dict[str, Any]], seen: set[str]) -> list[str]:
    """What is wrong with one row (nothing: an empty list)."""
    if set(row) != FIELDS:
        return [f"fields {sorted(row)} are not {sorted(FIELDS)}"]
    found = []
    question = str(row["question"])
    if not question.endswith("?"):
        found.append("the question does not end with '?'")
    if question.lower() in seen:
        found.append("the question repeats another row's")
    seen.add(question.lower())
    if row["kind"] not in KINDS:
        found.append(f"unknown kind {row['kind']!r}")
    a, p = (int(i) for i in str(row["pid"]).split(":"))
    if not HELD_OUT_ARTICLES <= a < len(articles) or not 0 <= p < len(articles[a]["paragraphs"]):
        return [*found, f"pid {row['pid']} names no training paragraph"]
    paragraph = articles[a]["paragraphs"][p]
    if str(row["plausible_answer"]) not in str(paragraph["context"]):
        found.append("the plausible answer is not in the paragraph")
    if any(question == str(qa["question"]) for qa in paragraph["qas"]):
        found.append("the question is one the paragraph answers (SQuAD's own)")
    return found


def main() -> None:
    """Check every row; print each problem with its row's id."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    if not ARTICLES.exists():
        print(f"error: {ARTICLES} is not here (the shared corpora)", file=sys.stderr)
        sys.exit(2)
    articles = squad_articles(ARTICLES)
    seen: set[str] = set()
    rows = failed = 0
    for file in sorted((HERE / "squad-unanswerable").rglob("u*.jsonl")):
        for line in file.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rows += 1
            for problem in problems(row, articles, seen):
                failed += 1
                print(f"{row.get('id')}: {problem}")
    print(f"{rows} rows, {failed} problems")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
