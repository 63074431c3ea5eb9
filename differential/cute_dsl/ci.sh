#!/usr/bin/env bash
# differential/cute_dsl/ci.sh: the CuTe DSL harness's CI sample (a step of
# .ci/run): 1,600 layout-op cases and 400 atom cases on each of sm_80,
# sm_90a, sm_100a and sm_120a (3,200 cases, about a minute and a half),
# in at most 6 minutes; then 10 examples of the DSL's own notebooks and
# docs (run.sh --notebooks, about 30 s, 75 s at load 12 with PyTorch's
# imports; at most 3 minutes), skipped with a
# message where no CUTLASS snapshot can be read (notebook_sources.py). The
# seed is the day of the year (UTC), printed, so each day's run draws new
# cases; HLOLAYOUT_CUTE_DSL_SEED overrides it.
# Exit 77 when the DSL cannot be installed (a skip only where pip cannot
# reach the package index: differential/verdict.sh); any undocumented
# difference fails the step.
set -uo pipefail
cd "$(dirname "$0")/../.."
seed=${HLOLAYOUT_CUTE_DSL_SEED:-$((10#$(date -u +%j)))}
echo "cute_dsl harness (CI sample): seed $seed"
timeout 360 differential/cute_dsl/run.sh --ops 1600 --atoms 400 \
  --seed "$seed" --show 10
rc=$?
if [ "$rc" -eq 124 ]; then
  echo "cute_dsl harness: over its 6 minutes" >&2
fi
if [ "$rc" -eq 0 ]; then
  timeout 180 differential/cute_dsl/run.sh --notebooks --sample 10 \
    --seed "$seed"
  nb=$?
  if [ "$nb" -eq 77 ]; then
    echo "cute_dsl notebooks: skipped (no CUTLASS snapshot to read)" >&2
  elif [ "$nb" -ne 0 ]; then
    [ "$nb" -eq 124 ] && echo "cute_dsl notebooks: over 3 minutes" >&2
    rc=$nb
  fi
fi
exit "$rc"
