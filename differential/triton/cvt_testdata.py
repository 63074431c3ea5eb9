#!/usr/bin/env python3
"""Freezes a sample of Triton's convert_layout answers for the C++ tests.

Reads the dumps `cvt.py --dump` wrote (one per Triton version) and writes
triton/testdata/cvt_llvm_costs.jsonl: for every Triton version, target and
element width, the first conversions of each kind Triton produced (up to
`--shared` through shared memory, `--shuffle` warp shuffles, `--registers`
register permutations), in the order the harness drew them. Each row holds
the case (layouts as TTGIR text, shape, element type, warps) and Triton's
facts read off its LLVM IR: the kind, the shared memory allocated, and each
thread's stores and loads in hlolayout's instruction names.

  differential/triton/cvt_testdata.py full36.jsonl full39.jsonl \\
      > triton/testdata/cvt_llvm_costs.jsonl
"""

import argparse
import collections
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import cvt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--shared", type=int, default=5)
    ap.add_argument("--shuffle", type=int, default=2)
    ap.add_argument("--registers", type=int, default=1)
    args = ap.parse_args()
    want = {"shared_memory": args.shared, "warp_shuffle": args.shuffle,
            "registers": args.registers}
    taken = collections.Counter()
    for path in args.dumps:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                c, t = r["case"], r["triton"]
                if t["status"] != "ok":
                    continue
                kind = cvt.triton_kind(t)
                key = (t["version"], c["target"], c["bits"], kind)
                if taken[key] >= want[kind]:
                    continue
                taken[key] += 1
                print(json.dumps({
                    "triton": t["version"], "target": c["target"],
                    "bits": c["bits"], "ety": c["ety"], "shape": c["shape"],
                    "warps": c["warps"], "src": c["src"], "dst": c["dst"],
                    "kind": kind, "scratch_bytes": t["shared"],
                    "stores": cvt.vendor_names(t["stores"], c["target"]),
                    "loads": cvt.vendor_names(t["loads"], c["target"])}))


if __name__ == "__main__":
    main()
