#!/usr/bin/env python3
"""What a ttg.convert_layout costs: hlolayout against Triton's own lowering.

For each target (NVIDIA sm_80, sm_90, sm_100; AMD gfx942, gfx950) and each
element width (8, 16, 32, 64 bits) this harness makes random conversions
(blocked, slice and linear layouts, NVIDIA MMA v2/v3 and their dot operands;
seeded), writes each as a small TTGIR kernel -- load a tensor in the source
layout, `ttg.convert_layout` it, store it from the destination layout --
and asks both sides what the conversion costs:

  Triton   compiles the kernel for that target on this CPU machine as far as
           LLVM IR, as its lowering emits it (before LLVM's -O3; no GPU
           needed), and the harness reads the facts off it:
           the shared memory the kernel allocates (the conversion's scratch:
           nothing else in the kernel uses shared memory), every shared-memory
           store and load (LLVM `store`/`load` on addrspace(3), ldmatrix,
           stmatrix) with its width in bits, and whether lanes exchange values
           (shfl.sync, ds_bpermute, permlane).
  hlolayout `hlolayout triton report KERNEL --json` on the same file: the
           kind, scratch bytes and shared-memory instructions it predicts for
           the module's target and element type.

It prints one table per Triton version, target and element width and exits
non-zero on any difference (0 when all agree). Usage:

  differential/triton/cvt.py --hlolayout bazel-bin/cli/hlolayout \\
      --python-3.6.0 VENV/bin/python --python-latest VENV/bin/python \\
      --count 300 --seed 1

`ci_cvt.sh` makes the venvs (requirements-3.6.0.txt, requirements-latest.txt)
and runs a bounded sample. Run by a venv's Python with `--worker`, this file
is the Triton side (it reads one JSON case per line, answers one per line).
"""

import argparse
import collections
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import llir_banks

TARGETS = {
    # name: (backend, arch, warp size)
    "cuda:80": ("cuda", 80, 32),
    "cuda:90": ("cuda", 90, 32),
    "cuda:100": ("cuda", 100, 32),
    "hip:gfx942": ("hip", "gfx942", 64),
    "hip:gfx950": ("hip", "gfx950", 64),
    # Checked on request (--targets), not by default:
    "cuda:86": ("cuda", 86, 32),
    "cuda:89": ("cuda", 89, 32),
    "cuda:120": ("cuda", 120, 32),
    "hip:gfx90a": ("hip", "gfx90a", 64),
}
DEFAULT_TARGETS = ["cuda:80", "cuda:90", "cuda:100", "hip:gfx942",
                   "hip:gfx950"]
ELEMENT_TYPES = {8: ["i8", "i8", "i8", "i1"], 16: ["f16", "bf16", "i16"],
                 32: ["f32", "i32"], 64: ["f64", "i64", "!tt.ptr<f32>"]}


# ---------------------------------------------------------------------------
# Triton's side (runs inside a venv with triton installed).

def _llir_facts(llir):
    """The shared-memory instructions and shuffles of an LLVM IR module."""
    type_bits = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "half": 16,
                 "bfloat": 16, "float": 32, "double": 64, "i1": 8}

    def bits_of(t):
        m = re.fullmatch(r"<(\d+) x (\w+)>", t)
        if m:
            return int(m.group(1)) * type_bits[m.group(2)]
        return type_bits[t]

    stores = collections.Counter()
    loads = collections.Counter()
    shuffles = 0
    for line in llir.splitlines():
        line = line.strip()
        m = re.match(r"store (?:volatile )?(<\d+ x \w+>|\w+) [^,]+, "
                     r"ptr addrspace\(3\)", line)
        if m:
            stores["st.shared", bits_of(m.group(1))] += 1
            continue
        m = re.search(r"= load (?:volatile )?(<\d+ x \w+>|\w+), "
                      r"ptr addrspace\(3\)", line)
        if m:
            loads["ld.shared", bits_of(m.group(1))] += 1
            continue
        m = re.search(r"(ldmatrix|stmatrix)[.a-z0-9_]*", line)
        if m and ("call" in line or "asm" in line):
            name = m.group(0)
            x = re.search(r"\.x([124])", name)
            n = int(x.group(1)) if x else 1
            instr = m.group(1) + (".trans" if ".trans" in name else "")
            (stores if m.group(1) == "stmatrix" else loads)[instr, 32 * n] += 1
            continue
        m = re.search(r"@llvm\.amdgcn\.ds\.read\.tr(\d+)\.b(\d+)", line)
        if m and "call" in line:
            loads["ds_read_tr", int(m.group(2))] += 1
            continue
        if "call" in line and re.search(
                r"shfl\.sync|amdgcn\.ds\.(bpermute|permute|swizzle)|"
                r"amdgcn\.permlane|amdgcn\.(update|mov)\.dpp|"
                r"amdgcn\.readlane", line):
            shuffles += 1
    return stores, loads, shuffles


