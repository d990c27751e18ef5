"""Ingestion benchmark on the robotics textbook (../shared): prints one JSON object.

Each measurement runs `bookchat ingest` as a fresh process, exactly as an author would, so wall
times include interpreter start, imports and (when needed) the model load.

    backend/.venv/bin/python bench/ingest.py [--repeat 5] [--backend onnx|torch]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from harness import REPO, bench_env, ingest

BOOK = REPO.parent / "shared" / "corpora" / "robotics-textbook" / "docs"
TARGETS = {"unchanged_wall_s": 1.5, "one_section_wall_s": 3.0}


def _edit_one_section(page: Path, round_no: int) -> None:
    text = page.read_text(encoding="utf-8")
    # Change one sentence of the first `##` section body only.
    head = text.index("\n## ")
    first_period = text.index(". ", head)
    text = re.sub(r" \(revision \d+\)", "", text)
    page.write_text(
        text[:first_period] + f" (revision {round_no})" + text[first_period:], encoding="utf-8"
    )


def main() -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backend", default="onnx", choices=["onnx", "torch"])
    args = parser.parse_args()
    if not BOOK.is_dir():
        print(f"missing {BOOK}: clone the project next to shared/", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bookchat-bench-") as tmp:
        docs = Path(tmp) / "docs"
        shutil.copytree(BOOK, docs)
        env = bench_env(Path(tmp) / "data", {"BOOKCHAT_EMBEDDING_BACKEND": args.backend})
        full_wall, full = ingest(docs, env)
        peak_rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        unchanged = [ingest(docs, env) for _ in range(args.repeat)]
        page = docs / "module-1-ros2" / "week-5-lesson-1-launch-files.md"
        edits = []
        for n in range(args.repeat):
            _edit_one_section(page, n)
            edits.append(ingest(docs, env))
    unchanged_wall = statistics.median(w for w, _ in unchanged)
    edit_wall = statistics.median(w for w, _ in edits)
    result = {
        "book": "robotics-textbook (44 pages)",
        "backend": args.backend,
        "full": {
            "wall_s": round(full_wall, 2),
            "chunks": full["added"],
            "chunks_per_s": round(full["added"] / full_wall, 1),
            "peak_rss_mb": round(peak_rss_mb, 1),
        },
        "unchanged": {
            "wall_s_median": round(unchanged_wall, 3),
            "model_loaded": any(r["model_loaded"] for _, r in unchanged),
            "target_s": TARGETS["unchanged_wall_s"],
            "met": unchanged_wall <= TARGETS["unchanged_wall_s"],
        },
        "one_section_edit": {
            "wall_s_median": round(edit_wall, 3),
            "embedded": sorted({r["embedded"] for _, r in edits}),
            "updated": sorted({r["updated"] for _, r in edits}),
            "target_s": TARGETS["one_section_wall_s"],
            "met": edit_wall <= TARGETS["one_section_wall_s"],
        },
        "repeat": args.repeat,
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
