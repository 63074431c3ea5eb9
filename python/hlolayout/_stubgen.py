"""The class blocks of the .pyi stubs, written from the classes themselves.

    python -m hlolayout._stubgen --check   # exit 1 and a diff if a stub differs
    python -m hlolayout._stubgen --write   # rewrite the blocks in place

Every class a module exports is written here; no class block is written by
hand. Four kinds of class:

- record classes (those with `_field_types`): their attributes in order with
  their Python types, from the library's field lists (util/record.h);
- pybind11 classes: from the signature pybind11 puts on the first line of
  each method's and property getter's `__doc__` (numbered when overloaded),
  its types read through _PYBIND_TYPES, the one table from what pybind11
  writes to what a stub says. Where the binding says `object` or `handle`,
  the binding names the type (python/hlolayout/_binding.h `Typed`);
- pure-Python classes: from `inspect.signature` and the annotations of the
  .py source (`from __future__ import annotations`, so each annotation is
  the source's text), class attributes (annotated in the class body, or
  plain str/int/float/bool values), properties, `typing.overload`s and
  base classes (`__orig_bases__` when generic);
- classes written with CPython's C API (cute's layouts): their methods' and
  getters' docs begin with a signature line as pybind11's do, and the slots'
  signatures (CPython writes their docs) are the class's `_slot_signatures`.

Every module-level function the module exports (in `__all__` and its own,
or defined in the existing stub) is written here too, the same way: a
pure-Python function from `inspect.signature` and its source's annotations
(`typing.overload`s numbered), a pybind11 function (or one written with
CPython's API whose doc begins with a signature line) from its `__doc__`
through _PYBIND_TYPES, overloads numbered as for methods. The functions still
written by hand are `_HAND_WRITTEN_FUNCTIONS`.

The rest of each .pyi (imports, aliases, constants) is kept as it is.
"""

import argparse
import difflib
import inspect
import os
import re
import sys
import typing

_METHODS = (
    "    def to_dict(self) -> Dict[str, Any]: ...\n"
    "    def _repr_html_(self) -> str: ...\n"
    "    def __getitem__(self, key: str) -> Any: ...  # deprecated\n")

# The special methods a stub lists when a class defines them (the rest, such
# as __repr__ and __eq__, every object has).
_DUNDERS = ("__init__", "__call__", "__getitem__", "__len__", "__iter__",
            "__contains__", "__hash__", "__mul__", "__imul__", "__rmul__",
            "__bool__", "__int__", "__index__")
# The private methods a stub lists (Jupyter's).
_PRIVATE = ("_repr_svg_", "_repr_html_")

# What pybind11 writes in a signature -> what the stub says. Keys are regular
# expressions over the whole type text, applied in order.
_PYBIND_TYPES = (
    (r"\bhlolayout(?:\.\w+)*\.(\w+)", r"\1"),      # a bound class: its name
    (r"\bnumpy\.ndarray\[numpy\.(\w+)\]", r"npt.NDArray[np.\1]"),
    (r"\bnumpy\.ndarray\b", r"np.ndarray"),
    (r"\b(?:handle|object)\b", "Any"),
    (r"(?<![\w.\[])dict\b(?!\[)", "Dict[str, Any]"),
    (r"(?<![\w.\[])tuple\b(?!\[)", "Tuple[Any, ...]"),
    (r"(?<![\w.\[])list\b(?!\[)", "List[Any]"),
)
# In a parameter, pybind11's list caster takes any sequence.
_PYBIND_PARAMETER_TYPES = ((r"\bList\[", "Sequence["),)


class StubError(Exception):
    """A class whose stub cannot be written (a missing annotation...)."""


def record_classes(module):
    """The record classes a module exports, in their order there."""
    return [c for c in exported_classes(module) if hasattr(c, "_field_types")]


