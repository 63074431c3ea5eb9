#!/usr/bin/env bash
# differential/ttnn/ci.sh: the TTNN model against tt-metal's ttnn package
# (a bounded sample; .ci/run's ttnn_oracle step). Prints "skipped: <reason>"
# and exits 77 when ttnn cannot be installed here (no network, no wheel, no
# Python 3.10 or 3.12: ttnn 0.81.1 ships wheels for cp310 and cp312 only).
#
#   differential/ttnn/ci.sh                 # a sample drawn with the day of
#                                           # the year as seed (printed):
#                                           # 280 specs + 60 mesh cases + 400
#                                           # derived shard shapes, and the
#                                           # 140 frozen rows against ttnn too
#   HLOLAYOUT_TTNN_SEED=39 differential/ttnn/ci.sh   # the frozen held-out set's
#                                           # seed (its cases are checked
#                                           # offline: //cli:TtnnDataTest)
#   TTNN_SEEDS="1 2 3" differential/ttnn/ci.sh   # more seeds (4x the groups)
set -uo pipefail
cd "$(dirname "$0")/../.."
. differential/venv.sh

find_python() {
  local p
  for p in "${HLOLAYOUT_TTNN_PYTHON:-}" python3.12 python3.10 \
      "$HOME"/.pyenv/versions/3.12*/bin/python3 \
      "$HOME"/.pyenv/versions/3.10*/bin/python3; do
    [ -n "$p" ] || continue
    if command -v "$p" >/dev/null 2>&1 || [ -x "$p" ]; then
      if "$p" -c 'import sys; sys.exit(sys.version_info[:2] not in ((3, 10), (3, 12)))' \
          2>/dev/null; then
        echo "$p"
        return 0
      fi
    fi
  done
  return 1
}

if ! python=$(find_python); then
  echo "ttnn_oracle: skipped: no Python 3.10 or 3.12 (ttnn 0.81.1 has wheels for cp310 and cp312 only; set HLOLAYOUT_TTNN_PYTHON)"
  exit 77
fi
venv=$(HLOLAYOUT_PYTHON="$python" hlolayout_venv ttnn differential/ttnn/requirements.txt)
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "ttnn_oracle: skipped: ttnn could not be installed (see above)"
  exit "$rc"
fi
# Only the venv (differential/prepare_venvs.sh).
[ -n "${HLOLAYOUT_VENV_ONLY:-}" ] && exit 0
./bazelw build //:hlolayout >/dev/null 2>&1 </dev/null || {
  echo "ttnn_oracle: cannot build //:hlolayout"
  exit 1
}
bin="$(./bazelw info bazel-bin 2>/dev/null </dev/null)/cli/hlolayout"
status=0
# The day of the year, never 39 (compare.py's daily_seed): each day's run
# draws cases the frozen set does not hold.
python3 differential/ttnn/compare.py --hlolayout "$bin" --python "$venv/bin/python" \
  --seed "${HLOLAYOUT_TTNN_SEED:-today}" --scale 2 --mesh 60 --derive 400 \
  --reference ttnn/testdata/tensor_specs.jsonl || status=1
for seed in ${TTNN_SEEDS:-}; do
  python3 differential/ttnn/compare.py --hlolayout "$bin" --python "$venv/bin/python" \
    --seed "$seed" --scale 4 --mesh 200 --derive 1000 || status=1
done
exit "$status"
