"""Triton's layouts: a drop-in for `triton.tools.LinearLayout` (Triton 3.6.0).

    >>> from hlolayout.triton import LinearLayout
    >>> l = LinearLayout.from_bases([("register", [[0, 1], [1, 0]]),
    ...                              ("lane", [[2, 0]])], ["dim0", "dim1"])
    >>> l.out_dims
    [('dim0', 4), ('dim1', 2)]
    >>> l.apply({"register": 3, "lane": 1})
    {'dim0': 3, 'dim1': 1}
    >>> import numpy as np
    >>> l.apply({"register": np.arange(4), "lane": 1})   # vectorised
    {'dim0': array([2, 2, 3, 3], dtype=int32), 'dim1': array([0, 1, 0, 1], dtype=int32)}
    >>> print(l)
    <BLANKLINE>
     - register=1 -> (0, 1)
       register=2 -> (1, 0)
     - lane=1 -> (2, 0)
    where out dims are: [dim0 (size 4), dim1 (size 2)]

`apply` takes Python ints as Triton's binding does, or NumPy arrays (any
integer dtype, shapes that broadcast; lists too) and returns int32 arrays
per out-dim, exactly, at C++ speed (triton/evaluator.h's ApplyBatch); or
one 2-D array of shape (n, in-dims), returning (n, out-dims).

`LinearLayout` has the methods and results of Triton's binding (from_bases,
identity_1d, strided_1d, zeros_1d, compose, invert_and_compose, invert,
pseudoinvert, `*`, apply, bases, out_dims, get_matrix_view,
get_distributed_view, get_shared_view, ...) plus the operations Triton does
not bind (divide_left/right, reshape_ins/outs, quotient,
get_free_variable_masks, ...). Where Triton aborts, these raise ValueError
with Triton's reason.

`to_linear_layout(layout, shape)` converts a layout given as TTGIR text
('#ttg.blocked<{...}>') or as a Gluon layout object (duck-typed by Gluon's
attribute names) as Triton converts it; `cvt_cost(src, dst, shape)` says
what a convert_layout between two layouts costs; `draw` pictures a layout.
See docs/triton.md.
"""

from . import _hlolayout as _core

_t = _core._triton

LinearLayout = _t.LinearLayout

__all__ = ["LinearLayout", "to_linear_layout", "to_ttgir", "cvt_cost", "draw",
           "report"]


def _ints(values):
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _bases(bases):
    return "[" + ", ".join(_ints(b) for b in (bases or [])) + "]"


def _cga(layout):
    """The CGA part of a Gluon layout's TTGIR text ('' for one CTA)."""
    cga = getattr(layout, "cga_layout", None)
    if cga:
        return ", CGALayout = " + _bases(cga)
    ctas = getattr(layout, "ctas_per_cga", None)
    split = getattr(layout, "cta_split_num", None)
    order = getattr(layout, "cta_order", None)
    if ctas is None and split is None and order is None:
        return ""
    rank = len(ctas or split or order)
    ctas = ctas or [1] * rank
    split = split or [1] * rank
    order = order or list(reversed(range(rank)))
    return ", CTAsPerCGA = %s, CTASplitNum = %s, CTAOrder = %s" % (
        _ints(ctas), _ints(split), _ints(order))


def _attr(obj, *names):
    for name in names:
        if hasattr(obj, name):
            value = getattr(obj, name)
            return getattr(value, "value", value)  # constexpr
    return None


def to_ttgir(layout):
    """A layout as TTGIR attribute text.

    `layout` is TTGIR text (returned as is) or a Gluon layout object:
    BlockedLayout, SliceLayout, NVMMADistributedLayout, DotOperandLayout,
    DistributedLinearLayout, SwizzledSharedLayout, NVMMASharedLayout or
    SharedLinearLayout, recognised by their attribute names.
    """
    if isinstance(layout, str):
        return layout
    if isinstance(layout, LinearLayout):
        return layout.to_ttgir()
    if hasattr(layout, "reg_bases"):
        return ("#ttg.linear<{register = %s, lane = %s, warp = %s, "
                "block = %s}>" % (_bases(layout.reg_bases),
                                  _bases(layout.lane_bases),
                                  _bases(layout.warp_bases),
                                  _bases(_attr(layout, "block_bases"))))
    if hasattr(layout, "offset_bases"):
        block = _attr(layout, "block_bases")
        text = "#ttg.shared_linear<{offset = %s" % _bases(layout.offset_bases)
        if block:
            text += ", block = %s" % _bases(block)
        return text + "}, alignment = %d>" % int(_attr(layout, "alignment") or 16)
    if hasattr(layout, "size_per_thread"):
        return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, "
                "warpsPerCTA = %s, order = %s%s}>" %
                (_ints(layout.size_per_thread), _ints(layout.threads_per_warp),
                 _ints(layout.warps_per_cta), _ints(layout.order),
                 _cga(layout)))
    if hasattr(layout, "operand_index"):
        text = "#ttg.dot_op<{opIdx = %d, parent = %s" % (
            int(_attr(layout, "operand_index")), to_ttgir(layout.parent))
        k_width = _attr(layout, "k_width")
        if k_width:
            text += ", kWidth = %d" % int(k_width)
        return text + "}>"
    if hasattr(layout, "dim") and hasattr(layout, "parent"):
        return "#ttg.slice<{dim = %d, parent = %s}>" % (
            int(_attr(layout, "dim")), to_ttgir(layout.parent))
    if hasattr(layout, "instr_shape") and hasattr(layout, "version"):
        version = list(_attr(layout, "version"))
        minor = version[1] if len(version) > 1 else 0
        cga = _cga(layout)
        return ("#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, "
                "warpsPerCTA = %s%s, instrShape = %s}>" %
                (version[0], minor, _ints(layout.warps_per_cta), cga,
                 _ints(layout.instr_shape)))
    if hasattr(layout, "swizzle_byte_width"):
        text = ("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, "
                "elementBitWidth = %d" %
                (int(_attr(layout, "swizzle_byte_width")),
                 "true" if _attr(layout, "transposed") else "false",
                 int(_attr(layout, "element_bitwidth"))))
        if _attr(layout, "fp4_padded"):
            text += ", fp4Padded = true"
        return text + _cga(layout) + "}>"
    if hasattr(layout, "vec") and hasattr(layout, "per_phase"):
        return ("#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, "
                "order = %s%s}>" % (int(_attr(layout, "vec")),
                                    int(_attr(layout, "per_phase")),
                                    int(_attr(layout, "max_phase")),
                                    _ints(layout.order), _cga(layout)))
    raise ValueError("not a layout hlolayout.triton knows: %r" % (layout,))


