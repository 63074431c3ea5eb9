"""Bank conflicts counted from the addresses in Triton's LLVM IR.

An independent count for the convert_layout harness (cvt.py): it does not
ask hlolayout, nor Triton's own estimate. It reads the LLVM IR Triton's
lowering emits for one kernel, finds every shared-memory access
(`store`/`load` on `ptr addrspace(3)`, NVIDIA's `ldmatrix`/`stmatrix`
intrinsics), evaluates the address each lane gives -- the IR's integer
arithmetic over the thread id, for every lane of every warp -- and counts
the wavefronts each access takes under the target's bank rules
(docs/triton-smem.md, "Bank conflicts from Triton's LLVM IR"):

  NVIDIA   32 banks of 4 bytes. A vector access of w bytes per lane is
           served in phases of 128 / w lanes when w > 4 (half warps for
           64 bits, quarter warps for 128 bits), the whole warp otherwise.
           ldmatrix/stmatrix: each 8x8 matrix (8 row addresses of 16 bytes,
           lanes 8m..8m+7 for matrix m) is one phase.
  AMD      gfx90a and gfx942: 32 banks of 4 bytes; a phase holds as many
           lanes as fill them with w bytes each (at least 4), in lane
           order, except gfx942's `ds_read_b128`: lanes 0-3 with 20-23,
           4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27 (and the
           same 32 higher), as AMD's article on LDS bank conflicts gives
           them. gfx950: `ds_read_b64` and `ds_read_b128` see 64 banks
           (32 consecutive lanes; for b128 lanes 0-3, 12-15, 20-23 and
           24-27 together, and their cosets), every other access 32 as on
           gfx942 (the phases and bank counts measured on an MI355X by
           HipKittens' microbenchmarks). The reasons and sources:
           docs/triton-smem.md, "Banks and phases".

In one phase a bank serves one 4-byte word per cycle; lanes reading the
same word share it (broadcast). The phase takes as many wavefronts as the
most distinct words any bank holds: that is the access's "ways" (1:
conflict-free). A side's ways are the most of any of its accesses.

Pure Python (no Triton needed): `llir_banks_test.py` checks it on a
hand-written IR snippet.
"""

import re
import sys

INT_TYPES = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
ELEMENT_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "half": 2,
                 "bfloat": 2, "float": 4, "double": 8, "ptr": 8}

# The banks and ds_read_b128 phase Triton 3.9.0's estimate takes for each
# target (bank count, lane bits of one ds_read_b128 phase or None): the
# "triton_3.9" model and the others below, not the hardware's
# (hardware_banks, hardware_phases).
TARGET_RULES = {
    "cuda": (32, None),
    "hip:gfx90a": (32, None),
    "hip:gfx942": (32, (0, 1, 4)),
    "hip:gfx950": (64, (0, 1, 3, 4)),
}


class Unknown(Exception):
    """An address depends on something the evaluator does not model."""


def _type_bytes(t):
    t = t.strip()
    m = re.fullmatch(r"<(\d+) x (\w+)>", t)
    if m:
        return int(m.group(1)) * ELEMENT_BYTES[m.group(2)]
    m = re.fullmatch(r"\[(\d+) x (.+)\]", t)
    if m:
        return int(m.group(1)) * _type_bytes(m.group(2))
    if t in ELEMENT_BYTES:
        return ELEMENT_BYTES[t]
    raise Unknown("type " + t)


