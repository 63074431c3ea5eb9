#!/usr/bin/env python3
"""Tensor memory memdescs: hlolayout's checks against the installed Triton.

Run with the Python of a venv holding `triton` (differential/triton/ci.sh):

  $VENV/bin/python differential/triton/tmem_memdesc.py \\
      --hlolayout .build/bin/cli/hlolayout --count 300 --seed 1

Each case is a `ttng.tmem_alloc` of a `!ttg.memdesc` (rank 1 to 4, the
multi-buffered rank 3 among them) with a `#ttng.tensor_memory_encoding`
(blockM, blockN, colStride, element type; in Triton 3.6.0's spelling with
CTASplitM/N or without them) or a `#ttng.tensor_memory_scales_encoding`,
with sizes drawn so that the column count per CTA often exceeds what tensor
memory holds. Triton parses and verifies the module (each case in a forked
child: a refusal may abort); hlolayout answers through `triton check --batch`
with `"triton"` set to the installed release, so that an attribute both
releases read is checked by that release's rules. Compared: accepted or
refused, and the refusal's message, exactly. The exit status is 1 on any
difference, 0 otherwise.

`--export FILE` writes the cases, each with Triton's answer, as JSON lines
(triton/testdata/tmem_memdesc_answers.jsonl was written so; see its README).
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile


def triton_version():
    import triton
    return triton.__version__


def release(version):
    return "3.6.0" if version.startswith("3.6") else "3.9.0"


def gen_case(rng, spelled_split):
    """One case: (attribute, shape, element, CTAs)."""
    if rng.random() < 0.15:
        parts = []
        ctas = 1
        if spelled_split:
            m, n = rng.choice([1, 2]), rng.choice([1, 2])
            ctas = m * n
            parts += [f"CTASplitM = {m}"] if m != 1 else []
            parts += [f"CTASplitN = {n}"] if n != 1 else []
        attr = "#ttng.tensor_memory_scales_encoding<" + ", ".join(parts) + ">"
        shape = [rng.choice([64, 128, 256]), rng.choice([4, 8, 16])]
        rank = rng.choice([1, 2, 2, 3, 3, 4])
        shape = ([2, 2] + shape)[4 - rank:] if rank > 2 else shape[2 - rank:]
        return attr, shape, rng.choice(["i8", "i8", "i8", "f16"]), ctas
    elem = rng.choice(["f32", "f16", "f16", "i8"])
    bits = {"f32": 32, "f16": 16, "i8": 8}[elem]
    strides = [s for s in (1, 2, 4) if s * bits <= 32]
    col_stride = rng.choice(strides if rng.random() < 0.9 else [8])
    block_m = rng.choice([64, 128])
    block_n = rng.choice([32, 64, 128, 256, 512])
    attr = (f"#ttng.tensor_memory_encoding<blockM = {block_m}, blockN = {block_n}, "
            f"colStride = {col_stride}")
    ctas = 1
    if spelled_split:
        m, n = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
        ctas = m * n
        attr += f", CTASplitM = {m}, CTASplitN = {n}"
    attr += ">"
    rows = rng.choice([64, 128, 256, 512])
    cols = rng.choice([64, 256, 512, 1024, 2048, 4096])
    shape = [rows, cols]
    rank = rng.choice([1, 2, 2, 3, 3, 3, 4])
    if rank == 1:
        shape = [cols]
    elif rank > 2:
        # The buffers may be any count; the dims after the first are powers
        # of two (Triton's check of every memdesc, which this harness does
        # not exercise).
        shape = [rng.choice([1, 2, 3])] + [2] * (rank - 3) + shape
    return attr, shape, elem, ctas


def module_text(attr, shape, elem, ctas):
    dims = "x".join(map(str, shape))
    return ('module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, '
            f'"ttg.num-ctas" = {ctas} : i32}} {{\n  tt.func public @f() {{\n'
            f"    %0 = ttng.tmem_alloc : () -> !ttg.memdesc<{dims}x{elem}, {attr}, "
            "#ttng.tensor_memory, mutable>\n    tt.return\n  }\n}\n")


def ask_triton(ctx, ir, case):
    """Triton's answer: "OK" or its first error message."""
    fd, path = tempfile.mkstemp(suffix=".mlir")
    os.write(fd, module_text(*case).encode())
    os.close(fd)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 2)
        try:
            m = ir.parse_mlir_module(path, ctx)
            os.write(w, b"\nOK\n" if m.verify() else b"\nverify() failed\n")
        except Exception:  # the message is on stderr
            pass
        os._exit(0)
    os.close(w)
    out = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    os.unlink(path)
    text = out.decode(errors="replace")
    for line in text.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return "OK" if "\nOK\n" in text else (text.strip().splitlines() or ["no answer"])[-1]


