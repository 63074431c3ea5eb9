"""Seeded crd2idx and cosize cases on layouts with scaled-basis strides
(identity and coordinate layouts), for the CuTe DSL harness:

    coord_cases(random.Random(1), 100)  -> [{"id", "group", "op", "expr"}]

Six kinds, in turn:

  crd2idx-identity  make_identity_layout of a random shape (static and
                    dynamic sizes), at a coordinate that fits it, a flat
                    index (past the end and negative too), a dynamic `?`
                    (Int32, Int64, with cute.assume's divisibility);
  crd2idx-basis     make_layout with `cute.E(i)` strides: nested positions
                    (`E([1,0])`), scaled ones (`3*E(1)`, `E(0)*-1`, by a
                    dynamic integer), a position named twice or both as a
                    mode and inside it, integer strides beside the bases
                    (0, a dynamic 0, and ones that are not 0);
  crd2idx-tile      what a kernel does with a coordinate layout: the
                    identity layout of a GEMM tile (static or dynamic
                    problem sizes) divided by a tiler (zipped, logical) or
                    composed with a thread-value layout, at (thread, value)
                    coordinates;
  crd2idx-misfit    a coordinate whose tuples do not follow the shape's (a
                    mode more or less, a tuple where the shape has a leaf,
                    a rank-1 tuple), on identity, basis and integer layouts;
  cosize-identity, cosize-basis   cosize of the layouts above, whole or of
                    one mode (`mode=[i]`).

Every text is an expression over `cute` that both sides evaluate
(compare.py). Layouts are small (depth <= 2), so that the DSL's refusal,
which quotes the layout and the coordinate, fits the first error line the
worker keeps.
"""

import cases as base

TILES = [(128, 128), (128, 64), (64, 32), (16, 8), (256, 128), (32, 32)]
KINDS = ["crd2idx-identity", "crd2idx-basis", "crd2idx-tile",
         "crd2idx-misfit", "cosize-identity", "cosize-basis"]


def _dyn(g, v):
    """A dynamic integer of value v: Int32, sometimes Int64, sometimes with
    a divisibility."""
    r = g.rng
    divs = [d for d in (2, 4, 8, 16) if v and v % d == 0]
    base_text = "cute.Int%d(%d)" % (64 if r.random() < 0.15 else 32, v)
    if divs and r.random() < 0.5:
        return "cute.assume(%s, divby=%d)" % (base_text, r.choice(divs))
    return base_text


def _index(g, shape):
    """A flat coordinate: inside the shape, past its end, negative, or a
    dynamic `?`."""
    r = g.rng
    n = max(base.size(shape), 1)
    k = r.random()
    if k < 0.45:
        return str(r.randrange(n))
    if k < 0.55:
        return str(n + r.randrange(n))
    if k < 0.62:
        return str(-r.randint(1, n))
    return _dyn(g, r.choice([r.randrange(n), 8, 16, 32, 0]))


def _coordinate(g, shape):
    """A coordinate that fits the shape (mode by mode, leaves static or
    dynamic, some None, some a mode's flat index), or a flat one."""
    r = g.rng
    if r.random() < 0.45:
        return _index(g, shape)

    def build(t):
        if isinstance(t, tuple):
            if r.random() < 0.15:
                return _index(g, t)
            return "(" + ", ".join(build(e) for e in t) + \
                   ("," if len(t) == 1 else "") + ")"
        k = r.random()
        v = t.v if isinstance(t, base.Int) else t
        if k < 0.1:
            return "None"
        if k < 0.3:
            return _dyn(g, r.randrange(v))
        return str(r.randrange(v))
    return build(shape)


def _misfit(g, shape):
    """A coordinate whose tuples do not follow the shape's."""
    r = g.rng
    top = shape if isinstance(shape, tuple) else (shape,)
    fit = [_coordinate(g, m) if r.random() < 0.7 else "0" for m in top]
    k = r.random()
    if not isinstance(shape, tuple) or k < 0.35:
        # One mode more.
        fit.append(str(r.randrange(4)))
    elif k < 0.6 and len(fit) > 1:
        fit.pop()
    elif k < 0.8:
        # A tuple where the shape has a leaf, or a leaf's tuple one longer.
        i = r.randrange(len(top))
        m = top[i]
        inner = len(m) + 1 if isinstance(m, tuple) else 2
        fit[i] = "(" + ", ".join(str(r.randrange(2)) for _ in range(inner)) \
            + ")"
    else:
        return "(%s,)" % fit[0] if len(fit) > 1 else "((%s,),)" % fit[0]
    return "(" + ", ".join(fit) + ("," if len(fit) == 1 else "") + ")"


def _basis(g, pos):
    """`cute.E(pos)`, sometimes scaled (static, negative, dynamic)."""
    r = g.rng
    e = "cute.E(%s)" % (pos if isinstance(pos, int) else list(pos))
    k = r.random()
    if k < 0.65:
        return e
    if k < 0.8:
        return "%d*%s" % (r.choice([2, 3, 4, 8]), e)
    if k < 0.88:
        return "%s*%d" % (e, r.choice([-1, 0, 2]))
    return "%s*%s" % (e, _dyn(g, r.choice([1, 3, 4, 8])))


