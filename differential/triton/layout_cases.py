"""Random parameter sets for every Triton layout family of the layout harness.

Each generator draws one case from a seeded random.Random: mostly layouts
Triton accepts, about one in six that it should refuse (a bad version, an
instruction shape, kWidth, CGA layout, a module whose warp size or number of
warps does not match, ...). A case is a dict:

  family      the family name (the table's row)
  gluon       ("Class", {kwargs}) for Gluon's layout class (nested parents
              the same way), or None where Gluon has no class for it
  text        the attribute as TTGIR text, written the way this Triton version
              prints it (used when Gluon refuses before printing it)
  shape       the type's shape; elem its element type
  space       distributed (tensor) | shared | tmem (memdesc)
  module      {"threads_per_warp", "num_warps", "num_ctas"}
  intent      "ok" or the name of the rule the case breaks

`api` says which spellings the installed Triton has (see api_of in
layouts.py): wmma_bases (the ctaLayout spelling, Triton 3.7+), tmem_cga
(tensor memory with CGALayout), partitioned, generic_linear, padded_block_key
(the name of PaddedSharedLayout's block bases argument).
"""

import itertools
import json
import re


def p2(rng, lo, hi):
    """A power of two in [lo, hi]."""
    choices = [1 << i for i in range(31) if lo <= (1 << i) <= hi]
    return rng.choice(choices)