def exported_classes(module):
    """The classes a module exports (in `__all__`, or public and its own):
    {name in the module: class}."""
    listed = list(getattr(module, "__all__", ()))
    out = {}
    for name in listed + sorted(set(dir(module)) - set(listed)):
        value = getattr(module, name, None)
        if not isinstance(value, type) or name.startswith("_"):
            continue
        home = value.__module__ or ""
        if home != module.__name__ and home.startswith("hlolayout.") and \
                not any(p.startswith("_") for p in home.split(".")):
            continue  # another module's class, re-exported: its stub imports it
        if name in listed or home == module.__name__:
            out[name] = value
    return out


# The classes whose blocks are still written by hand ("module.Class"); the
# list only shrinks.
_HAND_WRITTEN = frozenset("""
""".split())


def generated_classes(module):
    """The classes whose blocks `module`'s .pyi gets from here."""
    return [c for name, c in exported_classes(module).items()
            if "%s.%s" % (module.__name__.split(".")[-1], name)
            not in _HAND_WRITTEN]


def _record_stub(cls):
    lines = ["class %s:\n" % cls.__name__, "    _fields: Tuple[str, ...]\n"]
    for name, type_ in zip(cls._fields, cls._field_types):
        lines.append("    %s: %s\n" % (name, type_))
    for old, new in sorted(cls._deprecated_fields.items()):
        type_ = cls._field_types[cls._fields.index(new)]
        lines.append("    %s: %s  # deprecated: %s\n" % (old, type_, new))
    return "".join(lines) + _METHODS


def _is_pybind(cls):
    return any(type(k).__name__ == "pybind11_type" for k in cls.__mro__)


def _wanted(name):
    if name.startswith("__"):
        return name in _DUNDERS
    return not name.startswith("_") or name in _PRIVATE


def _base_names(cls, names):
    """The bases of `cls` as the stub writes them."""
    bases = getattr(cls, "__dict__", {}).get("__orig_bases__", cls.__bases__)
    out = []
    for base in bases:
        if base is object or getattr(base, "__name__", "") == "pybind11_object":
            continue
        if isinstance(base, type):
            out.append(names.get(base, base.__name__))
        else:  # a generic alias, typing.Mapping[str, Any]
            out.append(re.sub(r"\btyping\.", "", repr(base)))
    return out


def class_stub(cls, names=None):
    """`cls`'s stub block. `names` maps the module's classes to the names it
    exports them by."""
    if hasattr(cls, "_field_types"):
        return _record_stub(cls)
    names = names or {}
    bases = _base_names(cls, names)
    head = "class %s%s:" % (names.get(cls, cls.__name__),
                            "(%s)" % ", ".join(bases) if bases else "")
    if _is_pybind(cls):
        body = _pybind_body(cls)
    elif any(isinstance(v, _C_METHODS) for v in vars(cls).values()):
        body = _c_body(cls)
    else:
        body = _python_body(cls)
    if not body:
        return head + " ...\n"
    return head + "\n" + "".join(_wrap("    " + line) + "\n" for line in body)


def _wrap(line, width=79):
    """`line` broken after top-level commas of its parameter list to fit
    `width`, the continuation lines under the first parameter."""
    if len(line) <= width or "(" not in line:
        return line
    open_ = line.index("(")
    inner_end = line.rindex(") -> ")
    parts = _split_top(line[open_ + 1:inner_end])
    indent = " " * (open_ + 1)
    lines, current = [], line[:open_ + 1]
    for i, part in enumerate(parts):
        piece = part + ("," if i + 1 < len(parts) else line[inner_end:])
        if current.strip() and not current.endswith("(") and \
                len(current) + 1 + len(piece) > width:
            lines.append(current)
            current = indent + piece
        else:
            current += ("" if current.endswith("(") else " ") + piece
    lines.append(current)
    return "\n".join(lines)


# ---- pure-Python classes

