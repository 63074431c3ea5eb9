"""The CuTe DSL's layouts, atoms and shared-memory helpers, evaluated
immediately in plain Python: a host-side twin of NVIDIA's CUTLASS Python
DSL (`import cutlass.cute as cute`) that needs no GPU, no MLIR and no trace.

    >>> from hlolayout import cute_dsl as cute
    >>> L = cute.make_layout((4, 8), stride=(8, 1))
    >>> print(L, cute.size(L), cute.coalesce(L))
    (4,8):(8,1) 32 (4,8):(8,1)
    >>> print(cute.logical_divide(cute.make_layout((8, 8)), (2, 4)))
    ((2,4),(4,2)):((1,2),(8,32))
    >>> n = cute.Int32(128)
    >>> print(cute.make_layout((n, 4)), cute.size(cute.make_layout((n, 4))))
    (?,4):(1,?) ?{div=4}

Names and signatures are the DSL's; results print exactly as the DSL
prints them inside a `@cute.jit` function: static integers bare, dynamic
ones `?` (with the divisibility the DSL knows, `?{div=16}`), swizzles
`S<3,4,3> o 0 o L`. Python ints are static; `cute.Int32(v)` and friends are
dynamic integers that keep their value (`.value`) for evaluation while the
algebra decides only with what the DSL knows. Layouts whose integers are
all static are computed by hlolayout's C++ core; the others by CuTe's
algorithm with the DSL's static/dynamic rules (_algebra).

Where the DSL hands back a layout that is not the function asked for
(CuTe's weak divisibility check, a non-injective complement), the twin
returns the DSL's answer with a WrongLayoutWarning naming the rule it
breaks; strict mode (set_strict(True), `with strict():` or
HLOLAYOUT_CUTE_DSL_STRICT=1) raises WrongLayoutError instead;
docs/cute-dsl.md lists every difference.
"""

from . import (_algebra, _arguments, _core_calls, _fast, _floats, _ints,
               _slices, _tuples)
from ._algebra import RULES as WRONG_LAYOUT_RULES
from ._algebra import Refusal, WrongLayoutError, WrongLayoutWarning
from ._ints import (Boolean, DynInt, Int8, Int16, Int32, Int64, Integer,
                    Numeric, Uint8, Uint16, Uint32, Uint64, assume,
                    is_integer, is_static)
from ._numeric_types import *  # noqa: F401,F403
from ._numeric_types import __all__ as _numeric_all
from ._objects import ComposedLayout, E, Layout, ScaledBasis, Swizzle
from ._arguments import (COORD, INT_TUPLE, SHAPE, STRIDE, TILE,
                         DivisionByZero, LayoutOr, Operand, Tiler, takes)
from ._config import (get_arch, is_strict, set_arch, set_strict, strict,
                      unchecked)
from ._makers import (make_composed_layout, make_identity_layout, make_layout,
                      make_ordered_layout, make_swizzle)
from . import nvgpu, utils, viz
from ._pictures import draw
from ._atoms import DSLUserCodeError
from ._jit import Constexpr, compile, const_expr, jit, range_constexpr
from ._printf import printf
from ._atoms import (Atom, CopyAtom, MmaAtom, TiledCopy, TiledMma,
                     make_copy_atom, make_mma_atom, make_tiled_copy,
                     make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
                     make_tiled_copy_C_atom, make_tiled_copy_D,
                     make_tiled_copy_S, make_tiled_copy_tv, make_tiled_mma)

