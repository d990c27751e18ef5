#!/usr/bin/env bash
# The release gate: answer every sample-book fixture from a fresh index, keep the rows and the
# summary in bench/results/, and fail when a figure in backend/evals/gates.toml is missed or a
# fixture row is missing. Never touches the developer's own data folder.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
# The thresholds are the extractive generator's: a model configured in .env must not change them.
export BOOKCHAT_GENERATOR=extractive
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
mkdir -p bench/results
BOOKCHAT_DATA_DIR=$data backend/.venv/bin/bookchat eval \
  --fixtures backend/evals/sample-book.jsonl \
  --docs website/docs \
  --out bench/results/sample-book.rows.jsonl \
  --summary bench/results/sample-book.summary.json \
  --gate backend/evals/gates.toml >/dev/null