def _annotation(value, where):
    if value is inspect.Parameter.empty:
        raise StubError("%s has no annotation" % where)
    if isinstance(value, str):
        return value
    if isinstance(value, type):
        return "None" if value is type(None) else value.__name__
    return re.sub(r"\btyping\.", "", repr(value))


def _signature(func, where, skip_first=True):
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    out = []
    star = False
    for i, p in enumerate(params):
        if p.name.startswith("_") and p.default is not p.empty:
            continue  # a private parameter
        if i == 0 and skip_first:
            out.append(p.name)
            continue
        text = p.name
        if p.kind is p.VAR_POSITIONAL:
            text, star = "*" + p.name, True
        elif p.kind is p.VAR_KEYWORD:
            text = "**" + p.name
        elif p.kind is p.KEYWORD_ONLY and not star:
            out.append("*")
            star = True
        text += ": " + _annotation(p.annotation, "%s(%s)" % (where, p.name))
        if p.default is not p.empty:
            text += " = ..."
        out.append(text)
        if p.kind is p.POSITIONAL_ONLY and (
                i + 1 == len(params) or params[i + 1].kind is not p.POSITIONAL_ONLY):
            out.append("/")
    ret = "None" if func.__name__ == "__init__" else _annotation(
        sig.return_annotation, "%s's result" % where)
    return "(%s) -> %s" % (", ".join(out), ret)


def _python_body(cls):
    where = cls.__qualname__
    own = vars(cls)
    lines = []
    for name, ann in own.get("__annotations__", {}).items():
        lines.append("%s: %s" % (name, _annotation(ann, where + "." + name)))
    for name, value in own.items():
        if not _wanted(name) or name in own.get("__annotations__", {}):
            continue
        at = "%s.%s" % (where, name)
        if isinstance(value, property):
            lines += ["@property", "def %s%s: ..." % (
                name, _signature(value.fget, at))]
        elif isinstance(value, (staticmethod, classmethod)):
            kind = type(value).__name__
            lines += ["@" + kind, "def %s%s: ..." % (name, _signature(
                value.__func__, at, skip_first=kind == "classmethod"))]
        elif inspect.isfunction(value):
            overloads = typing.get_overloads(value)
            for f in overloads:
                lines += ["@overload", "def %s%s: ..." % (name, _signature(f, at))]
            if not overloads:
                lines.append("def %s%s: ..." % (name, _signature(value, at)))
        elif isinstance(value, (str, int, float, bool)):
            lines.append("%s: %s" % (name, type(value).__name__))
        elif value is None and name == "__hash__":
            continue
        else:
            raise StubError("%s: a class attribute of type %s needs an "
                            "annotation" % (at, type(value).__name__))
    return lines


# ---- pybind11 classes

def _split_top(text, sep=","):
    """`text` split at `sep` outside brackets and quotes."""
    out, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            if c == quote and text[i - 1] != "\\":
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [s.strip() for s in out if s.strip()]


def _pybind_type(text, parameter=False):
    for pattern, repl in _PYBIND_TYPES:
        text = re.sub(pattern, repl, text)
    if parameter:
        for pattern, repl in _PYBIND_PARAMETER_TYPES:
            text = re.sub(pattern, repl, text)
    return text


def _signature_lines(doc, name):
    """The signatures of `doc` (pybind11's): ["(args) -> result", ...]."""
    lines = (doc or "").splitlines()
    if len(lines) > 1 and lines[1] == "Overloaded function.":
        sigs = [l.split(". ", 1)[1] for l in lines
                if re.match(r"\d+\. %s\(" % re.escape(name), l)]
    else:
        sigs = lines[:1]
    out = []
    for s in sigs:
        m = re.match(r"^\w*(\(.*\)) -> (.*)$", s)
        if not m:
            raise StubError("%s: no pybind11 signature in %r" % (name, s))
        out.append((m.group(1)[1:-1], m.group(2)))
    return out


