#!/usr/bin/env bash
# The release gate: answer every sample-book fixture from a fresh index and fail when a figure in
# backend/evals/gates.toml is missed or a fixture row is missing. Never touches the developer's
# own data folder.
#   scripts/eval-gate.sh           rows and summary into bench/results/ (`make eval`: on purpose)
#   scripts/eval-gate.sh OUT_DIR   rows and summary into OUT_DIR (`make test`: the tree stays clean)
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
# The thresholds are the extractive generator's: a model configured in .env must not change them.
export BOOKCHAT_GENERATOR=extractive
out=${1:-bench/results}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
mkdir -p "$out"
BOOKCHAT_DATA_DIR=$data backend/.venv/bin/bookchat eval \
  --fixtures backend/evals/sample-book.jsonl \
  --docs website/docs \
  --out "$out/sample-book.rows.jsonl" \
  --summary "$out/sample-book.summary.json" \
  --gate backend/evals/gates.toml >/dev/null