__all__ = [
    "Layout", "ComposedLayout", "Swizzle", "ScaledBasis", "E", "DynInt",
    "Numeric", "Integer", "Int8", "Int16", "Int32", "Int64", "Uint8",
    "Uint16", "Uint32", "Uint64", "Boolean", "assume", "is_static",
    "is_integer",
    "WrongLayoutError", "WrongLayoutWarning", "strict", "set_strict",
    "is_strict", "Refusal", "DSLUserCodeError", "DivisionByZero", "set_arch", "get_arch", "unchecked",
    "utils", "nvgpu", "viz", "draw", "Atom", "MmaAtom", "TiledMma", "CopyAtom",
    "TiledCopy", "make_mma_atom", "make_tiled_mma", "make_copy_atom",
    "make_tiled_copy_tv", "make_tiled_copy", "make_tiled_copy_A",
    "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_S",
    "make_tiled_copy_D", "make_tiled_copy_C_atom",
    "make_layout", "make_ordered_layout", "make_identity_layout",
    "make_layout_tv", "make_swizzle", "make_composed_layout", "composition",
    "complement", "right_inverse", "left_inverse", "coalesce", "filter",
    "filter_zeros", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product",
    "flat_product", "raked_product", "blocked_product", "tile_to_shape",
    "recast_layout", "size", "cosize", "rank", "depth", "shape", "crd2idx",
    "idx2crd", "slice_", "dice", "slice_and_offset", "get_swizzle_portion",
    "get_nonswizzle_portion", "max_common_layout", "max_common_vector",
    "nullspace", "pretty_str", "product_each", "ceil_div", "shape_div",
    "round_up", "flatten", "get", "select", "append", "prepend",
    "group_modes", "is_congruent", "is_weakly_congruent",
    "jit", "compile", "printf", "Constexpr", "range_constexpr", "const_expr",
] + list(_numeric_all)


# The refusals are the package's (their module names print in tracebacks).
for _cls in (WrongLayoutError, WrongLayoutWarning, Refusal,
             DSLUserCodeError, DivisionByZero):
    _cls.__module__ = __name__
del _cls

# Every function below states what it takes by the argument kinds of
# _arguments (the DSL's own: Shape, IntTuple, Stride, Coord, Tile, an
# operation's operand, or a Python check with its words), read before it
# runs; it then hands the work to the algebra (_fast, _algebra, _slices,
# _core_calls). Refusals that depend on the values, not the kinds, are
# stated where they are made.
_ANY = (Layout, ComposedLayout)
_LAYOUT_OR_COMPOSED = _arguments.Typed(
    _ANY, "expects a Layout or ComposedLayout, but got %(type)s")
_PY_LAYOUT = _arguments.Typed(
    Layout, "Expected input of type Layout, but got %(type)s")
_LAYOUT_OR_TENSOR = _arguments.Typed(
    Layout, "Expected layout or tensor as input, but got type(input)=%(type)s")
_BITS = _arguments.Typed(int, "%(name)s must be an integer instead got "
                         "%(type)s", convert=int)
_LAYOUT_FOR = _arguments.Typed(
    Layout, "expected a Layout for %(name)s, but got %(type)s")


def _outer(a, f):
    """f on a composed layout's outer layout, its inner function and offset
    kept: the DSL's modes of a swizzled layout are its outer layout's."""
    return ComposedLayout(a.inner, a.offset, f(a.outer))


# ---------------------------------------------------------------------------
# Makers (the layout makers are _makers')

@takes(thr_layout=_LAYOUT_FOR, val_layout=_LAYOUT_FOR)
def make_layout_tv(thr_layout, val_layout):
    """(tiler_mn, layout_tv) as CuTe's make_tiled_copy computes them: the
    values raked over the threads give (m, n) -> (thread, value); its right
    inverse seen with the shape (threads, values) is (thread, value) ->
    (m, n); the tile is each mode's size of the first."""
    mn = raked_product(thr_layout, val_layout)
    tv = composition(right_inverse(mn),
                     make_layout((size(thr_layout), size(val_layout))))
    return product_each(mn.shape), tv


# ---------------------------------------------------------------------------
# The algebra: the DSL's operations on layouts (_fast runs the static ones
# on the C++ core, the others with the DSL's rules)

@takes(lhs=Operand(0),
       rhs=Tiler(1, (ComposedLayout, Swizzle), ints="static"))
def composition(lhs, rhs):
    """lhs o rhs: rhs a Layout, an integer n (n:1) or a tuple of them (a
    tiler, None keeping a mode)."""
    return _fast.op2("composition", lhs, rhs)


