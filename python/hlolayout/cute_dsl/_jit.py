"""The DSL's two stages, host-side: `@cute.jit` functions, `cute.compile`,
`cute.printf` and the meta-programming names (`Constexpr`,
`range_constexpr`, `const_expr`).

In the DSL a `@cute.jit` function is first traced (its Python runs: `print`
shows what the trace knows, `?` for a dynamic value) and then compiled and
run (`cute.printf` prints the values). The twin evaluates at once, so the
body runs once and is the trace; each `printf` formats the values the twin
carries and is held until the body returns, when the run would print it.

    >>> from hlolayout import cute_dsl as cute
    >>> @cute.jit
    ... def show(n: cute.Int32, k: cute.Constexpr):
    ...     L = cute.make_layout((n, k))
    ...     print("trace:", L)
    ...     cute.printf("run: {}", L)
    >>> show(8, 2)
    trace: (?,2):(1,?)
    run: (8,2):(1,8)

Arguments become what the DSL makes of them: a parameter annotated
`Constexpr` (or `cute.Shape`, `Stride`, `Coord`, `IntTuple`) keeps its
Python value (static); an integer annotated with an
integer type, or not annotated, becomes a dynamic integer of that type
(Int32 when not annotated), as do the integers of a tuple or NamedTuple
argument; a number annotated with a float type, or a float not annotated,
a dynamic float (Float32); a tensor from `runtime.from_dlpack` the Tensor
of its layout (static unless marked dynamic), and a framework's tensor not
annotated (an object with `__dlpack__`: a NumPy array, a PyTorch CPU
tensor) the Tensor of `from_dlpack(x).mark_layout_dynamic()`; anything
else is passed as it is. `cute.compile(f, *args)`
traces once and returns a function that runs with new values of the
dynamic parameters (the Constexpr ones keep their compile-time values).
"""

import contextlib
import functools
import inspect
import io
import sys

from . import _floats, _ints, _printf, runtime, tensor
from ._floats import FloatValue
from ._ints import DynInt

__all__ = ["jit", "compile", "Constexpr", "range_constexpr",
           "const_expr", "Shape", "Stride", "Coord", "IntTuple"]

class _ConstexprMeta(type):
    def __getitem__(cls, item):
        return cls


class Constexpr(metaclass=_ConstexprMeta):
    """The annotation of a static (compile-time) parameter: `x:
    cute.Constexpr` or `x: cute.Constexpr[int]`."""


def range_constexpr(*args):
    """A loop the trace unrolls: Python's range over static integers."""
    for a in args:
        if not (type(a) is int):
            raise TypeError("range_constexpr expects static integers, got "
                            "%r (a dynamic bound needs a loop the DSL "
                            "emits: range)" % (a,))
    return range(*args)


def const_expr(x):
    """A condition the trace decides: x itself, which must be static."""
    if isinstance(x, DynInt):
        raise TypeError("const_expr of a dynamic value: the trace cannot "
                        "decide it")
    return x


class Shape:
    """The annotation of a shape parameter (`shape: cute.Shape`); like
    Stride, Coord and IntTuple, the trace keeps its integers static (the
    DSL's notebooks loop over `range_constexpr(cute.size(shape))`)."""


class Stride(Shape):
    """The annotation of a stride parameter (static, as Shape)."""


class Coord(Shape):
    """The annotation of a coordinate parameter (static, as Shape)."""


class IntTuple(Shape):
    """The annotation of an integer tuple parameter (static, as Shape)."""


def _is_constexpr(annotation):
    return annotation is Constexpr or (isinstance(annotation, type) and
                                       issubclass(annotation, Shape))