def _split_args(text):
    """Top-level comma-separated pieces of `text`."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _strip_meta(line):
    return re.sub(r", ![\w.]+ !\d+", "", line).strip()


class Evaluator:
    """Evaluates SSA integer values of one LLVM IR function for every lane
    of one warp. Values are lists (one entry per lane)."""

    _BINOPS = {
        "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
        "mul": lambda a, b: a * b, "and": lambda a, b: a & b,
        "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
        "shl": lambda a, b: a << b, "lshr": lambda a, b: a >> b,
        "ashr": lambda a, b: a >> b, "udiv": lambda a, b: a // b,
        "urem": lambda a, b: a % b, "sdiv": lambda a, b: int(a / b),
        "srem": lambda a, b: a - b * int(a / b),
    }
    _ICMP = {
        "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
        "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b,
        "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b,
        "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b,
        "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b,
    }

    def __init__(self, defs, lanes, warp):
        self.defs = defs  # SSA name -> its instruction text
        self.lanes = lanes
        self.tid = [warp * lanes + i for i in range(lanes)]
        self.memo = {}
        self.active = set()

    def value(self, operand, bits=32):
        operand = operand.strip()
        if re.fullmatch(r"-?\d+", operand):
            return [int(operand)] * self.lanes
        if operand in ("true", "false"):
            return [int(operand == "true")] * self.lanes
        if operand == "@global_smem":
            return [0] * self.lanes
        if operand in ("null", "zeroinitializer"):
            return [0] * self.lanes
        if operand.startswith("{") and operand.endswith("}"):
            # A constant struct: `{ ptr addrspace(3) @global_smem, i32 0 }`.
            return ("struct", [self._typed(f)[1]
                               for f in _split_args(operand[1:-1])])
        m = re.fullmatch(r"getelementptr (?:inbounds |nuw |nusw )*"
                         r"\((.+)\)", operand)
        if m:  # a constant expression, `getelementptr (i8, ptr ..., i32 8)`
            return self._eval("getelementptr " + m.group(1))
        if not operand.startswith("%"):
            raise Unknown("operand " + operand)
        if operand in ("undef", "poison"):
            raise Unknown(operand)
        if operand not in self.memo:
            if operand not in self.defs:
                raise Unknown("argument " + operand)
            if operand in self.active:  # around a loop
                raise Unknown("a value that depends on itself")
            self.active.add(operand)
            try:
                self.memo[operand] = self._eval(self.defs[operand])
            finally:
                self.active.discard(operand)
        return self.memo[operand]

    @staticmethod
    def _wrap(vals, bits):
        mask = (1 << bits) - 1
        return [v & mask for v in vals]

    def _typed(self, text):
        """`TYPE OPERAND` -> (type, values)."""
        text = re.sub(r"^(noundef|signext|zeroext|inreg) ", "", text.strip())
        m = re.match(r"(ptr addrspace\(\d+\)|ptr) (getelementptr .*)$", text)
        if m:
            return m.group(1), self.value(m.group(2))
        t, op = text.rsplit(" ", 1)
        return t, self.value(op)

    def _eval(self, rhs):
        rhs = _strip_meta(rhs)
        m = re.match(r"(add|sub|mul|and|or|xor|shl|lshr|ashr|udiv|urem|sdiv|"
                     r"srem)\b((?: nuw| nsw| exact| disjoint)*) (i\d+) "
                     r"(.+)$", rhs)
        if m:
            bits = INT_TYPES[m.group(3)]
            a, b = _split_args(m.group(4))
            va, vb = self.value(a), self.value(b)
            if m.group(1) in ("sdiv", "srem", "ashr"):
                va = [_signed(x, bits) for x in va]
                vb = [_signed(x, bits) for x in vb]
            if m.group(1) in ("udiv", "urem", "sdiv", "srem") and 0 in vb:
                raise Unknown("division by zero")
            f = self._BINOPS[m.group(1)]
            return self._wrap([f(x, y) for x, y in zip(va, vb)], bits)
        m = re.match(r"icmp (\w+) (i\d+) (.+)$", rhs)
        if m:
            bits = INT_TYPES[m.group(2)]
            a, b = _split_args(m.group(3))
            va, vb = self.value(a), self.value(b)
            if m.group(1).startswith("s"):
                va = [_signed(x, bits) for x in va]
                vb = [_signed(x, bits) for x in vb]
            f = self._ICMP[m.group(1)]
            return [int(f(x, y)) for x, y in zip(va, vb)]
        m = re.match(r"select i1 (\S+), (.+)$", rhs)
        if m:
            c = self.value(m.group(1))
            a, b = _split_args(m.group(2))
            va, vb = self._typed(a)[1], self._typed(b)[1]
            return [x if k else y for k, x, y in zip(c, va, vb)]
        m = re.match(r"(zext|sext|trunc|bitcast|ptrtoint|inttoptr|"
                     r"addrspacecast)(?: nneg)? (.+) to (\S+)$", rhs)
        if m:
            t, v = self._typed(m.group(2))
            if m.group(1) == "sext":
                v = [_signed(x, INT_TYPES[t]) for x in v]
            if m.group(3) in INT_TYPES:
                v = self._wrap(v, INT_TYPES[m.group(3)])
            elif m.group(1) == "bitcast" and m.group(3) not in ("ptr",):
                raise Unknown("bitcast to " + m.group(3))
            return v
        m = re.match(r"getelementptr (?:inbounds |nuw |nusw )*([^,]+|"
                     r"\[[^\]]+\]), (.+)$", rhs)
        if m:
            args = _split_args(m.group(2))
            base = self._typed(args[0])[1]
            if len(args) != 2:
                raise Unknown("getelementptr with several indices")
            idx = self._typed(args[1])[1]
            size = _type_bytes(m.group(1))
            return [(b + i * size) & 0xFFFFFFFF for b, i in zip(base, idx)]
        if rhs.startswith("call") or rhs.startswith("tail call"):
            return self._call(rhs)
        if rhs.startswith("phi "):
            # A loop-carried value at its first iteration: the first
            # incoming value that does not depend on the phi itself.
            incoming = rhs[rhs.index(" [") + 1:]
            for pair in _split_args(incoming):
                value = _split_args(pair.strip()[1:-1])[0]
                try:
                    return self.value(value)
                except Unknown:
                    continue
            raise Unknown("phi with no incoming value to follow")
        m = re.match(r"extractvalue (\{.*\}) (\S+), (\d+)$", rhs)
        if m:
            agg = self.value(m.group(2))
            if not isinstance(agg, tuple):
                raise Unknown("extractvalue of a non-struct")
            return agg[1][int(m.group(3))]
        m = re.match(r"insertvalue (\{.*\}) (\S+), (.+), (\d+)$", rhs)
        if m:
            fields = len(_split_args(m.group(1).strip()[1:-1]))
            if m.group(2) in ("undef", "poison"):
                agg = ("struct", [None] * fields)
            else:
                agg = self.value(m.group(2))
            out = list(agg[1])
            out[int(m.group(4))] = self._typed(m.group(3))[1]
            return ("struct", out)
        m = re.match(r"freeze (.+)$", rhs)
        if m:
            return self._typed(m.group(1))[1]
        raise Unknown("instruction " + rhs[:60])

    def _call(self, rhs):
        m = re.search(r"@([\w.]+)\((.*)\)\s*(#\d+)?$", rhs)
        if not m:
            raise Unknown("call " + rhs[:60])
        name, args = m.group(1), _split_args(m.group(2))
        if name in ("llvm.nvvm.read.ptx.sreg.tid.x",
                    "llvm.amdgcn.workitem.id.x"):
            return list(self.tid)
        if name == "llvm.nvvm.read.ptx.sreg.laneid":
            return [t % self.lanes for t in self.tid]
        if name.startswith("llvm.nvvm.shfl.sync.idx"):
            v = self._typed(args[1])[1]
            src = self._typed(args[2])[1]
            return [v[s % self.lanes] for s in src]
        if name == "llvm.amdgcn.readfirstlane" or name.startswith(
                "llvm.amdgcn.readfirstlane."):
            v = self._typed(args[0])[1]
            return [v[0]] * self.lanes
        raise Unknown("call @" + name)


def _signed(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def _function_body(llir):
    """The lines of the module's one defined function."""
    lines, inside = [], False
    for line in llir.splitlines():
        if line.startswith("define "):
            inside = True
            continue
        if inside and line.startswith("}"):
            break
        if inside:
            lines.append(line)
    return lines


