#!/usr/bin/env bash
# differential/cute_dsl/ci.sh: the CuTe DSL harness's CI sample (a step of
# .ci/run): 1,600 layout-op cases, 400 crd2idx/cosize cases on scaled-basis
# strides (coord_cases.py) and 400 atom cases on each of sm_80, sm_90a,
# sm_100a and sm_120a (3,600 cases, about two minutes),
# in at most 6 minutes; then 10 examples of the DSL's own notebooks and
# docs (run.sh --notebooks, about 30 s, 75 s at load 12 with PyTorch's
# imports; at most 3 minutes). The seed is the day of the year (UTC),
# printed, so each day's run draws new cases; HLOLAYOUT_CUTE_DSL_SEED
# overrides it.
#   differential/cute_dsl/ci.sh            # both parts, one verdict
#   differential/cute_dsl/ci.sh cases      # .ci/run's cute_dsl_oracle step
#   differential/cute_dsl/ci.sh notebooks  # .ci/run's cute_dsl_notebooks step
# Both parts: passes only when both ran and agreed. Exit 77 when the DSL
# cannot be installed, or when the notebooks cannot be read (no CUTLASS
# snapshot in the cache, no git directory, GitHub unreachable:
# notebook_sources.py): never a pass. .ci/run runs the parts as two steps,
# so that each is judged by where its system comes from: the cases skip
# only where pip cannot reach its index, the notebooks only where GitHub
# cannot be reached either (differential/verdict.sh). Any undocumented
# difference fails.
set -uo pipefail
part=${1:-both}
case "$part" in
  both | cases | notebooks) ;;
  *)
    echo "usage: differential/cute_dsl/ci.sh [cases|notebooks]" >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/../.."
# The harness (a stand-in in ci_test.sh).
run=${HLOLAYOUT_CUTE_DSL_RUN:-differential/cute_dsl/run.sh}
seed=${HLOLAYOUT_CUTE_DSL_SEED:-$((10#$(date -u +%j)))}
echo "cute_dsl harness (CI sample): seed $seed"
if [ "$part" != notebooks ]; then
  timeout 360 "$run" --ops 1600 --coords 400 --atoms 400 --seed "$seed" \
    --show 10
  rc=$?
  if [ "$rc" -eq 124 ]; then
    echo "cute_dsl harness: over its 6 minutes" >&2
  fi
  if [ "$rc" -ne 0 ] || [ "$part" = cases ]; then
    exit "$rc"
  fi
fi
timeout 180 "$run" --notebooks --sample 10 --seed "$seed"
nb=$?
if [ "$nb" -eq 77 ]; then
  echo "cute_dsl notebooks: not run (no CUTLASS snapshot to read: no cache, no git directory, GitHub unreachable)" >&2
elif [ "$nb" -eq 124 ]; then
  echo "cute_dsl notebooks: over 3 minutes" >&2
fi
exit "$nb"
