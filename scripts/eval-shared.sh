#!/usr/bin/env bash
# make eval-shared: the squad-dev10 fixtures, the robotics-textbook smoke set, the
# robotics-review questions (scored against their authors' reference answers) and the Rust
# book's readers' questions (a textbook nobody trained on; built by bench/rust_book.py from the
# HTML rustup's rust-docs installs, skipped when it is not installed), each against its own book
# in its own temporary data folder; rows and summaries go to bench/results/.
# Takes a while (squad-dev10 has 2,400 rows; the Rust book is ingested whole). Needs ../shared
# beside the project.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
# Extractive unless asked otherwise (BOOKCHAT_GENERATOR=llm measures the configured model).
export BOOKCHAT_GENERATOR=${BOOKCHAT_GENERATOR:-extractive}
shared=${SHARED_DIR:-../shared}
if [ ! -d "$shared/corpora" ]; then
  echo "error: $shared/corpora not found: clone the project next to its shared/ folder" >&2
  exit 2
fi
mkdir -p bench/results
tmp=()
trap 'rm -rf "${tmp[@]}"' EXIT

run() {  # name docs fixtures
  local data
  data=$(mktemp -d)
  tmp+=("$data")
  echo "==> $1 ($(wc -l <"$3") rows)" >&2
  BOOKCHAT_DATA_DIR=$data backend/.venv/bin/bookchat eval --fixtures "$3" --docs "$2" \
    --out "bench/results/$1.rows.jsonl" --summary "bench/results/$1.summary.json" >/dev/null
  backend/.venv/bin/python - "bench/results/$1.summary.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
figures = (
    "pass_rate", "status_accuracy", "recall_at_1", "recall_at_5", "mrr", "answer_contains",
    "answer_f1", "oracle_f1", "short_f1", "answered", "cite_at_1", "reads_whole",
)
widths = [max(len(f), 5) + 2 for f in figures]  # a value prints as 0.123
print(f"{'slice':24}" + "".join(f"{f:>{w}}" for f, w in zip(figures, widths)))
for name, m in [*summary["slices"].items(), ("all", summary["all"])]:
    cells = ("-" if m.get(f) is None else f"{m[f]:.3f}" for f in figures)
    print(f"{name:24}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths)))
PY
}

run squad-dev10 "$shared/corpora/squad-dev10/docs" "$shared/corpora/squad-dev10/fixtures.jsonl"
run robotics-smoke "$shared/corpora/robotics-textbook/docs" backend/evals/robotics-smoke.jsonl
run robotics-review "$shared/corpora/robotics-review/docs" \
  "$shared/corpora/robotics-review/fixtures.jsonl"
rust_book=$(mktemp -d)
tmp+=("$rust_book")
if backend/.venv/bin/python bench/rust_book.py --out "$rust_book"; then
  run rust-book "$rust_book/docs" "$rust_book/fixtures.jsonl"
else
  status=$?
  [ "$status" -eq 3 ] || exit "$status"
  echo "==> rust-book skipped: no Rust toolchain's docs here (rustup component add rust-docs)" >&2
fi