def _shape(shape):
    if shape is None:
        return None
    if isinstance(shape, str):
        return [int(s) for s in shape.replace(",", "x").split("x")]
    return [int(s) for s in shape]


def to_linear_layout(layout, shape=None, bits=16):
    """The LinearLayout of `layout` for a tensor of `shape`, as Triton 3.6.0
    converts it (in-dims register, lane, warp, block -- or offset, block for
    shared layouts; out-dims dim0, dim1, ...).

        >>> l = to_linear_layout("#ttg.blocked<{sizePerThread = [4], "
        ...     "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
        ...     [64])
        >>> l.bases[0]
        ('register', [[1], [2]])

    `layout`: TTGIR text, JSON bases, a LinearLayout (returned as is) or a
    Gluon layout object. `shape` may be left out for linear layouts. `bits`:
    the element width of an older `#triton_gpu.shared` NVMMA spelling.
    """
    if isinstance(layout, LinearLayout):
        return layout
    if shape is None and hasattr(layout, "shape") and hasattr(layout,
                                                              "reg_bases"):
        shape = layout.shape
    return _t.from_text(to_ttgir(layout), _shape(shape), bits)


def cvt_cost(src, dst, shape, bits=16, target="cuda:90", triton="3.9.0"):
    """What `ttg.convert_layout` from `src` to `dst` costs on `target`, as
    Triton `triton` (3.6.0 or 3.9.0) lowers it, for elements of `bits` bits
    (16 unless given, as everywhere in hlolayout; a TTGIR module's element
    type is what `hlolayout triton report` uses).

    Returns a dict: `kind` ('registers', 'warp_shuffle', 'shared_memory' or
    'cross_cta'), `target`, `scratch_bytes` (the shared memory Triton
    allocates), `map` (the minimal conversion, a LinearLayout),
    `mixed_transpositions`, and for a shared-memory conversion `reps` (rounds
    of store, barrier, load), `stores` and `loads` (each thread's
    instructions: a list of {'instr', 'bits', 'count'}), `store_ways` and
    `load_ways` (Triton's bank-conflict estimate, 1 = none). `target` is
    'cuda:80', 'cuda:90', 'cuda:100', 'hip:gfx942' or 'hip:gfx950'.

        >>> blocked = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp"
        ...            " = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
        >>> cvt_cost(blocked, blocked, [64, 64])["kind"]
        'registers'
        >>> mma = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
        ...        "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>")
        >>> cols = ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = "
        ...         "[8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>")
        >>> c = cvt_cost(mma, cols, [64, 64])
        >>> c["scratch_bytes"], c["reps"], c["stores"]
        (2048, 4, [{'instr': 'stmatrix.trans', 'bits': 128, 'count': 4}])
        >>> cvt_cost(mma, cols, [64, 64], target="cuda:80")["stores"]
        [{'instr': 'st.shared', 'bits': 64, 'count': 8}]
    """
    return _t.cvt_cost(to_linear_layout(src, shape),
                       to_linear_layout(dst, shape), int(bits), str(target),
                       str(triton))


class Drawing:
    """A picture of a layout: `str()` is the terminal form, Jupyter shows
    the SVG (`svg`)."""

    __slots__ = ("svg", "text")

    def __init__(self, svg, text):
        self.svg = svg
        self.text = text

    def _repr_svg_(self):
        return self.svg

    def __str__(self):
        return self.text


def draw(layout, shape=None, bits=16):
    """Which thread and register own each element (register layouts,
    coloured by warp), or the offset and bank of each element (shared
    layouts), as `hlolayout triton draw` draws it."""
    l = to_linear_layout(layout, shape, bits)
    title = (layout if isinstance(layout, str) else to_ttgir(layout)) + \
        " on " + "x".join(str(s) for _, s in l.out_dims)
    return Drawing(_t.draw(l, title, int(bits), True),
                   _t.draw(l, title, int(bits), False))


def report(ttgir, triton=None):
    """The layout facts of a TTGIR kernel dump (text or a file path), as
    `hlolayout triton report --json` gives them: aliases, types by layout,
    every convert_layout with its cost on the module's target (`target`,
    `scratch_bytes`, `reps`, `stores`, `loads`, ...), following Triton
    `triton` ('3.6.0' or '3.9.0'; the newest when None)."""
    import json
    import os
    from . import _cli_text
    flags = ["--triton", str(triton)] if triton is not None else []
    if "\n" not in ttgir and os.path.exists(ttgir):
        return json.loads(_cli_text(["triton", "report", "--json", ttgir] +
                                    flags))
    return json.loads(_cli_text(["triton", "report", "--json", "-"] + flags,
                                ttgir))