@takes(input=Operand(0, composed=False), cotarget=LayoutOr(SHAPE))
def complement(input, cotarget):
    """The layout of what input does not reach, up to cotarget."""
    if type(cotarget) is tuple and not cotarget:
        cotarget = 1  # the product of no modes
    return _fast.op2("complement", input, cotarget)


@takes(input=_PY_LAYOUT)
def right_inverse(input):
    return _fast.op1("right_inverse", input)


@takes(input=_PY_LAYOUT)
def left_inverse(input):
    return _fast.op1("left_inverse", input)


@takes(input=Operand(0), target_profile=COORD)
def coalesce(input, *, target_profile=None):
    return _fast.coalesce(input, target_profile)


@takes(input=_arguments.Typed(
    _ANY, "Expected layout or tensor as input, but got type(input)=%(type)s"))
def filter(input):
    return _fast.op1("filter", input)


@takes(input=_LAYOUT_OR_TENSOR)
def filter_zeros(input, *, target_profile=None):
    if target_profile is not None:  # the DSL takes only its own IR values
        raise _arguments.refused_operand(1, "filter_zeros")
    return _algebra.filter_zeros(input)


# The divides and products: a Layout or ComposedLayout by a tiler.

@takes(target=Operand(0), tiler=Tiler(1, ints="static"))
def logical_divide(target, tiler):
    """target's modes split into the tiles of tiler and the rest (a tiler:
    a Layout, an integer or a tuple of them, None keeping a mode whole)."""
    return _fast.op2("logical_divide", target, tiler)


@takes(target=Operand(0), tiler=Tiler(1, ints=None))
def zipped_divide(target, tiler):
    """logical_divide, the tiles' modes gathered first, the rest second."""
    return _fast.op2("zipped_divide", target, tiler)


@takes(target=Operand(0), tiler=Tiler(1, ints=None))
def tiled_divide(target, tiler):
    """zipped_divide with the rest's modes unpacked."""
    return _fast.op2("tiled_divide", target, tiler)


@takes(target=Operand(0), tiler=Tiler(1, ints=None))
def flat_divide(target, tiler):
    """zipped_divide with both halves' modes unpacked."""
    return _fast.op2("flat_divide", target, tiler)


@takes(block=Operand(0), tiler=Tiler(1, none="keeps"))
def logical_product(block, tiler):
    """block, then block repeated as tiler lays it out; under a tuple
    tiler mode by mode, a None (`_`) keeping its mode of block (a None
    alone keeping block), as the DSL does."""
    if tiler is None or type(tiler) is tuple and None in tiler:
        return _product_keeping(block, tiler)
    return _fast.op2("logical_product", block, tiler)


def _product_keeping(block, tiler):
    """logical_product where the tiler holds a top-level None: the block's
    mode under a None as it is, the others' products one by one, the
    modes past the tiler's rank as they are (observed:
    `logical_product((4,8):(1,4), (_,2))` is `(4,(8,2)):(1,(4,1))`,
    `((4,8):(1,4), _)` the block, `(8:1, (_,))` `(8):(1)`)."""
    if tiler is None:
        return block
    if not isinstance(block, Layout):
        raise TypeError("logical_product: a None (`_`) in the tiler of a "
                        "composed layout's product is not modelled")
    if len(tiler) > _tuples.rank(block.sh):
        raise Refusal("logical_product: Too many modes in tiler. (the "
                      "tiler %s has more modes than the block %s)" %
                      (pretty_str(tiler), block))
    modes = [block[i] if t is None else logical_product(block[i], t)
             for i, t in enumerate(tiler)]
    modes += [block[i] for i in range(len(tiler), _tuples.rank(block.sh))]
    return make_layout(modes)


# The products but logical_product take a Layout only (observed: an
# integer, a tuple, a None or a composed layout refused as the operand that
# is not a Value).
_PRODUCT_TILER = Tiler(1, ints=None, tuples=False)


