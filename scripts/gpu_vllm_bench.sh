#!/usr/bin/env bash
# GPU check for issue 12, for a session that is lent a device: vLLM with our proposer
# (fastapply.integrations.vllm.FastApplyProposer) against vLLM's `ngram` and `suffix` on the same merge
# prompts. One run, bounded (~9 minutes). Writes results under $OUT (or evals/out/vllm_spec).
#
#   MODEL_DIR=/path/to/apply-model bash scripts/gpu_vllm_bench.sh
#
# Needs on the device: a CUDA GPU, vLLM with custom proposers (vllm/v1/spec_decode/custom_class_proposer.py;
# `suffix` also needs arctic-inference), and a local model folder in MODEL_DIR (no hub access there).
# Each missing prerequisite is reported by name and the script exits 2 without running anything.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-evals/out}/vllm_spec"
mkdir -p "$out"
missing=0
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || { echo "MISSING: nvidia-smi / a CUDA GPU"; missing=1; }
python -c "import vllm, sys; print('vllm', vllm.__version__)" || { echo "MISSING: vllm (pip install vllm)"; missing=1; }
python -c "import vllm.v1.spec_decode.custom_class_proposer" 2>/dev/null \
  || echo "NOTE: this vLLM has no custom_class_proposer: the fastapply methods will fail, ngram/suffix still run"
python -c "import arctic_inference" 2>/dev/null || echo "NOTE: arctic-inference missing: the suffix method will fail"
if [ -z "${MODEL_DIR:-}" ] || [ ! -f "${MODEL_DIR}/config.json" ]; then
  echo "MISSING: MODEL_DIR=<a local Hugging Face model folder> (got '${MODEL_DIR:-}')"; missing=1
fi
python -c "import fastapply.integrations.vllm" || { echo "MISSING: fastapply (pip install -e .)"; missing=1; }
[ "$missing" = 0 ] || exit 2
timeout 560 python -m evals.vllm_spec_bench --model "$MODEL_DIR" --n "${N:-24}" --k "${K:-32}" \
  --max-model-len 8192 --timeout-s 105 --eager --sequential --plot --out "$out" 2>&1 | tee "$out/log.txt"
exit "${PIPESTATUS[0]}"
