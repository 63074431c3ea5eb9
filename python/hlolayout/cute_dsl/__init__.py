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

from . import (_algebra, _core_calls, _fast, _floats, _ints, _slices,
               _tuples)
from ._algebra import RULES as WRONG_LAYOUT_RULES
from ._algebra import Refusal, WrongLayoutError, WrongLayoutWarning
from ._ints import (Boolean, DynInt, Int8, Int16, Int32, Int64, Integer,
                    Numeric, Uint8, Uint16, Uint32, Uint64, assume,
                    is_integer, is_static)
from ._numeric_types import *  # noqa: F401,F403
from ._numeric_types import __all__ as _numeric_all
from ._objects import ComposedLayout, E, Layout, ScaledBasis, Swizzle
from ._config import (get_arch, is_strict, set_arch, set_strict, strict,
                      unchecked)
from . import nvgpu, utils, viz
from ._pictures import draw
from ._atoms import DSLUserCodeError
from ._jit import (Constexpr, compile, const_expr, jit, printf,
                   range_constexpr)
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
             DSLUserCodeError):
    _cls.__module__ = __name__
del _cls


def _is_layout(x):
    return isinstance(x, Layout)


def _need_layout(x, fn, what="a Layout"):
    if not isinstance(x, Layout):
        raise TypeError("%s expects %s, got %s" % (fn, what,
                                                   type(x).__name__))


def _check_int_tuple(t, fn):
    for x in _tuples.leaves(t):
        if not _tuples.is_int(x):
            raise TypeError("%s expects integers, got %r" % (fn, x))


def _check_coord(coord, fn):
    for x in _tuples.leaves(coord):
        if x is not None and not _tuples.is_int(x):
            raise TypeError("%s expects a coordinate whose leaves are "
                            "integers or None, got %r" % (fn, x))


def _need_any_layout(x, fn):
    if not isinstance(x, (Layout, ComposedLayout)):
        raise TypeError("%s expects a Layout or ComposedLayout, got %s" %
                        (fn, type(x).__name__))


def _check_tiler(t, fn, none_ok):
    """A tiler: a Layout, an integer, or a tuple of them (None, CuTe's `_`,
    where the op keeps a mode whole)."""
    if isinstance(t, (Layout, ComposedLayout, Swizzle)) or _tuples.is_int(t):
        return
    if t is None and none_ok:
        return
    if type(t) is tuple:
        for x in t:
            _check_tiler(x, fn, none_ok)
        return
    raise TypeError("%s expects a Layout, an integer or a tuple of them as "
                    "the tiler, got %r" % (fn, t))


class DivisionByZero(Refusal, ZeroDivisionError):
    """CuTe's algorithm divides by zero on these operands: the DSL raises
    ZeroDivisionError or aborts its process (SIGFPE)."""


def _no_zero_division(fn):
    """Runs an op of the algebra; where CuTe's algorithm divides by zero
    (a zero-size mode, a layout that is not injective or has a negative
    stride under a product or divide), the DSL's process dies of SIGFPE or
    Python raises ZeroDivisionError: the twin refuses, saying so."""
    import functools

    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ZeroDivisionError as ex:
            if isinstance(ex, Refusal):
                raise
            raise DivisionByZero(
                "%s: CuTe's algorithm divides by zero on these operands (a "
                "zero size, or a layout that is not injective or has a "
                "negative stride); the DSL raises ZeroDivisionError or its "
                "process aborts (SIGFPE)" % fn.__name__) from None
    return run


def _check_modes(a, mode, fn):
    """`mode` a list of mode indices, each in range of what it indexes (the
    DSL: "elements in mode must be less than rank")."""
    if isinstance(mode, int) and not isinstance(mode, bool):
        mode = [mode]
    if not isinstance(mode, (list, tuple)) or any(
            type(m) is not int for m in mode):
        raise TypeError("%s: expects a list of integers as mode, got %r" %
                        (fn, mode))
    t = a
    for m in mode:
        if isinstance(t, (Layout, ComposedLayout)):
            t = t.shape
        r = _tuples.rank(t)
        if not 0 <= m < r:
            raise Refusal("%s: elements in mode must be less than rank(%s) "
                          "= %d, got %r" % (fn, pretty_str(t), r, list(mode)))
        t = t[m] if type(t) is tuple else t
    return list(mode)


