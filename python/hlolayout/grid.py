"""tt-mlir tensor layouts (`hlolayout grid`): `#ttnn.ttnn_layout`, the
reworked `#ttcore.metal_layout`, and the 2024 `#tt.metal_layout`.

    >>> from hlolayout import grid
    >>> g = grid.parse("tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> "
    ...                "(d0, d1), <1x8>, memref<1x16x!ttcore.tile<32x32, bf16>, "
    ...                "#ttnn.buffer_type<l1>>, <width_sharded>, core_ranges = "
    ...                "<[#ttnn.core_range<(0,0), (7,0)>]>>>")
    >>> g.kind, g.grid, g.memref_shape
    ('ttnn_layout', (1, 8), (1, 16))
    >>> g.locate((2, 1541))["core"]
    [3, 0]
    >>> g.locate(np.array([[0, 0], [2, 1541]]))["shard"].tolist()
    [[0, 0], [0, 3]]

explain() and locate() of one index give what `hlolayout grid explain/locate
--json` prints; locate() of an integer array [n, rank] (or a tuple of
rank arrays, as np.unravel_index returns) gives a dict of int64 arrays with
the same keys, one row per index. Answers are those of tt-mlir's builder;
`warnings` says where the text differs from it, and what tt-mlir's verifier
refuses raises ValueError with its reason.
"""

from __future__ import annotations

import os as _os
from typing import (TYPE_CHECKING, Any, Dict, List, Optional, Sequence,
                    Tuple, Union, overload)

import numpy as _np

from . import _hlolayout as _core

if TYPE_CHECKING:
    import numpy as np

__all__ = ["GridLayout", "parse", "report"]


class GridLayout:
    """A tensor type with a tt-mlir layout, analysed once."""

    __slots__ = ("text", "worker_grid", "dram_banks", "_g", "_explain")
    text: str
    worker_grid: Tuple[int, int]
    dram_banks: int

    def __init__(self, text: str, worker_grid: Sequence[int] = (8, 8),
                 dram_banks: int = 12):
        if not isinstance(text, str):
            raise TypeError("grid.parse takes a str, got %s" %
                            type(text).__name__)
        self.text = text
        self.worker_grid = tuple(int(v) for v in worker_grid)
        self.dram_banks = int(dram_banks)
        if len(self.worker_grid) != 2:
            raise ValueError("worker_grid is (rows, columns)")
        self._g = _core._GridLayout(text, self.worker_grid[0],
                                    self.worker_grid[1], self.dram_banks)
        self._explain = None

    def __repr__(self):
        return "grid.GridLayout(%r)" % self.text

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter shows the shards (`hlolayout grid draw --svg -`)."""
        try:
            return self._g.svg()
        except ValueError:
            return None

    @property
    def kind(self) -> str:
        """'ttnn_layout', 'metal_layout' or 'seed_metal_layout'."""
        return self._g.kind

    @property
    def warnings(self) -> List[str]:
        """Where the text differs from what tt-mlir's builder writes."""
        return list(self._g.warnings)

    def explain(self) -> Dict[str, Any]:
        """The same content as `hlolayout grid explain --json` (a dict)."""
        if self._explain is None:
            self._explain = self._g.explain().to_dict()
        return dict(self._explain)

    @overload
    def locate(self, index: Sequence[int]) -> Dict[str, Any]: ...

    @overload
    def locate(
        self, index: Union[np.ndarray, Tuple[np.ndarray, ...]]
    ) -> Dict[str, np.ndarray]: ...

    def locate(self, index):
        """Where elements live.

        One index (a sequence of ints): the dict of `hlolayout grid locate
        --json`. An int array [n, rank], or a tuple of rank int arrays: a
        dict of int64 arrays, one row per index (cores the layout does not
        place are -1). ValueError names the first index out of range.
        """
        if isinstance(index, tuple) and index and all(
                isinstance(a, _np.ndarray) for a in index):
            index = _np.stack([_np.asarray(a).reshape(-1) for a in index],
                              axis=1)
        if isinstance(index, _np.ndarray):
            if index.dtype.kind not in "iu":
                raise TypeError("indices must be integers, got %s" % index.dtype)
            array = _np.ascontiguousarray(index, dtype=_np.int64)
            if array.ndim == 1 and self.rank == 1:
                array = array.reshape(-1, 1)
            return self._g.locate_many(array)
        return self._g.locate([int(i) for i in index]).to_dict()

    def shards(self) -> Optional[List[Dict[str, Any]]]:
        """One dict per shard (TTNN and metal: 'shard', 'elements',
        'padding', TTNN also 'core' or 'dram_bank'; the 2024 form: 'core',
        'elements', 'padding'); None when not computed."""
        e = self.explain()
        rows = e.get("per_shard", e.get("per_core"))
        return None if rows is None else [dict(r) for r in rows]

    @property
    def rank(self) -> int:
        return len(self.explain()["logical_shape"])

    @property
    def shard_shape(self) -> Tuple[int, ...]:
        """The shard in scalars."""
        return tuple(self.explain()["shard_shape"])

    @property
    def memref_shape(self) -> Tuple[int, ...]:
        return tuple(self.explain()["memref_shape"])

    @property
    def memref(self) -> str:
        return self.explain()["memref"]

    @property
    def grid(self) -> Tuple[int, ...]:
        return tuple(self.explain()["grid"])


def parse(text: str, worker_grid: Sequence[int] = (8, 8),
          dram_banks: int = 12) -> GridLayout:
    """Parses a tensor type (optionally after alias definitions, one per
    line) with a tt-mlir layout. `worker_grid` (rows, columns) and
    `dram_banks` describe the device for canonical core placement. Raises
    ValueError with line:column, or tt-mlir's verifier's reason."""
    return GridLayout(text, worker_grid, dram_banks)


def report(path: str, worker_grid: Sequence[int] = (8, 8),
           dram_banks: int = 12) -> Dict[str, Any]:
    """Every tensor type with a layout in an .mlir file: the dict of
    `hlolayout grid report --json` (keys file, sections, aliases, counts,
    types). OSError when the file cannot be read."""
    rows, cols = (int(v) for v in worker_grid)
    return _core._grid_report(_os.fspath(path), rows, cols,
                              int(dram_banks)).to_dict()
