#!/usr/bin/env python3
"""Converts reference answers for tt-mlir's tensor types into ttmlir_cases.jsonl.

    python3 ttmlir/testdata/convert_ttmlir_cases.py IN.jsonl \
        > ttmlir/testdata/ttmlir_cases.jsonl

IN.jsonl holds one tensor type per line with what tt-mlir's own C++
computes for it (TTNNLayoutAttr::Builder with canonical core placement on a
Wormhole device of 8x8 workers and 12 DRAM banks, MetalLayoutAttr's
physical and device shapes, the verifiers) and whether the test's text
agrees; see README.md in this folder. Each output line keeps the facts the
tests compare, in this project's key names (those of
`hlolayout grid explain/locate --json`):

    {"id", "from", "tensor", "expect": "as_written" | "warning" | "refused",
     "refusal": words of the refusal (refused only),
     "explain": {key: value, ...}, "locate": [{"index": [...], key: ...}]}
"""
import json
import sys

TTNN_KEYS = {
    # ours: theirs
    "physical_shape": "physical_shape",
    "linear": "linear",
    "collapsed_shape": "collapsed_shape",
    "grid": "grid",
    "shard_shape": "shard_shape_elems",
    "physical_shard_shape": "physical_shard_shape_elems",
    "shard_shape_tiles": "shard_shape_tiles",
    "memref_shape": "memref_shape",
    "memref": "memref",
    "layout": "layout_text",
    "buffer_type": "buffer_type",
    "mem_layout": "mem_layout",
    "core_ranges": "core_ranges_canonical",
}
METAL_KEYS = {
    "normalized_intervals": "normalized_intervals",
    "default_tile_alignments": "default_tile_alignments",
    "physical_shape": "physical_shape",
    "collapsed_shape": "collapsed_shape",
    "physical_shape_tiles": "physical_shape_tiles",
    "grid": "grid",
    "device_shape": "device_shape",
    "shard_shape_tiles": "shard_shape_tiles",
    "shard_shape": "shard_shape_elems",
    "memref_shape": "memref_shape",
    "memref": "memref",
    "host_strides": "host_strides",
    "host_volume": "host_volume",
    "logical_to_physical": "logical_to_physical",
    "physical_to_logical": "physical_to_logical",
}
SAMPLE_KEYS = ("physical", "tile", "in_tile", "shard", "shard_index",
               "offset", "offset_tile", "offset_in_tile", "core", "dram_bank",
               "page")


def refusal(row):
    c = row["computed"]
    if row.get("verifier_errors"):
        return row["verifier_errors"][0]
    if c.get("builder_assert"):
        return c["builder_assert"]
    if "tile_division_assert" in row["categories"]:
        return "does not divide the physical shape"
    return None


def convert(row):
    out = {"id": row["id"], "from": row["source"], "tensor": row["tensor"]}
    c = row["computed"]
    reason = refusal(row)
    if reason:
        out["expect"] = "refused"
        out["refusal"] = reason
        return out
    out["expect"] = "as_written" if row["class"] == "agree" else "warning"
    explain = {}
    if "seed_syntax" in row["categories"]:
        explain["memref_shape"] = c["seed_model_memref_shape"]
    else:
        keys = TTNN_KEYS if row["kind"] == "ttnn_layout" else METAL_KEYS
        for ours, theirs in keys.items():
            if theirs in c:
                explain[ours] = c[theirs]
        pad = c.get("padding")
        if pad:
            explain["padding"] = pad
    out["explain"] = explain
    locate = []
    for s in c.get("samples", []):
        sample = {"index": s["index"]}
        for k in SAMPLE_KEYS:
            if k in s:
                sample[k] = s[k]
        locate.append(sample)
    out["locate"] = locate
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                sys.stdout.write(json.dumps(convert(row), separators=(",", ":"))
                                 + "\n")


if __name__ == "__main__":
    main()