@takes(block=Operand(0), tiler=_PRODUCT_TILER)
def zipped_product(block, tiler):
    return _fast.op2("zipped_product", block, tiler)


@takes(block=Operand(0), tiler=_PRODUCT_TILER)
def tiled_product(block, tiler):
    return _fast.op2("tiled_product", block, tiler)


@takes(block=Operand(0), tiler=_PRODUCT_TILER)
def flat_product(block, tiler):
    return _fast.op2("flat_product", block, tiler)


@takes(block=Operand(0), tiler=_PRODUCT_TILER)
def raked_product(block, tiler):
    """block's elements interleaved with tiler's, mode by mode."""
    return _fast.op2("raked_product", block, tiler)


@takes(block=Operand(0), tiler=_PRODUCT_TILER)
def blocked_product(block, tiler):
    """block repeated over tiler, mode by mode."""
    return _fast.op2("blocked_product", block, tiler)


@takes(atom=Operand(0), trg_shape=TILE, order=INT_TUPLE)
def tile_to_shape(atom, trg_shape, order):
    """atom repeated to cover trg_shape, its repetitions in `order`; a
    Layout in trg_shape stands for its shape, as in `shape` (observed:
    `(4, 4:2)` and `(4, (2,2):(1,2))` give what `(4, 4)` gives)."""
    trg_shape = _shape_of_tile(trg_shape, "tile_to_shape")
    SHAPE.read(trg_shape, "tile_to_shape", "trg_shape")  # positive sizes
    return _fast.tile_to_shape(atom, trg_shape, order)


@takes(new_type_bits=_BITS, old_type_bits=_BITS, src_layout=_arguments.Typed(
    _ANY, "src_layout must be a layout or composed layout instead got "
    "%(type)s"))
def recast_layout(new_type_bits, old_type_bits, src_layout):
    """src_layout over elements of new_type_bits bits, from old_type_bits."""
    if new_type_bits <= 0 or old_type_bits <= 0:
        raise Refusal("recast_layout: unable to recast %s from %d bits to %d "
                      "bits (the widths must be positive)" % (
                          src_layout, old_type_bits, new_type_bits))
    return _fast.recast_layout(new_type_bits, old_type_bits, src_layout)


@takes(a=Operand(0, composed=False, op="composition"), b=_PY_LAYOUT)
def max_common_layout(a, b):
    return _algebra.max_common_layout(a, b)


@takes(a=Operand(0, composed=False, op="composition"), b=_PY_LAYOUT)
def max_common_vector(a, b):
    return _algebra.max_common_vector(a, b)


@takes(layout=_arguments.Typed(Layout, "expects a Layout, but got %(type)s"))
def nullspace(layout):
    return _algebra.nullspace(layout)


@takes(layout=_LAYOUT_OR_COMPOSED)
def get_swizzle_portion(layout):
    """A composed layout's swizzle; the identity S<0,4,3> otherwise."""
    if isinstance(layout, ComposedLayout) and isinstance(layout.inner,
                                                         Swizzle):
        return layout.inner
    return Swizzle(0, 4, 3)


@takes(layout=_LAYOUT_OR_COMPOSED)
def get_nonswizzle_portion(layout):
    """A composed layout's outer layout; a layout itself."""
    return layout.outer if isinstance(layout, ComposedLayout) else layout


# ---------------------------------------------------------------------------
# Queries. `mode` is an integer or a list of them, a path into the modes.

def _follow(t, path, refuse, negative=False):
    """The mode of the tree t at path (a leaf has one mode, itself);
    refuse() where an index is out of range (Python's negative indices
    where `negative`)."""
    for i in path:
        r = _tuples.rank(t)
        if not (0 <= i < r or (negative and -r <= i < 0)):
            raise refuse()
        if type(t) is tuple:
            t = t[i]
    return t


