#!/usr/bin/env python3
"""Shared-memory stores and loads of Triton's own matmuls: hlolayout's
`triton report` (the "smem_ops" of issue 47 item 9) against Triton's LLVM
IR.

For each target and a few seeded matmul shapes (block sizes, element type,
warps, pipeline stages) this harness has Triton compile a small matmul
kernel on this CPU machine as far as LLVM IR (before LLVM's -O3, as
cvt.py does) and takes:

  Triton   the TTGIR it produced (where its operands go through
           ttg.local_alloc / local_load / local_store / async copies), every
           shared-memory store and load of the LLVM IR with its width
           (cvt.py's reading), and the bank conflicts of their addresses
           counted from the IR (llir_banks.py, hardware rules).
  hlolayout `hlolayout triton report TTGIR --json`: per op its instruction,
           width, count per thread and bank ways.

Compared: the stores and loads, as (instruction, bits) -> count summed over
the ops (each op's per-thread instructions appear once in the IR), and the
worst ways of each side. Where Triton picks an instruction hlolayout does
not model for an op (ldmatrix, ds_read_tr, direct-to-LDS copies) the
kernel is counted as "not modelled", said with the instruction, not
compared. A run where too few sides were compared (--least: fewer
agreeing sides, stores or loads, than half the matmuls by default) fails
too, so that a run of kernels Triton refuses or hlolayout does not model
cannot pass. Exit status 1 on a difference or too few agreements, 0
otherwise. Usage:

  differential/triton/smem_ops.py --hlolayout bazel-bin/cli/hlolayout \\
      --python VENV/bin/python --count 6 --seed 1
"""

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

import llir_banks

TARGETS = {"hip:gfx942": ("hip", "gfx942", 64),
           "hip:gfx950": ("hip", "gfx950", 64),
           "cuda:80": ("cuda", 80, 32)}

KERNEL = '''
import triton
import triton.language as tl


@triton.jit
def matmul(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn)
        acc += tl.dot(x, y)
    tl.store(c + rm * N + rn, acc)
'''


def worker():
    """Reads one case per line; answers with the TTGIR and the IR facts."""
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp())
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    import importlib.util
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton._C.libtriton import llvm
    import cvt
    llvm.optimize_module = lambda *args, **kwargs: None
    path = os.path.join(tempfile.mkdtemp(), "smem_matmul.py")
    with open(path, "w") as f:
        f.write(KERNEL)
    spec = importlib.util.spec_from_file_location("smem_matmul", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for line in sys.stdin:
        case = json.loads(line)
        backend, arch, warp = TARGETS[case["target"]]
        answer = {"id": case["id"], "version": triton.__version__}
        try:
            ety = case["ety"]
            src = ASTSource(
                fn=module.matmul,
                signature={"a": "*" + ety, "b": "*" + ety, "c": "*fp32",
                           "K": "i32"},
                constexprs={"BM": case["bm"], "BN": case["bn"],
                            "BK": case["bk"], "N": 256})
            k = triton.compile(src, target=GPUTarget(backend, arch, warp),
                               options={"num_warps": case["warps"],
                                        "num_stages": case["stages"]})
            llir = k.asm["llir"]
            stores, loads, _ = cvt._llir_facts(llir)
            answer.update(status="ok", ttgir=k.asm["ttgir"],
                          stores=cvt._instrs(stores), loads=cvt._instrs(loads),
                          banks=llir_banks.conflict_ways(
                              llir, case["target"], warp, case["warps"]))
        except Exception as e:  # Triton refused the kernel
            answer.update(status="error", message=str(e).strip()[-400:])
        print(json.dumps(answer), flush=True)


def make_case(rng, i, target):
    return {"id": i, "target": target,
            "ety": rng.choice(["fp16", "bf16", "fp16", "fp32"]),
            "bm": rng.choice([32, 64, 128]), "bn": rng.choice([32, 64, 128]),
            "bk": rng.choice([16, 32, 64]), "warps": rng.choice([4, 4, 8]),
            "stages": rng.choice([1, 2])}


def library(binary, ttgir):
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir",
                                     delete=False) as f:
        f.write(ttgir)
    p = subprocess.run([binary, "triton", "report", f.name, "--json"],
                       capture_output=True, text=True)
    os.unlink(f.name)
    if p.returncode != 0:
        return {"status": "error", "message": p.stderr.strip()}
    report = json.loads(p.stdout)
    return {"status": "ok", "ops": report["smem_ops"],
            "converts": report["converts"]}


