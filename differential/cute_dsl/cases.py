"""Seeded cases for the CuTe DSL harness: each case is a Python expression
over `cute` (the DSL's `cutlass.cute`, or the twin `hlolayout.cute_dsl`) and
`utils` (`cutlass.utils`, or the twin's), evaluated by both sides.

    layout_cases(random.Random(1), 100)  -> [{"id", "group", "op", "expr"}]

Layouts are random, depth <= 3, rank <= 3 per level, small shapes, strides
compact, ordered, random (zero and negative included), each integer static
(a Python int) or dynamic (`cute.Int32(v)`, sometimes with
`cute.assume(..., divby=d)`, sometimes Int64). Operands of binary ops are
drawn so that most cases are admissible (sizes that divide, tilers that
fit) while some are not, so that refusals are compared too.
"""


SMALL = [1, 2, 2, 3, 4, 4, 6, 8, 8, 16]
PRIME = [2, 3, 5]


class Int:
    """A generated integer: value, dynamic or not, divisibility, width."""

    __slots__ = ("v", "dyn", "div", "width")

    def __init__(self, v, dyn=False, div=1, width=32):
        self.v, self.dyn, self.div, self.width = v, dyn, div, width

    def text(self):
        if not self.dyn:
            return str(self.v)
        base = "cute.Int%d(%d)" % (self.width, self.v)
        if self.div > 1:
            return "cute.assume(%s, divby=%d)" % (base, self.div)
        return base


def text(t):
    if isinstance(t, tuple):
        if len(t) == 1:
            return "(" + text(t[0]) + ",)"
        return "(" + ", ".join(text(e) for e in t) + ")"
    if t is None:
        return "None"
    if isinstance(t, int):
        return str(t)
    return t.text()


def values(t):
    if isinstance(t, tuple):
        return tuple(values(e) for e in t)
    if t is None or isinstance(t, int):
        return t
    return t.v


def leaves(t):
    if isinstance(t, tuple):
        out = []
        for e in t:
            out += leaves(e)
        return out
    return [t]


def size(t):
    p = 1
    for x in leaves(t):
        p *= x.v if isinstance(x, Int) else x
    return p


class Gen:
    def __init__(self, rng, dyn=0.25):
        self.rng = rng
        self.dyn = dyn

    def num(self, v, allow_dyn=True):
        r = self.rng
        if allow_dyn and r.random() < self.dyn:
            divs = [d for d in (2, 4, 8, 16) if v % d == 0 and d <= v]
            div = r.choice(divs) if divs and r.random() < 0.4 else 1
            width = 64 if r.random() < 0.1 else 32
            return Int(v, True, div, width)
        return Int(v)

    def shape(self, depth=3, rank=None, allow_dyn=True):
        r = self.rng
        if rank is None:
            rank = r.choice([1, 1, 2, 2, 2, 3])
        if depth <= 1 or r.random() < 0.45:
            if rank == 1 and r.random() < 0.5:
                return self.num(r.choice(SMALL), allow_dyn)
            return tuple(self.num(r.choice(SMALL), allow_dyn)
                         for _ in range(rank))
        out = []
        for _ in range(rank):
            if r.random() < 0.35:
                out.append(self.shape(depth - 1, r.choice([1, 2, 2, 3]),
                                      allow_dyn))
            else:
                out.append(self.num(r.choice(SMALL), allow_dyn))
        return tuple(out)

    def stride(self, shape, kind=None, allow_dyn=True):
        r = self.rng
        kind = kind or r.choice(["compact", "compact", "order", "random",
                                 "random", "none"])
        if kind == "none":
            return None
        flat = leaves(shape)
        if kind == "compact":
            vals, cur = [], 1
            for s in flat:
                vals.append(0 if s.v == 1 and r.random() < 0.5 else cur)
                cur *= s.v
        elif kind == "order":
            perm = list(range(len(flat)))
            r.shuffle(perm)
            vals = [0] * len(flat)
            cur = 1
            for i in perm:
                vals[i] = cur
                cur *= flat[i].v
        else:
            vals = [r.choice([0, 1, 1, 2, 3, 4, 8, 16, 32, -1, -2, 5, 64])
                    for _ in flat]
        it = iter(vals)

        def build(t):
            if isinstance(t, tuple):
                return tuple(build(e) for e in t)
            return self.num(next(it), allow_dyn and r.random() < 0.6)
        return build(shape)

    def layout(self, depth=3, rank=None, kind=None, allow_dyn=True):
        s = self.shape(depth, rank, allow_dyn)
        d = self.stride(s, kind, allow_dyn)
        return s, d


