#!/usr/bin/env bash
# bench/pipe_ab.sh: two builds of `hlolayout` timed the way a user runs one
# in a shell pipeline, `hlolayout ARGS... | tail -1`, in alternating order,
# PAUSE seconds before each run (docs/threads-default.md).
#
#   bench/pipe_ab.sh /tmp/hl_old /tmp/hl_new report --summary dump.hlo
#   ROUNDS=11 PAUSE=1 bench/pipe_ab.sh /tmp/hl_old /tmp/hl_new memory dump.hlo
#
# Prints, per build, the median wall time of its runs with the first and
# third quartiles, and in how many runs it used more CPU time than 1.15x the
# wall time (read on more than one thread). A build may be a script that
# runs `hlolayout` with flags of its own (`exec /tmp/hl "$1" --threads=1
# "${@:2}"`), to compare flags.
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: [ROUNDS=N] [PAUSE=S] $0 OLD NEW ARGS..." >&2
  exit 2
fi
old="$1" new="$2"
shift 2
ROUNDS="${ROUNDS:-15}"
PAUSE="${PAUSE:-1}"
times="$(mktemp)"
trap 'rm -f "$times" "$times.run"' EXIT
for ((r = 0; r < ROUNDS; r++)); do
  if ((r % 2 == 0)); then order=("$old" "$new"); else order=("$new" "$old"); fi
  for build in "${order[@]}"; do
    sleep "$PAUSE"
    start=$(date +%s%N)
    /usr/bin/time -o "$times.run" -f "%U %S" "$build" "$@" | tail -1 >/dev/null
    end=$(date +%s%N)
    read -r user sys <"$times.run"
    echo "$build $(((end - start) / 1000)) $user $sys" >>"$times"
  done
done
for build in "$old" "$new"; do
  awk -v b="$build" '$1 == b {
      ms[n++] = $2 / 1000; if ($3 + $4 > 1.15 * $2 / 1e6) many++ }
    END {
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
        if (ms[j] < ms[i]) { t = ms[i]; ms[i] = ms[j]; ms[j] = t }
      printf "%s: median %.1f ms (q1 %.1f, q3 %.1f), %d runs, %d on more than one thread\n",
        b, ms[int((n - 1) / 2)], ms[int((n - 1) / 4)], ms[int(3 * (n - 1) / 4)], n, many
    }' "$times"
done