def size(a, mode=[]):  # noqa: B006 (the DSL's signature)
    """The number of coordinates of a (of its mode at the path `mode`)."""
    if hasattr(a, "_dsl_size"):
        return a._dsl_size()
    path = _arguments.read_modes(mode, "size", lambda m: Refusal(
        "Expected integer elements in mode, but got %r" % (m,)))
    if isinstance(a, _ANY):
        if not path:
            return _ints.traced(_fast.size(a))
        shape = a.sh
    else:
        shape = INT_TUPLE.read(a, "size", "a")
    shape = _follow(shape, path, lambda: Refusal(
        "size: mode %r has invalid values for input type %s" % (
            path, a if isinstance(a, _ANY) else pretty_str(shape))))
    return _ints.traced(_core_calls.product(shape))


@takes(a=Operand(0, op="cosize"))
def cosize(a, mode=[]):  # noqa: B006
    """One past the largest offset of a (of its mode at the path `mode`)."""
    layout = a.outer if isinstance(a, ComposedLayout) else a
    path = _arguments.read_modes(mode, "cosize", lambda m: TypeError(
        "cosize: expects integers in mode, got %r" % (m,)))
    for i in path:
        if not 0 <= i < _tuples.rank(layout.shape):
            raise Refusal("cosize: mode %r is invalid for input type %s" %
                          (path, layout))
        layout = layout[i]
    return _ints.traced(_algebra.cosize(layout))


def rank(a, mode=[]):  # noqa: B006
    """The number of top-level modes (of the mode at the path `mode`)."""
    t = a.shape if isinstance(a, _ANY) else a
    path = _arguments.read_modes(mode, "rank", lambda m: TypeError(
        "rank: expects integers in mode, got %r" % (m,)))
    t = _follow(t, path, lambda: Refusal(
        "rank: elements in mode must be less than rank(%s), got %r (the "
        "DSL fails with an IndexError)" % (pretty_str(t), path)))
    return _tuples.rank(t)


def depth(a):
    """How deep the modes nest: 0 for an integer."""
    return _tuples.depth(a.shape if isinstance(a, _ANY) else a)


def shape(input, *, mode=None):
    """input's shape (a tuple's, each Layout in it read as its shape), or
    the mode of it at the path `mode`."""
    if isinstance(input, _ANY):
        s = input.shape
    else:
        s = _shape_of_tile(TILE.read(input, "shape", "input"))
    return s if mode is None else get(s, mode=mode)


def _shape_of_tile(t, op="shape"):
    """A Tile's shape: each Layout in it read as its shape; a None (`_`)
    has none, which the DSL refuses ("source must not have error")."""
    if type(t) is tuple:
        return tuple(_shape_of_tile(e, op) for e in t)
    if isinstance(t, Layout):
        return t.shape
    if t is None:
        raise Refusal("%s: a `_` mode has no shape (the DSL: source must not "
                      "have error)" % op)
    return t


@takes(coord=COORD, layout=LayoutOr(SHAPE, index=1))
def crd2idx(coord, layout):
    """The offset (for an identity layout, the coordinate) of coord in
    layout, or in the compact layout of a shape."""
    return _ints.traced(_algebra.crd2idx(coord, layout))


@takes(idx=INT_TUPLE, shape=SHAPE)
def idx2crd(idx, shape):
    """The colexicographic coordinate of idx in shape (the last mode takes
    the quotient without a modulo)."""
    return _ints.traced(_algebra.idx2crd(idx, shape))


def _tree_or_refused(src, op):
    """src as a tuple's slice takes it: a tuple or an integer; anything
    else is not a Value of the DSL's slice."""
    if not (type(src) is tuple or _arguments.is_integer(src)):
        raise _arguments.refused_operand(0, op)


def slice_(src, coord):
    """The modes of src where coord is None (`_`)."""
    if isinstance(src, Layout):
        return _slices.slice_layout(src, coord)
    if isinstance(src, ComposedLayout):
        from . import _composed
        return _composed.slice_(src, coord)
    _tree_or_refused(src, "slice")
    return _slices.slice_tuple(coord, src)