def shared_accesses(llir):
    """Every shared-memory access of the kernel, in program order:
    (side, kind, bytes per lane, address operand). kind is "vector",
    "matrix.xN" (ldmatrix/stmatrix of N matrices) or "unmodelled"."""
    accesses, defs = [], {}
    for raw in _function_body(llir):
        line = _strip_meta(raw)
        m = re.match(r"\s*(%[\w.]+) = (.+)$", line)
        if m:
            defs[m.group(1)] = m.group(2)
        m = re.match(r"\s*store (?:volatile )?(<\d+ x \w+>|\w+) [^,]+, "
                     r"ptr addrspace\(3\) (.+?)(?:, align \d+)?$", line)
        if m:
            accesses.append(("store", "vector", _type_bytes(m.group(1)),
                             m.group(2)))
            continue
        m = re.search(r"= load (?:volatile )?(<\d+ x \w+>|\w+), "
                      r"ptr addrspace\(3\) (.+?)(?:, align \d+)?$", line)
        if m:
            accesses.append(("load", "vector", _type_bytes(m.group(1)),
                             m.group(2)))
            continue
        m = re.search(r"@llvm\.nvvm\.(ldmatrix|stmatrix)[\w.]*?\.x([124])"
                      r"[\w.]*\(ptr addrspace\(3\) (?:\w+ )*(%[\w.]+)", line)
        if m:
            side = "store" if m.group(1) == "stmatrix" else "load"
            accesses.append((side, "matrix.x" + m.group(2), 16, m.group(3)))
            continue
        if "addrspace(3)" in line and ("call" in line or "asm" in line):
            side = "store" if "store" in line or "write" in line else "load"
            accesses.append((side, "unmodelled", 0, line.strip()[:80]))
    return accesses, defs


