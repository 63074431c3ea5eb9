"""Triton's layouts: a drop-in for `triton.tools.LinearLayout` (Triton 3.6.0
and later).

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

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from . import _hlolayout as _core

if TYPE_CHECKING:
    from typing import Sequence, Union

    Shape = Union[str, Sequence[int]]

_t = _core._triton

LinearLayout = _t.LinearLayout

__all__ = ["LinearLayout", "to_linear_layout", "to_ttgir", "explain", "check",
           "cvt_cost", "draw", "report"]

# report()'s answer: read-only records written from the library's field
# lists (answers/triton_report.h), their to_dict() the document of
# `hlolayout triton report --json` (help(tt.KernelReport) lists the fields;
# report()'s docstring has the examples).
KernelReport = _t.KernelReport
LayoutAlias = _t.LayoutAlias
LayoutTypes = _t.LayoutTypes
ConvertLayout = _t.ConvertLayout
ConvertCost = _t.ConvertCost
SmemInstr = _t.SmemInstr
SmemOp = _t.SmemOp
SmemOpCost = _t.SmemOpCost


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


def _is_permutation(bases_lists):
    """Triton's isPermutationMatrixLayout on bases (dim0 fastest): every
    non-zero basis one bit of the flattened output, none repeated. Takes a
    list of bases lists (None for an absent one), returns a bool.

        >>> _is_permutation([[[0, 1]], [[1, 0], [2, 0]], [], None])
        True
        >>> _is_permutation([[[0, 1]], [[0, 1]]])  # a bit used twice
        False
    """
    rank = 0
    for bases in bases_lists:
        for b in bases or []:
            rank = len(b)
    top = [0] * rank
    for bases in bases_lists:
        for b in bases or []:
            for d, v in enumerate(b):
                top[d] = max(top[d], int(v).bit_length())
    seen = 0
    for bases in bases_lists:
        for b in bases or []:
            flat, shift = 0, 0
            for d, v in enumerate(b):
                flat |= int(v) << shift
                shift += top[d]
            if flat == 0:
                continue
            if flat & (flat - 1) or flat & seen:
                return False
            seen |= flat
    return True


def _text_of_amd(layout):
    """The #ttg.amd_mfma or #ttg.amd_wmma text (a str) of Gluon's
    AMDMFMALayout or AMDWMMALayout (an MFMA layout has element_bitwidth;
    a WMMA layout Triton 3.6's warps_per_cta or today's warp_bases).

        >>> from types import SimpleNamespace as Gluon
        >>> _text_of_amd(Gluon(version=2, transposed=False, warps_per_cta=[2, 2],
        ...                    instr_shape=[16, 16, 32]))
        '#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], instrShape = [16, 16, 32]}>'
    """
    version = int(_attr(layout, "version"))
    transposed = "true" if _attr(layout, "transposed") else "false"
    instr = list(_attr(layout, "instr_shape") or [16, 16, 16])
    tiles = _attr(layout, "tiles_per_warp")
    if hasattr(layout, "element_bitwidth"):  # MFMA
        text = ("#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, "
                "isTransposed = %s%s" % (version, _ints(layout.warps_per_cta),
                                         _ints(instr), transposed, _cga(layout)))
        if tiles and any(int(t) != 1 for t in tiles):
            text += ", tilesPerWarp = %s" % _ints(tiles)
        bits = _attr(layout, "element_bitwidth") or 32
        if int(bits) != 32:
            text += ", elementBitWidth = %d" % int(bits)
        return text + "}>"
    text = "#ttg.amd_wmma<{version = %d, isTranspose = %s" % (version, transposed)
    if hasattr(layout, "warp_bases"):  # Triton 3.7+: the CTA layout's bases
        parts = []
        if _attr(layout, "reg_bases"):
            parts.append("register = " + _bases(_attr(layout, "reg_bases")))
        parts.append("warp = " + _bases(_attr(layout, "warp_bases")))
        text += ", ctaLayout = {%s}%s" % (", ".join(parts), _cga(layout))
        rank = _attr(layout, "rank")
        if rank and int(rank) != 2:
            text += ", rank = %d" % int(rank)
    else:  # Triton 3.6: warpsPerCTA
        text += ", warpsPerCTA = %s%s" % (_ints(layout.warps_per_cta), _cga(layout))
        if tiles and any(int(t) != 1 for t in tiles):
            text += ", tilesPerWarp = %s" % _ints(tiles)
    if instr != [16, 16, 16]:
        text += ", instrShape = %s" % _ints(instr)
    return text + "}>"


def _text_of_memory(layout):
    """The TTGIR text (a str) of Gluon's PaddedSharedLayout,
    PartitionedSharedLayout, TensorMemoryLayout or TensorMemoryScalesLayout
    (Triton 3.6's cta_split_num or today's cga_layout).

        >>> from types import SimpleNamespace as Gluon
        >>> _text_of_memory(Gluon(block=[128, 64], col_stride=1,
        ...                       cta_split_num=[1, 1], two_ctas=False))
        '#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>'
        >>> _text_of_memory(Gluon(interval_padding_pairs=[[32, 4]],
        ...                       offset_bases=[[0, 1], [0, 2], [1, 0]],
        ...                       block_bases=[]))
        '#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [1, 0]], block = []}>'
    """
    if hasattr(layout, "interval_padding_pairs"):
        pairs = ", ".join("%d:+%d" % (int(i), int(p))
                          for i, p in _attr(layout, "interval_padding_pairs"))
        offset = [list(map(int, b)) for b in _attr(layout, "offset_bases")]
        block = _attr(layout, "block_bases")  # Triton 3.6: as in the layout
        if block is None:
            # Today's Gluon gives the CTA bases in units of one CTA's piece.
            rank = len(_attr(layout, "shape"))
            size = [1 << max([0] + [b[d] for b in offset]).bit_length()
                    for d in range(rank)]
            block = [[int(v) * size[d] for d, v in enumerate(b)]
                     for b in (_attr(layout, "cga_layout") or [])]
        return "#ttg.padded_shared<[%s] {offset = %s, block = %s}>" % (
            pairs, _bases(offset), _bases(block))
    if hasattr(layout, "num_partitions"):
        return ("#ttg.partitioned_shared<{numPartitions = %d, numGroups = %d, "
                "partitionDim = %d, partitionLayout = %s}>" %
                (int(_attr(layout, "num_partitions")), int(_attr(layout, "num_groups")),
                 int(_attr(layout, "partition_dim")),
                 to_ttgir(_attr(layout, "partition_layout"))))
    split = _attr(layout, "cta_split_num")
    if hasattr(layout, "col_stride"):
        block = _attr(layout, "block")
        text = ("#ttng.tensor_memory_encoding<blockM = %d, blockN = %d, "
                "colStride = %d" % (int(block[0]), int(block[1]),
                                    int(_attr(layout, "col_stride"))))
        if split is not None:  # Triton 3.6
            if int(split[0]) != 1:
                text += ", CTASplitM = %d" % int(split[0])
            if int(split[1]) != 1:
                text += ", CTASplitN = %d" % int(split[1])
        elif _attr(layout, "cga_layout"):
            text += ", CGALayout = " + _bases(_attr(layout, "cga_layout"))
        if _attr(layout, "two_ctas"):
            text += ", twoCTAs = true"
        if _attr(layout, "fp4_padded"):
            text += ", fp4Padded = true"
        return text + ">"
    parts = []
    if split is not None:
        if int(split[0]) != 1:
            parts.append("CTASplitM = %d" % int(split[0]))
        if int(split[1]) != 1:
            parts.append("CTASplitN = %d" % int(split[1]))
    elif _attr(layout, "cga_layout"):
        parts.append("CGALayout = " + _bases(_attr(layout, "cga_layout")))
    if str(_attr(layout, "block_rep_order") or "mnThenK") == "kThenMn":
        parts.append("blockRepOrder = kThenMn")
    return "#ttng.tensor_memory_scales_encoding<%s>" % ", ".join(parts)


def to_ttgir(layout: Any) -> str:
    """A layout as TTGIR attribute text (a str).

    `layout` is TTGIR text (returned as is), a LinearLayout (#ttg.linear or
    #ttg.shared_linear) or a Gluon layout object, recognised by its
    attribute names: BlockedLayout, SliceLayout, NVMMADistributedLayout,
    DotOperandLayout, DistributedLinearLayout (a #ttg.generic_linear when
    its bases are not a permutation, as Gluon builds it),
    SwizzledSharedLayout, NVMMASharedLayout, SharedLinearLayout,
    PaddedSharedLayout, AMDMFMALayout, AMDWMMALayout (Triton 3.6's
    warps_per_cta or today's warp_bases), PartitionedSharedLayout,
    TensorMemoryLayout and TensorMemoryScalesLayout. ValueError for
    anything else.

        >>> from types import SimpleNamespace as Gluon
        >>> to_ttgir(Gluon(size_per_thread=[1, 4], threads_per_warp=[4, 8],
        ...                warps_per_cta=[4, 1], order=[1, 0]))
        '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
        >>> to_ttgir(Gluon(version=3, instr_shape=[32, 32, 8], transposed=True,
        ...                warps_per_cta=[2, 2], element_bitwidth=32,
        ...                tiles_per_warp=[1, 1]))
        '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>'
    """
    if isinstance(layout, str):
        return layout
    if isinstance(layout, LinearLayout):
        return layout.to_ttgir()
    if hasattr(layout, "reg_bases") and hasattr(layout, "lane_bases"):
        bases = [layout.reg_bases, layout.lane_bases, layout.warp_bases,
                 _attr(layout, "block_bases")]
        kind = "linear" if _is_permutation(bases) else "generic_linear"
        return ("#ttg.%s<{register = %s, lane = %s, warp = %s, "
                "block = %s}>" % (kind, _bases(layout.reg_bases),
                                  _bases(layout.lane_bases),
                                  _bases(layout.warp_bases),
                                  _bases(_attr(layout, "block_bases"))))
    if hasattr(layout, "interval_padding_pairs") or hasattr(layout, "num_partitions") \
            or hasattr(layout, "col_stride") or type(layout).__name__.startswith("TensorMemory"):
        return _text_of_memory(layout)
    if hasattr(layout, "transposed") and isinstance(_attr(layout, "version"), int) \
            and hasattr(layout, "instr_shape"):
        return _text_of_amd(layout)
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


def to_linear_layout(layout: Any, shape: Optional[Shape] = None,
                     bits: int = 16) -> LinearLayout:
    """The LinearLayout of `layout` for a tensor of `shape` (a list of ints
    or "128x64"), as Triton converts it (in-dims register, lane, warp, block
    -- offset, block for shared layouts, the linear component of a padded
    one; row, col, block for tensor memory; out-dims dim0, dim1, ...).
    ValueError, located, for text Triton refuses; a UserWarning, located,
    for a key Triton ignores (amd_mfma's and amd_wmma's misspelled
    optional keys, which keep their defaults).

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
                                                              "lane_bases"):
        shape = layout.shape
    return _t.from_text(to_ttgir(layout), _shape(shape), bits)


def explain(layout: Any, shape: Optional[Shape] = None,
            bits: int = 16) -> Dict[str, Any]:
    """What `hlolayout triton explain --json` says of `layout` (TTGIR text,
    JSON bases or a Gluon layout object) on `shape` (a list of ints or
    "128x64"; may be left out for linear layouts): a dict with the layout
    as given and `as_read` (defaults filled in), `kind`, `shape`, `bases`,
    `out_dims`, `str` (Triton's), `linear` (as #ttg.linear), `padding`,
    `injective`, `surjective`, `invertible`, `free_variable_masks`,
    `consecutive` (elements a thread holds in a row), `cute` and `xla` (the
    same map as a CuTe or XLA layout, or None), `view` and `view_hw`
    (Triton's views, for at most 1,024 elements, else None). `bits` chooses
    the XLA form's element type. ValueError, located, for text Triton
    refuses; a UserWarning for a key Triton ignores.

        >>> e = explain("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp "
        ...             "= [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
        ...             [32, 32])
        >>> e["kind"], e["consecutive"], e["cute"]
        ('blocked', 4, '((4,2),(8,4),4,_1):((32,16),(128,1),4,_0)')
    """
    text = layout.to_json() if isinstance(layout, LinearLayout) else \
        to_ttgir(layout)
    return _t.explain(text, _shape(shape), int(bits)).to_dict()


def check(layout: Any, shape: Shape, element: str = "f32", memdesc: bool = False,
          threads_per_warp: int = 32, num_warps: Optional[int] = None,
          num_ctas: Optional[int] = None) -> Dict[str, Any]:
    """Whether Triton accepts `layout` (TTGIR text or a Gluon layout object)
    on a tensor (or, with `memdesc`, a !ttg.memdesc) of `shape` and
    `element` type in a module of `threads_per_warp` lanes, `num_warps`
    warps and `num_ctas` CTAs (None: as many as the layout has), as
    `hlolayout triton check --json` answers: a dict with `ok`, `kind`,
    `ttgir` (as read), `shape`, `bases` and `out_dims` (the LinearLayout)
    and `error` (Triton's refusal, or None); and `notes`, only when the
    type is accepted but cannot be used as is (a tensor memory memdesc
    larger than a CTA's tensor memory).

        >>> mfma = ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
        ...         "instrShape = [32, 32, 8], isTransposed = true}>")
        >>> check(mfma, [64, 64], threads_per_warp=64)["ok"]
        True
        >>> check(mfma, [64, 64])["error"].splitlines()[-1]
        'Layout has 64 threads per warp, but the module specifies 32 threads per warp.'
    """
    return _t.check(
        to_ttgir(layout), _shape(shape), str(element), bool(memdesc),
        int(threads_per_warp), None if num_warps is None else int(num_warps),
        None if num_ctas is None else int(num_ctas)).to_dict()


def cvt_cost(src: Any, dst: Any, shape: Shape, bits: int = 16,
             target: str = "cuda:90", triton: str = "3.9.0") -> Dict[str, Any]:
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
    one of 'cuda:80', 'cuda:86', 'cuda:89', 'cuda:90', 'cuda:100',
    'cuda:120', 'hip:gfx90a', 'hip:gfx942', 'hip:gfx950'; `src` and `dst` as
    for to_linear_layout.

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
    """A picture of a layout, as `draw` returns it: `svg` is a
    self-contained SVG (Jupyter shows it), `text` and `str()` the terminal
    form.

        >>> d = draw("#ttg.swizzled_shared<{vec = 2, perPhase = 1, "
        ...          "maxPhase = 4, order = [1, 0]}>", [8, 8])
        >>> d.svg.startswith("<svg"), str(d) == d.text
        (True, True)
    """

    __slots__ = ("svg", "text")
    svg: str
    text: str

    def __init__(self, svg: str, text: str):
        if not isinstance(svg, str) or not isinstance(text, str):
            raise TypeError("a Drawing is two str, svg and text, not %s and %s"
                            % (type(svg).__name__, type(text).__name__))
        self.svg = svg
        self.text = text

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self):
        return self.text


