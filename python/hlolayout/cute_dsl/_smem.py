"""Shared-memory layout atoms of the DSL (warpgroup.make_smem_layout_atom,
tcgen05.make_smem_layout_atom) and tcgen05.tile_to_mma_shape.

An atom is a composed layout `S<B,4,3> o 0 o L`: CuTe's GMMA/UMMA atom
(hlolayout's C++ table, `hlolayout cute smem`), whose swizzle acts on byte
addresses, over the layout L in elements; the DSL writes the unset
shared-memory pointer of CuTe's print as the offset 0.

    >>> from hlolayout import cute_dsl as cute
    >>> wg = cute.nvgpu.warpgroup
    >>> print(wg.make_smem_layout_atom(wg.SmemLayoutAtomKind.K_SW128, cute.Float16))
    S<3,4,3> o 0 o (8,64):(64,1)
"""


from . import _tuples
from ._algebra import Refusal
from ._objects import ComposedLayout, Layout, Swizzle

__all__ = []

def need(x, kind, fn, what):
    """TypeError unless x is a `kind` (the helpers' argument checks)."""
    if not isinstance(x, kind):
        raise TypeError("%s expects %s, got %r" % (fn, what, x))


def need_dtype(t, fn):
    from ._ints import Numeric
    if not (isinstance(t, type) and issubclass(t, Numeric)):
        raise TypeError("%s expects a data type such as cute.Float16, got "
                        "%r" % (fn, t))


def need_ints(t, fn, what):
    for x in _tuples.leaves(t):
        if not _tuples.is_int(x):
            raise TypeError("%s expects integers in %s, got %r" %
                            (fn, what, x))


_SWIZZLE_NAMES = {"INTER": "INTER", "SW32": "SW32", "SW64": "SW64",
                  "SW128": "SW128"}


def _cpp_type(dtype):
    from ._atoms import _cpp_type as cpp
    return cpp(dtype)


def _from_core(text):
    """`Sw<B,M,S> o smem_ptr[Nb](unset) o L` as the DSL's S<B,M,S> o 0 o L."""
    sw, _, outer = [p.strip() for p in text.split(" o ")]
    b, m, s = (int(x) for x in sw[3:-1].split(","))
    from .. import _hlolayout as _core
    return ComposedLayout(Swizzle(b, m, s), 0,
                          Layout._from_core(_core.cute_parse(outer)))


_ATOMS = {}  # (family, kind, C++ type) -> the atom (CuTe's tables)


def _core_atom(family, kind_name, dtype):
    """The smem layout atom from the C++ core's tables, read once per atom
    (cute/smem_atoms.h)."""
    key = (family, kind_name, _cpp_type(dtype))
    atom = _ATOMS.get(key)
    if atom is None:
        atom = _ATOMS[key] = _read_core_atom(family, kind_name, dtype)
    return atom


def _read_core_atom(family, kind_name, dtype):
    from .. import _hlolayout as _core
    major, sw = kind_name.split("_", 1)
    name = "%s::Layout_%s_%s_Atom<%s>" % (family, major, sw, _cpp_type(dtype))
    try:
        layout = _core.cute_smem_atom_layout(name)
    except ValueError as ex:
        raise Refusal("make_smem_layout_atom: %s" % ex) from None
    return _from_core(layout)


def gmma_atom(kind, dtype):
    from .nvgpu.warpgroup import SmemLayoutAtomKind
    if not isinstance(kind, SmemLayoutAtomKind):
        raise Refusal("warpgroup.make_smem_layout_atom expects a "
                      "warpgroup.SmemLayoutAtomKind, got %r" % (kind,))
    need_dtype(dtype, "warpgroup.make_smem_layout_atom")
    return _core_atom("GMMA", kind.name, dtype)


def umma_atom(kind, dtype):
    from .nvgpu.tcgen05 import SmemLayoutAtomKind
    if not isinstance(kind, SmemLayoutAtomKind):
        raise Refusal("tcgen05.make_smem_layout_atom expects a "
                      "tcgen05.SmemLayoutAtomKind, got %r" % (kind,))
    need_dtype(dtype, "tcgen05.make_smem_layout_atom")
    if kind is SmemLayoutAtomKind.MN_SW128_32B:
        # The DSL's 32-byte-atom variant has 8 rows of 1024 bits (CuTe's
        # UMMA::Layout_MN_SW128_32B_Atom has 4): S<2,5,2> o 0 o (n,8):(1,n).
        n = 1024 // dtype.width
        return ComposedLayout(Swizzle(2, 5, 2), 0, Layout((n, 8), (1, n)))
    return _core_atom("UMMA", kind.name, dtype)


def tile_to_mma_shape(atom, mma_tile_shape, order=None):
    """CuTe's UMMA::tile_to_mma_shape: tile the atom to the MN shape of the
    MMA tile ((MMA_M, MMA_K), M_MMAs, K_MMAs, ...) and divide it into MMA
    tiles; the DSL then coalesces it with the tile's profile."""
    fn = "tcgen05.tile_to_mma_shape"
    need(atom, (Layout, ComposedLayout), fn, "a layout atom")
    need_ints(mma_tile_shape, fn, "mma_tile_shape")
    if order is not None:
        need_ints(order, fn, "order")
    r = _tuples.rank(mma_tile_shape)
    if order is None:
        order = tuple(range(r - 1))
    if _tuples.rank(order) != r - 1:
        raise ValueError("rank(order)=%d must be equal to "
                         "rank(mma_tile_shape)-1=%d" %
                         (_tuples.rank(order), r - 1))
    if not (_is_static(atom) and _tuples_static(mma_tile_shape) and
            _tuples_static(order)):
        raise ValueError("tile_to_mma_shape only supports static inputs")
    head = mma_tile_shape[0] if type(mma_tile_shape) is tuple else None
    if type(head) is not tuple or r < 3:
        raise Refusal("tile_to_mma_shape failed: the tile shape must be "
                      "((MMA_M, MMA_K), M_MMAs, K_MMAs, ...), got %s" %
                      _tuples.text(mma_tile_shape))
    rest = mma_tile_shape[1:3]
    if len(head) != len(rest):
        raise Refusal("tile_to_mma_shape failed: the MMA shape %s and the "
                      "counts %s do not match" % (_tuples.text(head),
                                                  _tuples.text(rest)))
    mn_shape = tuple(zip(head, rest)) + tuple(mma_tile_shape[3:])
    from . import _fast
    tiled = _fast.tile_to_shape(atom, mn_shape, order)
    divided = _fast.op2("tiled_divide", tiled,
                        _tuples.product_each(head))
    return _fast.coalesce(divided, mma_tile_shape)


def _is_static(x):
    return x.is_static()


def _tuples_static(t):
    from . import _ints
    return _ints.is_static(t)
