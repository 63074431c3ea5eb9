"""Reads the layouts JAX prints, without importing JAX.

    Layout(major_to_minor=(0, 1), tiling=(), sub_byte_element_size_in_bits=4)
    Layout(major_to_minor=(1, 0), tiling=((8, 128), (2, 1)), sub_byte_element_size_in_bits=0)
    Format(layout=Layout(...), sharding=SingleDeviceSharding(...))
    DeviceLocalLayout(major_to_minor=(0, 1), _tiling=None, _sub_byte_element_size_in_bits=0)
"""

import ast
import re

_START = re.compile(r"\b(DeviceLocalLayout|Layout)\(")


def _matching_paren(text, open_index):
    depth = 0
    for i in range(open_index, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced parentheses in JAX layout: %r" % text)


def _split_top(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def _tiling(value):
    if value is None:
        return ()
    if not isinstance(value, tuple):
        raise ValueError("tiling must be a tuple of tuples, got %r" % (value,))
    tiles = []
    for t in value:
        if not isinstance(t, tuple) or not all(isinstance(d, int) for d in t):
            raise ValueError("each tile must be a tuple of ints, got %r" % (t,))
        tiles.append(t)
    return tuple(tiles)


def parse_jax_layout_kwargs(text):
    """Layout.from_jax keyword arguments from JAX's printed layout."""
    if not isinstance(text, str):
        raise TypeError("parse_jax_layout takes a str, got %s" %
                        type(text).__name__)
    m = _START.search(text)
    if m is None:
        raise ValueError("no Layout(...) or DeviceLocalLayout(...) in %r" % text)
    close = _matching_paren(text, m.end() - 1)
    body = text[m.end():close]
    kwargs = {}
    for part in _split_top(body):
        if "=" not in part:
            raise ValueError("expected key=value in JAX layout, got %r" %
                             part.strip())
        key, value = part.split("=", 1)
        key = key.strip().lstrip("_")
        try:
            value = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            raise ValueError("cannot read %s=%s in JAX layout" %
                             (key, value.strip()))
        kwargs[key] = value
    if "major_to_minor" not in kwargs:
        raise ValueError("JAX layout has no major_to_minor: %r" % text)
    m2m = kwargs["major_to_minor"]
    if not isinstance(m2m, tuple) or not all(isinstance(d, int) for d in m2m):
        raise ValueError("major_to_minor must be a tuple of ints, got %r" %
                         (m2m,))
    bits = kwargs.get("sub_byte_element_size_in_bits", 0) or 0
    if not isinstance(bits, int) or bits < 0:
        raise ValueError("bad sub_byte_element_size_in_bits %r" % (bits,))
    unknown = set(kwargs) - {"major_to_minor", "tiling",
                             "sub_byte_element_size_in_bits"}
    if unknown:
        raise ValueError("unknown JAX layout field(s): %s" %
                         ", ".join(sorted(unknown)))
    return {"major_to_minor": m2m, "tiling": _tiling(kwargs.get("tiling")),
            "sub_byte_element_size_in_bits": bits}