# ---------------------------------------------------------------------------
# Making layouts

def make_layout(shape, *, stride=None):
    """A layout of `shape` and `stride` (CuTe's compact column-major strides
    when stride is None, a static size-1 mode getting stride 0); a list or
    tuple of Layouts makes each a mode."""
    if isinstance(shape, (list, tuple)) and shape and isinstance(
            shape[0], Layout) and all(isinstance(x, Layout) for x in shape):
        return _algebra.make_layout_of(list(shape))
    if isinstance(shape, list):
        shape = tuple(shape)
    if isinstance(stride, list):
        stride = tuple(stride)
    # (The checks of _check_int_tuple and _algebra.make_layout, in their
    # order, with one walk of the shape: every layout is made here.)
    leaves = _tuples.leaves(shape)
    for x in leaves:
        if type(x) is not int and not isinstance(x, DynInt):
            raise TypeError("make_layout expects integers, got %r" % (x,))
    if stride is not None:
        for x in _tuples.leaves(stride):
            if not (type(x) is int or isinstance(x, (DynInt, ScaledBasis))):
                raise TypeError("make_layout expects integer strides, got "
                                "%r" % (x,))
    return _algebra.make_checked_layout(shape, stride, leaves)


@_no_zero_division
def make_ordered_layout(shape, order):
    """A compact layout whose modes take strides in the order `order`."""
    _check_int_tuple(shape, "make_ordered_layout")
    return _algebra.make_ordered_layout(shape, order)


def make_identity_layout(shape):
    """shape:(1@0,1@1,...): each coordinate maps to itself."""
    _check_int_tuple(shape, "make_identity_layout")
    return _algebra.make_identity_layout(shape)


@_no_zero_division
def make_layout_tv(thr_layout, val_layout):
    """(tiler_mn, layout_tv): val_layout repeated over thr_layout (a raked
    product), and the (thread, value) -> (m, n) layout."""
    _need_layout(thr_layout, "make_layout_tv")
    _need_layout(val_layout, "make_layout_tv")
    layout_mn = raked_product(thr_layout, val_layout)
    tmp = make_layout((size(thr_layout), size(val_layout)))
    layout_tv = composition(right_inverse(layout_mn), tmp)
    return product_each(layout_mn.shape), layout_tv


def make_swizzle(b, m, s):
    """CuTe's Swizzle<b,m,s>, printed S<b,m,s>. As in the DSL, a swizzle
    that moves nothing or is not valid (b <= 0, m < 0, |s| < b) is the
    identity S<0,4,3>."""
    for v in (b, m, s):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("make_swizzle expects static ints, got %r" % (v,))
    if b <= 0 or m < 0 or abs(s) < b:
        return Swizzle(0, 4, 3)
    return Swizzle(b, m, s)


def make_composed_layout(inner, offset, outer):
    """inner o offset o outer (inner a Swizzle, a Layout, or a Python
    function: then a FunctionComposedLayout, which only maps coordinates
    and prints)."""
    function = not isinstance(inner, (Swizzle, Layout, ComposedLayout))
    if function and not callable(inner):
        raise TypeError("make_composed_layout expects a Swizzle, a Layout "
                        "or a function as inner, got %s" %
                        type(inner).__name__)
    _need_layout(outer, "make_composed_layout")
    _check_int_tuple(offset, "make_composed_layout")
    if function:
        from ._func_composed import FunctionComposedLayout
        return FunctionComposedLayout(inner, offset, outer)
    return ComposedLayout(inner, offset, outer)


# ---------------------------------------------------------------------------
# The algebra (dispatching to the C++ core when every integer is static)

@_no_zero_division
def composition(lhs, rhs):
    """lhs o rhs: rhs a Layout, a tiler tuple (Layouts, ints, None) or an
    int."""
    _need_any_layout(lhs, "composition")
    _check_tiler(rhs, "composition", True)
    return _fast.op2("composition", lhs, rhs)