def ints(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def bases_text(bases):
    return "[" + ", ".join(ints(b) for b in bases) + "]"


def bool_text(b):
    return "true" if b else "false"


def cga_text(cga):
    return f", CGALayout = {bases_text(cga)}" if cga else ""


def random_cga(rng, rank, max_bases=2, dims=None):
    """CGA bases: one-hot per CTA bit (a permutation once zero bases are
    dropped), sometimes a broadcast (zero) basis."""
    n = rng.choice([0, 0, 0, 1, 1, 2][: 4 + max_bases])
    n = min(n, max_bases)
    nxt = [1] * rank
    out = []
    for _ in range(n):
        if rng.random() < 0.15:
            out.append([0] * rank)
            continue
        d = rng.choice(dims if dims is not None else list(range(rank)))
        b = [0] * rank
        b[d] = nxt[d]
        nxt[d] *= 2
        out.append(b)
    return out


def cga_split(cga, rank):
    split = [1] * rank
    for b in cga:
        for d, v in enumerate(b):
            if v:
                split[d] *= 2
                break
    return split


def module(tpw, warps, cga=(), ctas=None):
    return {"threads_per_warp": tpw, "num_warps": warps,
            "num_ctas": ctas if ctas is not None else 1 << len(cga)}


def product(v):
    r = 1
    for x in v:
        r *= x
    return r


def random_warps(rng, rank, max_total=16):
    total = p2(rng, 1, max_total)
    warps = [1] * rank
    while product(warps) < total:
        warps[rng.randrange(rank)] *= 2
    return warps


def refuse(rng, p=1 / 6):
    return rng.random() < p


# ---------------------------------------------------------------------------
# AMD MFMA and its children


def mfma_params(rng, rank, bad=False):
    kw = {
        "version": rng.choice([1, 2, 3, 4]),
        "instr_shape": None,
        "transposed": rng.random() < 0.5,
        "warps_per_cta": random_warps(rng, rank),
    }
    m, n = rng.choice([(32, 32), (16, 16), (32, 32), (16, 16), (64, 4), (4, 64)])
    k = rng.choice({(32, 32): [8, 16, 64], (16, 16): [16, 32, 128], (64, 4): [4], (4, 64): [4]}[(m, n)])
    kw["instr_shape"] = [m, n, k]
    if (m, n) == (64, 4):
        kw["transposed"] = True
    if rng.random() < 0.3:
        kw["element_bitwidth"] = 64 if rng.random() < 0.6 else 32
    if rng.random() < 0.35:
        kw["tiles_per_warp"] = [rng.choice([1, 1, 2, 4]) for _ in range(rank)]
    cga = random_cga(rng, rank)
    if cga:
        kw["cga_layout"] = cga
    rule = "ok"
    if bad:
        rule = rng.choice(["version", "mn", "bits", "64x4", "cga_rank", "cga_perm"])
        if rule == "version":
            kw["version"] = rng.choice([0, 5, 9])
        elif rule == "mn":
            kw["instr_shape"] = rng.choice([[16, 8, 8], [4, 4, 4], [32, 16, 8], [64, 64, 4]])
        elif rule == "bits":
            kw["element_bitwidth"] = rng.choice([16, 8, 128])
        elif rule == "64x4":
            kw["instr_shape"] = [64, 4, 4]
            kw["transposed"] = False
        elif rule == "cga_rank":
            kw["cga_layout"] = [[1] + [0] * rank]
        else:
            kw["cga_layout"] = [[1] + [0] * (rank - 1), [1] + [0] * (rank - 1)]
    return kw, rule


def mfma_text(kw):
    s = (f"#ttg.amd_mfma<{{version = {kw['version']}, warpsPerCTA = {ints(kw['warps_per_cta'])}, "
         f"instrShape = {ints(kw['instr_shape'])}, isTransposed = {bool_text(kw['transposed'])}"
         f"{cga_text(kw.get('cga_layout', []))}")
    tiles = kw.get("tiles_per_warp")
    if tiles and any(t != 1 for t in tiles):
        s += f", tilesPerWarp = {ints(tiles)}"
    bits = kw.get("element_bitwidth", 32)
    if bits != 32:
        s += f", elementBitWidth = {bits}"
    return s + "}>"


def split_of(kw, rank):
    cga = kw.get("cga_layout", [])
    return cga_split(cga, rank) if cga and all(len(b) == rank for b in cga) else [1] * rank


def mfma_shape(rng, rank, kw):
    m, n = kw["instr_shape"][0], kw["instr_shape"][1]
    split = split_of(kw, rank)
    shape = [p2(rng, 1, 4) for _ in range(rank - 2)]
    shape += [p2(rng, max(4, m // 4), 256) * split[-2], p2(rng, max(4, n // 4), 256) * split[-1]]
    return shape


def gen_mfma(rng, api):
    rank = 3 if rng.random() < 0.2 else 2
    bad = refuse(rng)
    kw, rule = mfma_params(rng, rank, bad)
    shape = mfma_shape(rng, rank, kw)
    mod = module(64, product(kw["warps_per_cta"]), kw.get("cga_layout", []))
    if not bad and rng.random() < 0.05:
        mod["threads_per_warp"], rule = 32, "module_warp_size"
    return {"family": "mfma", "gluon": ("AMDMFMALayout", kw), "text": mfma_text(kw), "shape": shape,
            "elem": "f32", "space": "distributed", "module": mod, "intent": rule}


def dot_text(op_idx, parent_text, k_width):
    k = f", kWidth = {k_width}" if k_width else ""
    return f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent_text}{k}}}>"


def slice_text(dim, parent_text):
    return f"#ttg.slice<{{dim = {dim}, parent = {parent_text}}}>"


def dot_shape(rng, rank, op_idx, parent_shape):
    k = p2(rng, 4, 512)
    shape = list(parent_shape)
    if op_idx == 0:
        shape[-1] = k
    else:
        shape[-2] = k
    return shape


def gen_mfma_dot(rng, api):
    rank = 3 if rng.random() < 0.2 else 2
    bad = refuse(rng)
    kw, rule = mfma_params(rng, rank, bad and rng.random() < 0.4)
    op_idx = rng.choice([0, 1])
    k_width = rng.choice([1, 2, 4, 8, 8, 16, 16, 32])
    if bad and rule == "ok":
        rule = rng.choice(["kwidth0", "opidx"])
        if rule == "kwidth0":
            k_width = 0
        else:
            op_idx = rng.choice([2, 3])
    shape = dot_shape(rng, rank, op_idx, mfma_shape(rng, rank, kw))
    dot = {"operand_index": op_idx, "parent": ("AMDMFMALayout", kw), "k_width": k_width}
    return {"family": "mfma_dot", "gluon": ("DotOperandLayout", dot),
            "text": dot_text(op_idx, mfma_text(kw), k_width), "shape": shape, "elem": "f16",
            "space": "distributed", "module": module(64, product(kw["warps_per_cta"]), kw.get("cga_layout", [])),
            "intent": rule}


def gen_mfma_slice(rng, api):
    rank = 3 if rng.random() < 0.2 else 2
    bad = refuse(rng)
    kw, rule = mfma_params(rng, rank, bad and rng.random() < 0.5)
    dim = rng.randrange(rank)
    if bad and rule == "ok":
        rule, dim = "slice_dim", rank + rng.choice([0, 1])
    parent_shape = mfma_shape(rng, rank, kw)
    shape = [s for i, s in enumerate(parent_shape) if i != dim] if dim < rank else parent_shape[:-1]
    return {"family": "mfma_slice", "gluon": ("SliceLayout", {"dim": dim, "parent": ("AMDMFMALayout", kw)}),
            "text": slice_text(dim, mfma_text(kw)), "shape": shape, "elem": "f32", "space": "distributed",
            "module": module(64, product(kw["warps_per_cta"]), kw.get("cga_layout", [])), "intent": rule}


# ---------------------------------------------------------------------------
# AMD WMMA and its children


WMMA_SHAPES = {1: [[16, 16, 16]], 2: [[16, 16, 16], [16, 16, 32]],
               3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64], [32, 16, 128]]}
WMMA_SHAPES_36 = {1: [[16, 16, 16]], 2: [[16, 16, 16], [16, 16, 32]],
                  3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128]]}


def wmma_cta_bases(rng, rank):
    """Register and warp bases (in tiles): per dim a few bits, each a
    register or a warp bit; sometimes a broadcast (zero) warp basis."""
    regs, warps = [], []
    for d in range(rank):
        n = rng.choice([0, 0, 1, 1, 2, 3]) if d >= rank - 2 else rng.choice([0, 1])
        for i in range(n):
            b = [0] * rank
            b[d] = 1 << i
            (regs if rng.random() < 0.3 else warps).append(b)
    rng.shuffle(warps)
    rng.shuffle(regs)
    # Keep each dim's bits in increasing order within an in-dim (Triton does
    # not need it; it keeps the layouts typical).
    warps.sort(key=lambda b: (max(range(rank), key=lambda i: b[i]), max(b)))
    if rng.random() < 0.1:
        warps.append([0] * rank)
    if not warps and rng.random() < 0.8:
        # A single warp: Triton prints `ctaLayout = {}` and cannot read it
        # back; most cases get a warp.
        b = [0] * rank
        d = rng.randrange(rank)
        b[d] = 1 << sum(1 for r in regs if r[d])
        warps.append(b)
    return regs, warps


