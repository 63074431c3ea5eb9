"""The result classes' blocks of the .pyi stubs, written from the library's
field lists (util/record.h): each class's attributes in order with their
Python types, and its methods.

    python -m hlolayout._stubgen --check   # exit 1 and a diff if a stub differs
    python -m hlolayout._stubgen --write   # rewrite the blocks in place

Only the blocks of record classes (those with `_field_types`) are written;
the rest of each .pyi is kept as it is.
"""

import argparse
import difflib
import os
import re
import sys

_METHODS = (
    "    def to_dict(self) -> Dict[str, Any]: ...\n"
    "    def _repr_html_(self) -> str: ...\n"
    "    def __getitem__(self, key: str) -> Any: ...  # deprecated\n")


def record_classes(module):
    """The record classes a module exports, in their order there."""
    out = []
    for name in dir(module):
        value = getattr(module, name)
        if (isinstance(value, type) and hasattr(value, "_field_types") and
                value.__module__ == module.__name__):
            out.append(value)
    return out


def class_stub(cls):
    """A record class's stub block."""
    lines = ["class %s:\n" % cls.__name__, "    _fields: Tuple[str, ...]\n"]
    for name, type_ in zip(cls._fields, cls._field_types):
        lines.append("    %s: %s\n" % (name, type_))
    for old, new in sorted(cls._deprecated_fields.items()):
        type_ = cls._field_types[cls._fields.index(new)]
        lines.append("    %s: %s  # deprecated: %s\n" % (old, type_, new))
    return "".join(lines) + _METHODS


def updated_stub(text, classes):
    """`text` (a .pyi) with each record class's block replaced (or
    appended before the first function when it has none)."""
    for cls in classes:
        block = class_stub(cls)
        pattern = re.compile(r"^class %s:\n(?:    .*\n|\n(?=    ))*" %
                             re.escape(cls.__name__), re.M)
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text, count=1)
        else:
            at = re.search(r"^def ", text, re.M)
            at = at.start() if at else len(text)
            text = text[:at] + block + "\n" + text[at:]
    return text


def _stub_paths():
    from . import allocations, reports, shapes, triton, ttnn
    return [(m, os.path.splitext(m.__file__)[0] + ".pyi")
            for m in (allocations, reports, shapes, triton, ttnn)]


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
        new = updated_stub(old, record_classes(module))
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