def layout_text(s, d):
    if d is None:
        return "cute.make_layout(%s)" % text(s)
    return "cute.make_layout(%s, stride=%s)" % (text(s), text(d))


def _compact_text(g, n, allow_dyn=True):
    """A layout of size n: n itself, or a factorization of it."""
    r = g.rng
    if n <= 1 or r.random() < 0.4:
        return layout_text(g.num(max(n, 1), allow_dyn),
                           g.num(r.choice([1, 1, 2]), allow_dyn))
    fs = _factor(n, r)
    s = tuple(g.num(f, allow_dyn) for f in fs)
    d = g.stride(s, r.choice(["compact", "order", "random"]), allow_dyn)
    return layout_text(s, d)


def _factor(n, r):
    fs = []
    for p in (2, 3, 5, 7):
        while n % p == 0:
            fs.append(p)
            n //= p
    if n > 1:
        fs.append(n)
    r.shuffle(fs)
    out = []
    for f in fs:
        if out and r.random() < 0.5:
            out[-1] *= f
        else:
            out.append(f)
    return out or [1]


def _divisor(n, r):
    ds = [d for d in range(1, n + 1) if n % d == 0]
    return r.choice(ds)


def _tiler(g, shape):
    """A tiler for a layout of shape `shape`: a layout, or a tuple of ints,
    layouts and None per top-level mode."""
    r = g.rng
    top = shape if isinstance(shape, tuple) else (shape,)
    if r.random() < 0.35:
        return _compact_text(g, _divisor(size(shape), r))
    n = r.randint(1, len(top))
    parts = []
    for m in top[:n]:
        k = r.random()
        sz = size(m)
        if k < 0.15:
            parts.append("None")
        elif k < 0.6:
            parts.append(str(_divisor(sz, r)))
        else:
            parts.append(_compact_text(g, _divisor(sz, r)))
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _coord(g, shape, none_prob=0.0, flat_int=0.3):
    r = g.rng
    if r.random() < flat_int:
        return str(r.randrange(max(size(shape), 1)))

    def build(t):
        if isinstance(t, tuple):
            if r.random() < 0.2:
                return ("None" if r.random() < none_prob else
                        str(r.randrange(size(t))))
            return "(" + ", ".join(build(e) for e in t) + \
                   ("," if len(t) == 1 else "") + ")"
        if r.random() < none_prob:
            return "None"
        return str(r.randrange(t.v if isinstance(t, Int) else t))
    return build(shape)


OPS = ["make_layout", "make_ordered_layout", "make_identity_layout",
       "make_layout_tv", "make_swizzle", "make_composed_layout",
       "composition", "complement", "right_inverse", "left_inverse",
       "coalesce", "filter", "filter_zeros", "logical_divide",
       "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
       "zipped_product", "tiled_product", "flat_product", "raked_product",
       "blocked_product", "tile_to_shape", "recast_layout", "size", "cosize",
       "rank", "depth", "shape", "crd2idx", "idx2crd", "slice_",
       "slice_and_offset", "get_swizzle_portion", "get_nonswizzle_portion",
       "max_common_layout", "max_common_vector", "nullspace",
       "viz.print_latex", "viz.print_latex_tv", "modes"]


def op_case(g, op):
    r = g.rng
    s, d = g.layout()
    L = layout_text(s, d)
    if op == "make_layout":
        return L
    if op == "make_ordered_layout":
        perm = list(range(len(leaves(s))))
        r.shuffle(perm)
        order = _like(s, iter(perm))
        return "cute.make_ordered_layout(%s, order=%s)" % (text(s), order)
    if op == "make_identity_layout":
        return "cute.make_identity_layout(%s)" % text(s)
    if op == "make_layout_tv":
        t = g.layout(2, r.choice([1, 2]), r.choice(["compact", "order"]))
        v = g.layout(2, r.choice([1, 2]), r.choice(["compact", "order"]))
        return "cute.make_layout_tv(%s, %s)" % (layout_text(*t),
                                                layout_text(*v))
    if op == "make_swizzle":
        return "cute.make_swizzle(%d, %d, %d)" % (
            r.randint(0, 3), r.randint(0, 4), r.randint(-4, 4))
    if op == "make_composed_layout":
        return "cute.make_composed_layout(cute.make_swizzle(%d, %d, %d), " \
               "%d, %s)" % (r.randint(0, 3), r.randint(0, 4), r.randint(3, 4),
                            r.choice([0, 0, 0, 4]), L)
    return _algebra_case(g, op, s, d, L)