@_no_zero_division
def complement(input, cotarget):
    """The layout of the rest of the codomain up to cotarget."""
    _need_layout(input, "complement")
    if not isinstance(cotarget, Layout):
        _check_int_tuple(cotarget, "complement")
        if cotarget == ():
            cotarget = 1  # the product of no modes
    return _fast.op2("complement", input, cotarget)


@_no_zero_division
def right_inverse(input):
    _need_layout(input, "right_inverse")
    return _fast.op1("right_inverse", input)


@_no_zero_division
def left_inverse(input):
    _need_layout(input, "left_inverse")
    return _fast.op1("left_inverse", input)


@_no_zero_division
def coalesce(input, *, target_profile=None):
    _need_any_layout(input, "coalesce")
    return _fast.coalesce(input, target_profile)


@_no_zero_division
def filter(input):
    _need_any_layout(input, "filter")
    return _fast.op1("filter", input)


@_no_zero_division
def filter_zeros(input, *, target_profile=None):
    _need_layout(input, "filter_zeros")
    if target_profile is not None:
        raise Refusal("filter_zeros: target_profile must be a Value "
                      "(the DSL refuses a Python tuple here)")
    return _algebra.filter_zeros(input)


@_no_zero_division
def logical_divide(target, tiler):
    _need_any_layout(target, "logical_divide")
    _check_tiler(tiler, "logical_divide", True)
    return _fast.op2("logical_divide", target, tiler)


@_no_zero_division
def zipped_divide(target, tiler):
    _need_any_layout(target, "zipped_divide")
    _check_tiler(tiler, "zipped_divide", True)
    return _fast.op2("zipped_divide", target, tiler)


@_no_zero_division
def tiled_divide(target, tiler):
    _need_any_layout(target, "tiled_divide")
    _check_tiler(tiler, "tiled_divide", True)
    return _fast.op2("tiled_divide", target, tiler)


@_no_zero_division
def flat_divide(target, tiler):
    _need_any_layout(target, "flat_divide")
    _check_tiler(tiler, "flat_divide", True)
    return _fast.op2("flat_divide", target, tiler)


@_no_zero_division
def logical_product(block, tiler):
    _need_any_layout(block, "logical_product")
    _check_tiler(tiler, "logical_product", False)
    return _fast.op2("logical_product", block, tiler)


@_no_zero_division
def zipped_product(block, tiler):
    _need_any_layout(block, "zipped_product")
    _check_tiler(tiler, "zipped_product", False)
    return _fast.op2("zipped_product", block, tiler)


@_no_zero_division
def tiled_product(block, tiler):
    _need_any_layout(block, "tiled_product")
    _check_tiler(tiler, "tiled_product", False)
    return _fast.op2("tiled_product", block, tiler)


@_no_zero_division
def flat_product(block, tiler):
    _need_any_layout(block, "flat_product")
    _check_tiler(tiler, "flat_product", False)
    return _fast.op2("flat_product", block, tiler)


@_no_zero_division
def raked_product(block, tiler):
    _need_any_layout(block, "raked_product")
    if not isinstance(tiler, (Layout, ComposedLayout)):
        raise TypeError("raked_product expects a Layout as the tiler (the DSL takes no "
                        "tuple or integer here), got %r" % (tiler,))
    return _fast.op2("raked_product", block, tiler)


@_no_zero_division
def blocked_product(block, tiler):
    _need_any_layout(block, "blocked_product")
    if not isinstance(tiler, (Layout, ComposedLayout)):
        raise TypeError("blocked_product expects a Layout as the tiler (the DSL takes no "
                        "tuple or integer here), got %r" % (tiler,))
    return _fast.op2("blocked_product", block, tiler)


@_no_zero_division
def tile_to_shape(atom, trg_shape, order):
    _need_any_layout(atom, "tile_to_shape")
    _check_int_tuple(trg_shape, "tile_to_shape")
    _check_int_tuple(order, "tile_to_shape")
    return _fast.tile_to_shape(atom, trg_shape, order)