def draw(layout: Any, shape: Optional[Shape] = None, bits: int = 16,
         instruction: bool = False, k_width: Optional[int] = None) -> Drawing:
    """A Drawing of which thread and register own each element of a
    register layout (coloured by warp), of the offset and bank of each
    element of a shared layout (`bits`-bit elements; a padded one's offsets
    after padding), or of the tensor-memory lane and column of each element,
    as `hlolayout triton draw` draws it. `layout` and `shape` as for
    to_linear_layout.

        >>> d = draw("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
        ...          "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>", [16, 32])
        >>> print(str(d).splitlines()[0])
        #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> on 16x32
        >>> "T127:3" in str(d)
        True

    instruction=True: an amd_mfma or amd_wmma layout (or a dot_op over one)
    as AMD's matrix instruction calculator shows its instruction -- the A,
    B and C tiles of one warp, each element's VGPR and lane (v1{34}); `bits`
    is then the width of A and B's elements, `k_width` their elements per
    lane along K (default: the instruction's).

        >>> d = draw("#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], "
        ...          "instrShape = [32, 32, 8], isTransposed = false}>",
        ...          instruction=True)
        >>> lines = str(d).splitlines()
        >>> lines[0].endswith(": one instruction of one warp")
        True
        >>> lines[2].split(" of ")[0]
        'A (32 x 8, kWidth 4)'
    """
    text = None if isinstance(layout, LinearLayout) else to_ttgir(layout)
    if instruction or (text is not None and text.startswith("#ttg.padded_shared")):
        svg, txt = _t.draw_ttgir(
            text, None if instruction else [int(s) for s in _shape(shape)],
            int(bits), bool(instruction), int(k_width or 0))
        return Drawing(svg, txt)
    l = to_linear_layout(layout, shape, bits)
    title = (layout if isinstance(layout, str) else to_ttgir(layout)) + \
        " on " + "x".join(str(s) for _, s in l.out_dims)
    return Drawing(_t.draw(l, title, int(bits), True),
                   _t.draw(l, title, int(bits), False))