def wmma_params(rng, rank, api, bad=False):
    version = rng.choice([1, 2, 3])
    shapes = (WMMA_SHAPES if api["wmma_bases"] else WMMA_SHAPES_36)[version]
    kw = {"version": version, "transposed": rng.random() < 0.5}
    instr = rng.choice(shapes)
    if instr != [16, 16, 16] or rng.random() < 0.2:
        kw["instr_shape"] = instr
    if api["wmma_bases"]:
        regs, warps = wmma_cta_bases(rng, rank)
        kw["warp_bases"] = warps
        if regs:
            kw["reg_bases"] = regs
        if rank != 2:
            kw["rank"] = rank
    else:
        kw["warps_per_cta"] = random_warps(rng, rank)
        if rng.random() < 0.3:
            kw["tiles_per_warp"] = [rng.choice([1, 1, 2, 4]) for _ in range(rank)]
    cga = random_cga(rng, rank)
    if cga:
        kw["cga_layout"] = cga
    rule = "ok"
    if bad:
        rule = rng.choice(["version", "instr", "cga_perm"])
        if rule == "version":
            kw["version"] = rng.choice([0, 4])
        elif rule == "instr":
            kw["instr_shape"] = rng.choice([[16, 16, 8], [32, 32, 8], [16, 8, 16]])
            if version == 1:
                kw["instr_shape"] = [16, 16, 32]
        else:
            kw["cga_layout"] = [[1] + [0] * (rank - 1), [1] + [0] * (rank - 1)]
    return kw, rule


def wmma_gluon(kw):
    """Gluon's AMDWMMALayout, or None where Triton could not read back its
    own printing of it (it leaves out `rank` and an empty warp list): those
    go as TTGIR text only, written with `rank = 3` / `warp = []`."""
    if "warp_bases" in kw and (kw.get("rank", 2) != 2 or not kw["warp_bases"]):
        return None
    return ("AMDWMMALayout", kw)


def wmma_warps(kw):
    if "warp_bases" in kw:
        return 1 << len(kw["warp_bases"])
    return product(kw["warps_per_cta"])


def wmma_text(kw):
    s = f"#ttg.amd_wmma<{{version = {kw['version']}, isTranspose = {bool_text(kw['transposed'])}"
    if "warp_bases" in kw:
        parts = []
        if kw.get("reg_bases"):
            parts.append(f"register = {bases_text(kw['reg_bases'])}")
        parts.append(f"warp = {bases_text(kw['warp_bases'])}")
        s += ", ctaLayout = {" + ", ".join(parts) + "}" + cga_text(kw.get("cga_layout", []))
        if kw.get("rank", 2) != 2:
            s += f", rank = {kw['rank']}"
    else:
        s += f", warpsPerCTA = {ints(kw['warps_per_cta'])}" + cga_text(kw.get("cga_layout", []))
        tiles = kw.get("tiles_per_warp")
        if tiles and any(t != 1 for t in tiles):
            s += f", tilesPerWarp = {ints(tiles)}"
    instr = kw.get("instr_shape", [16, 16, 16])
    if instr != [16, 16, 16]:
        s += f", instrShape = {ints(instr)}"
    return s + "}>"


def wmma_shape(rng, rank, kw):
    instr = kw.get("instr_shape", [16, 16, 16])
    split = split_of(kw, rank)
    shape = [p2(rng, 1, 4) for _ in range(rank - 2)]
    shape += [p2(rng, instr[0], 256) * split[-2], p2(rng, instr[1], 256) * split[-1]]
    return shape


def gen_wmma(rng, api):
    rank = 3 if rng.random() < 0.2 else 2
    bad = refuse(rng)
    kw, rule = wmma_params(rng, rank, api, bad)
    shape = wmma_shape(rng, rank, kw)
    mod = module(32, wmma_warps(kw), kw.get("cga_layout", []))
    if not bad and rng.random() < 0.05:
        mod["threads_per_warp"], rule = 64, "module_warp_size"
    return {"family": "wmma", "gluon": wmma_gluon(kw), "text": wmma_text(kw), "shape": shape,
            "elem": "f32", "space": "distributed", "module": mod, "intent": rule}