@_no_zero_division
def recast_layout(new_type_bits, old_type_bits, src_layout):
    if not isinstance(src_layout, (Layout, ComposedLayout)):
        raise TypeError("recast_layout: src_layout must be a layout or "
                        "composed layout, got %s" % type(src_layout).__name__)
    for bits in (new_type_bits, old_type_bits):
        if type(bits) is not int or bits <= 0:
            raise Refusal("recast_layout: unable to recast %s from %r bits "
                          "to %r bits (the widths must be positive static "
                          "integers)" % (src_layout, old_type_bits,
                                         new_type_bits))
    return _fast.recast_layout(new_type_bits, old_type_bits, src_layout)


@_no_zero_division
def max_common_layout(a, b):
    _need_layout(a, "max_common_layout")
    _need_layout(b, "max_common_layout")
    return _algebra.max_common_layout(a, b)


@_no_zero_division
def max_common_vector(a, b):
    _need_layout(a, "max_common_vector")
    _need_layout(b, "max_common_vector")
    return _algebra.max_common_vector(a, b)


@_no_zero_division
def nullspace(layout):
    _need_layout(layout, "nullspace")
    return _algebra.nullspace(layout)


def get_swizzle_portion(layout):
    """The swizzle of a composed layout; the identity S<0,4,3> otherwise."""
    if isinstance(layout, ComposedLayout):
        if isinstance(layout.inner, Swizzle):
            return layout.inner
        return Swizzle(0, 4, 3)
    if isinstance(layout, Layout):
        return Swizzle(0, 4, 3)
    raise TypeError("expects a Layout or ComposedLayout, but got %s" %
                    type(layout).__name__)


def get_nonswizzle_portion(layout):
    """The layout itself, or a composed layout's outer layout."""
    if isinstance(layout, ComposedLayout):
        return layout.outer
    if isinstance(layout, Layout):
        return layout
    raise TypeError("expects a Layout or ComposedLayout, but got %s" %
                    type(layout).__name__)


# ---------------------------------------------------------------------------
# Queries

def _modes(a, mode, fn):
    _check_modes(a, mode, fn)
    for m in mode:
        if isinstance(a, (Layout, ComposedLayout)):
            a = a.sh
        if type(a) is not tuple:
            if m != 0:
                raise IndexError("%s: mode %d out of range" % (fn, m))
            continue
        a = a[m]
    return a


def size(a, mode=[]):  # noqa: B006 (the DSL's signature)
    """The number of coordinates (of mode `mode`, a list of indices)."""
    if hasattr(a, "_dsl_size"):
        return a._dsl_size()
    if isinstance(a, (Layout, ComposedLayout)) and not mode:
        return _ints.traced(_fast.size(a))
    shape = _modes(a.sh if isinstance(a, (Layout, ComposedLayout))
                   else a, mode, "size")
    _check_int_tuple(shape, "size")
    return _ints.traced(_core_calls.product(shape))


def cosize(a, mode=[]):  # noqa: B006
    if isinstance(a, ComposedLayout):
        a = a.outer
    _need_layout(a, "cosize")
    for m in _check_modes(a, mode, "cosize"):
        a = a[m]
    return _ints.traced(_algebra.cosize(a))


def rank(a, mode=[]):  # noqa: B006
    if isinstance(a, (Layout, ComposedLayout)):
        a = a.shape
    for m in _check_modes(a, mode, "rank"):
        a = a[m] if type(a) is tuple else a
    return len(a) if type(a) is tuple else 1


def depth(a):
    if isinstance(a, (Layout, ComposedLayout)):
        a = a.shape
    return _tuples.depth(a)


def shape(input, *, mode=None):
    if isinstance(input, (Layout, ComposedLayout)):
        s = input.shape
    else:
        s = input
    if mode is None:
        return s
    return get(s, mode=mode)


@_no_zero_division
def crd2idx(coord, layout):
    """The offset (or coordinate, for an identity layout) of `coord`."""
    _check_coord(coord, "crd2idx")
    return _ints.traced(_algebra.crd2idx(coord, layout))


@_no_zero_division
def idx2crd(idx, shape):
    """The colexicographic coordinate of idx in shape (the last mode takes
    the quotient without a modulo)."""
    _check_int_tuple(idx, "idx2crd")
    _check_int_tuple(shape, "idx2crd")
    return _ints.traced(_algebra.idx2crd(idx, shape))


