#!/usr/bin/env bash
# Opens the page of `hlolayout report --html` in headless Chromium and checks
# what the browser renders: the tables and pictures are in the DOM, the
# page's script sorts and filters (driven through the URL fragment), and a
# screenshot is not blank. Skips (exit 0 with a message) only when no
# Chromium is installed: ./bazelw test installs Debian's `chromium`.
# The page leads with what XLA will allocate (#allocates before #totals),
# the schedule chart right under it in the first screen, padding pictures
# whose tiles are large enough to read, each buffer once; on a GPU module
# (GPU_DUMP) XLA's heap is drawn with named boxes and a legend; a dump
# folder's page opens with the folder's table.
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

# 4. Where things are on the first screen (a window of 1280 x 900): the
# schedule chart under the allocation table, and the padding picture of
# f32[3,1000] in (8,128) tiles drawn as boxes one can read (issue 35: it was
# an 8-cell strip a few pixels high). A copy of the page with a script that
# measures and writes what it found into the DOM.
measure() {
  sed 's|</body>|<script>(function(){var b=document.body;function r(e){return e?e.getBoundingClientRect():null}var t=r(document.querySelector("#allocates table")),c=r(document.querySelector("svg[id^=curve-]")),p=document.querySelector(".waster .padding-picture .tile rect");var q=r(p);b.setAttribute("data-table-bottom",t?Math.round(t.bottom):-1);b.setAttribute("data-curve-top",c?Math.round(c.top):-1);b.setAttribute("data-curve-bottom",c?Math.round(c.bottom):-1);b.setAttribute("data-tile-width",q?Math.round(q.width):-1);b.setAttribute("data-tile-height",q?Math.round(q.height):-1);})();</script></body>|' \
    "$1" >"$2"
}
attr() { sed -n "s/.*<body[^>]* $1=\"\(-\?[0-9]*\)\".*/\1/p" "$2" | head -1; }
measure "$out/report.html" "$out/measured.html"
chrome --window-size=1280,900 --dump-dom "file://$out/measured.html" \
  >"$out/measured_dom.html" || fail "chromium --dump-dom (measured)"
table_bottom=$(attr data-table-bottom "$out/measured_dom.html")
curve_top=$(attr data-curve-top "$out/measured_dom.html")
curve_bottom=$(attr data-curve-bottom "$out/measured_dom.html")
tile_width=$(attr data-tile-width "$out/measured_dom.html")
tile_height=$(attr data-tile-height "$out/measured_dom.html")
[ -n "$curve_top" ] && [ "$curve_top" -gt "$table_bottom" ] ||
  fail "the schedule chart (top $curve_top) is not under the allocation table (bottom $table_bottom)"
[ "$curve_bottom" -le 900 ] ||
  fail "the schedule chart ends at $curve_bottom px, below the first screen (900)"
[ "$tile_width" -ge 60 ] && [ "$tile_height" -ge 30 ] ||
  fail "a tile of the padding picture is $tile_width x $tile_height px"
grep -q 'data-rows="3" data-cols="104"' "$dom" ||
  fail "the f32[3,1000] picture has no tile holding 3 x 104 elements"
# Each buffer once: no two wasters with the same name.
names=$(grep -o '<h3><code>%[^<]*' "$dom" | sed 's/.*<code>//' || true)
[ "$(printf '%s\n' "$names" | wc -l)" -eq "$wasters" ] ||
  fail "could not read the wasters' names"
dups=$(printf '%s\n' "$names" | sort | uniq -d)
[ -z "$dups" ] || fail "wasters listed twice: $dups"

# 5. A dump folder: the page opens with the folder's table.
mkdir -p "$out/dump"
cp "$dump" "$gpu_dump" "$out/dump/"
"$hlolayout" report --html "$out/folder.html" "$out/dump"
chrome --dump-dom "file://$out/folder.html" >"$out/folder_dom.html" ||
  fail "chromium --dump-dom (folder)"
folder_rows=$(grep -o '<tr class="folder-row"' "$out/folder_dom.html" | wc -l)
[ "$folder_rows" -eq 2 ] || fail "expected 2 rows in the folder table, found $folder_rows"
[ "$(grep -bo 'class="folder sortable"' "$out/folder_dom.html" | cut -d: -f1)" -lt \
  "$(grep -bo 'id="memory"' "$out/folder_dom.html" | cut -d: -f1)" ] ||
  fail "the folder page does not open with the folder's table"

# 6. A screenshot that is not blank.
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
  "$boxes named heap boxes, $legend in the legend; the schedule chart at" \
  "$curve_top-$curve_bottom px under the table (bottom $table_bottom);" \
  "a tile drawn $tile_width x $tile_height px; a folder page of $folder_rows modules"
