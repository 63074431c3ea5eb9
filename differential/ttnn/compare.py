#!/usr/bin/env python3
"""differential/ttnn: hlolayout's TTNN model against tt-metal's ttnn package.

    compare.py --hlolayout BIN --python VENV/bin/python [--seed N] [--scale K]
               [--mesh N] [--derive N] [--reference FILE] [--freeze OUT]

Generates seeded cases (cases.py): K times the TTNN test data's groups of
tensor specs (K=2: the held-out set, 280 specs), N mesh distributions and
--derive calls of ttnn.create_sharded_memory_config (the shard shape a spec
without one gets: hlolayout derives it, ttnn's helper computes it);
optionally adds the rows of --reference (the frozen test data, checked
against the live system too). Runs `hlolayout ttnn spec --json --full` and
`hlolayout ttnn mesh --json` on them and oracle.py (tt-metal's own code, in
the venv) on the same inputs, compares field by field, prints one table and
exits 1 on any difference that is not documented (DOCUMENTED below, with
tt-metal's rule). --freeze (--freeze-mesh) writes the generated specs (mesh
cases) with ttnn's answers, JSON lines, for the library's offline tests.

What ttnn answers host-only, and so what is compared: whether tt-metal
refuses the spec (and by which rule), the memory layout and shard specs
after TensorSpec's resolution, the padded shape (of a host tensor of the
spec), a tile's bytes (TILE page size), and the page mapping of
BufferDistributionSpec (the cores in order and each core's host pages);
for meshes, the slice every device holds. The other fields (alignment,
physical shape, page shape and count, sizes, strides, bytes per bank) have
no host-only API in ttnn 0.81.1; the 140 frozen rows computed by tt-metal's
C++ check them (ttnn/testdata).
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as gen  # noqa: E402

# tt-metal's messages -> the model's rule names (ttnn/refusal.h).
RULES = [
    (("Tile size is not valid",), "tile-shape"),
    (("custom tile configuration",), "row-major-tile"),
    (("Invalid core range",), "core-range-order"),
    (("overlap",), "core-range-overlap"),
    (("must match physical width", "height sharded"), "height-shard-width"),
    (("along height", "must not exceed number of cores"), "height-shard-count"),
    (("must match physical height", "width sharded"), "width-shard-height"),
    (("along width", "must not exceed number of cores"), "width-shard-count"),
    (("one full rectangular grid for block sharded",), "block-shard-one-range"),
    (("for row major orientation",), "block-shard-grid-fit"),
    (("for column major orientation",), "block-shard-grid-fit"),
    (("must be tile",), "shard-tile-multiple"),
    (("Only TILE layout is supported",), "dtype-layout"),
    (("Only ROW_MAJOR layout is supported",), "dtype-layout"),
    (("Shard shape must be 1D for 1D tensor",), "shard-1d-tensor"),
    (("2D grid distribution is only supported for 2D sharding",), "grid2d-shard-rank"),
    (("one contiguous core grid",), "grid2d-one-range"),
    (("must not exceed core grid width",), "grid2d-width"),
    (("must not exceed core grid height",), "grid2d-height"),
    (("can't be less than shard shape rank",), "shard-rank"),
    (("rank must be at least 1",), "shard-rank"),
    (("non zero volume",), "shard-volume"),
    (("empty set of cores",), "empty-grid"),
    (("Unsupported data type",), "row-major-element-size"),
    (("Invalid dimension index",), "mesh-dim"),
    (("dims must be unique",), "mesh-dim"),
    (("Shard shape mismatch",), "mesh-shard-shape"),
    (("ND sharding requires the number of chunks",), "mesh-chunks"),
    (("No chunks were produced",), "mesh-chunks"),
    (("number of placements",), "mesh-placements"),
    (("size of the supplied mesh shape",), "mesh-size"),
    (("Invalid sharding core_grid",), "shard-derive"),
]

# Differences that are not errors, with tt-metal's rule. Each maps a rule
# the model refuses by to (the inputs it covers, why ttnn accepts those
# host-only): a refusal by that rule on any other input is a difference.
DOCUMENTED = {
    "row-major-element-size": (
        lambda inp: inp.get("layout") == "ROW_MAJOR" and inp.get("dtype") in ("int8", "fp8_e4m3"),
        "tt-metal has no row-major element size for int8 and fp8_e4m3 "
        "(page_config.cpp, rm_element_size_bytes: \"Unsupported data type!\"); "
        "it refuses when it computes a page size, for a device buffer, which "
        "a host tensor never asks"),
}

# The seed the frozen held-out set (ttnn/testdata/heldout_ttnn_0.81.1.jsonl,
# checked offline by //cli:TtnnDataTest) was drawn with: a live sample
# drawn with it again would find nothing new.
FROZEN_SEED = 39


def daily_seed(day):
    """The CI sample's seed on day `day` of the year (1-366): the day, as
    the other harnesses rotate theirs, except the frozen set's seed."""
    return day + 366 if day == FROZEN_SEED else day