def report(ttgir: str, triton: Optional[str] = None,
           target: Optional[str] = None) -> KernelReport:
    """The layout facts of a TTGIR kernel dump (its text, a file path, or a
    Triton cache entry's folder or metadata JSON), as `hlolayout triton
    report --json` gives them: a KernelReport (its to_dict() is that
    document; `r["key"]` still answers as the dict of earlier releases did,
    with a DeprecationWarning) with the module's num_warps,
    threads_per_warp, num_ctas and target (`defaults` lists those the text
    leaves to Triton's defaults; text without a module is read as the
    implicit module triton-opt makes), its layout aliases, its types by
    layout, and every convert_layout with its cost on the module's target
    or on `target` (`target`, `scratch_bytes`, `reps`, `stores`, `loads`,
    ...), and every shared-memory store and load (`smem_ops`: local_alloc
    of a tensor, local_store, local_load, async copies, each with its
    instructions and bank conflicts per target), following Triton `triton`
    ('3.6.0' or '3.9.0'; when None, the
    release the cache entry's metadata names, else the newest;
    `triton_rules` says which). ValueError for text that holds no TTGIR,
    or whose types Triton refuses in the module (warp size), located.

        >>> r = report('''
        ... #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
        ... module attributes {"ttg.num-warps" = 4 : i32} {
        ...   tt.func @f(%x: tensor<128xf32, #blocked>) { tt.return }
        ... }''')
        >>> r.num_warps, [a.name for a in r.aliases], r.aliases[0].fields[0]
        (4, ['#blocked'], ('sizePerThread', '[1]'))
        >>> r.to_dict()["aliases"][0]["fields"]["order"]
        '[0]'
        >>> report("# a README")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: <text>:1:1: no TTGIR module here: ...
    """
    import os
    triton = "" if triton is None else str(triton)
    target = "" if target is None else str(target)
    if "\n" not in ttgir and os.path.exists(ttgir):
        return _t.report(path=ttgir, triton=triton, target=target)
    return _t.report(text=ttgir, triton=triton, target=target)