def gen_wmma_dot(rng, api):
    rank = 3 if rng.random() < 0.2 else 2
    bad = refuse(rng)
    kw, rule = wmma_params(rng, rank, api, bad and rng.random() < 0.4)
    op_idx = rng.choice([0, 1])
    version = kw["version"]
    valid = {1: [8, 16], 2: [4, 8, 16], 3: [2, 4, 8, 16, 32] if api["wmma_bases"] else [2, 8, 16]}
    k_width = rng.choice(valid.get(version, [8]))
    if bad and rule == "ok":
        rule = "kwidth"
        k_width = rng.choice({1: [2, 4, 32], 2: [2, 32], 3: [0]}[version] if version in (1, 2, 3) else [0])
    shape = dot_shape(rng, rank, op_idx, wmma_shape(rng, rank, kw))
    dot = {"operand_index": op_idx, "parent": ("AMDWMMALayout", kw), "k_width": k_width}
    return {"family": "wmma_dot", "gluon": ("DotOperandLayout", dot) if wmma_gluon(kw) else None,
            "text": dot_text(op_idx, wmma_text(kw), k_width), "shape": shape, "elem": "f16",
            "space": "distributed", "module": module(32, wmma_warps(kw), kw.get("cga_layout", [])),
            "intent": rule}


def gen_wmma_slice(rng, api):
    rank = 3 if rng.random() < 0.2 else 2
    bad = refuse(rng)
    kw, rule = wmma_params(rng, rank, api, bad and rng.random() < 0.5)
    dim = rng.randrange(rank)
    if bad and rule == "ok":
        rule, dim = "slice_dim", rank
    parent_shape = wmma_shape(rng, rank, kw)
    shape = [s for i, s in enumerate(parent_shape) if i != dim] if dim < rank else parent_shape[:-1]
    return {"family": "wmma_slice",
            "gluon": ("SliceLayout", {"dim": dim, "parent": ("AMDWMMALayout", kw)}) if wmma_gluon(kw) else None,
            "text": slice_text(dim, wmma_text(kw)), "shape": shape, "elem": "f32", "space": "distributed",
            "module": module(32, wmma_warps(kw), kw.get("cga_layout", [])), "intent": rule}


# ---------------------------------------------------------------------------
# NVIDIA and blocked dot operands whose CGA layout splits K


def gen_dot_cga(rng, api):
    rank = 2
    op_idx = rng.choice([0, 1])
    k_dim = 1 if op_idx == 0 else 0
    cga = []
    nxt = [1, 1]
    for _ in range(rng.choice([1, 1, 2])):
        d = k_dim if rng.random() < 0.6 else 1 - k_dim
        b = [0, 0]
        b[d] = nxt[d]
        nxt[d] *= 2
        cga.append(b)
    if rng.random() < 0.5:
        warps = random_warps(rng, 2, 8)
        parent = ("NVMMADistributedLayout", {"version": [2, 0], "warps_per_cta": warps,
                                              "instr_shape": [16, 8], "cga_layout": cga})
        ptext = (f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {ints(warps)}"
                 f"{cga_text(cga)}, instrShape = [16, 8]}}>")
        k_width = rng.choice([1, 2, 4, 8])
        tpw = 32
    else:
        spt = [rng.choice([1, 2, 4]) for _ in range(2)]
        tpw_v = rng.choice([[4, 8], [8, 4], [2, 16], [16, 2], [1, 32]])
        warps = random_warps(rng, 2, 8)
        order = rng.choice([[1, 0], [0, 1]])
        parent = ("BlockedLayout", {"size_per_thread": spt, "threads_per_warp": tpw_v,
                                     "warps_per_cta": warps, "order": order, "cga_layout": cga})
        ptext = (f"#ttg.blocked<{{sizePerThread = {ints(spt)}, threadsPerWarp = {ints(tpw_v)}, "
                 f"warpsPerCTA = {ints(warps)}, order = {ints(order)}{cga_text(cga)}}}>")
        k_width = 0
        tpw = 32
    split = cga_split(cga, 2)
    shape = [p2(rng, 16, 128) * split[0], p2(rng, 16, 128) * split[1]]
    dot = {"operand_index": op_idx, "parent": parent, "k_width": k_width}
    return {"family": "dot_cga", "gluon": ("DotOperandLayout", dot), "text": dot_text(op_idx, ptext, k_width),
            "shape": shape, "elem": "f16", "space": "distributed", "module": module(tpw, product(warps), cga),
            "intent": "ok"}


# ---------------------------------------------------------------------------
# Linear layouts: generic linear (distributed) and shared linear


def permutation_bases(rng, shape, names_sizes):
    """Split the bits of `shape` (one-hot bases) among in-dims: returns
    {in-dim: bases} with each in-dim getting names_sizes[in-dim] bits."""
    rank = len(shape)
    bits = []
    for d in range(rank):
        v = 1
        while v < shape[d]:
            b = [0] * rank
            b[d] = v
            bits.append(b)
            v *= 2
    rng.shuffle(bits)
    out, i = {}, 0
    for name, n in names_sizes:
        out[name] = bits[i:i + n]
        i += n
    return out


