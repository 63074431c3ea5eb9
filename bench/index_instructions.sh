#!/usr/bin/env bash
# bench/index_instructions.sh: instructions per element of the loops of
# bench/index_vs_closed_form.cc (TiledIndexer against closed forms written
# by hand), counted by callgrind: steady where the shared machine's timings
# are not. One table, ratios indexer / closed form.
#
#   bench/index_instructions.sh            # builds -c opt, runs, prints
#
# Each loop runs once over 4096 elements between callgrind client requests
# (CALLGRIND_ZERO_STATS, CALLGRIND_DUMP_STATS_AT): one dump per loop, whose
# total is divided by 4096. Needs valgrind (with valgrind/callgrind.h).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
./bazelw build -c opt //bench:index_vs_closed_form >&2
bin="$(./bazelw info -c opt bazel-bin 2>/dev/null)/bench/index_vs_closed_form"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" --callgrind \
  >/dev/null 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
python3 - "$out" <<'PY'
import glob, os, sys
rows = {}
order = []
for path in glob.glob(os.path.join(sys.argv[1], "cg.*")):
    label = total = None
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                label = line.split(": ", 3)[3].strip()
            elif line.startswith("totals:"):
                total = int(line.split()[1])
    if label is None or total is None:
        continue
    shape, direction, variant = label.split("|")
    key = (shape, direction)
    if key not in rows:
        rows[key] = {}
    rows[key][variant] = total / 4096.0
    rows[key]["_dump"] = int(path.rsplit(".", 1)[1])
print("instructions per element (callgrind, 4096 elements per loop; ratio: "
      "indexer / closed form)\n")
print("| shape | direction | closed form | indexer | ratio | batched | ratio |")
print("|---|---|---|---|---|---|---|")
worst = 0.0
for key in sorted(rows, key=lambda k: rows[k]["_dump"]):
    v = rows[key]
    c, s = v["closed"], v["scalar"]
    odd = key[0].startswith("f32[7,5,300,200]")
    if "batched" in v:
        b = v["batched"]
        if not odd:
            worst = max(worst, s / c, b / c)
        print("| `%s` | %s | %.1f | %.1f | %.2fx | %.1f | %.2fx |"
              % (key[0], key[1], c, s, s / c, b, b / c))
    else:
        if not odd:
            worst = max(worst, s / c)
        print("| `%s` | %s | %.1f | %.1f | %.2fx | | |"
              % (key[0], key[1], c, s, s / c))
print("\nworst ratio over the six shapes (odd tiles excluded): %.2fx" % worst)
PY