def _pybind_signature(args, result, where, static=False):
    out = []
    for i, arg in enumerate(_split_top(args)):
        if arg in ("*args", "**kwargs") or arg == "*":
            out.append(arg)
            continue
        if i == 0 and not static:
            out.append("self")
            continue
        m = re.match(r"^(\*{0,2}\w+): (.*?)(?: = (.*))?$", arg)
        if not m:
            raise StubError("%s: cannot read the parameter %r" % (where, arg))
        pname, type_, default = m.groups()
        if re.match(r"arg\d+$", pname):
            raise StubError("%s: parameter %s has no name (py::arg)" %
                            (where, pname))
        out.append("%s: %s%s" % (pname, _pybind_type(type_, True),
                                 " = ..." if default is not None else ""))
    return "(%s) -> %s" % (", ".join(out), _pybind_type(result))


def _pybind_method(name, func, where, static=False):
    sigs = _signature_lines(func.__doc__, name)
    lines = []
    for args, result in sigs:
        if name == "__init__":
            result = "None"
        if len(sigs) > 1:
            lines.append("@overload")
        if static:
            lines.append("@staticmethod")
        lines.append("def %s%s: ..." % (
            name, _pybind_signature(args, result, where, static)))
    return lines


def _pybind_body(cls):
    lines = []
    for name, value in vars(cls).items():
        if not _wanted(name):
            continue
        at = "%s.%s" % (cls.__name__, name)
        if isinstance(value, property):
            ((_, result),) = _signature_lines(value.fget.__doc__, "")
            type_ = _pybind_type(result)
            if value.fset is not None:
                lines.append("%s: %s" % (name, type_))
            else:
                lines += ["@property", "def %s(self) -> %s: ..." % (name, type_)]
        elif isinstance(value, staticmethod):
            lines += _pybind_method(name, value.__func__, at, static=True)
        elif callable(value) and value.__doc__:
            lines += _pybind_method(name, value, at)
        elif value is None and name == "__hash__":
            continue
        else:
            raise StubError("%s: not a method or property" % at)
    return lines


# ---- classes written in C (CPython's API): their methods' and getters' docs
# begin with a signature line as pybind11's do; the slots' (__init__,
# __call__...), whose docs are CPython's, are in the class's
# `_slot_signatures` {name: "(self, ...) -> result"}.

_C_METHODS = (type(str.join), type(object.__init__))


def _c_body(cls):
    slots = vars(cls).get("_slot_signatures", {})
    # __init__ when the type makes its objects in tp_new.
    lines = ["def %s%s: ..." % (name, sig) for name, sig in slots.items()
             if name not in vars(cls)]
    for name, value in vars(cls).items():
        if not _wanted(name):
            continue
        at = "%s.%s" % (cls.__name__, name)
        if inspect.isgetsetdescriptor(value) or inspect.ismemberdescriptor(value):
            ((_, result),) = _signature_lines(value.__doc__, "")
            lines += ["@property", "def %s(self) -> %s: ..." % (
                name, _pybind_type(result))]
        elif isinstance(value, type(object.__init__)):
            if name not in slots:
                raise StubError("%s: a slot with no _slot_signatures entry" % at)
            lines.append("def %s%s: ..." % (name, slots[name]))
        elif inspect.isfunction(value):
            lines.append("def %s%s: ..." % (name, _signature(value, at)))
        elif callable(value):
            lines += _pybind_method(name, value, at)
        elif value is None and name == "__hash__":
            continue
        else:
            raise StubError("%s: not a method or property" % at)
    return lines


# ---- the files

def _block_pattern(name):
    return re.compile(r"^class %s\b[^\n]*:(?: \.\.\.)?\n(?:    .*\n|\n(?=    ))*"
                      % re.escape(name), re.M)