def gen_generic_linear(rng, api):
    rank = rng.choice([1, 2, 2, 3])
    shape = [p2(rng, 2, 64) for _ in range(rank)]
    total = sum(s.bit_length() - 1 for s in shape)
    lane_bits = min(5, total)
    warp_bits = min(rng.choice([0, 1, 2, 3]), total - lane_bits)
    block_bits = rng.choice([0, 0, 1]) if total - lane_bits - warp_bits > 0 else 0
    reg_bits = total - lane_bits - warp_bits - block_bits
    b = permutation_bases(rng, shape, [("register", reg_bits), ("lane", lane_bits), ("warp", warp_bits),
                                       ("block", block_bits)])
    # Pad lanes to a warp of 32 with broadcast bases.
    while len(b["lane"]) < 5:
        b["lane"].append([0] * rank)
    rule = "ok"
    warps = b["warp"]
    if len(warps) >= 2 and rank >= 1:
        # A swizzled warp basis: the XOR of two others (what generic_linear
        # allows and linear does not).
        i, j = rng.sample(range(len(warps)), 2)
        warps[i] = [x ^ y for x, y in zip(warps[i], warps[j])]
    if refuse(rng):
        rule = rng.choice(["swizzled_register", "not_surjective"])
        if rule == "swizzled_register" and b["register"] and rank >= 2 and len(b["lane"]) > 0:
            other = next((l for l in b["lane"] if any(l)), None)
            if other is not None and b["register"][0] != other:
                b["register"][0] = [x ^ y for x, y in zip(b["register"][0], other)]
            else:
                rule = "ok"
        elif rule == "not_surjective" and b["lane"] and any(b["lane"][0]):
            b["lane"][0] = [0] * rank
        else:
            rule = "ok"
    text = ("#ttg.generic_linear<{" + ", ".join(f"{k} = {bases_text(b[k])}"
                                                 for k in ("register", "lane", "warp", "block")) + "}>")
    gluon = None
    if api["generic_linear"]:
        gluon = ("DistributedLinearLayout", {"reg_bases": b["register"], "lane_bases": b["lane"],
                                             "warp_bases": b["warp"], "block_bases": b["block"],
                                             "shape": shape})
    return {"family": "generic_linear", "gluon": gluon, "text": text, "shape": shape, "elem": "f32",
            "space": "distributed", "module": module(32, 1 << len(b["warp"]), ctas=1 << len(b["block"])),
            "intent": rule}


def gen_shared_linear(rng, api):
    rank = rng.choice([1, 2, 2, 3])
    shape = [p2(rng, 2, 64) for _ in range(rank)]
    total = sum(s.bit_length() - 1 for s in shape)
    block_bits = rng.choice([0, 0, 0, 1]) if total > 1 else 0
    b = permutation_bases(rng, shape, [("offset", total - block_bits), ("block", block_bits)])
    rule = "ok"
    if rng.random() < 0.15 and b["offset"]:
        b["offset"].insert(rng.randrange(len(b["offset"]) + 1), [0] * rank)  # a broadcast offset
        rule = "broadcast_offset"
    if refuse(rng) and len(b["offset"]) >= 2:
        rule = "repeated_basis"
        b["offset"][1] = list(b["offset"][0])
    align = rng.choice([16, 16, 128, 1024])
    kw = {"offset_bases": b["offset"], "block_bases": b["block"], "alignment": align}
    block = f", block = {bases_text(b['block'])}" if b["block"] else ""
    text = f"#ttg.shared_linear<{{offset = {bases_text(b['offset'])}{block}}}, alignment = {align}>"
    return {"family": "shared_linear", "gluon": ("SharedLinearLayout", kw), "text": text, "shape": shape,
            "elem": "f16", "space": "shared", "module": module(32, 4, ctas=1 << len(b["block"])),
            "intent": rule}


# ---------------------------------------------------------------------------
# Shared memory: AMD rotating, padded, partitioned


def gen_rotating(rng, api):
    rank = rng.choice([1, 2, 2, 2, 3])
    vec = p2(rng, 1, 16)
    per_phase = p2(rng, 1, 8)
    max_phase = p2(rng, 1, 16)
    order = list(range(rank))
    rng.shuffle(order)
    cga = random_cga(rng, rank, 1)
    split = cga_split(cga, rank)
    shape = [p2(rng, 2, 128) * split[d] for d in range(rank)]
    rule = "ok"
    text = (f"#ttg.amd_rotating_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
            f"order = {ints(order)}{cga_text(cga)}}}>")
    if refuse(rng):
        rule = rng.choice(["key", "cga_perm"])
        if rule == "key":
            text = text.replace("vec = ", "vector = ")
        elif rank >= 1:
            bad = [[1] + [0] * (rank - 1)] * 2
            text = (f"#ttg.amd_rotating_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
                    f"order = {ints(order)}{cga_text(bad)}}}>")
            cga = bad
    return {"family": "rotating_shared", "gluon": None, "text": text, "shape": shape, "elem": "f16",
            "space": "shared", "module": module(64, 4, cga), "intent": rule}


def padded_params(rng, shape, rank):
    pairs = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        interval = p2(rng, 2, 2048)
        if interval in [p[0] for p in pairs]:
            continue
        pairs.append([interval, p2(rng, 1, 16)])
    return pairs


def padded_text(pairs, offset, block):
    iv = "[" + ", ".join(f"{i}:+{p}" for i, p in pairs) + "]"
    return f"#ttg.padded_shared<{iv} {{offset = {bases_text(offset)}, block = {bases_text(block)}}}>"