def _instrs(counter):
    return sorted([{"instr": k[0], "bits": k[1], "count": v}
                   for k, v in counter.items()],
                  key=lambda r: (r["instr"], r["bits"]))


def worker():
    """Reads {"id", "target", "ttgir"} lines; answers with Triton's facts."""
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp())
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # quiet 3.9
    import triton  # noqa: F401  (the venv's)
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import IRSource, make_backend
    from triton._C.libtriton import ir, llvm
    # The LLVM IR as Triton's lowering emits it: LLVM's own -O3 is skipped
    # (it may split a vector load whose elements are used one by one into
    # narrower loads, which the NVPTX and AMDGPU back ends merge again).
    llvm.optimize_module = lambda *args, **kwargs: None
    tmp = tempfile.mkdtemp()
    for line in sys.stdin:
        case = json.loads(line)
        backend_name, arch, warp = TARGETS[case["target"]]
        target = GPUTarget(backend_name, arch, warp)
        path = os.path.join(tmp, "k%d.ttgir" % case["id"])
        with open(path, "w") as f:
            f.write(case["ttgir"])
        answer = {"id": case["id"], "version": triton.__version__}
        try:
            backend = make_backend(target)
            context = ir.context()
            src = IRSource(path, context, backend)
            options = backend.parse_options(src.parse_options())
            stages = {}
            backend.add_stages(stages, options, src.language)
            module = src.make_ir(target, options, None, None, context)
            metadata = {"target": target, **options.__dict__}
            llir = stages["llir"](module, metadata)
            stores, loads, shuffles = _llir_facts(llir)
            warps = int(re.search(r'"ttg.num-warps" = (\d+)',
                                  case["ttgir"]).group(1))
            answer.update(status="ok", shared=metadata.get("shared") or 0,
                          stores=_instrs(stores), loads=_instrs(loads),
                          shuffles=shuffles,
                          banks=llir_banks.conflict_ways(
                              llir, case["target"], warp, warps))
        except Exception as e:  # Triton refused the module
            answer.update(status="error", message=str(e).strip()[-600:])
        os.unlink(path)
        print(json.dumps(answer), flush=True)