def ask_hlolayout(binary, cases, version):
    lines = [json.dumps({"layout": a, "shape": s, "element": e, "memdesc": True,
                         "threads_per_warp": 32, "num_warps": 4, "num_ctas": c,
                         "triton": version}) for a, s, e, c in cases]
    out = subprocess.run([binary, "triton", "check", "--batch", "-"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    answers = []
    for line in out:
        o = json.loads(line)
        # A refusal while reading the attribute is located ("1:1: ...", the
        # text and a caret): its message is compared.
        error = re.sub(r"^\d+:\d+: ", "", (o.get("error") or "").split("\n")[0])
        answers.append("OK" if o.get("ok") else error)
    return answers


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hlolayout", default=os.path.join(
        os.path.dirname(__file__), "..", "..", ".build", "bin", "cli", "hlolayout"))
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--show", type=int, default=20, help="differences printed")
    ap.add_argument("--export", help="write every case with Triton's answer (JSON lines)")
    args = ap.parse_args()
    from triton._C.libtriton import ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    version = release(triton_version())
    rng = random.Random(f"{args.seed}:tmem_memdesc")
    cases, seen = [], set()
    while len(cases) < args.count:
        # Triton 3.6.0's CTASplitM/N spelling only where it reads it.
        case = gen_case(rng, version == "3.6.0" and rng.random() < 0.4)
        key = json.dumps(case)
        if key not in seen:
            seen.add(key)
            cases.append(case)
    print(f"tensor memory memdescs: Triton {triton_version()}, seed {args.seed}, {len(cases)} cases")
    theirs = [ask_triton(ctx, ir, c) for c in cases]
    ours = ask_hlolayout(args.hlolayout, cases, version)
    table = collections.Counter()
    shown = 0
    for case, t, o in zip(cases, theirs, ours):
        kind = "scales" if "scales" in case[0] else (
            "tmem CTASplit" if "CTASplit" in case[0] else "tmem")
        verdict = "accepted" if t == "OK" else "refused"
        agree = t == o
        table[(kind, verdict, agree)] += 1
        if not agree and shown < args.show:
            shown += 1
            print(f"  DIFFERENT {case[0]} on {case[1]} {case[2]} ({case[3]} CTAs):\n"
                  f"    Triton:    {t}\n    hlolayout: {o}")
    print(f"{'':<16}{'verdict':<10}{'agree':>7}{'differ':>8}")
    differ = 0
    for kind in ("tmem", "tmem CTASplit", "scales"):
        for verdict in ("accepted", "refused"):
            a, d = table[(kind, verdict, True)], table[(kind, verdict, False)]
            differ += d
            if a or d:
                print(f"{kind:<16}{verdict:<10}{a:>7}{d:>8}")
    print(f"{'total':<26}{len(cases) - differ:>7}{differ:>8}")
    if args.export:
        with open(args.export, "w") as f:
            for (a, s, e, c), t in zip(cases, theirs):
                row = {"triton": version, "layout": a, "shape": s, "element": e, "num_ctas": c}
                row["refused" if t != "OK" else "accepted"] = t if t != "OK" else True
                f.write(json.dumps(row) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