def gen_padded(rng, api):
    rank = rng.choice([1, 2, 2, 3])
    shape = [p2(rng, 2, 64) for _ in range(rank)]
    pairs = padded_params(rng, shape, rank)
    total = sum(s.bit_length() - 1 for s in shape)
    block_bits = rng.choice([0, 0, 0, 1]) if total > 1 else 0
    b = permutation_bases(rng, shape, [("offset", total), ("block", 0)])
    if block_bits:
        # Gluon gives the block bases in units of a CTA's piece: the top bit
        # of a dim.
        top = max(b["offset"], key=lambda v: (max(v), rng.random()))
        b["offset"].remove(top)
        b["block"] = [top]
    rule = "ok"
    if rng.random() < 0.3:
        # Gluon's with_identity_for: the identity in some order.
        order = list(range(rank))
        rng.shuffle(order)
        offset = []
        for d in order:
            v = 1
            while v < shape[d]:
                bb = [0] * rank
                bb[d] = v
                offset.append(bb)
                v *= 2
        b = {"offset": offset, "block": []}
    if refuse(rng):
        rule = rng.choice(["interval_pow2", "padding_pow2", "duplicate", "two_dims", "broadcast"])
        if rule == "interval_pow2":
            pairs[0][0] = rng.choice([3, 6, 100])
        elif rule == "padding_pow2":
            pairs[0][1] = rng.choice([3, 5])
        elif rule == "duplicate":
            pairs.append([pairs[0][0], 2])
        elif rule == "two_dims" and rank >= 2 and len(b["offset"]) >= 2:
            i = next((i for i, o in enumerate(b["offset"]) if o[0] == 0), None)
            j = next((j for j, o in enumerate(b["offset"]) if o[0] != 0), None)
            if i is not None and j is not None:
                b["offset"][i] = [x + y for x, y in zip(b["offset"][i], b["offset"][j])]
            else:
                rule = "ok"
        elif rule == "broadcast" and b["offset"]:
            b["offset"][0] = [0] * rank
        else:
            rule = "ok"
    # Gluon's cga_layout (block bases) are in units of whole CTA copies.
    block_key = api["padded_block_key"]
    kw = {"interval_padding_pairs": pairs, "offset_bases": b["offset"], block_key: [],
          "shape": shape}
    blocks_for_text = b["block"]
    if b["block"]:
        kw[block_key] = [[1 if x else 0 for x in bb] for bb in b["block"]]
    return {"family": "padded_shared", "gluon": ("PaddedSharedLayout", kw),
            "text": padded_text(pairs, b["offset"], blocks_for_text), "shape": shape, "elem": "f16",
            "space": "shared", "module": module(64, 4, ctas=1 << len(b["block"])), "intent": rule}


def swizzled_text(vec, pp, mp, order):
    return f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {pp}, maxPhase = {mp}, order = {ints(order)}}}>"


