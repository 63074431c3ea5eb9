#!/usr/bin/env python3
"""Converts the answers Triton 3.6.0 computed into this folder's test data.

    python3 triton/testdata/convert.py IN_DIR triton/testdata

IN_DIR holds Triton's answers as JSON lines, one case per line, written by a
harness that ran each case in its own Triton 3.6.0 process (see README.md in
this folder for what each case is and for the format written here). Layouts
given as Gluon constructor arguments are written as TTGIR attribute text,
the form users meet in kernel dumps; refusals keep Triton's reason only.
"""
import json
import re
import sys


def reason(stderr):
    """Triton's reason for refusing, without the process-abort wrapping."""
    first = stderr.split(" | ")[0].strip()
    if first.startswith("LLVM ERROR: "):
        return first[len("LLVM ERROR: "):]
    if first.startswith("error: "):
        return first[len("error: "):]
    m = re.search(r"Assertion `(.*)' failed", first)
    if m:
        expr = m.group(1)
        q = re.search(r'&& "(.*)"$', expr)
        return q.group(1) if q else expr
    return first


def ints(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def blocked(p):
    s = ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, "
         "warpsPerCTA = %s, order = %s" %
         (ints(p["size_per_thread"]), ints(p["threads_per_warp"]),
          ints(p["warps_per_cta"]), ints(p["order"])))
    if "cga_layout" in p:
        s += ", CGALayout = [" + ", ".join(ints(b) for b in p["cga_layout"]) + "]"
    return s + "}>"


def mma(p):
    return ("#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, "
            "warpsPerCTA = %s, instrShape = %s}>" %
            (p["version"][0], p["version"][1], ints(p["warps_per_cta"]),
             ints(p["instr_shape"])))


def ttgir(kind, p):
    if kind in ("blocked", "blocked_cga"):
        return blocked(p)
    if kind in ("mma2", "mma3"):
        return mma(p)
    if kind == "slice":
        return "#ttg.slice<{dim = %d, parent = %s}>" % (p["dim"],
                                                          blocked(p["parent"]))
    if kind == "dot":
        return "#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (
            p["operand_index"], mma(p["parent"]), p["k_width"])
    raise ValueError(kind)


def layout_arg(a):
    """The arguments of from_bases, as `hlolayout triton` reads them."""
    return {"bases": a["bases"], "out_dims": a["out_dims"],
            "out_sizes": a["out_sizes"],
            "require_surjective": a["require_surjective"]}


def layout_out(r):
    return {"bases": r["bases"], "out_dims": r["out_dims"],
            "out_sizes": r["out_sizes"], "str": r["str"]}


def ops(src, dst):
    for line in src:
        r = json.loads(line)
        row = {"case": r["id"], "op": r["op"], "a": layout_arg(r["a"])}
        if "b" in r:
            row["b"] = layout_arg(r["b"])
        if "ok" in r:
            ok = r["ok"]
            want = {"a_str": ok["a"]["str"]}
            if "b" in ok:
                want["b_str"] = ok["b"]["str"]
            if "result" in ok:
                want["result"] = layout_out(ok["result"])
            want["flags"] = [ok["injective"], ok["surjective"], ok["invertible"]]
            want["matrix"] = ok["matrix"]
            want["apply"] = ok["apply"]
            if "distributed_view" in ok:
                want["view"] = ok["distributed_view"]
            if "distributed_view_t" in ok:
                want["view_hw"] = ok["distributed_view_t"]
            row["want"] = want
        else:
            row["refused"] = reason(r["stderr"])
        dst.write(json.dumps(row, separators=(",", ":")) + "\n")


def conversions(src, dst):
    for line in src:
        r = json.loads(line)
        row = {"case": r["id"], "kind": r["kind"], "shape": r["shape"],
               "layout": ttgir(r["kind"], r["params"])}
        if "ok" in r:
            ok = r["ok"]
            want = {"register": ok["reg_bases"], "lane": ok["lane_bases"],
                    "warp": ok["warp_bases"], "block": ok["block_bases"],
                    "str": ok["str"]}
            if "distributed_view" in ok:
                want["view"] = ok["distributed_view"]
            row["want"] = want
        else:
            row["refused"] = reason(r["stderr"])
        dst.write(json.dumps(row, separators=(",", ":")) + "\n")


def costs(src, dst):
    for line in src:
        r = json.loads(line)
        row = {"case": r["id"], "shape": r["shape"], "num_warps": r["num_warps"],
               "src": blocked(r["src"]), "dst": blocked(r["dst"]),
               "kind": r["kind"], "scratch_bytes": r["shared_bytes"]}
        dst.write(json.dumps(row, separators=(",", ":")) + "\n")


def main():
    src_dir, dst_dir = sys.argv[1], sys.argv[2]
    for name, fn, out in [("linear_layout_ops", ops, "ll_ops"),
                          ("layout_conversions", conversions, "named_layouts"),
                          ("convert_layout_costs", costs, "cvt_costs")]:
        with open("%s/%s.jsonl" % (src_dir, name)) as f, \
                open("%s/%s.jsonl" % (dst_dir, out), "w") as g:
            fn(f, g)


if __name__ == "__main__":
    main()
