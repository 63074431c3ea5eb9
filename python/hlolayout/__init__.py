"""XLA HLO shapes and layouts from Python: where every element lives.

    >>> import numpy as np, hlolayout as hl
    >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
    >>> str(s), s.dimensions, s.layout.tiles
    ('f32[3,5]{1,0:T(2,2)}', (3, 5), ((2, 2),))
    >>> hl.Indexer(s).offset((2, 3))
    17
    >>> hl.to_layout(np.arange(15, dtype=np.float32).reshape(3, 5), s).size
    96

Everything that takes a shape accepts a `Shape` or its text. Library errors
are `ValueError` carrying the library's message (`L:C: message`, the source
line and a caret for text); dtypes that do not match are `TypeError`.
Long calls release the GIL; every object is immutable and thread-safe.

The package is one module per capability, as the library's folders; every
public name is here too (docs/python.md):

    hlolayout.shapes       Shape, Layout, parse_shape, numpy_dtype   shape/, layout/
    hlolayout.indexing     Indexer                                   index_util/
    hlolayout.arrays       to_layout, from_layout, relayout          relayout/
    hlolayout.hlo          read_hlo, Module, Computation             parser/
    hlolayout.reports      report, Report, DumpFolderTable, ...      report/
    hlolayout.memory_usage memory, ModuleMemory, Allocation, ...     memory/
    hlolayout.pictures     draw                                      draw/
    hlolayout.cute, .grid, .triton, .ttnn                            cute/, ttmlir/, triton/, ttnn/
"""

from . import _hlolayout as _core
from ._version import __version__
from .shapes import (COMBINE, Layout, Shape, numpy_dtype, parse_jax_layout,
                     parse_shape, _shape)
from .indexing import ELEMENT, TILE_PADDING, TAIL_PADDING, Indexer
from .arrays import to_layout, from_layout, relayout
from .hlo import Instruction, Computation, Module, read_hlo
from .pictures import draw
from .reports import (report, Report, ModuleReport, ModuleTotals,
                      MemorySpaceTotals, PaddingWaster, ReportRow,
                      DumpFolderTable, DumpFolderRow, SkippedFile, FailedFile)
from .memory_usage import (memory, ModuleMemory, CompiledMemoryStats, HeapInfo,
                           Allocation, AssignedValue, MemoryPeak, LiveValue)
from ._common import _threads

__all__ = [
    "COMBINE", "ELEMENT", "TILE_PADDING", "TAIL_PADDING", "Shape", "Layout",
    "Indexer", "parse_shape", "parse_jax_layout", "to_layout", "from_layout",
    "relayout", "read_hlo", "report", "memory", "draw", "numpy_dtype", "cute",
    "grid", "triton", "ttnn", "__version__",
    # hl.report's and hl.memory's results
    "Report", "ModuleReport", "ModuleTotals", "MemorySpaceTotals",
    "PaddingWaster", "ReportRow", "DumpFolderTable", "DumpFolderRow",
    "SkippedFile", "FailedFile", "ModuleMemory", "CompiledMemoryStats",
    "HeapInfo", "Allocation", "AssignedValue", "MemoryPeak", "LiveValue",
]

from . import cute, grid, triton, ttnn  # noqa: E402  (they use the names above)