def _algebra_case(g, op, s, d, L):
    """The algebra's cases (op_case's second half)."""
    r = g.rng
    if op == "composition":
        k = r.random()
        if k < 0.5:
            B = _compact_text(g, _divisor(size(s), r) * r.choice([1, 1, 2]))
        elif k < 0.85:
            B = _tiler(g, s)
        else:
            B = str(_divisor(size(s), r))
        return "cute.composition(%s, %s)" % (L, B)
    if op == "complement":
        cot = size(s) * r.choice([1, 2, 4, 8]) * max(1, max(
            [abs(x.v) for x in leaves(d)] if d else [1]))
        cot_t = str(cot) if r.random() < 0.7 else "(%d, %d)" % (2, cot)
        return "cute.complement(%s, %s)" % (L, cot_t)
    if op in ("right_inverse", "left_inverse", "filter", "nullspace",
              "get_swizzle_portion", "get_nonswizzle_portion", "cosize",
              "depth"):
        return "cute.%s(%s)" % (op, L)
    if op == "coalesce":
        if r.random() < 0.4 and isinstance(s, tuple):
            prof = "(" + ", ".join("1" for _ in s[:r.randint(1, len(s))]) + \
                   ",)"
            return "cute.coalesce(%s, target_profile=%s)" % (L, prof)
        return "cute.coalesce(%s)" % L
    if op == "filter_zeros":
        return "cute.filter_zeros(%s)" % L
    if op.endswith("_divide"):
        return "cute.%s(%s, %s)" % (op, L, _tiler(g, s))
    if op.endswith("_product"):
        t = g.layout(2, r.choice([1, 2, 3]))
        if op == "logical_product" and r.random() < 0.3:
            top = s if isinstance(s, tuple) else (s,)
            parts = [str(r.choice([1, 2, 3])) if r.random() < 0.5 else
                     layout_text(*g.layout(1, 1)) for _ in
                     top[:r.randint(1, len(top))]]
            return "cute.logical_product(%s, (%s,))" % (L, ", ".join(parts))
        return "cute.%s(%s, %s)" % (op, L, layout_text(*t))
    return _shape_case(g, op, s, d, L)


def _shape_case(g, op, s, d, L):
    """tile_to_shape, recast, the queries, slices, viz (op_case's rest)."""
    r = g.rng
    if op == "tile_to_shape":
        a = g.layout(2, r.choice([1, 2]), None, allow_dyn=False)
        top = a[0] if isinstance(a[0], tuple) else (a[0],)
        n = len(top) + r.choice([0, 0, 1])
        target = tuple(size(top[i]) * r.choice([1, 2, 3, 4]) if i < len(top)
                       else r.choice([1, 2, 4]) for i in range(n))
        if r.random() < 0.1:
            target = tuple(x + 1 for x in target)
        order = list(range(n))
        r.shuffle(order)
        return "cute.tile_to_shape(%s, %s, %s)" % (
            layout_text(*a), text(target), text(tuple(order)))
    if op == "recast_layout":
        bits = [4, 8, 16, 32, 64]
        if r.random() < 0.3:
            # A swizzled layout: the swizzle, the offset and the layout are
            # recast.
            L = "cute.make_composed_layout(cute.make_swizzle(%d, %d, %d), " \
                "%d, %s)" % (r.randint(1, 3), r.randint(0, 5),
                             r.choice([3, 4, -3]), r.choice([0, 0, 8, 3]), L)
        return "cute.recast_layout(%d, %d, %s)" % (r.choice(bits),
                                                   r.choice(bits), L)
    if op == "size":
        if isinstance(s, tuple) and r.random() < 0.3:
            return "cute.size(%s, mode=[%d])" % (L, r.randrange(len(s)))
        if r.random() < 0.2:
            return "cute.size(%s)" % text(s)
        return "cute.size(%s)" % L
    if op == "rank":
        return "cute.rank(%s)" % L
    if op == "shape":
        return "cute.shape(%s)" % L
    if op == "crd2idx":
        c = _coord(g, s)
        if r.random() < 0.2:
            return "cute.crd2idx(%s, %s)" % (c, text(s))
        return "cute.crd2idx(%s, %s)" % (c, L)
    if op == "idx2crd":
        return "cute.idx2crd(%d, %s)" % (r.randrange(max(size(s), 1)),
                                         text(s))
    if op == "slice_":
        return "cute.slice_(%s, %s)" % (L, _coord(g, s, 0.5, 0.0))
    if op == "slice_and_offset":
        return "cute.slice_and_offset(%s, %s)" % (_coord(g, s, 0.5, 0.0), L)
    if op in ("max_common_layout", "max_common_vector"):
        if r.random() < 0.5:
            B = layout_text(s, g.stride(s, r.choice(["compact", "order"])))
        else:
            B = _compact_text(g, size(s))
        return "cute.%s(%s, %s)" % (op, L, B)
    if op == "modes":
        return _modes_case(g, s, L)
    if op == "viz.print_latex":
        return _latex_case(g)
    if op == "viz.print_latex_tv":
        return _latex_tv_case(g)
    raise ValueError(op)