def gen_partitioned(rng, api):
    rank = 2
    parts = p2(rng, 2, 4)
    groups = p2(rng, 1, 4)
    dim = rng.randrange(rank)
    shape = [p2(rng, 8, 64) for _ in range(rank)]
    shape[dim] = max(shape[dim], parts * groups * p2(rng, 1, 8))
    # A padded piece is refused by Triton (toLinearLayout asserts): a few.
    inner_kind = rng.choice(["swizzled"] * 5 + ["nvmma"] * 4 + ["padded"])
    if inner_kind == "swizzled":
        vec, pp, mp = p2(rng, 1, 8), p2(rng, 1, 4), p2(rng, 1, 8)
        order = rng.choice([[1, 0], [0, 1]])
        inner = ("SwizzledSharedLayout", {"vec": vec, "per_phase": pp, "max_phase": mp, "order": order})
        inner_text = swizzled_text(vec, pp, mp, order)
    elif inner_kind == "nvmma":
        sw = rng.choice([32, 64, 128])
        inner = ("NVMMASharedLayout", {"swizzle_byte_width": sw, "element_bitwidth": 16})
        inner_text = (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {sw}, transposed = false, "
                      f"elementBitWidth = 16}}>")
        shape[1] = max(shape[1], 8 * sw // 16 * (parts * groups if dim == 1 else 1))
        shape[0] = max(shape[0], 8 * (parts * groups if dim == 0 else 1))
    else:
        piece = list(shape)
        piece[dim] //= parts * groups
        pairs = [[p2(rng, 4, 256), p2(rng, 1, 8)]]
        order = rng.choice([[1, 0], [0, 1]])
        offset = []
        for d in order:
            v = 1
            while v < piece[d]:
                bb = [0, 0]
                bb[d] = v
                offset.append(bb)
                v *= 2
        inner = ("PaddedSharedLayout", {"interval_padding_pairs": pairs, "offset_bases": offset,
                                         api["padded_block_key"]: [], "shape": piece})
        inner_text = padded_text(pairs, offset, [])
    rule = "ok"
    if refuse(rng):
        rule = rng.choice(["partitions", "groups", "dim"])
        if rule == "partitions":
            parts = rng.choice([1, 3])
        elif rule == "groups":
            groups = rng.choice([0, 3])
        else:
            dim = 2
    kw = {"num_partitions": parts, "num_groups": groups, "partition_dim": dim, "partition_layout": inner}
    text = (f"#ttg.partitioned_shared<{{numPartitions = {parts}, numGroups = {groups}, partitionDim = {dim}, "
            f"partitionLayout = {inner_text}}}>")
    return {"family": "partitioned_shared", "gluon": ("PartitionedSharedLayout", kw) if api["partitioned"] else None,
            "text": text, "shape": shape, "elem": "f16", "space": "shared", "module": module(64, 4),
            "intent": rule}


# ---------------------------------------------------------------------------
# Tensor memory and its scales


def tmem_text(kw):
    """The attribute of Gluon's TensorMemoryLayout arguments, in the spelling
    they have (cga_layout: today's CGALayout; cta_split_num: 3.6's
    CTASplitM/N)."""
    s = (f"#ttng.tensor_memory_encoding<blockM = {kw['block'][0]}, blockN = {kw['block'][1]}, "
         f"colStride = {kw['col_stride']}")
    split = kw.get("cta_split_num", [1, 1])
    s += cga_text(kw.get("cga_layout", []))
    if split[0] != 1:
        s += f", CTASplitM = {split[0]}"
    if split[1] != 1:
        s += f", CTASplitN = {split[1]}"
    if kw.get("two_ctas"):
        s += ", twoCTAs = true"
    if kw.get("fp4_padded"):
        s += ", fp4Padded = true"
    return s + ">"


def gen_tmem(rng, api):
    block_m = rng.choice([64, 128, 128])
    block_n = p2(rng, 1, 256)
    elem = rng.choice(["f32", "f16", "f16", "i8"])
    bits = {"f32": 32, "f16": 16, "i8": 8}[elem]
    col_stride = rng.choice([s for s in (1, 2, 4) if s * bits <= 32])
    two_ctas = rng.random() < 0.2
    kw = {"block": [block_m, block_n], "col_stride": col_stride}
    split = [1, 1]
    rule = "ok"
    if api["tmem_cga"]:
        cga = []
        if rng.random() < 0.3:
            cga = [[1, 0]] if rng.random() < 0.7 else [[0, 1]]
            if rng.random() < 0.3:
                cga.append([0, 1] if cga[0] == [1, 0] else [1, 0])
        if two_ctas:
            # Today's Triton wants the first CTA bit along M.
            cga = [[1, 0]] + ([[0, 1]] if rng.random() < 0.3 else [])
        split = cga_split(cga, 2)
        if cga:
            kw["cga_layout"] = cga
        fp4 = rng.random() < 0.1 and col_stride == 1
        if fp4:
            kw["fp4_padded"] = True
    else:
        if rng.random() < 0.3:
            split = [rng.choice([1, 2, 2]), rng.choice([1, 1, 2])]
            kw["cta_split_num"] = split
    if two_ctas:
        kw["two_ctas"] = True
    rows = block_m * split[0] * rng.choice([1, 1, 2])
    cols = max(block_n, p2(rng, 1, 256)) * split[1]
    if refuse(rng):
        rule = rng.choice(["blockM", "blockN_pow2", "blockN_big", "col_stride", "bits", "alloc"])
        if rule == "blockM":
            kw["block"][0] = rng.choice([32, 256])
        elif rule == "blockN_pow2":
            kw["block"][1] = 96
        elif rule == "blockN_big":
            kw["block"][1] = 1024
        elif rule == "col_stride":
            kw["col_stride"] = 8
        elif rule == "bits":
            elem, kw["col_stride"] = "f32", 2
        else:
            rows = max(1, block_m // 2)
    s = tmem_text(kw)
    ctas = (1 << len(kw.get("cga_layout", []))) if api["tmem_cga"] else split[0] * split[1]
    return {"family": "tmem", "gluon": ("TensorMemoryLayout", kw), "text": s, "shape": [rows, cols],
            "elem": elem, "space": "tmem", "module": module(32, 4, ctas=ctas), "intent": rule}


def gen_tmem_scales(rng, api):
    kw = {}
    split = [1, 1]
    if api["tmem_cga"]:
        cga = rng.choice([[], [], [], [[1, 0]], [[0, 1]], [[1, 0], [2, 0]], [[0, 1], [0, 2]],
                          [[1, 0], [0, 1]], [[0, 1], [1, 0]], [[0, 0]]])
        split = cga_split(cga, 2)
        if cga:
            kw["cga_layout"] = cga
        text = "#ttng.tensor_memory_scales_encoding<" + (f"CGALayout = {bases_text(cga)}" if cga else "") + ">"
        ctas = 1 << len(cga)
    else:
        if rng.random() < 0.3:
            split = [rng.choice([1, 2]), rng.choice([1, 2])]
            kw["cta_split_num"] = split
        parts = []
        if split[0] != 1:
            parts.append(f"CTASplitM = {split[0]}")
        if split[1] != 1:
            parts.append(f"CTASplitN = {split[1]}")
        text = "#ttng.tensor_memory_scales_encoding<" + ", ".join(parts) + ">"
        ctas = split[0] * split[1]
    shape = [p2(rng, 32, 4096) * split[0], p2(rng, 1, 256) * split[1]]
    elem, rule = "i8", "ok"
    if refuse(rng):
        elem, rule = rng.choice(["f16", "f32"]), "bits"
    return {"family": "tmem_scales", "gluon": ("TensorMemoryScalesLayout", kw), "text": text, "shape": shape,
            "elem": elem, "space": "tmem", "module": module(32, 4, ctas=ctas), "intent": rule}


FAMILIES = {
    "mfma": gen_mfma,
    "mfma_dot": gen_mfma_dot,
    "mfma_slice": gen_mfma_slice,
    "wmma": gen_wmma,
    "wmma_dot": gen_wmma_dot,
    "wmma_slice": gen_wmma_slice,
    "dot_cga": gen_dot_cga,
    "generic_linear": gen_generic_linear,
    "shared_linear": gen_shared_linear,
    "rotating_shared": gen_rotating,
    "padded_shared": gen_padded,
    "partitioned_shared": gen_partitioned,
    "tmem": gen_tmem,
    "tmem_scales": gen_tmem_scales,
}


def generate(family, rng, api):
    case = FAMILIES[family](rng, api)
    return case


# ---------------------------------------------------------------------------
# The same parameters in the newest Triton's spelling, for checking a
# difference that a version rule explains against the other version
# (layouts.py --other-python). Triton 3.6.0 spells tensor memory CTA splits
# CTASplitM/N and WMMA warps warpsPerCTA (+ tilesPerWarp); the newest writes
# CGALayout bases and ctaLayout = {register, warp} bases in tiles. Every
# other family is spelled alike by both.


def split_to_cga(split):
    """CTASplitM/N as CGA bases: M's CTA bits first, then N's."""
    cga = []
    for d in range(2):
        step = 1
        while step < split[d]:
            b = [0, 0]
            b[d] = step
            cga.append(b)
            step *= 2
    return cga


def wmma_bases_of_warps(kw, rank):
    """Triton 3.6's warpsPerCTA and tilesPerWarp as ctaLayout bases in
    tiles: each dim's tiles of one warp (registers), then its warps, the
    last dim fastest."""
    tiles = kw.get("tiles_per_warp") or [1] * rank
    regs, warps = [], []
    for d in reversed(range(rank)):
        step = 1
        while step < tiles[d]:
            b = [0] * rank
            b[d] = step
            regs.append(b)
            step *= 2
    for d in reversed(range(rank)):
        step = tiles[d]
        while step < tiles[d] * kw["warps_per_cta"][d]:
            b = [0] * rank
            b[d] = step
            warps.append(b)
            step *= 2
    return regs, warps


def respell_wmma(kw, rank):
    new = {k: v for k, v in kw.items() if k not in ("warps_per_cta", "tiles_per_warp")}
    regs, warps = wmma_bases_of_warps(kw, rank)
    new["warp_bases"] = warps
    if regs:
        new["reg_bases"] = regs
    if rank != 2:
        new["rank"] = rank
    return new


def respell_newest(case):
    """The case in the newest Triton's spelling (a copy), or None when it is
    spelled alike; the text, the Gluon arguments and the module follow."""
    fam = case["family"]
    c = json.loads(json.dumps(case))
    c.pop("ttgir_text", None)
    c.pop("outcome", None)
    if fam == "tmem" and "CTASplit" in case["text"]:
        kw = c["gluon"][1]
        kw["cga_layout"] = split_to_cga(kw.pop("cta_split_num"))
        c["text"] = tmem_text(kw)
        c["gluon"] = ["TensorMemoryLayout", kw]
        return c
    if fam == "tmem_scales" and "CTASplit" in case["text"]:
        kw = c["gluon"][1]
        cga = split_to_cga(kw.pop("cta_split_num"))
        kw["cga_layout"] = cga
        c["text"] = ("#ttng.tensor_memory_scales_encoding<" +
                     (f"CGALayout = {bases_text(cga)}" if cga else "") + ">")
        c["gluon"] = ["TensorMemoryScalesLayout", kw]
        return c
    if fam.startswith("wmma") and "warpsPerCTA" in case["text"]:
        return respell_wmma_case(c)
    return None


def respell_wmma_case(c):
    """A WMMA, WMMA dot operand or WMMA slice case in ctaLayout's spelling."""
    rank = None
    old = c["text"]
    m = re.search(r"warpsPerCTA = \[([^\]]*)\]", old)
    rank = len(m.group(1).split(","))
    kw = {"version": int(re.search(r"version = (\d+)", old).group(1)),
          "transposed": "isTranspose = true" in old,
          "warps_per_cta": [int(x) for x in m.group(1).split(",")]}
    t = re.search(r"tilesPerWarp = \[([^\]]*)\]", old)
    if t:
        kw["tiles_per_warp"] = [int(x) for x in t.group(1).split(",")]
    i = re.search(r"instrShape = \[([^\]]*)\]", old)
    if i:
        kw["instr_shape"] = [int(x) for x in i.group(1).split(",")]
    g = re.search(r"CGALayout = (\[\[[^=]*?\]\])", old)
    if g:
        kw["cga_layout"] = json.loads(g.group(1))
    new = respell_wmma(kw, rank)
    parent = wmma_text(new)
    parent_old = re.search(r"#ttg\.amd_wmma<\{.*?\}>", old).group(0)
    c["text"] = old.replace(parent_old, parent)
    gl = wmma_gluon(new)
    if c["family"] == "wmma":
        c["gluon"] = gl
    elif c["gluon"] is not None and gl is not None:
        c["gluon"][1]["parent"] = list(gl)
    else:
        c["gluon"] = None
    return c