def _dynamic(value, annotation):
    """`value` as the DSL passes it into a traced function."""
    if isinstance(value, runtime.RuntimeTensor):
        return value.traced()
    if annotation is inspect.Parameter.empty and hasattr(
            value, "__dlpack__") and not isinstance(value, type):
        # A framework's tensor (NumPy, PyTorch): converted as from_dlpack
        # and mark_layout_dynamic would.
        return runtime.from_dlpack(value).mark_layout_dynamic().traced()
    integer = isinstance(annotation, type) and issubclass(
        annotation, _ints.Integer)
    if (integer or annotation is inspect.Parameter.empty) and (
            isinstance(value, (int, DynInt)) and not isinstance(value, bool)):
        make = annotation if integer else (
            _ints.Int64 if isinstance(value, DynInt) and value.width == 64
            else _ints.Int32)
        return _ints.traced(make(value))
    if isinstance(value, (int, float, DynInt, FloatValue)) and (
            getattr(annotation, "is_float", False) or (
                annotation is inspect.Parameter.empty and
                isinstance(value, (float, FloatValue)))) and not isinstance(
                    value, bool):
        return _floats.make(getattr(annotation, "name", "Float32"), value,
                            known=False)
    if isinstance(value, tuple):
        items = [_dynamic(v, inspect.Parameter.empty) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(
            items)
    return value


def _bind(fn, args, kwargs):
    """The arguments of `fn` as the trace sees them."""
    sig = inspect.signature(fn)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    for position, (name, value) in enumerate(bound.arguments.items()):
        annotation = sig.parameters[name].annotation
        if getattr(annotation, "__name__", None) == "Tensor" and \
                getattr(annotation, "__module__", "").endswith(".tensor"):
            tensor.check_argument(position + 1, name, value)
        if not _is_constexpr(annotation):
            bound.arguments[name] = _dynamic(value, annotation)
    return bound.args, bound.kwargs


def _run(fn, args, kwargs, quiet=False):
    """Runs the body (the trace), then prints what its printf calls would
    print when it runs; `quiet` hides the trace's own prints (a compiled
    function runs without tracing again)."""
    if _printf.running():
        return fn(*args, **kwargs)
    with _printf.held() as texts:
        if quiet:
            with contextlib.redirect_stdout(io.StringIO()):
                result = fn(*args, **kwargs)
        else:
            result = fn(*args, **kwargs)
    sys.stdout.write("".join(texts))
    sys.stdout.flush()
    return result


class JitFunction:
    """A `@cute.jit` function: called, it is traced and run at once."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        a, k = _bind(self.fn, args, kwargs)
        return _run(self.fn, a, k)


def jit(fn=None, **options):
    """The DSL's decorator, `@cute.jit` or `@cute.jit(...)` (its options
    concern code generation and are ignored)."""
    if fn is None:
        return jit
    if not inspect.isfunction(fn):
        raise TypeError("jit expects a Python function, got %s" %
                        type(fn).__name__)
    return JitFunction(fn)


class CompiledFunction:
    """What `cute.compile` returns: called with the dynamic parameters'
    values (the Constexpr ones are fixed), it runs without tracing
    again."""

    def __init__(self, fn, constexpr):
        self.fn = fn
        self.constexpr = constexpr

    def __call__(self, *args):
        sig = inspect.signature(self.fn)
        values = list(args)
        full = []
        for name, p in sig.parameters.items():
            if name in self.constexpr:
                full.append(self.constexpr[name])
            elif values:
                full.append(values.pop(0))
            elif p.default is not inspect.Parameter.empty:
                full.append(p.default)
            else:
                raise TypeError("%s: missing a value for %s" %
                                (self.fn.__name__, name))
        if values:
            raise TypeError("%s: %d arguments too many" %
                            (self.fn.__name__, len(values)))
        a, k = _bind(self.fn, full, {})
        return _run(self.fn, a, k, quiet=True)


def compile(fn, *args, **kwargs):
    """Traces `fn` (a @cute.jit function) with `args` (its prints show) and
    returns the compiled function."""
    fn = fn.fn if isinstance(fn, JitFunction) else fn
    if not inspect.isfunction(fn):
        raise TypeError("compile expects a @cute.jit function, got %s" %
                        type(fn).__name__)
    a, k = _bind(fn, args, kwargs)
    with _printf.held():
        fn(*a, **k)
    sig = inspect.signature(fn)
    bound = sig.bind(*args, **kwargs)
    constexpr = {n: v for n, v in bound.arguments.items()
                 if _is_constexpr(sig.parameters[n].annotation)}
    return CompiledFunction(fn, constexpr)