def _modes_case(g, s, L):
    """select, get, group_modes, append, prepend of a layout, half the time
    swizzled (the DSL takes the outer layout's modes and keeps the rest)."""
    r = g.rng
    if r.random() < 0.5:
        L = "cute.make_composed_layout(cute.make_swizzle(3, 4, 3), %d, %s)" \
            % (r.choice([0, 8]), L)
    rank = len(s) if isinstance(s, tuple) else 1
    k = r.random()
    if k < 0.3:
        mode = [r.randrange(rank + 1) for _ in range(r.randint(0, 2))]
        return "cute.select(%s, mode=%r)" % (L, mode)
    if k < 0.6:
        mode = [r.randrange(rank + (1 if r.random() < 0.1 else 0))]
        return "cute.get(%s, mode=%r)" % (L, mode)
    if k < 0.85:
        return "cute.group_modes(%s, %d, %d)" % (
            L, r.randint(-1, rank), r.randint(-1, rank + 1))
    return "cute.%s(%s, cute.make_layout(%d))" % (
        r.choice(["append", "prepend"]), L, r.choice([1, 2, 4]))


_RENDER = ["", "", ", render_func=print"]


def _latex_case(g):
    """print_latex of a small layout (rank 1 and 3 refused by the DSL,
    dynamic ones too), plain, swizzled or with another colour."""
    r = g.rng
    while True:
        s, d = g.layout(2, r.choice([1, 2, 2, 2, 2, 2, 3]),
                        allow_dyn=r.random() < 0.15)
        if size(s) <= 128:
            break
    L = layout_text(s, d)
    if r.random() < 0.25:
        L = "cute.make_composed_layout(cute.make_swizzle(%d, %d, %d), 0, %s)" \
            % (r.randint(0, 2), r.randint(0, 2), r.randint(2, 3), L)
    colour = r.choice(["", "", ", color=cute.viz.tikz_color_white"])
    return "cute.viz.print_latex(%s%s%s)" % (L, colour, r.choice(_RENDER))


def _latex_tv_case(g):
    """print_latex_tv of make_layout_tv(threads, values) over its tile, with
    each palette, titles and axis labels; sometimes a smaller tile."""
    r = g.rng
    tm, tn, vm, vn = (r.choice([1, 2, 4]) for _ in range(4))
    order_t = r.choice(["(1, %d)" % tm, "(%d, 1)" % tn])
    order_v = r.choice(["(1, %d)" % vm, "(%d, 1)" % vn])
    T = "cute.make_layout((%d, %d), stride=%s)" % (tm, tn, order_t)
    V = "cute.make_layout((%d, %d), stride=%s)" % (vm, vn, order_v)
    tile = (tm * vm, tn * vn)
    if r.random() < 0.15:
        tile = (tile[0] * 2, tile[1])
    tile_text = text(tile) if r.random() < 0.7 else \
        "cute.make_layout(%s)" % text(tile)
    extra = ""
    if r.random() < 0.6:
        extra += ", palette=%r" % r.choice(
            ["pastel", "rainbow", "rainbow_dual", "white", "bw", "bw_dual"])
    if r.random() < 0.3:
        extra += ", title=%r" % r.choice(["tv", "A_tile\n#1 & 50%", "{x}"])
    if r.random() < 0.3:
        extra += ", axis_labels=True"
    return "cute.viz.print_latex_tv(cute.make_layout_tv(%s, %s)[1], %s%s%s)" \
        % (T, V, tile_text, extra, r.choice(_RENDER))


def _like(t, it):
    if isinstance(t, tuple):
        return "(" + ", ".join(_like(e, it) for e in t) + \
               ("," if len(t) == 1 else "") + ")"
    return str(next(it))


def layout_cases(rng, n, dyn=0.25):
    """n random op cases, spread evenly over OPS."""
    g = Gen(rng, dyn)
    out = []
    for i in range(n):
        op = OPS[i % len(OPS)]
        out.append({"id": "op-%05d" % i, "group": "op", "op": op,
                    "expr": op_case(g, op)})
    return out