# The phase models: "hardware" is the rule above (hlolayout's figure for
# Triton 3.6.0 on AMD, where Triton estimates nothing). The others are the
# lane groups Triton's own estimate assumes (docs/triton-smem.md), counted
# so that a difference from hlolayout (which follows Triton 3.9.0's
# estimate) can be told apart from a wrong figure:
#   "triton_3.9"   AMD: TARGET_RULES' banks for every access (64 on gfx950)
#                  and ds_read_b128 reading lane bits 0, 1, 4 (gfx942) or
#                  0, 1, 3, 4 (gfx950) together, consecutive lanes
#                  otherwise (the phases of Triton 3.9.0's estimate);
#   "first_lanes"  AMD: consecutive lanes filling the banks, also for
#                  ds_read_b128 (Triton 3.9.0's estimate of a layout chosen
#                  for the plain phase);
#   "lanes_0124"   gfx950: ds_read_b128 reading lane bits 0, 1, 2, 4
#                  together (the read phase hlolayout weighs as
#                  "empirical", docs/triton.md);
#   "triton_3.6"   AMD: 32 banks, and a phase of every lane but the top
#                  log2(w / 4) lane bits a w-byte vector spreads over banks
#                  (the phase of Triton 3.6.0's one ld/st estimate, Gluon's
#                  bank_conflicts; its AMD convert_layout computes none:
#                  docs/triton-smem.md).
# Each also counted with the lanes of a phase split by the byte their
# address has within its 4-byte word ("MODEL/words"): Triton's estimate
# intersects the lanes' span with the segment's, so two lanes whose
# addresses differ in a segment bit and in a bit below the word are not a
# conflict for it, though the hardware serves them apart.
PHASE_MODELS = ("hardware", "triton_3.9", "first_lanes", "lanes_0124",
                "triton_3.6")
MODELS = tuple(m + s for m in PHASE_MODELS for s in ("", "/words"))


def hardware_banks(target, nbytes, load):
    """The 4-byte banks one phase of an access sees (docs/triton-smem.md,
    "Banks and phases"): gfx950's 64-bit and 128-bit reads see 64, every
    other access 32."""
    if target == "hip:gfx950" and load and nbytes in (8, 16):
        return 64
    return 32


def model_banks(target, model, nbytes, load):
    """The banks one phase sees under `model` (PHASE_MODELS): the hardware's
    (hardware_banks), 32 for Triton 3.6.0's estimate, else the target's
    bank count in TARGET_RULES (what Triton 3.9.0's estimate takes)."""
    if model == "hardware":
        return hardware_banks(target, nbytes, load)
    if model == "triton_3.6":
        return 32
    return TARGET_RULES["cuda" if target.startswith("cuda") else target][0]


def _cosets(span, lanes):
    """The lanes grouped by the coset of span(span) holding them, each in
    lane order, in the order of their first lane."""
    members = [0]
    for v in span:
        members += [m ^ v for m in members]
    groups = {}
    for lane in range(lanes):
        groups.setdefault(min(lane ^ m for m in members), []).append(lane)
    return [groups[k] for k in sorted(groups)]


