"""tt-mlir grid-sharded tensor layouts (`hlolayout grid`).

    >>> from hlolayout import grid
    >>> g = grid.parse("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), "
    ...                "undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>")
    >>> g.locate((20, 40))["core"]
    [1, 1]

The answers are those of `hlolayout grid explain/locate --json`.
"""

from . import _cli_json


class GridLayout:
    """A tensor type with a #tt.metal_layout encoding."""

    __slots__ = ("text", "_explain")

    def __init__(self, text):
        if not isinstance(text, str):
            raise TypeError("grid.parse takes a str, got %s" %
                            type(text).__name__)
        self.text = text
        self._explain = _cli_json(["grid", "explain", "--json", text])

    def __repr__(self):
        return "grid.GridLayout(%r)" % self.text

    def _repr_svg_(self):
        """Jupyter shows the cores and shards (`hlolayout grid draw --svg -`)."""
        from . import _cli_text
        try:
            return _cli_text(["grid", "draw", "--svg", "-", self.text])
        except ValueError:
            return None

    def explain(self):
        """The same content as `hlolayout grid explain --json` (a dict)."""
        return dict(self._explain)

    def locate(self, index):
        """Core, offset in the shard, tile and position of one element."""
        index = ",".join(str(int(i)) for i in index)
        return _cli_json(["grid", "locate", "--json", self.text, index])

    def shards(self):
        """One dict per core: {'core': [i, j], 'elements': n, 'padding': p}."""
        return [dict(c) for c in self._explain["per_core"]]

    @property
    def shard_shape(self):
        return tuple(self._explain["shard_shape"])

    @property
    def grid(self):
        return tuple(self._explain["grid"])


def parse(text):
    """Parses a tensor type; ValueError with line:column otherwise."""
    return GridLayout(text)