def dice(src, coord):
    """The modes of src where coord is an integer (CuTe's dice), the
    complement of slice_; coord (the dicer) must be static."""
    for x in _tuples.leaves(coord):
        if x is not None and not _arguments.is_integer(x):
            raise TypeError("dice: unsupported type %s" % (x,))
    if not _ints.is_static(coord):
        raise Refusal("dice: expects dicer to be static, got %s" %
                      pretty_str(coord))
    if isinstance(src, Layout):
        return _slices.dice_layout(src, coord)
    if isinstance(src, ComposedLayout):
        from . import _composed
        return _composed.dice(src, coord)
    return _slices.dice_tuple(coord, src)


@takes(coord=COORD)
def slice_and_offset(coord, src):
    """(slice_(src, coord), the offset of coord with each None read as 0);
    of a shape, its compact layout's offset and the shape's slice."""
    if isinstance(src, ComposedLayout):
        from . import _composed
        return _composed.slice_and_offset(coord, src)
    if isinstance(src, Layout):
        return _slices.slice_and_offset(coord, src)
    _tree_or_refused(src, "slice")
    part, offset = _slices.slice_and_offset(coord, make_layout(src))
    return part.shape, offset


# ---------------------------------------------------------------------------
# Tuples

def pretty_str(arg):
    """A tuple as the DSL prints it: no spaces, None as `_`, a rank-1
    tuple without a trailing comma; anything else as str() prints it."""
    if arg is None:
        return "_"
    if type(arg) is not tuple:
        return str(arg)
    return "(%s)" % ",".join(map(pretty_str, arg))


def product_each(t):
    """Each top-level mode's product (an integer is itself; () is 1)."""
    if _arguments.is_integer(t):
        return _ints.traced(_arguments.plain(t))
    if type(t) is not tuple:
        raise TypeError("expects IntTuple or Shape, but got %s" % type(t))
    t = INT_TUPLE.read(t, "product_each", "t")
    if t == ():
        return 1
    return _ints.traced(tuple(_core_calls.product(m) for m in t))


@takes(a=INT_TUPLE, b=TILE)
def ceil_div(a, b):
    """How many tiles of b cover a (docs/cute-dsl.md, "_tuples.py written
    anew", has the rules)."""
    for x in _tuples.leaves(b):
        if x is None:
            raise Refusal("ceil_div: unable to perform ceil_div on input %s "
                          "and tiler %s" % (pretty_str(a), pretty_str(b)))
        if isinstance(x, Layout):
            raise TypeError("ceil_div: a Layout in the tiler is not "
                            "modelled, got %s" % pretty_str(b))
    return _ints.traced(_tuples.ceil_div(a, b))


@takes(a=SHAPE, b=SHAPE)
def shape_div(a, b):
    """CuTe's shape_div: a divided by b, mode by mode."""
    return _ints.traced(_core_calls.shape_div(a, b))


_ROUNDED = INT_TUPLE.but(error=TypeError, words="round_up takes integers "
                         "(the DSL computes other numbers as Python does: "
                         "not modelled), got %s")


@takes(a=_ROUNDED, b=_ROUNDED)
def round_up(a, b):
    """a rounded up to a multiple of b, mode by mode where both are tuples
    (a's modes past b's rank kept); an integer a takes an integer b."""
    if type(a) is tuple and type(b) is tuple:
        return tuple(round_up(x, y) for x, y in zip(a, b)) + a[len(b):]
    if type(a) is tuple:
        raise TypeError("Expected both inputs to be tuple, but got %s and %s"
                        % (type(a), type(b)))
    if type(b) is tuple:
        raise TypeError("Expected `b` to be a single integer when `a` is not "
                        "a tuple, but got %s" % (b,))
    return _ints.traced(_ints.mul(_ints.ceil_div(a, b), b))


def flatten(a):
    """The leaves of a as one tuple (a layout's modes as flat modes); a
    leaf, and a composed layout, stay as they are (the DSL's)."""
    if isinstance(a, Layout):
        return Layout(_tuples.flatten(a.sh), _tuples.flatten(a.st))
    return _tuples.flatten(a)


