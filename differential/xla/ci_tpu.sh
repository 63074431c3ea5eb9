#!/usr/bin/env bash
# The bounded sample of the XLA:TPU oracle that .ci/run runs (a few
# minutes, the venv's install included): XLA:TPU compiles, without a TPU,
# 3 (program, size) pairs of the zoo for one generation (turning with the
# seed among those recorded below), drawn with a seed (the day of the year
# unless HLOLAYOUT_XLA_SEED is set; printed), and every check runs on each
# of their modules; a difference not listed in known_tpu_differences.txt
# fails. Compiled modules are reused from $HLOLAYOUT_XLA_CACHE between runs.
#
# Exit status: as run.sh's; 77 (reported as skipped by .ci/run) when libtpu
# cannot be installed here, with the reason on stderr.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seed=${HLOLAYOUT_XLA_SEED:-$((10#$(date -u +%j)))}
# The generations whose full run is recorded in known_tpu_differences.txt
# (a generation's new difference fails the sample, so one without its
# record would fail every day it is drawn): each of the four, the zoo and
# the held-out set (v5p's and v6e's zoo at the small size, which is what the
# sample compiles), written by oracle.py --write-known.
generations=(v5e v4 v5p v6e)
target=${HLOLAYOUT_TPU_TARGET:-${generations[$((seed % ${#generations[@]}))]}}
echo "xla:tpu oracle (CI sample): seed $seed, 3 programs at one size each on $target"
# The small size of each program only: a 64-chip step of 24 layers alone
# compiles for minutes.
export HLOLAYOUT_XLA_SIZES=${HLOLAYOUT_XLA_SIZES:-s}
exec timeout "${HLOLAYOUT_XLA_CI_TIMEOUT:-300}" "$here/run.sh" --target "$target" \
  --sample 3 --seed "$seed" --no-parser-cases
