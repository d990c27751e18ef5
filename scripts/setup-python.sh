#!/usr/bin/env bash
# Create backend/.venv and install bookchat into it (idempotent; re-runs when pyproject changes).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=backend/.venv
STAMP=$VENV/.bookchat-installed
PYTHON=${PYTHON:-python3}

if [ -f "$STAMP" ] && [ "$STAMP" -nt backend/pyproject.toml ]; then
  exit 0
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "==> creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
# torch first, pinned to the local CPU build: otherwise sentence-transformers pulls the CUDA
# wheels (gigabytes) from the registry.
if ! "$VENV/bin/python" -c "import torch" 2>/dev/null; then
  echo "==> installing torch (CPU build)"
  "$VENV/bin/pip" install --quiet "torch==2.13.0"
fi
echo "==> installing bookchat and its dependencies"
"$VENV/bin/pip" install --quiet -e "backend[dev]" 2>&1 | grep -v "^WARNING: Location" || true
"$VENV/bin/python" -c "import bookchat, sentence_transformers, qdrant_edge, onnxruntime" \
  || { echo "error: bookchat did not install" >&2; exit 1; }
touch "$STAMP"
