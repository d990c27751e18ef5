#!/usr/bin/env bash
# make test: every check, in order; runs them all and fails at the end if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
failed=()
step() {
  local name=$1
  shift
  echo
  echo "==> $name"
  "$@" || failed+=("$name")
}

scripts/services.sh
step "lint: ruff" bash -c "cd backend && .venv/bin/ruff check src tests training ../bench && .venv/bin/ruff format --check src tests training ../bench"
step "types: mypy" bash -c "cd backend && .venv/bin/mypy"
step "backend tests: pytest" bash -c "cd backend && .venv/bin/python -m pytest"
# The gate's rows and summary go to a temporary folder: committed results change only through
# `make eval` / `make eval-shared`, on purpose.
gate_out=$(mktemp -d)
trap 'rm -rf "$gate_out"' EXIT
step "evaluation gate: sample book" scripts/eval-gate.sh "$gate_out"
step "web: unit, typecheck, build, browser" scripts/web.sh test

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all checks passed"