def compare(case, t, h):
    """(verdict, message): "agree", "agree, ways not evaluated" (the IR's
    addresses could not be followed), "agree on one side" (the other has
    an instruction that is not modelled), "differ", "not modelled" (neither
    side compared) or "refused" (by Triton)."""
    if t["status"] != "ok":
        return "refused", t.get("message", "")[:200]
    if h["status"] != "ok":
        return "differ", "hlolayout refused: " + h["message"][:200]
    names = {"st.shared": "ds_write", "ld.shared": "ds_read"} \
        if case["target"].startswith("hip:") else {}
    want = {"stores": collections.Counter(), "loads": collections.Counter()}
    for side in want:
        for r in t[side]:
            want[side][names.get(r["instr"], r["instr"]), r["bits"]] += \
                r["count"]
    got = {"stores": collections.Counter(), "loads": collections.Counter()}
    ways = {"stores": 1, "loads": 1}
    for op in h["ops"]:
        c = op["costs"][0]
        if c["error"]:
            return "differ", "hlolayout: %s: %s" % (op["op"], c["error"])
        side = "stores" if op["store"] else "loads"
        got[side][c["instr"], c["bits"]] += c["count"]
        ways[side] = max(ways[side], c["ways"])
    # A convert_layout through shared memory (the epilogue's, say) adds its
    # round trip, with the ways hlolayout gives it (cvt.py checks those).
    for cv in h["converts"]:
        if cv.get("error"):
            return "differ", "hlolayout: convert: %s" % cv["error"]
        for side, key in (("stores", "store_ways"), ("loads", "load_ways")):
            for r in cv.get(side) or []:
                got[side][r["instr"], r["bits"]] += r["count"]
            if cv.get(side):
                ways[side] = max(ways[side], cv[key])
    plain = ("ds_write", "ds_read", "st.shared", "ld.shared")
    diffs, skipped = [], []
    banks = t["banks"]
    if banks.get("error"):
        # An address the evaluator cannot follow (a multi-buffered memdesc
        # carried around the pipelined loop): the counts are still compared.
        skipped.append("ways not evaluated (%s)" % banks["error"][:80])
    ir_ways = {"stores": banks.get("store_ways"),
               "loads": banks.get("load_ways")}
    for side in ("stores", "loads"):
        # A side where either reading has an instruction the other does not
        # model (ldmatrix, ds_read_tr; cp.async, direct-to-LDS) is skipped.
        other = sorted({i for i, _ in list(want[side]) + list(got[side])
                        if i not in plain})
        if other:
            skipped.append("%s: %s not modelled" % (side, ", ".join(other)))
            continue
        if want[side] != got[side]:
            diffs.append("%s: IR %s, hlolayout %s" % (
                side, sorted(want[side].items()), sorted(got[side].items())))
        elif not banks.get("error") and ir_ways[side] != ways[side]:
            diffs.append("%s ways: IR %s, hlolayout %s" % (
                side, ir_ways[side], ways[side]))
    if diffs:
        return "differ", "; ".join(diffs + skipped)
    compared = [x for x in skipped if x.startswith(("stores", "loads"))]
    if len(compared) == 2:
        return "not modelled", "; ".join(skipped)
    if compared:
        return "agree on one side", "; ".join(skipped)
    if skipped:
        return "agree, ways not evaluated", "; ".join(skipped)
    return "agree", ""


# How many sides (stores, loads) of a matmul each verdict compared and
# found equal; "not modelled", "refused" and "differ" agree on none.
SIDES_AGREED = {"agree": 2, "agree, ways not evaluated": 2,
                "agree on one side": 1}


def sides_agreed(verdicts):
    """The sides compared and agreeing over a Counter of verdicts."""
    return sum(SIDES_AGREED.get(v, 0) * n for v, n in verdicts.items())


def too_few(verdicts, least):
    """The reason a run fails for want of agreements, or None."""
    agreed = sides_agreed(verdicts)
    if agreed >= least:
        return None
    return ("%d sides compared and agreeing, fewer than the least %d (%s)" % (
        agreed, least, ", ".join("%s %d" % kv for kv in sorted(verdicts.items()))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--hlolayout")
    ap.add_argument("--python", help="a Python with triton installed")
    ap.add_argument("--count", type=int, default=6,
                    help="matmuls per target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--least", type=int, default=-1,
                    help="the fewest sides (stores or loads) compared and "
                    "agreeing for the run to pass (default: half the "
                    "matmuls, at least 1)")
    args = ap.parse_args()
    if args.worker:
        worker()
        return 0
    if not args.hlolayout or not args.python:
        ap.error("--hlolayout and --python are required")
    proc = subprocess.Popen([args.python, os.path.abspath(__file__),
                             "--worker"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    failures = 0
    everything = collections.Counter()
    for target in args.targets.split(","):
        rng = random.Random("%d/%s" % (args.seed, target))
        verdicts = collections.Counter()
        for i in range(args.count):
            case = make_case(rng, i, target)
            proc.stdin.write(json.dumps(case) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
            if not line:
                print("the Triton worker stopped", file=sys.stderr)
                return 1
            t = json.loads(line)
            h = library(args.hlolayout, t["ttgir"]) if t["status"] == "ok" \
                else {"status": "error", "message": ""}
            verdict, message = compare(case, t, h)
            verdicts[verdict] += 1
            if verdict not in ("agree",):
                print("  %s %s %dx%dx%d, %d warps, %d stages: %s: %s" % (
                    target, case["ety"], case["bm"], case["bn"], case["bk"],
                    case["warps"], case["stages"], verdict, message))
        failures += verdicts["differ"]
        everything.update(verdicts)
        print("%s: %d matmuls: %s" % (target, args.count, ", ".join(
            "%s %d" % kv for kv in sorted(verdicts.items()))), flush=True)
    proc.stdin.close()
    proc.wait()
    least = args.least if args.least >= 0 else max(
        1, args.count * len(args.targets.split(",")) // 2)
    print("%d differences; %d sides compared and agreeing (least %d)" % (
        failures, sides_agreed(everything), least))
    reason = too_few(everything, least)
    if reason:
        print("too few agreements: " + reason)
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