def seed_arg(text):
    """--seed: an integer, or "today" (daily_seed of the UTC day)."""
    if text == "today":
        import time
        return daily_seed(time.gmtime().tm_yday)
    return int(text)


def rule_of(message):
    for fragments, rule in RULES:
        if all(f in message for f in fragments):
            return rule
    return "unknown"


def run_oracle(python, cases):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "answers.jsonl")
        text = "".join(json.dumps(dict(c, id=i)) + "\n" for i, c in enumerate(cases))
        p = subprocess.run([python, os.path.join(HERE, "oracle.py"), "--out", out], input=text,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit("oracle failed:\n" + p.stderr[-2000:])
        answers = {}
        with open(out) as f:
            for line in f:
                row = json.loads(line)
                answers[row["id"]] = row["answer"]
        return answers


def run_specs(binary, specs):
    """hlolayout ttnn spec --json --full on every input (JSON lines)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for s in specs:
            f.write(json.dumps(s) + "\n")
        path = f.name
    try:
        # --device none: tt-metal's TensorSpec alone, as ttnn answers it
        # host-only (no device check).
        p = subprocess.run([binary, "ttnn", "spec", "--json", "--full", "--device", "none",
                            "--spec", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    lines = p.stdout.splitlines()
    if len(lines) != len(specs):
        sys.exit("hlolayout ttnn spec answered %d of %d specs:\n%s" % (len(lines), len(specs), p.stderr[-2000:]))
    return [json.loads(line) for line in lines]


def run_mesh(binary, case):
    placements = ",".join("S%d" % p["dim"] if p["shard"] else "R" for p in case["placements"])
    args = [binary, "ttnn", "mesh", "--json", "--device", "none", "--layout", "ROW_MAJOR",
            "--dtype", "float32",
            "--mesh", "x".join(map(str, case["mesh"])), "--placements", placements,
            "--shape", ",".join(map(str, case["shape"]))]
    if case.get("mesh_shape_override"):
        args += ["--mesh-shape-override", "x".join(map(str, case["mesh_shape_override"]))]
    p = subprocess.run(args, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    if not lines:
        sys.exit("hlolayout ttnn mesh printed nothing: %s\n%s" % (" ".join(args), p.stderr))
    return json.loads(lines[0])


class Tally:
    def __init__(self):
        self.fields = collections.OrderedDict()
        self.diffs = []
        self.documented = collections.Counter()
        self.refusals = collections.Counter()

    def check(self, field, case, ours, theirs):
        n = self.fields.setdefault(field, [0, 0])
        if ours == theirs:
            n[0] += 1
        else:
            n[1] += 1
            self.diffs.append("%s %s: hlolayout %s, ttnn %s" % (case, field, json.dumps(ours)[:300],
                                                               json.dumps(theirs)[:300]))


def compare_spec(tally, label, ours, theirs, inp):
    if "harness_error" in theirs:
        tally.diffs.append("%s: oracle failed: %s" % (label, theirs["harness_error"]))
        return
    if "error" in theirs or "error" in ours:
        their_rule = rule_of(theirs["error"]) if "error" in theirs else None
        our_rule = ours.get("rule", "unknown") if "error" in ours else None
        if their_rule is None and our_rule in DOCUMENTED and DOCUMENTED[our_rule][0](inp):
            tally.documented[our_rule] += 1
            return
        tally.check("refusal", label, our_rule, their_rule)
        if their_rule is not None and our_rule == their_rule:
            tally.refusals[their_rule] += 1
        return
    tally.check("refusal", label, None, None)
    for field in ("memory_layout", "padded_shape", "resolved_shard_spec", "resolved_nd_shard_spec"):
        if field == "resolved_shard_spec" and theirs.get("memory_layout") == "INTERLEAVED":
            continue
        tally.check(field, label, ours.get(field), theirs.get(field))
    if "tile_bytes" in theirs:
        tally.check("page_size_bytes (tile)", label, ours.get("page_size_bytes"), theirs["tile_bytes"])
    if "cores" in theirs:
        d = ours.get("distribution", {})
        tally.check("distribution.cores", label, d.get("cores"), theirs["cores"])
        pages = [[p for p in m["first_host_pages"] if p >= 0] for m in d.get("page_mapping", [])]
        tally.check("distribution.host_pages", label, pages, theirs["core_host_pages"])


def derive_input(case):
    """The spec whose shard hlolayout derives: ROW_MAJOR bfloat16 (no tile
    rule in the way), L1, the CoreGrid's rectangle, no shard shape."""
    layout = {"HEIGHT": "HEIGHT_SHARDED", "WIDTH": "WIDTH_SHARDED", "BLOCK": "BLOCK_SHARDED"}
    return {"shape": case["shape"], "dtype": "bfloat16", "layout": "ROW_MAJOR",
            "memory_layout": layout[case["strategy"]], "buffer_type": "L1",
            "shard_spec": {"grid": [[[0, 0], [case["x"] - 1, case["y"] - 1]]],
                           "orientation": case["orientation"] or "ROW_MAJOR"}}


def compare_derive(tally, label, ours, theirs):
    """The derived shard shape against create_sharded_memory_config's."""
    if "harness_error" in theirs:
        tally.diffs.append("%s: oracle failed: %s" % (label, theirs["harness_error"]))
        return
    their_rule = rule_of(theirs["error"]) if "error" in theirs else None
    our_rule = ours.get("rule", "unknown") if "error" in ours else None
    tally.check("derived shard refusal", label, our_rule, their_rule)
    if their_rule is None and our_rule is None:
        tally.check("derived shard shape", label, ours.get("resolved_shard_spec", {}).get("shape"),
                    theirs["shape"])
        tally.check("derived shard said", label, ours.get("shard_shape_derived"), True)
    elif their_rule is not None and our_rule == their_rule:
        tally.refusals[their_rule] += 1


def compare_mesh(tally, label, ours, theirs):
    if "harness_error" in theirs:
        tally.diffs.append("%s: oracle failed: %s" % (label, theirs["harness_error"]))
        return
    if "error" in theirs or "error" in ours:
        their_rule = rule_of(theirs["error"]) if "error" in theirs else None
        our_rule = ours.get("rule", "unknown") if "error" in ours else None
        tally.check("mesh refusal", label, our_rule, their_rule)
        if their_rule is not None and our_rule == their_rule:
            tally.refusals[their_rule] += 1
        return
    tally.check("mesh refusal", label, None, None)
    mine = [{"device": d["device"], "begin": d["begin"], "end": d["end"]}
            for d in ours["devices"] if d["holds_data"]]
    tally.check("mesh slices", label, sorted(mine, key=lambda d: d["device"]),
                sorted(theirs["devices"], key=lambda d: d["device"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolayout", required=True)
    ap.add_argument("--python", required=True, help="the venv's python (with ttnn)")
    ap.add_argument("--seed", type=seed_arg, default=FROZEN_SEED,
                    help="an integer, or 'today': the day of the year (UTC), never %d, the "
                    "frozen held-out set's" % FROZEN_SEED)
    ap.add_argument("--scale", type=int, default=2, help="spec cases: K x the test data's groups")
    ap.add_argument("--mesh", type=int, default=60, help="mesh cases")
    ap.add_argument("--derive", type=int, default=200,
                    help="create_sharded_memory_config cases (the derived shard shape)")
    ap.add_argument("--reference", help="frozen rows (JSON lines with an 'input') to check too")
    ap.add_argument("--freeze", help="write the generated specs with ttnn's answers here")
    ap.add_argument("--freeze-mesh", help="write the mesh cases with ttnn's answers here")
    ap.add_argument("--freeze-derive",
                    help="write the create_sharded_memory_config cases with ttnn's answers here")
    args = ap.parse_args()

    reference = []
    if args.reference:
        with open(args.reference) as f:
            reference = [json.loads(line) for line in f if line.strip()]
    specs = [{"kind": "spec", "group": "reference", "input": r["input"]} for r in reference]
    held_out = gen.spec_cases(args.seed, args.scale)
    specs += held_out
    meshes = gen.mesh_cases(args.seed + 1, args.mesh)
    derives = gen.derive_cases(args.seed + 2, args.derive)
    answers = run_oracle(args.python, specs + meshes + derives)
    ours = run_specs(args.hlolayout, [s["input"] for s in specs])
    ours_derived = run_specs(args.hlolayout, [derive_input(c) for c in derives]) if derives else []

    tally = Tally()
    groups = collections.Counter()
    for i, (s, o) in enumerate(zip(specs, ours)):
        groups[s["group"]] += 1
        compare_spec(tally, "spec %d (%s)" % (i, s["group"]), o, answers[i], s["input"])
    for j, m in enumerate(meshes):
        k = len(specs) + j
        compare_mesh(tally, "mesh %d" % j, run_mesh(args.hlolayout, m), answers[k])
    for j, (c, o) in enumerate(zip(derives, ours_derived)):
        compare_derive(tally, "derive %d" % j, o, answers[len(specs) + len(meshes) + j])

    if args.freeze:
        with open(args.freeze, "w") as f:
            for i, s in enumerate(specs):
                if s["group"] == "reference":
                    continue
                a = dict(answers[i])
                if "error" in a:
                    a["rule"] = rule_of(a["error"])  # the model's name for it
                f.write(json.dumps({"id": i - len(reference), "group": s["group"], "input": s["input"],
                                    "ttnn": a}, sort_keys=True) + "\n")

    if args.freeze_mesh:
        with open(args.freeze_mesh, "w") as f:
            for j, m in enumerate(meshes):
                a = dict(answers[len(specs) + j])
                if "error" in a:
                    a["rule"] = rule_of(a["error"])
                row = dict(m, id=j, ttnn=a)
                del row["kind"]
                f.write(json.dumps(row, sort_keys=True) + "\n")

    if args.freeze_derive:
        with open(args.freeze_derive, "w") as f:
            for j, c in enumerate(derives):
                a = dict(answers[len(specs) + len(meshes) + j])
                if "error" in a:
                    a["rule"] = rule_of(a["error"])
                row = dict(c, id=j, ttnn=a)
                del row["kind"]
                f.write(json.dumps(row, sort_keys=True) + "\n")

    print("differential/ttnn: hlolayout vs ttnn 0.81.1 (seed %d): %d specs (%s), %d mesh cases, "
          "%d derived shard shapes" % (
              args.seed, len(specs), ", ".join("%s %d" % kv for kv in groups.items()), len(meshes),
              len(derives)))
    print("%-28s %8s %8s %8s" % ("field", "compared", "agree", "differ"))
    for field, (agree, differ) in tally.fields.items():
        print("%-28s %8d %8d %8d" % (field, agree + differ, agree, differ))
    if tally.refusals:
        print("refusals agreed, by rule: " + ", ".join("%s %d" % kv for kv in sorted(tally.refusals.items())))
    for rule, n in tally.documented.items():
        print("documented difference (%d cases): %s: %s" % (n, rule, DOCUMENTED[rule][1]))
    for d in tally.diffs[:40]:
        print("DIFF " + d)
    if tally.diffs:
        print("%d undocumented differences" % len(tally.diffs))
        return 1
    print("no undocumented differences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