def _basis_layout(g):
    """make_layout(shape, stride=...) with scaled-basis strides: each leaf a
    basis (a position 0..2, sometimes nested) or an integer stride."""
    r = g.rng
    s = g.shape(2, r.choice([1, 2, 2, 3]), allow_dyn=r.random() < 0.5)
    flat = base.leaves(s)
    pos = list(range(len(flat)))
    if r.random() < 0.5:
        r.shuffle(pos)
    strides = []
    for i, _ in enumerate(flat):
        k = r.random()
        if k < 0.65:
            p = pos[i] % 3
            # Sometimes nested (`E([p, j])`), which overlaps a leaf `E(p)`.
            strides.append(_basis(g, p if r.random() < 0.75 else
                                  (p, r.randrange(2))))
        elif k < 0.85:
            strides.append(r.choice(["0", "0", "cute.Int32(0)"]))
        else:
            strides.append(r.choice(["1", "-1", "2", "cute.Int32(1)"]))
    if not any("cute.E" in d for d in strides):
        strides[0] = "cute.E(0)"
    it = iter(strides)

    def build(t):
        if isinstance(t, tuple):
            return "(" + ", ".join(build(e) for e in t) + \
                   ("," if len(t) == 1 else "") + ")"
        return next(it)
    return s, "cute.make_layout(%s, stride=%s)" % (base.text(s), build(s))


def _identity(g):
    r = g.rng
    s = g.shape(2, r.choice([1, 2, 2, 3]), allow_dyn=r.random() < 0.4)
    return s, "cute.make_identity_layout(%s)" % base.text(s)


def _tile_case(g):
    """crd2idx on a GEMM tile's coordinate layout, as a kernel builds it."""
    r = g.rng
    m, n = r.choice(TILES)
    dims = "(%s, %s)" % (_dyn(g, m) if r.random() < 0.3 else m,
                         _dyn(g, n) if r.random() < 0.3 else n)
    ident = "cute.make_identity_layout(%s)" % dims
    k = r.random()
    if k < 0.6:
        tm = r.choice([d for d in (8, 16, 32, 64) if m % d == 0])
        tn = r.choice([d for d in (8, 16, 32, 64) if n % d == 0])
        op = r.choice(["zipped_divide", "zipped_divide", "logical_divide"])
        L = "cute.%s(%s, (%d, %d))" % (op, ident, tm, tn)
        inner = (base.Int(tm), base.Int(tn))
        outer = (base.Int(m // tm), base.Int(n // tn))
        shape = (inner, outer) if op == "zipped_divide" else (
            (base.Int(tm), base.Int(m // tm)),
            (base.Int(tn), base.Int(n // tn)))
    else:
        tm, tn, vm, vn = (r.choice([1, 2, 4]) for _ in range(4))
        thr = "cute.make_layout((%d, %d), stride=(%d, 1))" % (tm * 4, tn * 2,
                                                             tn * 2)
        val = "cute.make_layout((%d, %d), stride=(%d, 1))" % (vm, vn, vn)
        ident = "cute.make_identity_layout((%d, %d))" % (tm * 4 * vm,
                                                       tn * 2 * vn)
        L = "cute.composition(%s, cute.make_layout_tv(%s, %s)[1])" % (
            ident, thr, val)
        shape = (base.Int(tm * tn * 8), base.Int(vm * vn))
    if r.random() < 0.2:
        return "cute.cosize(%s)" % L
    return "cute.crd2idx(%s, %s)" % (_coordinate(g, shape), L)


def _integer_layout(g):
    s, d = g.layout(2, g.rng.choice([1, 2, 3]))
    return s, base.layout_text(s, d)


def _cosize(g, shape, L):
    r = g.rng
    if isinstance(shape, tuple) and r.random() < 0.3:
        return "cute.cosize(%s, mode=[%d])" % (L, r.randrange(len(shape)))
    return "cute.cosize(%s)" % L


def coord_case(g, kind):
    r = g.rng
    if kind == "crd2idx-tile":
        return _tile_case(g)
    if kind == "crd2idx-misfit":
        s, L = r.choice([_identity, _basis_layout, _integer_layout])(g)
        return "cute.crd2idx(%s, %s)" % (_misfit(g, s), L)
    s, L = _identity(g) if kind.endswith("identity") else _basis_layout(g)
    if kind.startswith("cosize"):
        return _cosize(g, s, L)
    return "cute.crd2idx(%s, %s)" % (_coordinate(g, s), L)


def coord_cases(rng, n, dyn=0.25):
    """n cases, spread evenly over KINDS."""
    g = base.Gen(rng, dyn)
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        out.append({"id": "crd-%05d" % i, "group": "coord", "op": kind,
                    "expr": coord_case(g, kind)})
    return out
