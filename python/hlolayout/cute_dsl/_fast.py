"""Dispatch of the DSL twin's algebra: the engine (_algebra, CuTe's
algorithm with the DSL's static/dynamic rules) for layouts with a dynamic
integer or a composed layout; placeholder for the C++ fast path."""

from . import _algebra
from ._objects import ComposedLayout, Layout, Swizzle

__all__ = []

_OPS1 = {
    "right_inverse": _algebra.right_inverse,
    "left_inverse": _algebra.left_inverse,
    "filter": _algebra.filter,
}

_OPS2 = {
    "composition": _algebra.composition,
    "complement": _algebra.complement,
    "logical_divide": _algebra.logical_divide,
    "zipped_divide": _algebra.zipped_divide,
    "tiled_divide": _algebra.tiled_divide,
    "flat_divide": _algebra.flat_divide,
    "logical_product": _algebra.logical_product,
    "zipped_product": _algebra.zipped_product,
    "tiled_product": _algebra.tiled_product,
    "flat_product": _algebra.flat_product,
    "raked_product": _algebra.raked_product,
    "blocked_product": _algebra.blocked_product,
}


def make_layout(shape, stride):
    return _algebra.make_layout(shape, stride)


def op1(name, a):
    if isinstance(a, ComposedLayout):
        from . import _composed
        return _composed.op1(name, a)
    if not isinstance(a, Layout):
        raise TypeError("%s expects a Layout, got %s" % (name,
                                                         type(a).__name__))
    return _OPS1[name](a)


def op2(name, a, b):
    if isinstance(a, (ComposedLayout, Swizzle)) or isinstance(
            b, (ComposedLayout, Swizzle)):
        from . import _composed
        return _composed.op2(name, a, b)
    if not isinstance(a, Layout):
        raise TypeError("%s expects a Layout, got %s" % (name,
                                                         type(a).__name__))
    if type(b) is tuple and (name == "composition" or
                             name.endswith("_divide")):
        b = _algebra.pack_tile(b, name)
    return _OPS2[name](a, b)


def coalesce(a, profile):
    if isinstance(a, ComposedLayout):
        from . import _composed
        return _composed.coalesce(a, profile)
    return _algebra.coalesce(a, profile)


def tile_to_shape(atom, shape, order):
    if isinstance(atom, ComposedLayout):
        from . import _composed
        return _composed.tile_to_shape(atom, shape, order)
    return _algebra.tile_to_shape(atom, shape, order)


def recast_layout(new_bits, old_bits, layout):
    if isinstance(layout, ComposedLayout):
        from . import _composed
        return _composed.recast_layout(new_bits, old_bits, layout)
    return _algebra.recast_layout(new_bits, old_bits, layout)


def size(a):
    if isinstance(a, ComposedLayout):
        a = a.outer
    return _algebra.size(a)
