#!/usr/bin/env bash
# XLA's HLO text parser (from jaxlib, in Python, parse only) against
# `hlolayout report --summary` and hl.report(summary=True) on the three
# 75 MB benchmark dumps of bench/hlo_dump_gen (classic, xla-tpu,
# xla-tpu-small), in one run, median of --pairs rounds (default 5). Prints a
# Markdown table (docs/speed.md, docs/memory-speed.md "Speed
# against XLA's parser"). Builds -c opt; the dumps are written once to
# $HLOLAYOUT_BENCH_DIR (default /tmp/hlolayout-bench). Exit 77 when jax
# cannot be installed here.
#
#   differential/xla/parser_speed.sh [--pairs N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/differential/venv.sh"
venv=$(hlolayout_venv xla "$here/requirements.txt") || exit $?
cd "$root"
./bazelw build -c opt //bench:hlo_dump_gen //cli:hlolayout //python/hlolayout \
  </dev/null >&2
bin="$(./bazelw info -c opt bazel-bin 2>/dev/null </dev/null)"
dir="${HLOLAYOUT_BENCH_DIR:-/tmp/hlolayout-bench}"
mkdir -p "$dir/package/hlolayout"
# The Python package: its sources and the extension Bazel built.
cp python/hlolayout/*.py "$dir/package/hlolayout/"
cp "$bin/python/hlolayout/_hlolayout.so" "$dir/package/hlolayout/"
dumps=()
for style in classic xla-tpu xla-tpu-small; do
  dump="$dir/dump75_$style.hlo"
  [ -s "$dump" ] || "$bin/bench/hlo_dump_gen" "$dump" 75 "$style" >/dev/null
  dumps+=("$dump")
done
exec "$venv/bin/python" "$here/parser_speed.py" --hlolayout "$bin/cli/hlolayout" \
  --package "$dir/package" "$@" "${dumps[@]}"