def slice_(src, coord):
    """The modes of src where coord is None (`_`)."""
    if isinstance(src, Layout):
        return _slices.slice_layout(src, coord)
    if isinstance(src, ComposedLayout):
        from . import _composed
        return _composed.slice_(src, coord)
    return _slices.slice_tuple(coord, src)


def dice(src, coord):
    """The modes of src where coord is an integer (CuTe's dice): the
    complement of slice_."""
    _check_coord(coord, "dice")
    if not _ints.is_static(coord):
        raise Refusal("dice: expects the coordinate %s to be static" %
                      pretty_str(coord))
    if isinstance(src, Layout):
        return _slices.dice_layout(src, coord)
    if isinstance(src, ComposedLayout):
        from . import _composed
        return _composed.dice(src, coord)
    _check_coord(src, "dice")  # the DSL takes a None there too
    return _slices.dice_tuple(coord, src)


def slice_and_offset(coord, src):
    """(slice_(src, coord), the offset of coord with None as 0)."""
    _check_coord(coord, "slice_and_offset")
    if isinstance(src, ComposedLayout):
        from . import _composed
        return _composed.slice_and_offset(coord, src)
    _need_layout(src, "slice_and_offset")
    return _slices.slice_and_offset(coord, src)


# ---------------------------------------------------------------------------
# Tuples

def pretty_str(arg):
    """The DSL's pretty_str: tuples without spaces, None as `_`."""
    if type(arg) is tuple:
        return "(" + ",".join(pretty_str(x) for x in arg) + ")"
    if arg is None:
        return "_"
    return str(arg)


def product_each(t):
    """The product of each mode of t (an integer's is the integer)."""
    _check_int_tuple(t, "product_each")
    if type(t) is not tuple:
        return _ints.traced(t)
    return _ints.traced(tuple([_core_calls.product(e) for e in t]))


@_no_zero_division
def ceil_div(a, b):
    _check_int_tuple(a, "ceil_div")
    _check_int_tuple(b, "ceil_div")
    return _ints.traced(_tuples.ceil_div(a, b))


@_no_zero_division
def shape_div(a, b):
    _check_int_tuple(a, "shape_div")
    _check_int_tuple(b, "shape_div")
    return _ints.traced(_core_calls.shape_div(a, b))


@_no_zero_division
def round_up(a, b):
    _check_int_tuple(a, "round_up")
    _check_int_tuple(b, "round_up")
    if type(a) is not tuple and type(b) is tuple:
        raise TypeError("round_up: expects b to be a single integer when a "
                        "is not a tuple, got %s" % pretty_str(b))
    if type(a) is tuple:
        b = _tuples.wrap(b)
        b = b + (1,) * (len(a) - len(b))
        return tuple(round_up(x, y) for x, y in zip(a, b))
    return _ints.traced(_ints.mul(_ints.ceil_div(a, b), b))


def flatten(a):
    if isinstance(a, Layout):
        return Layout(_tuples.flatten(a.sh), _tuples.flatten(a.st))
    return _tuples.flatten(a)


def _on_outer(a, f):
    """f on a composed layout's outer layout, keeping its inner function
    and offset (the DSL's modes of a swizzled layout)."""
    return ComposedLayout(a.inner, a.offset, f(a.outer))


def get(a, mode=[]):  # noqa: B006
    if isinstance(a, ComposedLayout):
        _check_modes(a, mode, "get")
        return _on_outer(a, lambda o: get(o, mode=mode))
    for m in _check_modes(a, mode, "get"):
        if isinstance(a, Layout):
            a = a[m]
        elif type(a) is tuple:
            a = a[m]
        elif m != 0:
            raise IndexError("get: mode %d out of range" % m)
    return a


