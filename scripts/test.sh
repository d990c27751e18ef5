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
if [ -f backend/evals/sample-book.jsonl ]; then
  step "evaluation gate: sample book" bash -c "scripts/eval-gate.sh"
fi
step "web: unit, typecheck, build, browser" scripts/web.sh test

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all checks passed"
