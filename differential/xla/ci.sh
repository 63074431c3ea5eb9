#!/usr/bin/env bash
# The bounded sample of the XLA oracle that .ci/run runs (at most 6
# minutes): 10 (program, size) pairs of the zoo drawn with a seed (the day of
# the year unless HLOLAYOUT_XLA_SEED is set, so that CI covers the zoo over
# time; the seed is printed), every check on each of their modules, and every
# case of tests/data/xla_parser_cases.txt against XLA's parser. Compiled
# modules are reused from $HLOLAYOUT_XLA_CACHE between runs.
#
# Exit status: as run.sh's; 77 (reported as skipped by .ci/run) when jax and
# jaxlib cannot be installed here, with the reason on stderr.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seed=${HLOLAYOUT_XLA_SEED:-$((10#$(date -u +%j)))}
echo "xla oracle (CI sample): seed $seed, 10 programs at one size each"
exec timeout "${HLOLAYOUT_XLA_CI_TIMEOUT:-360}" "$here/run.sh" --sample 10 --seed "$seed"