def get(a, mode=[]):  # noqa: B006
    """The mode of a at the path `mode` (a tuple's negative indices count
    from its end, as in Python)."""
    path = _arguments.read_modes(mode, "get", lambda m: TypeError(
        "invalid element in mode, expects int, got %s" % type(
            next(x for x in m if not isinstance(x, int)))))
    if isinstance(a, ComposedLayout):
        return _outer(a, lambda o: get(o, mode=path))
    tree = a.shape if isinstance(a, Layout) else a
    _follow(tree, path, lambda: Refusal(
        "elements in mode must be less than rank(%s), got %r" % (a, path)),
            negative=not isinstance(a, Layout))
    for i in path:
        if isinstance(a, Layout) or type(a) is tuple:
            a = a[i]
    return a


def select(a, mode):
    """The top-level modes of a listed in mode, in that order."""
    if isinstance(a, ComposedLayout):
        return _outer(a, lambda o: select(o, mode))
    if not isinstance(a, Layout) and type(a) is not tuple:
        raise TypeError("unsupported type of input, got %s" % type(a))
    r = _tuples.rank(a.shape if isinstance(a, Layout) else a)
    path = _arguments.read_modes(mode, "select", lambda m: Refusal(
        "invalid mode element for input of rank %d, got mode=%r" % (r, m)))
    for i in path:
        if isinstance(a, Layout) and i < 0:
            raise Refusal("The mode %r contains values that are out of range "
                          "for the input type %s" % (path, a))
        if not -r <= i < r:
            raise Refusal("invalid mode element for input of rank %d, got "
                          "mode=%r" % (r, mode))
    if isinstance(a, Layout):
        sh, st = _tuples.wrap(a.sh), _tuples.wrap(a.st)
        return Layout(tuple(sh[i] for i in path), tuple(st[i] for i in path))
    return tuple(a[i] for i in path)


def _extended(a, x, fn, at_end):
    """append (at_end) or prepend x to a's top-level modes; None is the
    mode 1 (1:0 in a layout), as in the DSL."""
    if isinstance(a, ComposedLayout):
        return _outer(a, lambda o: _extended(o, x, fn, at_end))
    if isinstance(a, Layout):
        if x is None:
            x = Layout(1, 0)
        if not isinstance(x, Layout):
            raise TypeError("Input type of elem (%s) is not accepted!" %
                            type(x))
        sh, st = _tuples.wrap(a.sh), _tuples.wrap(a.st)
        return Layout(sh + (x.sh,) if at_end else (x.sh,) + sh,
                      st + (x.st,) if at_end else (x.st,) + st)
    if type(a) is not tuple and not _arguments.is_integer(a):
        raise TypeError("invalid type for input, got %s" % type(a))
    if x is None:
        x = 1
    if not (type(x) is tuple or _arguments.is_integer(x) or
            isinstance(x, Layout)):
        raise TypeError("Input type of elem (%s) is not accepted!" % type(x))
    a = _tuples.wrap(a)
    return a + (x,) if at_end else (x,) + a


def append(a, x):
    """a with x as its last top-level mode."""
    return _extended(a, x, "append", True)


def prepend(a, x):
    """a with x as its first top-level mode."""
    return _extended(a, x, "prepend", False)