def hardware_phases(target, nbytes, lanes, load):
    """The lanes the hardware serves together: on AMD ds_read_b128 reads
    lanes 0-3 with 20-23 (and on gfx950 with 12-15 and 24-27 too), the
    cosets of that set; every other access consecutive lanes that fill the
    banks it sees. Mirrors triton/lds_banks.cc."""
    if target in ("hip:gfx942", "hip:gfx950") and load and nbytes == 16:
        span = [1, 2, 12, 20] if target == "hip:gfx950" else [1, 2, 20]
    else:
        per_phase = max(1, min(lanes, hardware_banks(target, nbytes, load) *
                               4 // max(4, nbytes)))
        span = [1 << b for b in range(per_phase.bit_length() - 1)]
    return _cosets(span, lanes)


def phase_groups(target, kind, nbytes, lanes, model="hardware"):
    """The lanes served together, as a list of lane lists."""
    if kind.startswith("matrix.x"):
        n = int(kind[len("matrix.x"):])
        return [list(range(8 * m, 8 * m + 8)) for m in range(n)]
    if model == "hardware":
        return hardware_phases(target, nbytes, lanes, kind == "vector.load")
    vendor = "cuda" if target.startswith("cuda") else target
    banks, b128_read = TARGET_RULES[vendor]
    if model == "triton_3.6" and vendor != "cuda":
        per_phase = max(1, lanes // max(1, nbytes // 4))
        return [list(range(p, p + per_phase))
                for p in range(0, lanes, per_phase)]
    per_phase = max(1, min(lanes, banks * 4 // max(4, nbytes)))
    if model == "lanes_0124" and vendor == "hip:gfx950":
        b128_read = (0, 1, 2, 4)
    if model in ("triton_3.9", "lanes_0124") and vendor != "cuda" and \
            nbytes == 16 and kind == "vector.load" and b128_read is not None:
        return _cosets([1 << b for b in b128_read], lanes)
    return [list(range(p, p + per_phase)) for p in range(0, lanes, per_phase)]


def ways_of(addresses, groups, nbytes, banks, row_bytes=None,
            split_bytes=False):
    """The most distinct 4-byte words one bank serves in one phase. For a
    matrix access `addresses` are row starts of `row_bytes` bytes each.
    With split_bytes, the lanes of a phase whose addresses sit at different
    bytes of their word are counted apart (the "/words" models)."""
    span = row_bytes or nbytes
    worst = 1
    if split_bytes:
        groups = [[l for l in g if addresses[l] % 4 == b]
                  for g in groups for b in range(4)]
        groups = [g for g in groups if g]
    for group in groups:
        words = {}
        for lane in group:
            a = addresses[lane]
            for w in range(a // 4, (a + max(span, 1) - 1) // 4 + 1):
                words.setdefault(w % banks, set()).add(w)
        worst = max(worst, max(len(s) for s in words.values()))
    return worst


def conflict_ways(llir, target, warp_size, num_warps):
    """{"store_ways", "load_ways", "models", "accesses", "unmodelled"}: the
    worst ways of each side over all warps under the hardware rule, and
    under each model of MODELS ("models": name -> [store, load]); or
    {"error": reason} when an address cannot be evaluated."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    accesses, defs = shared_accesses(llir)
    vendor = "cuda" if target.startswith("cuda") else target
    if vendor not in TARGET_RULES:
        return {"error": "no bank rules for " + target}
    worst = {m: {"store": 1, "load": 1} for m in MODELS}
    out = {"accesses": 0, "unmodelled": 0}
    evaluators = [Evaluator(defs, warp_size, w) for w in range(num_warps)]
    # NVIDIA's estimate has no other phase model: only its words variant.
    models = MODELS if vendor != "cuda" else ("hardware", "hardware/words")
    for side, kind, nbytes, operand in accesses:
        if kind == "unmodelled":
            out["unmodelled"] += 1
            continue
        out["accesses"] += 1
        full_kind = kind if kind.startswith("matrix") else "vector." + side
        row = 16 if kind.startswith("matrix") else None
        addresses = []
        for ev in evaluators:
            try:
                addresses.append(ev.value(operand))
            except (Unknown, KeyError, ValueError) as e:
                return {"error": "cannot evaluate %s: %s" % (operand, e)}
        for model in models:
            phase_model, _, words = model.partition("/")
            banks = model_banks(target, phase_model, nbytes, side == "load")
            groups = phase_groups(target, full_kind, nbytes, warp_size,
                                  phase_model)
            for addrs in addresses:
                ways = ways_of(addrs, groups, nbytes, banks, row, bool(words))
                worst[model][side] = max(worst[model][side], ways)
    out["store_ways"] = worst["hardware"]["store"]
    out["load_ways"] = worst["hardware"]["load"]
    out["models"] = {m: [worst[m]["store"], worst[m]["load"]]
                     for m in models if m != "hardware"}
    return out
