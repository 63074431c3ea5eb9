#!/usr/bin/env bash
# differential/triton/ci_cvt.sh: a bounded sample of the convert_layout cost
# harness (cvt.py) against Triton 3.6.0 and the newest Triton release, each
# in a venv made from its pinned requirements file (differential/venv.sh),
# for every target (cuda:80, cuda:90, cuda:100, hip:gfx942, hip:gfx950) and
# element width (8, 16, 32, 64 bits), with the bank conflicts of each
# conversion counted from the IR's addresses (llir_banks.py); then a few of
# Triton's own matmuls per target through smem_ops.py (`triton report`'s
# shared-memory stores and loads against the IR). At most 11 minutes.
#
#   differential/triton/ci_cvt.sh           # 8 conversions per target, width, version
#   HLOLAYOUT_CVT_CASES=300 HLOLAYOUT_CVT_SEED=1 differential/triton/ci_cvt.sh
#
# The seed is the day of the year unless HLOLAYOUT_CVT_SEED is set (so CI
# covers new conversions over time); it is printed, and a failing sample is
# reproduced with it.
#
# Exit status: 0 when every conversion agrees with hlolayout, 1 on a
# difference, 77 when a venv cannot be made (no network, no wheel for this
# machine), with the reason printed.
set -uo pipefail
cd "$(dirname "$0")/../.."
source differential/venv.sh

cases="${HLOLAYOUT_CVT_CASES:-8}"
seed="${HLOLAYOUT_CVT_SEED:-$((10#$(date -u +%j)))}"
# A slow mirror must not hold CI up: pip gets a few minutes per venv.
export HLOLAYOUT_PIP_TIMEOUT="${HLOLAYOUT_PIP_TIMEOUT:-150}"

if ! ./bazelw build //cli:hlolayout >/dev/null 2>&1 </dev/null; then
  echo "convert_layout costs: cannot build //cli:hlolayout" >&2
  exit 1
fi
bin="$(./bazelw info bazel-bin 2>/dev/null </dev/null)/cli/hlolayout"

pythons=()
skipped=0
for req in requirements-3.6.0.txt requirements-latest.txt; do
  name="triton-${req#requirements-}"
  name="${name%.txt}"
  venv=$(hlolayout_venv "$name" "differential/triton/$req")
  rc=$?
  if [ "$rc" -eq 77 ]; then
    echo "skipped: the venv of differential/triton/$req cannot be made (see above)"
    skipped=$((skipped + 1))
    continue
  fi
  if [ "$rc" -ne 0 ]; then
    exit "$rc"
  fi
  flag="--python-${req#requirements-}"
  pythons+=("${flag%.txt}" "$venv/bin/python")
done
if [ "${#pythons[@]}" -eq 0 ]; then
  exit 77
fi

echo "convert_layout costs (CI sample): seed $seed, $cases conversions per target, width and Triton version"
timeout "${HLOLAYOUT_CVT_CI_TIMEOUT:-330}" python3 differential/triton/cvt.py \
  --hlolayout "$bin" "${pythons[@]}" --count "$cases" --seed "$seed" --show 3
status=$?
if [ "$status" -eq 124 ]; then
  echo "convert_layout costs: the sample took longer than its time limit" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  exit "$status"
fi
# Triton's own matmuls: the shared-memory stores and loads `triton report`
# gives (smem_ops) against the LLVM IR, a few per target and version.
for ((i = 1; i < ${#pythons[@]}; i += 2)); do
  echo "shared-memory stores and loads of Triton's matmuls (CI sample): seed $seed, ${pythons[$i]}"
  timeout "${HLOLAYOUT_SMEM_CI_TIMEOUT:-150}" python3 differential/triton/smem_ops.py \
    --hlolayout "$bin" --python "${pythons[$i]}" --count "${HLOLAYOUT_SMEM_CASES:-2}" --seed "$seed"
  status=$?
  if [ "$status" -eq 124 ]; then
    echo "shared-memory stores and loads: the sample took longer than its time limit" >&2
    exit 1
  fi
  if [ "$status" -ne 0 ]; then
    exit "$status"
  fi
done
if [ "$skipped" -gt 0 ]; then
  exit 77
fi
exit 0
