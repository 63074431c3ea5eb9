#!/usr/bin/env bash
# Opens the page of `hlolayout report --html` in headless Chromium and checks
# what the browser renders: the tables and pictures are in the DOM, the
# page's script sorts and filters (driven through the URL fragment), and a
# screenshot is not blank. Skips (exit 0 with a message) only when no
# Chromium is installed: ./bazelw test installs Debian's `chromium`.
# The page leads with what XLA will allocate (#allocates before #totals),
# and on a GPU module (GPU_DUMP) XLA's heap is drawn with named boxes and a
# legend.
#   usage: html_browser_test.sh HLOLAYOUT DUMP GPU_DUMP
set -euo pipefail

hlolayout="$1"
dump="$2"
gpu_dump="$3"
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    browser="$(command -v "$b")"
    break
  fi
done
if [ -z "$browser" ]; then
  echo "SKIPPED: no Chromium on this machine (./bazelw test installs Debian's" \
    "chromium; it could not be installed here)"
  exit 0
fi

out="${TEST_TMPDIR:-$(mktemp -d)}"
export HOME="$out"
"$hlolayout" report --html "$out/report.html" "$dump"

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

chrome() {
  timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
    --disable-dev-shm-usage --no-first-run --user-data-dir="$out/profile" \
    "$@" 2>"$out/chromium.log"
}

# 1. The DOM after the script ran, sorted by padding bytes, filtered by "copy".
chrome --dump-dom "file://$out/report.html#sort=wasted&dir=desc&filter=copy" \
  >"$out/dom.html" || fail "chromium --dump-dom: $(tail -3 "$out/chromium.log")"
dom="$out/dom.html"
for id in allocates totals spaces modules wasters instructions cap-note shown-count; do
  grep -q "id=\"$id\"" "$dom" || fail "no #$id in the rendered page"
done
[ "$(grep -bo 'id="allocates"' "$dom" | cut -d: -f1)" -lt \
  "$(grep -bo 'id="totals"' "$dom" | cut -d: -f1)" ] ||
  fail "the page does not lead with what XLA will allocate"
grep -q 'not modelled (XLA:TPU)' "$dom" ||
  fail "the TPU module's lead row does not say it is not modelled"
wasters=$(grep -o '<div class="waster">' "$dom" | wc -l)
svgs=$(grep -o '<svg xmlns=' "$dom" | wc -l)
[ "$wasters" -ge 3 ] || fail "expected padding wasters, found $wasters"
[ "$svgs" -ge "$wasters" ] || fail "$wasters wasters but $svgs pictures"
grep -q 'data-sorted="wasted:desc"' "$dom" || fail "the script did not sort"
rows=$(grep -o '<tr class="row"[^>]*>' "$dom")
total=$(printf '%s\n' "$rows" | wc -l)
shown=$(printf '%s\n' "$rows" | grep -vc ' hidden' || true)
[ "$total" -eq 30 ] || fail "expected 30 instruction rows, found $total"
[ "$shown" -eq 2 ] || fail "filter 'copy' should leave 2 rows, left $shown"
printf '%s\n' "$rows" | grep -v ' hidden' | grep -vq 'data-text="[^"]*copy' &&
  fail "a shown row does not match the filter"
grep -q '2 of 30 rows shown' "$dom" || fail "shown count not updated"
# Rows in non-increasing order of padding bytes.
printf '%s\n' "$rows" | sed 's/.*data-wasted="\([0-9]*\)".*/\1/' |
  awk 'NR > 1 && $1 > prev { bad = 1 } { prev = $1 } END { exit bad }' ||
  fail "rows are not sorted by padding bytes"

# 2. Sorting by name, ascending, no filter.
chrome --dump-dom "file://$out/report.html#sort=name&dir=asc" >"$out/dom2.html" ||
  fail "chromium --dump-dom (2)"
grep -q 'data-sorted="name:asc"' "$out/dom2.html" || fail "no sort by name"
grep -o '<tr class="row"[^>]*>' "$out/dom2.html" | grep -q ' hidden' &&
  fail "rows hidden without a filter"
grep -o '<tr class="row"[^>]*><td>[^<]*</td><td>[^<]*</td><td>[^<]*</td>' \
  "$out/dom2.html" | sed 's/.*<td>\([^<]*\)<\/td>$/\1/' |
  tr 'A-Z' 'a-z' >"$out/names.txt" || true
[ "$(wc -l <"$out/names.txt")" -eq 30 ] || fail "could not read the names"
LC_ALL=C sort -c "$out/names.txt" 2>/dev/null ||
  fail "names not in ascending order: $(head -5 "$out/names.txt" | tr '\n' ' ')"

# 3. A GPU module: the lead figure, and the heap's boxes named.
"$hlolayout" report --html "$out/gpu.html" "$gpu_dump"
chrome --dump-dom "file://$out/gpu.html" >"$out/gpu_dom.html" ||
  fail "chromium --dump-dom (gpu)"
grep -q '<b>26.56 MiB (27,850,866 bytes)</b>' "$out/gpu_dom.html" ||
  fail "no allocation figure in the GPU page's lead"
boxes=$(grep -o '<rect class="block"' "$out/gpu_dom.html" | wc -l)
titles=$(grep -o '<rect class="block"[^>]*><title>[^<]' "$out/gpu_dom.html" | wc -l)
[ "$boxes" -gt 0 ] && [ "$boxes" -eq "$titles" ] ||
  fail "$boxes heap boxes, $titles with a title"
legend=$(grep -o '<tr class="heap-value">' "$out/gpu_dom.html" | wc -l)
[ "$legend" -eq 10 ] || fail "expected 10 legend rows, found $legend"
grep -q 'probe_xla.py:176' "$out/gpu_dom.html" || fail "no source line"

# 4. A screenshot that is not blank.
chrome --screenshot="$out/shot.png" --window-size=1200,1600 \
  "file://$out/report.html" >/dev/null || fail "chromium --screenshot"
[ -s "$out/shot.png" ] || fail "no screenshot"
size=$(wc -c <"$out/shot.png")
[ "$size" -gt 20000 ] || fail "screenshot of $size bytes looks blank"
if command -v python3 >/dev/null 2>&1; then
  python3 - "$out/shot.png" <<'PY' || fail "screenshot is blank"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
w, h = struct.unpack(">II", data[16:24])
# Count distinct byte values outside the filter bytes: a blank page has a
# handful, a page with text, tables and coloured pictures has many.
distinct = len(set(raw[:4 * w * 400]))
print("screenshot %dx%d, %d distinct byte values" % (w, h, distinct))
sys.exit(0 if distinct > 40 else 1)
PY
fi
echo "PASSED: the page renders in $(basename "$browser"): $total rows," \
  "$wasters padding wasters with pictures, sorting and filtering work;" \
  "$boxes named heap boxes, $legend in the legend"