class Worker:
    """A Triton worker process; restarted when Triton aborts. With a cache
    file, answers already there (same Python, same kernel text) are reused
    and new ones appended."""

    def __init__(self, python, cache=None):
        self.python = python
        self.proc = None
        self.version = subprocess.run(
            [python, "-c", "import triton; print(triton.__version__)"],
            capture_output=True, text=True, check=True).stdout.strip()
        self.cache = {}
        self.cache_file = None
        if cache:
            if os.path.exists(cache):
                with open(cache) as f:
                    for line in f:
                        row = json.loads(line)
                        self.cache[row["key"]] = row["answer"]
            self.cache_file = open(cache, "a")

    def ask(self, case):
        key = hashlib.sha256((self.version + "\0" +
                              case["target"] + "\0" +
                              case["ttgir"]).encode()).hexdigest()
        if key in self.cache:
            return dict(self.cache[key], id=case["id"])
        answer = self._ask(case)
        if self.cache_file:
            self.cache[key] = answer
            self.cache_file.write(json.dumps({"key": key,
                                              "answer": answer}) + "\n")
            self.cache_file.flush()
        return answer

    def _ask(self, case):
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [self.python, os.path.abspath(__file__), "--worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if line:
            return json.loads(line)
        err = self.proc.stderr.read()
        self.proc = None
        return {"id": case["id"], "status": "abort",
                "message": err.strip()[-600:]}

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


# ---------------------------------------------------------------------------
# The cases.

def _log2(x):
    return x.bit_length() - 1


def _ints(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def _split_bits(rng, total, rank):
    """`total` bits spread at random over `rank` dims."""
    out = [0] * rank
    for _ in range(total):
        out[rng.randrange(rank)] += 1
    return out


def blocked(rng, rank, warp, warps):
    spt = [1 << b for b in _split_bits(rng, rng.randint(0, 3), rank)]
    tpw = [1 << b for b in _split_bits(rng, _log2(warp), rank)]
    wpc = [1 << b for b in _split_bits(rng, _log2(warps), rank)]
    order = list(range(rank))
    rng.shuffle(order)
    return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, "
            "warpsPerCTA = %s, order = %s}>" %
            (_ints(spt), _ints(tpw), _ints(wpc), _ints(order)))


def _linear_text(bases):
    def group(vs):
        return "[" + ", ".join(_ints(v) for v in vs) + "]"
    return ("#ttg.linear<{register = %s, lane = %s, warp = %s, block = []}>" %
            (group(bases["register"]), group(bases["lane"]),
             group(bases["warp"])))


def linear_bases(rng, shape, warp, warps):
    """Random surjective register/lane/warp bases onto `shape`: each basis
    one bit of one dim, or zero (broadcast). (Triton refuses a distributed
    linear layout whose bases mix dims, and hlolayout one that is not a
    permutation once broadcasts are removed.)"""
    rank = len(shape)
    units = []
    for d, size in enumerate(shape):
        for b in range(_log2(size)):
            v = [0] * rank
            v[d] = 1 << b
            units.append(v)
    rng.shuffle(units)
    n_lane, n_warp = _log2(warp), _log2(warps)
    # How many real bases go to lanes and warps; the rest are broadcast.
    lane_real = min(n_lane, len(units), rng.randint(max(0, n_lane - 2), n_lane))
    warp_real = min(n_warp, len(units) - lane_real,
                    rng.randint(max(0, n_warp - 1), n_warp))
    zero = [0] * rank
    lane = units[:lane_real] + [zero] * (n_lane - lane_real)
    warp_b = units[lane_real:lane_real + warp_real] + [zero] * (n_warp -
                                                                warp_real)
    reg = units[lane_real + warp_real:]
    rng.shuffle(lane)
    rng.shuffle(warp_b)
    if reg and rng.random() < 0.15:
        reg.insert(rng.randrange(len(reg) + 1), zero)  # broadcast register
    bases = {"register": reg, "lane": lane, "warp": warp_b}
    return bases


def perturbed(rng, bases):
    """`bases` with a few register/lane/warp bases swapped."""
    b = {k: [list(v) for v in vs] for k, vs in bases.items()}
    slots = [(k, i) for k in b for i in range(len(b[k]))]
    for _ in range(rng.randint(1, 3)):
        if len(slots) < 2:
            break
        (ka, ia), (kb, ib) = rng.sample(slots, 2)
        b[ka][ia], b[kb][ib] = b[kb][ib], b[ka][ia]
    return b


def nvidia_mma(rng, shape, warps, bits):
    """An NVIDIA MMA v2 or v3 layout (rank 2), or None when none fits."""
    if len(shape) != 2:
        return None
    if warps % 4 == 0 and bits in (8, 16, 32) and rng.random() < 0.5:
        w0 = 4 << rng.randint(0, _log2(warps // 4))
        n = rng.choice([8, 16, 32, 64, 128, 256])
        k = 256 // bits if bits != 32 else 8
        return ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
                "warpsPerCTA = %s, instrShape = [16, %d, %d]}>" %
                (_ints([w0, warps // w0]), n, k))
    w0 = 1 << rng.randint(0, _log2(warps))
    return ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
            "warpsPerCTA = %s, instrShape = [16, 8]}>" %
            _ints([w0, warps // w0]))


def amd_mfma(rng, shape, warps, target):
    """An AMD MFMA layout for the target's MFMA version (rank 2), or None."""
    if len(shape) != 2:
        return None
    arch = TARGETS[target][1]
    version = {"gfx90a": 2, "gfx942": 3, "gfx950": 4}[arch]
    instr = [[32, 32, 8], [16, 16, 16], [32, 32, 8], [16, 16, 16]]
    if version == 4:
        instr += [[32, 32, 16], [16, 16, 32]]
    w0 = 1 << rng.randint(0, _log2(warps))
    text = ("#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, "
            "isTransposed = %s" % (version, _ints([w0, warps // w0]),
                                   _ints(rng.choice(instr)),
                                   rng.choice(["true", "false"])))
    if rng.random() < 0.2:
        text += ", tilesPerWarp = %s" % _ints(rng.choice([[1, 2], [2, 1],
                                                          [2, 2]]))
    if rng.random() < 0.2:
        text += ", elementBitWidth = 64"
    return text + "}>"


def random_layout(rng, family, shape, warp, warps, bits, target=None):
    rank = len(shape)
    if family == "blocked":
        return blocked(rng, rank, warp, warps)
    if family == "slice":
        dim = rng.randrange(rank + 1)
        if rng.random() < 0.3:
            # A slice of a linear parent: the parent shape has the sliced
            # dim (of a random size) inserted.
            pshape = list(shape)
            pshape.insert(dim, 1 << rng.randint(1, 3))
            parent = _linear_text(linear_bases(rng, pshape, warp, warps))
        else:
            parent = blocked(rng, rank + 1, warp, warps)
        return "#ttg.slice<{dim = %d, parent = %s}>" % (dim, parent)
    if family == "mma":
        return nvidia_mma(rng, shape, warps, bits)
    if family == "dot_op":
        if len(shape) != 2 or bits > 32:
            return None
        w0 = 1 << rng.randint(0, _log2(warps))
        parent = ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                  "warpsPerCTA = %s, instrShape = [16, 8]}>" %
                  _ints([w0, warps // w0]))
        return "#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (
            rng.randrange(2), parent, max(1, 32 // bits))
    if family == "mfma":
        return amd_mfma(rng, shape, warps, target)
    if family == "mfma_dot":
        parent = amd_mfma(rng, shape, warps, target)
        if parent is None or bits > 32:
            return None
        k_width = (32 // bits) * rng.choice([1, 2, 2])
        return "#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (
            rng.randrange(2), parent, k_width)
    return _linear_text(linear_bases(rng, shape, warp, warps))


def _pointers(name, layout, shape, ety, arg, lines):
    """TTGIR lines that build a tensor of pointers arg + row-major offset in
    `layout`; returns the SSA name of the pointer tensor."""
    rank = len(shape)
    full = "x".join(str(s) for s in shape)
    strides = [1] * rank
    for d in reversed(range(rank - 1)):
        strides[d] = strides[d + 1] * shape[d + 1]
    total = None
    for k in range(rank):
        if shape[k] == 1:
            continue
        # A 1-D range along dim k in the layout sliced down to that dim
        # (the other dims removed from the highest), then expand_dims
        # re-inserting them: layouts[i] has dims removed[:i] removed.
        removed = [d for d in reversed(range(rank)) if d != k]
        layouts = [layout]
        for d in removed:
            layouts.append("#ttg.slice<{dim = %d, parent = %s}>" %
                           (d, layouts[-1]))
        v = "%%%s_r%d" % (name, k)
        lines.append("    %s = tt.make_range {end = %d : i32, start = 0 : i32}"
                     " : tensor<%dxi32, %s>" % (v, shape[k], shape[k],
                                                layouts[-1]))
        dims_now = [k]
        for i in reversed(range(len(removed))):
            d = removed[i]
            dims_now = sorted(dims_now + [d])
            axis = dims_now.index(d)
            cur_shape = [shape[x] if x == k else 1 for x in dims_now]
            nv = "%s_e%d" % (v, d)
            lines.append("    %s = tt.expand_dims %s {axis = %d : i32} : "
                         "tensor<%sxi32, %s> -> tensor<%sxi32, %s>" %
                         (nv, v, axis,
                          "x".join(str(shape[x] if x == k else 1)
                                   for x in dims_now if x != d),
                          layouts[i + 1],
                          "x".join(str(s) for s in cur_shape), layouts[i]))
            v = nv
        one = "x".join(str(shape[x] if x == k else 1) for x in range(rank))
        if strides[k] != 1:
            c = "%s_s" % v
            lines.append("    %s = arith.constant dense<%d> : tensor<%sxi32, %s>"
                         % (c, strides[k], one, layout))
            m = "%s_m" % v
            lines.append("    %s = arith.muli %s, %s : tensor<%sxi32, %s>" %
                         (m, v, c, one, layout))
            v = m
        if one != full:
            bv = "%s_b" % v
            lines.append("    %s = tt.broadcast %s : tensor<%sxi32, %s> -> "
                         "tensor<%sxi32, %s>" % (bv, v, one, layout, full,
                                                 layout))
            v = bv
        if total is None:
            total = v
        else:
            s = "%%%s_sum%d" % (name, k)
            lines.append("    %s = arith.addi %s, %s : tensor<%sxi32, %s>" %
                         (s, total, v, full, layout))
            total = s
    p = "%%%s_p" % name
    lines.append("    %s = tt.splat %s : !tt.ptr<%s> -> tensor<%sx!tt.ptr<%s>,"
                 " %s>" % (p, arg, ety, full, ety, layout))
    if total is None:
        return p
    q = "%%%s_q" % name
    lines.append("    %s = tt.addptr %s, %s : tensor<%sx!tt.ptr<%s>, %s>, "
                 "tensor<%sxi32, %s>" % (q, p, total, full, ety, layout, full,
                                         layout))
    return q


def kernel(src, dst, shape, ety, warps, target):
    """A TTGIR module whose one ttg.convert_layout takes a tensor of `ety`
    from `src` to `dst`: every element distinct (loaded from its own
    address) and stored to its own address, so that nothing is folded away.
    i1 values are loaded as i8 and truncated (Triton's frontend does the
    same); a pointer tensor is converted itself, then loaded through."""
    warp = TARGETS[target][2]
    full = "x".join(str(s) for s in shape)
    lines = []
    if ety.startswith("!tt.ptr<"):
        pointee = ety[len("!tt.ptr<"):-1]
        ps = _pointers("in", "#src", shape, pointee, "%arg0", lines)
        pd = _pointers("out", "#dst", shape, pointee, "%arg1", lines)
        arg_ty = pointee
        body = [
            "    %c = ttg.convert_layout {ps} : tensor<{full}x{ety}, #src> -> "
            "tensor<{full}x{ety}, #dst>",
            "    %v = tt.load %c : tensor<{full}x{ety}, #dst>",
            "    tt.store {pd}, %v : tensor<{full}x{ety}, #dst>"]
    else:
        mem = "i8" if ety == "i1" else ety
        ps = _pointers("in", "#src", shape, mem, "%arg0", lines)
        pd = _pointers("out", "#dst", shape, mem, "%arg1", lines)
        arg_ty = mem
        if ety == "i1":
            body = ["    %v0 = tt.load {ps} : tensor<{full}x!tt.ptr<i8>, #src>",
                    "    %v = arith.trunci %v0 : tensor<{full}xi8, #src> to "
                    "tensor<{full}xi1, #src>"]
        else:
            body = ["    %v = tt.load {ps} : tensor<{full}x!tt.ptr<{mem}>, "
                    "#src>"]
        body.append("    %c = ttg.convert_layout %v : tensor<{full}x{ety}, "
                    "#src> -> tensor<{full}x{ety}, #dst>")
        if ety == "i1":
            body.append("    %c8 = arith.extui %c : tensor<{full}xi1, #dst> "
                        "to tensor<{full}xi8, #dst>")
            body.append("    tt.store {pd}, %c8 : tensor<{full}x!tt.ptr<i8>, "
                        "#dst>")
        else:
            body.append("    tt.store {pd}, %c : tensor<{full}x!tt.ptr<{mem}>,"
                        " #dst>")
    fmt = dict(ps=ps, pd=pd, full=full, ety=ety,
               mem=ety if ety.startswith("!") else
               ("i8" if ety == "i1" else ety))
    text = "\n".join(lines + [b.format(**fmt) for b in body])
    return f"""#src = {src}
#dst = {dst}
module attributes {{"ttg.num-warps" = {warps} : i32, "ttg.threads-per-warp" = {warp} : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "{target}"}} {{
  tt.func public @cvt(%arg0: !tt.ptr<{arg_ty}>, %arg1: !tt.ptr<{arg_ty}>) {{
{text}
    tt.return
  }}
}}
"""


def make_case(rng, case_id, target, bits, amd_mma=False):
    vendor, _, warp = TARGETS[target]
    warps = rng.choice([1, 2, 4, 4, 8])
    rank = rng.choice([1, 2, 2, 2, 2, 3])
    lo = max(_log2(warp) - 1, 3)
    numel_log2 = rng.randint(lo, 13)
    shape = [1 << max(1, b) for b in _split_bits(rng, numel_log2, rank)]
    families = ["blocked", "slice", "linear", "linear", "linear"]
    if vendor == "cuda":
        families += ["mma", "dot_op"]
    elif amd_mma:
        # Opt in (--amd-mma): MFMA accumulators and their dot operands, as
        # AMD matmul kernels convert them; off by default so that the seeds
        # of earlier runs give the same cases.
        families += ["mfma", "mfma", "mfma_dot"]
    ety = rng.choice(ELEMENT_TYPES[bits])
    while True:
        fs = rng.choice(families)
        src = random_layout(rng, fs, shape, warp, warps, bits, target)
        if src is None:
            continue
        if fs == "linear" and rng.random() < 0.4:
            # A near twin: the same bases with a few swapped.
            m = re.match(r"#ttg.linear<\{register = (.*), lane = (.*), "
                         r"warp = (.*), block = \[\]\}>", src)
            bases = {"register": json.loads(m.group(1)),
                     "lane": json.loads(m.group(2)),
                     "warp": json.loads(m.group(3))}
            dst = _linear_text(perturbed(rng, bases))
            fd = "linear"
        else:
            fd = rng.choice(families)
            dst = random_layout(rng, fd, shape, warp, warps, bits, target)
            if dst is None:
                continue
        break
    return {"id": case_id, "target": target, "bits": bits, "ety": ety,
            "shape": shape, "warps": warps, "families": [fs, fd],
            "src": src, "dst": dst,
            "ttgir": kernel(src, dst, shape, ety, warps, target)}


# ---------------------------------------------------------------------------
# hlolayout's side.

def library(binary, case, tmp, version):
    path = os.path.join(tmp, "case%d.ttgir" % case["id"])
    with open(path, "w") as f:
        f.write(case["ttgir"])
    p = subprocess.run([binary, "triton", "report", path, "--json",
                        "--triton", version],
                       capture_output=True, text=True)
    os.unlink(path)
    if p.returncode != 0:
        return {"status": "error", "message": p.stderr.strip()}
    report = json.loads(p.stdout)
    if len(report["converts"]) != 1:
        return {"status": "error", "message": "expected one convert"}
    c = report["converts"][0]
    if c.get("error"):
        return {"status": "error", "message": c["error"]}
    return {"status": "ok", "kind": c["kind"], "target": c["target"],
            "scratch_bytes": c["scratch_bytes"],
            "stores": c["stores"] or [], "loads": c["loads"] or [],
            "reps": c["reps"], "store_ways": c["store_ways"],
            "load_ways": c["load_ways"], "empirical": c.get("empirical")}


def triton_kind(t):
    if t["shared"] > 0:
        return "shared_memory"
    return "warp_shuffle" if t["shuffles"] > 0 else "registers"


def vendor_names(rows, target):
    """Triton's facts in hlolayout's instruction names (AMD: ds_write and
    ds_read for LDS stores and loads)."""
    if not target.startswith("hip:"):
        return rows
    names = {"st.shared": "ds_write", "ld.shared": "ds_read"}
    return [dict(r, instr=names.get(r["instr"], r["instr"])) for r in rows]


def compare(case, t, h):
    """The list of differences between Triton's answer t and hlolayout's h."""
    if t["status"] != "ok":
        if h["status"] == "ok":
            return ["triton refused (%s: %s), hlolayout answered" %
                    (t["status"], t.get("message", "")[:200])]
        return []
    if h["status"] != "ok":
        return ["hlolayout refused: %s" % h["message"][:200]]
    diffs = []
    kind = triton_kind(t)
    if kind != h["kind"]:
        diffs.append("kind %s, hlolayout %s" % (kind, h["kind"]))
    if t["shared"] != h["scratch_bytes"]:
        diffs.append("scratch %d bytes, hlolayout %d" %
                     (t["shared"], h["scratch_bytes"]))
    for what in ("stores", "loads"):
        a = sorted((r["instr"], r["bits"], r["count"])
                   for r in vendor_names(t[what], case["target"]))
        b = sorted((r["instr"], r["bits"], r["count"]) for r in h[what])
        if a != b:
            diffs.append("%s %s, hlolayout %s" % (what, a, b))
    return diffs


# Where the independent count (llir_banks) and Triton's estimate, which
# hlolayout follows, are known to differ: (name, test(case, t, h, version),
# what the rule says). A bank difference none of these explains fails the
# run. docs/triton-smem.md, "Bank conflicts from Triton's LLVM IR".
def _estimate_models(version, targets, models):
    """A rule: with Triton `version` (None: any) on one of `targets`
    (prefixes), hlolayout's (store, load) ways are the IR's count under one
    of `models` (llir_banks.MODELS: the phases Triton's estimate assumes),
    the same model for both sides."""
    def test(case, t, h, v):
        if version not in (None, v) or not case["target"].startswith(targets):
            return False
        want = [h["store_ways"], h["load_ways"]]
        counted = t["banks"]["models"]
        return any(list(counted[m]) == want for m in models if m in counted)
    return test


BANK_RULES = [
    ("estimate_3.9_phases",
     _estimate_models("3.9.0", ("hip:",), ["triton_3.9"]),
     "Triton 3.9.0 estimates AMD conflicts with 64 banks for every gfx950 "
     "access and ds_read_b128 phases of lane bits 0, 1, 4 (gfx942) or "
     "0, 1, 3, 4 (gfx950), not the hardware's"),
    ("estimate_first_lanes",
     _estimate_models("3.9.0", ("hip:",), ["first_lanes"]),
     "Triton 3.9.0 estimates a layout it chose for the plain read phase "
     "with that phase, though ds_read_b128 reads other lanes together"),
    ("estimate_lanes_0124",
     _estimate_models("3.9.0", ("hip:gfx950",), ["lanes_0124"]),
     "gfx950 under Triton 3.9.0: the layout is conflict-free for a read "
     "phase of lane bits 0, 1, 2, 4 (the phase hlolayout weighs as "
     "empirical), not for the phase its estimate takes"),
    ("estimate_whole_words",
     _estimate_models(None, ("hip:", "cuda:"),
                      ["first_lanes/words", "triton_3.9/words",
                       "hardware/words"]),
     "Triton's estimate misses lanes whose addresses differ in a segment "
     "bit and below the 4-byte word"),
]

# Triton 3.6.0 computes no bank-conflict figure for an AMD convert_layout
# (its lowering takes the shared layout from optimalSwizzlingLdSt and
# estimates nothing), so hlolayout gives there the hardware's count of the
# accesses that layout makes, under the same phases as llir_banks's
# "hardware" model (docs/triton-smem.md, "Banks and phases"): no rule
# applies, and any difference fails.
NO_RULES_36_AMD = (
    "Triton 3.6.0, AMD: hlolayout gives the hardware's count (Triton "
    "computes no estimate there), so no rule applies")


def compare_banks(case, t, h, version):
    """(status, message): status "agree", "differ", a BANK_RULES name, or
    "-" (no shared memory on either side, or an answer refused)."""
    if t["status"] != "ok" or h["status"] != "ok":
        return "-", ""
    if h["kind"] != "shared_memory" or triton_kind(t) != "shared_memory":
        return "-", ""
    banks = t.get("banks")
    if banks is None:
        return "differ", "no bank count in Triton's answer (old cache?)"
    if banks.get("error"):
        return "differ", "bank count: " + banks["error"]
    if banks.get("unmodelled"):
        return "differ", "bank count: %d unmodelled shared-memory calls" % (
            banks["unmodelled"])
    got = (banks["store_ways"], banks["load_ways"])
    want = (h["store_ways"], h["load_ways"])
    if got == want:
        return "agree", ""
    message = ("bank ways (store, load) from the IR's addresses %s, "
               "hlolayout %s" % (got, want))
    if version == "3.6.0" and case["target"].startswith("hip:"):
        return "differ", message + " (%s)" % NO_RULES_36_AMD
    for name, test, _ in BANK_RULES:
        if test(case, t, h, version):
            return name, message
    return "differ", message


def fmt_instrs(rows):
    return " ".join("%s.%dx%d" % (r["instr"], r["bits"], r["count"])
                    for r in rows) or "-"


def instr_summary(rows):
    """'st.shared 32-128' from a counter of (instr, bits) seen."""
    out = []
    for instr in sorted({i for i, _ in rows}):
        widths = sorted(b for i, b in rows if i == instr)
        out.append("%s %s" % (instr, "-".join(str(w) for w in
                                              (widths[0], widths[-1]))
                              if len(widths) > 1 else widths[0]))
    return ", ".join(out) or "-"


def bank_summary(banks):
    """'12/3/0': conversions whose bank ways the IR's addresses confirm,
    that a documented rule explains, that differ."""
    rule = sum(v for k, v in banks.items()
               if k not in ("agree", "differ", "-"))
    return "%d/%d/%d" % (banks["agree"], rule, banks["differ"])


def print_table(version, count, rows):
    """One table per Triton version: a row per target and element width."""
    head = ["target", "bits", "registers", "warp_shuffle", "shared_memory",
            "refused", "agree", "differ", "banks agree/rule/differ",
            "instructions seen (bits)"]
    cells = [head]
    for r in rows:
        k = r["kinds"]
        cells.append([r["target"], str(r["bits"]), str(k["registers"]),
                      str(k["warp_shuffle"]), str(k["shared_memory"]),
                      str(r["stats"]["refused by triton"]),
                      str(r["stats"]["agree"]), str(r["stats"]["differ"]),
                      bank_summary(r["banks"]),
                      instr_summary(r["instrs"])])
    width = [max(len(c[i]) for c in cells) for i in range(len(head))]
    print("Triton %s: %d random conversions per target and element width "
          "(kinds as Triton lowered them)" % (version, count))
    for c in cells:
        print(("  " + "  ".join(v.ljust(width[i]) if i in (0, 9) else
                                v.rjust(width[i])
                                for i, v in enumerate(c))).rstrip())
    rules = collections.Counter()
    for r in rows:
        rules.update({k: v for k, v in r["banks"].items()
                      if k not in ("agree", "differ", "-")})
    if rules:
        print("  bank ways a documented rule explains (docs/triton-smem.md, "
              "\"Bank conflicts from Triton's LLVM IR\"): " +
              ", ".join("%s %d" % kv for kv in sorted(rules.items())))
    for r in rows:
        for case, diffs in r["shown"]:
            print("  %s %d-bit case %d (%s -> %s, %s %s): %s" %
                  (r["target"], r["bits"], case["id"], case["families"][0],
                   case["families"][1], "x".join(str(x) for x in
                                                 case["shape"]),
                   case["ety"], "; ".join(diffs)))
            print("    src %s\n    dst %s" % (case["src"], case["dst"]))
    print(flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--hlolayout", help="the hlolayout binary")
    ap.add_argument("--python-3.6.0", dest="py36",
                    help="a Python with triton==3.6.0")
    ap.add_argument("--python-latest", dest="pylatest",
                    help="a Python with the newest triton")
    ap.add_argument("--count", type=int, default=300,
                    help="conversions per target and element width")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--targets", default=",".join(DEFAULT_TARGETS),
                    help="comma-separated; also " + ", ".join(
                        t for t in TARGETS if t not in DEFAULT_TARGETS))
    ap.add_argument("--bits", default="8,16,32,64")
    ap.add_argument("--show", type=int, default=5,
                    help="differences shown per target and width")
    ap.add_argument("--amd-mma", action="store_true",
                    help="on AMD targets also draw MFMA layouts and their "
                    "dot operands (changes the cases a seed gives there)")
    ap.add_argument("--dump", help="write every case and answer (JSON lines)")
    ap.add_argument("--cache", help="a file of Triton's answers to reuse "
                    "(JSON lines; for developing the library)")
    args = ap.parse_args()
    if args.worker:
        worker()
        return 0
    if not args.hlolayout:
        ap.error("--hlolayout is required")
    versions = [p for p in (args.py36, args.pylatest) if p]
    if not versions:
        ap.error("give --python-3.6.0 and/or --python-latest")
    targets = args.targets.split(",")
    widths = [int(b) for b in args.bits.split(",")]
    tmp = tempfile.mkdtemp()
    dump = open(args.dump, "w") if args.dump else None
    failures = 0
    start = time.time()
    for python in versions:
        w = Worker(python, args.cache)
        version = w.version
        rows = []
        for target in targets:
            for bits in widths:
                rng = random.Random("%d/%s/%d" % (args.seed, target, bits))
                row = {"target": target, "bits": bits,
                       "stats": collections.Counter(),
                       "kinds": collections.Counter(), "instrs": set(),
                       "banks": collections.Counter(),
                       "shown": []}
                for i in range(args.count):
                    case = make_case(rng, i, target, bits, args.amd_mma)
                    t = w.ask({"id": i, "target": target,
                               "ttgir": case["ttgir"]})
                    h = library(args.hlolayout, case, tmp, version)
                    diffs = compare(case, t, h)
                    if t["status"] != "ok":
                        row["stats"]["refused by triton"] += 1
                    else:
                        row["kinds"][triton_kind(t)] += 1
                        for r in vendor_names(t["stores"] + t["loads"],
                                              target):
                            row["instrs"].add((r["instr"], r["bits"]))
                    row["stats"]["differ" if diffs else "agree"] += 1
                    bank, note = compare_banks(case, t, h, version)
                    row["banks"][bank] += 1
                    shown = diffs + ([note] if bank == "differ" else [])
                    if shown and len(row["shown"]) < args.show:
                        row["shown"].append((case, shown))
                    if dump:
                        dump.write(json.dumps({"case": case, "triton": t,
                                               "hlolayout": h,
                                               "diffs": diffs,
                                               "banks": [bank, note]}) +
                                   "\n")
                failures += row["stats"]["differ"] + row["banks"]["differ"]
                rows.append(row)
        w.close()
        print_table(version, args.count, rows)
    print("%d differences (%.0f s)" % (failures, time.time() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