def updated_stub(text, classes, names=None):
    """`text` (a .pyi) with each class's block replaced (or appended before
    the first function when it has none)."""
    names = names or {}
    for cls in classes:
        block = class_stub(cls, names)
        pattern = _block_pattern(names.get(cls, cls.__name__))
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text, count=1)
        else:
            at = re.search(r"^def ", text, re.M)
            at = at.start() if at else len(text)
            text = text[:at] + block + "\n" + text[at:]
    return text


# ---- module-level functions

# The functions whose stubs are still written by hand ("module.function");
# the list only shrinks.
_HAND_WRITTEN_FUNCTIONS = frozenset("""
""".split())


def _stub_functions(text):
    """The names of the functions `text` (a .pyi) defines, in order."""
    out = []
    for name in re.findall(r"^def (\w+)\(", text, re.M):
        if name not in out:
            out.append(name)
    return out


def _is_own(value, module):
    home = getattr(value, "__module__", None) or ""
    if home == module.__name__ or not home.startswith("hlolayout."):
        return True  # pybind11 and C functions say `hlolayout._hlolayout`
    return any(p.startswith("_") for p in home.split(".")[1:])


def exported_functions(module, text=""):
    """The functions `module`'s stub `text` gets from here: those the stub
    defines, then the rest of `__all__`'s (the module's own) unless the stub
    imports them or names them with a module `__getattr__`. {name: func}."""
    defined = _stub_functions(text)
    imported = set(re.findall(r"\bas (\w+)\b", text))
    out = {}
    for name in defined + list(getattr(module, "__all__", ())):
        if name in out or "%s.%s" % (module.__name__.split(".")[-1], name) \
                in _HAND_WRITTEN_FUNCTIONS:
            continue
        value = getattr(module, name, None)
        if value is None or isinstance(value, type) or not callable(value):
            continue
        if name not in defined and (name in imported or "__getattr__" in
                                    defined or not _is_own(value, module)):
            continue
        out[name] = value
    return out


def function_stub(func, name=None):
    """The stub lines of the module-level function `func` (exported as
    `name`)."""
    name = name or func.__name__
    if inspect.isfunction(func):
        overloads = typing.get_overloads(func)
        lines = []
        for f in overloads:
            lines += ["@overload", "def %s%s: ..." % (
                name, _signature(f, name, skip_first=False))]
        if not overloads:
            lines.append("def %s%s: ..." % (
                name, _signature(func, name, skip_first=False)))
    else:
        lines = _pybind_method(name, func, name, static=True)
        lines = [l for l in lines if l != "@staticmethod"]
    return "".join(_wrap(line) + "\n" for line in lines)


def _function_pattern(name):
    return re.compile(r"^(?:(?:@\w+\n)*def %s\(.*\n(?:[ )].*\n)*)+"
                      % re.escape(name), re.M)


def updated_functions(text, functions):
    """`text` (a .pyi) with each function's lines replaced (or appended at
    the end when it has none)."""
    for name, func in functions.items():
        block = function_stub(func, name)
        pattern = _function_pattern(name)
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text, count=1)
        else:
            text = text.rstrip("\n") + "\n\n" + block
    return text


def _stub_paths():
    from . import (arrays, cute, cute_atoms, grid, hlo, indexing,
                   memory_usage, pictures, reports, shapes, triton, ttnn)
    return [(m, os.path.splitext(m.__file__)[0] + ".pyi")
            for m in (arrays, cute, cute_atoms, grid, hlo, indexing,
                      memory_usage, pictures, reports, shapes, triton, ttnn)]


def module_stub(module, text):
    """`text`, `module`'s .pyi, with every class block and function written
    from here."""
    names = {cls: name for name, cls in exported_classes(module).items()}
    text = updated_stub(text, generated_classes(module), names)
    return updated_functions(text, exported_functions(module, text))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    differ = False
    for module, path in _stub_paths():
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = module_stub(module, old)
        if new == old:
            continue
        if args.write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("wrote", path)
        else:
            differ = True
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), path, path))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
