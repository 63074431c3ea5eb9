#!/bin/bash
# Issue 87 item 5: out of memory, hlolayout says so and exits 1 (no abort):
# a 40 MB shape line and a generated dump read under an address-space limit.
set -u
bin=$1
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail=0
# A tuple of 2.5 million scalars on one line.
python3 - "$tmp/shape.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("(" + ", ".join(["f32[]"] * 2500000) + ")\n")
PY
check() {  # name, limit in KiB, command...
  local name=$1 limit=$2
  shift 2
  (ulimit -v "$limit"; "$@") >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "skip $name: read within ${limit} KiB"
    return
  fi
  if [[ $rc -ne 1 ]] || ! grep -q "^hlolayout: out of memory while reading " "$tmp/err"; then
    echo "FAIL $name: exit $rc, stderr:"; head -c 400 "$tmp/err"; echo
    fail=1
  else
    echo "ok $name: $(head -1 "$tmp/err")"
  fi
}
check explain 200000 "$bin" explain "--file=$tmp/shape.txt"
printf 'HloModule m\n\nENTRY e {\n  ROOT t = %s tuple()\n}\n' "$(head -c 30000000 "$tmp/shape.txt")" >"$tmp/dump.txt"
check report 150000 "$bin" report "$tmp/dump.txt"
check memory 150000 "$bin" memory "$tmp/dump.txt"
exit $fail
