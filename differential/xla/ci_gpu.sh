#!/usr/bin/env bash
# The bounded sample of the XLA:GPU oracle that .ci/run runs (at most 6
# minutes, the venv's install included): XLA:GPU compiles, without a GPU,
# 3 (program, size) pairs of the zoo for each of the H100, the A100 and
# the B200 (drawn with a seed: the day of the year unless
# HLOLAYOUT_XLA_SEED is set; printed), and every check runs on each of
# their modules. The parser cases are XLA:CPU's step (ci.sh). Compiled
# modules are reused from $HLOLAYOUT_XLA_CACHE between runs.
#
# Exit status: as run.sh's; 77 (reported as skipped by .ci/run) when the
# CUDA plugin of jaxlib cannot be installed here, with the reason on stderr.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seed=${HLOLAYOUT_XLA_SEED:-$((10#$(date -u +%j)))}
echo "xla:gpu oracle (CI sample): seed $seed, 3 programs at one size each on H100, A100, B200"
exec timeout "${HLOLAYOUT_XLA_CI_TIMEOUT:-360}" "$here/run.sh" --target gpu \
  --sample 3 --seed "$seed" --no-parser-cases