def select(a, mode):
    if isinstance(a, ComposedLayout):
        select(a.outer, mode)  # the same checks
        return _on_outer(a, lambda o: select(o, mode))
    if isinstance(a, (Layout, ComposedLayout)):
        r = _tuples.rank(a.shape)
    else:
        r = _tuples.rank(a)
    if not isinstance(mode, (list, tuple)) or any(
            type(m) is not int or not 0 <= m < r for m in mode):
        raise Refusal("select: invalid mode element for input of rank %d, "
                      "got mode=%r" % (r, mode))
    if isinstance(a, Layout):
        return Layout(tuple(_tuples.wrap(a.sh)[m] for m in mode),
                      tuple(_tuples.wrap(a.st)[m] for m in mode))
    return tuple(_tuples.wrap(a)[m] for m in mode)


def append(a, x):
    if isinstance(a, ComposedLayout):
        return _on_outer(a, lambda o: append(o, x))
    if isinstance(a, Layout):
        _need_layout(x, "append", "a Layout as the element of a Layout")
        return Layout(_tuples.wrap(a.sh) + (x.sh,),
                      _tuples.wrap(a.st) + (x.st,))
    return _tuples.wrap(a) + (x,)


def prepend(a, x):
    if isinstance(a, ComposedLayout):
        return _on_outer(a, lambda o: prepend(o, x))
    if isinstance(a, Layout):
        _need_layout(x, "prepend", "a Layout as the element of a Layout")
        return Layout((x.sh,) + _tuples.wrap(a.sh),
                      (x.st,) + _tuples.wrap(a.st))
    return (x,) + _tuples.wrap(a)


def group_modes(a, begin, end):
    """Modes begin..end-1 of a as one mode (negative indices from the end,
    as the DSL: begin < end, end in [-rank+1, rank])."""
    if isinstance(a, ComposedLayout):
        return _on_outer(a, lambda o: group_modes(o, begin, end))
    for v in (begin, end):
        if type(v) is not int:
            raise TypeError("group_modes expects integers as begin and end, "
                            "got %r" % (v,))
    r = _tuples.rank(a.sh if isinstance(a, Layout) else a)
    b, e = begin + r if begin < 0 else begin, end + r if end < 0 else end
    if b >= e:
        raise Refusal("group_modes: expects begin < end, but got %d >= %d"
                      % (b, e))
    if not -r <= begin <= r - 1:
        raise Refusal("group_modes: expects begin in the range of [-rank, "
                      "rank-1], but got begin %d and rank %d" % (begin, r))
    if not -r + 1 <= end <= r:
        raise Refusal("group_modes: expects end in the range of [-rank+1, "
                      "rank], but got end %d and rank %d" % (end, r))
    begin, end = b, e
    if isinstance(a, Layout) and type(a.sh) is not tuple:
        # An integral layout has one mode: grouping it gives that mode as a
        # rank-1 tuple, (6):(1) from 6:1, as the DSL does.
        return Layout((a.sh,), (a.st,))
    if isinstance(a, Layout):
        s, d = _tuples.wrap(a.sh), _tuples.wrap(a.st)
        return Layout(s[:begin] + (s[begin:end],) + s[end:],
                      d[:begin] + (d[begin:end],) + d[end:])
    t = _tuples.wrap(a)
    return t[:begin] + (t[begin:end],) + t[end:]


def is_congruent(a, b):
    if isinstance(a, (Layout, ComposedLayout)):
        a = a.shape
    if isinstance(b, (Layout, ComposedLayout)):
        b = b.shape
    return _tuples.congruent(a, b)


def is_weakly_congruent(a, b):
    if isinstance(a, (Layout, ComposedLayout)):
        a = a.shape
    if isinstance(b, (Layout, ComposedLayout)):
        b = b.shape
    return _tuples.weakly_congruent(a, b)


# Tensors (tensor.py, tensor_ssa.py, runtime.py, math.py): the layout
# functions above take a tensor too, acting on its layout.
from . import math, runtime  # noqa: E402
from .tensor import (IdentityTensor, Pointer, Tensor, local_tile,  # noqa
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
__all__ += ["Pointer", "Tensor", "TensorSSA", "ReductionOp", "make_tensor",
            "make_rmem_tensor", "print_tensor", "local_tile", "math",
            "runtime", "IdentityTensor", "make_identity_tensor",
            "AddressSpace", "Shape", "Stride", "Coord", "IntTuple"]
