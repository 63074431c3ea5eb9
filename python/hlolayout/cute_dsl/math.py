"""The DSL's `cute.math` over TensorSSA values and floats: each function
element by element, computed in the element type (NumPy's).

    >>> from hlolayout import cute_dsl as cute
    >>> cute.printf(cute.math.sqrt(cute.Float32(2.0)))
    1.414214
"""

import numpy as np

from . import _floats
from ._floats import FloatValue

__all__ = ["sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan",
           "exp", "exp2", "log", "log2", "log10", "tanh"]


def _apply(ufunc, name):
    def fn(a, fastmath=False):
        from .tensor_ssa import TensorSSA
        if isinstance(a, TensorSSA):
            if not a.dtype.is_float:
                raise TypeError("cute.math.%s expects float elements, got %s"
                                % (name, a.dtype.name))
            with np.errstate(all="ignore"):
                return TensorSSA(ufunc(a.values).astype(a.values.dtype),
                                 a.shape, a.dtype)
        if isinstance(a, (FloatValue, float)):
            tname = a.tname if isinstance(a, FloatValue) else "Float32"
            v = a.run_value() if isinstance(a, FloatValue) else a
            np_type = {"Float16": np.float16, "Float32": np.float32,
                       "Float64": np.float64}[tname]
            with np.errstate(all="ignore"):
                out = ufunc(np_type(v))
            return _floats.make(tname, float(out), known=False)
        raise TypeError("cute.math.%s expects a TensorSSA or a float, got %s"
                        % (name, type(a).__name__))
    fn.__name__ = name
    fn.__doc__ = "%s of each element (of a float)." % name
    return fn


def _rsqrt(x):
    return np.reciprocal(np.sqrt(x))


for _name, _ufunc in [("sqrt", np.sqrt), ("rsqrt", _rsqrt), ("sin", np.sin),
                      ("cos", np.cos), ("tan", np.tan), ("asin", np.arcsin),
                      ("acos", np.arccos), ("atan", np.arctan),
                      ("exp", np.exp), ("exp2", np.exp2), ("log", np.log),
                      ("log2", np.log2), ("log10", np.log10),
                      ("tanh", np.tanh)]:
    globals()[_name] = _apply(_ufunc, _name)