def group_modes(a, begin, end=None):
    """a's top-level modes begin..end-1 (negative from the end, end None
    for the rank) as one mode. The DSL checks begin < end (both counted
    from 0), then, for a layout, their ranges (a begin below -rank taken as
    0, as it does); a tuple is cut as Python slices it."""
    if isinstance(a, ComposedLayout):
        return _outer(a, lambda o: group_modes(o, begin, end))
    if isinstance(a, Layout):
        r = _tuples.rank(a.sh)
    elif type(a) is tuple or _arguments.is_integer(a):
        r = _tuples.rank(a)
    else:
        raise _arguments.refused_operand(0, "group_modes")
    end = r if end is None else end
    for v in (begin, end):
        if not isinstance(v, int):
            raise TypeError("group_modes: expects integers as begin and end, "
                            "got %r" % (v,))
    b = begin + r if begin < 0 else begin
    e = end + r if end < 0 else end
    if b >= e:
        raise Refusal("Expected begin < end, but got %d >= %d" % (b, e))
    if type(a) is not tuple and not isinstance(a, Layout):
        return (a,)
    if isinstance(a, Layout):
        if begin > r - 1:
            raise Refusal("group_modes: expects begin in the range of "
                          "[-rank, rank-1], but got begin %d and rank %d" %
                          (begin, r))
        if not -r + 1 <= end <= r:
            raise Refusal("group_modes: expects end in the range of "
                          "[-rank+1, rank], but got end %d and rank %d" %
                          (end, r))
        if type(a.sh) is not tuple:  # its one mode is itself: (6):(1)
            return Layout((a.sh,), (a.st,))
        cut = slice(max(b, 0), e)
        sh, st = _tuples.wrap(a.sh), _tuples.wrap(a.st)
        return Layout(sh[:cut.start] + (sh[cut],) + sh[cut.stop:],
                      st[:cut.start] + (st[cut],) + st[cut.stop:])
    return a[:begin] + (a[begin:end],) + a[end:]


def is_congruent(a, b):
    """Whether a and b (or their shapes) have the same tree."""
    return _tuples.congruent(a.shape if isinstance(a, _ANY) else a,
                             b.shape if isinstance(b, _ANY) else b)


def is_weakly_congruent(a, b):
    """Whether b's tree refines a's (a leaf of a may stand for a subtree)."""
    return _tuples.weakly_congruent(a.shape if isinstance(a, _ANY) else a,
                                    b.shape if isinstance(b, _ANY) else b)


# Tensors (tensor.py, tensor_ssa.py, runtime.py, math.py): the layout
# functions above take a tensor too, acting on its layout.
from . import math, runtime  # noqa: E402
from .tensor import (IdentityTensor, Pointer, Tensor,  # noqa: E402
                     make_identity_tensor, make_rmem_tensor, make_tensor,
                     print_tensor)
from .runtime import AddressSpace  # noqa: E402
from ._jit import Coord, IntTuple, Shape, Stride  # noqa: E402
from .tensor_ssa import ReductionOp, TensorSSA  # noqa: E402
from . import tensor as _tensor  # noqa: E402

for _name in ("logical_divide", "zipped_divide", "tiled_divide",
              "flat_divide", "composition", "coalesce", "group_modes"):
    globals()[_name] = _tensor.on_layout(globals()[_name])
for _name in ("size", "cosize", "rank", "depth", "shape"):
    globals()[_name] = _tensor.of_layout(globals()[_name])
slice_ = _tensor.slice_(slice_)
del _name


def local_tile(input, tiler, coord):
    """The tile of `input` at `coord` of its tiles of shape `tiler`:
    zipped_divide, then the tile's coordinate in the rest mode; the tile
    mode's layout is the result's."""
    if not isinstance(input, Tensor):
        raise TypeError("local_tile expects a Tensor, got %s" %
                        type(input).__name__)
    tile = zipped_divide(input, tiler)[(None, coord)]
    sh, st = tile.layout.sh, tile.layout.st
    if isinstance(sh, tuple) and len(sh) == 1 and isinstance(sh[0], tuple):
        # The tile's one mode is the tile: (2,2):(6,1), not ((2,2)):((6,1)).
        return Tensor(tile.iterator, Layout(sh[0], st[0]))
    return tile


__all__ += ["Pointer", "Tensor", "TensorSSA", "ReductionOp", "make_tensor",
            "make_rmem_tensor", "print_tensor", "local_tile", "math",
            "runtime", "IdentityTensor", "make_identity_tensor",
            "AddressSpace", "Shape", "Stride", "Coord", "IntTuple"]
