#!/usr/bin/env bash
# differential/triton/ci.sh: a bounded sample of the Triton layout harness
# (layouts.py) against Triton 3.6.0 and the newest Triton release, each in a
# venv made from its pinned requirements file (differential/venv.sh); then
# the tensor memory memdescs of tmem_memdesc.py, 200 cases per release
# (HLOLAYOUT_TMEM_CASES).
#
#   differential/triton/ci.sh                 # 25 cases per family and version
#   HLOLAYOUT_TRITON_CASES=500 HLOLAYOUT_TRITON_SEED=7 differential/triton/ci.sh
#
# The seed is the day of the year unless HLOLAYOUT_TRITON_SEED says (printed):
# each day draws other cases. Each case a version rule explains (Triton
# 3.6.0 differs from the newest) is asked of the other version with the
# same parameters, which must agree with hlolayout (layouts.py
# --other-python).
#
# Exit status: 0 when both versions agree with hlolayout (every difference
# documented, every version rule confirmed), 1 on an undocumented
# difference, 77 when a venv cannot be made (no network, no wheel for this
# machine), with the reason printed.
set -uo pipefail
cd "$(dirname "$0")/../.."
source differential/venv.sh

cases="${HLOLAYOUT_TRITON_CASES:-25}"
seed="${HLOLAYOUT_TRITON_SEED:-$((10#$(date -u +%j)))}"
echo "triton layouts (CI sample): seed $seed, $cases cases per family and version"
# A slow mirror must not hold CI up: pip gets a few minutes per venv.
export HLOLAYOUT_PIP_TIMEOUT="${HLOLAYOUT_PIP_TIMEOUT:-150}"

status=0
skipped=0
declare -A venvs
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
  venvs[$req]="$venv"
done
if [ "$skipped" -gt 0 ]; then
  exit 77
fi
# Only the venvs (differential/prepare_venvs.sh).
[ -n "${HLOLAYOUT_VENV_ONLY:-}" ] && exit 0
if ! ./bazelw build //:hlolayout >/dev/null 2>&1 </dev/null; then
  echo "triton layouts: cannot build //:hlolayout" >&2
  exit 1
fi
bin="$(./bazelw info bazel-bin 2>/dev/null </dev/null)/cli/hlolayout"

for req in requirements-3.6.0.txt requirements-latest.txt; do
  other=requirements-latest.txt
  [ "$req" = requirements-latest.txt ] && other=requirements-3.6.0.txt
  if ! "${venvs[$req]}/bin/python" differential/triton/layouts.py --hlolayout "$bin" \
      --per-family "$cases" --seed "$seed" --show 3 \
      --other-python "${venvs[$other]}/bin/python"; then
    status=1
  fi
  # Tensor memory memdescs by this release's own rules (tmem_memdesc.py).
  if ! "${venvs[$req]}/bin/python" differential/triton/tmem_memdesc.py --hlolayout "$bin" \
      --count "${HLOLAYOUT_TMEM_CASES:-200}" --seed "$seed"; then
    status=1
  fi
done
exit "$status"
