# Type stubs of the hlolayout package (python/hlolayout/__init__.py): the
# public names of its capability modules, re-exported.
from . import cute as cute
from . import grid as grid
from . import triton as triton
from . import ttnn as ttnn
from .memory_usage import Allocation as Allocation
from .memory_usage import AssignedValue as AssignedValue
from .memory_usage import CompiledMemoryStats as CompiledMemoryStats
from .memory_usage import HeapInfo as HeapInfo
from .memory_usage import LiveValue as LiveValue
from .memory_usage import MemoryPeak as MemoryPeak
from .memory_usage import ModuleMemory as ModuleMemory
from .memory_usage import memory as memory
from .arrays import Bytes as Bytes
from .arrays import from_layout as from_layout
from .arrays import relayout as relayout
from .arrays import to_layout as to_layout
from .hlo import Computation as Computation
from .hlo import Instruction as Instruction
from .hlo import Module as Module
from .hlo import read_hlo as read_hlo
from .indexing import ELEMENT as ELEMENT
from .indexing import TAIL_PADDING as TAIL_PADDING
from .indexing import TILE_PADDING as TILE_PADDING
from .indexing import Indexer as Indexer
from .pictures import draw as draw
from .reports import DumpFolderRow as DumpFolderRow
from .reports import DumpFolderTable as DumpFolderTable
from .reports import FailedFile as FailedFile
from .reports import MemorySpaceTotals as MemorySpaceTotals
from .reports import ModuleReport as ModuleReport
from .reports import ModuleTotals as ModuleTotals
from .reports import PaddingWaster as PaddingWaster
from .reports import Report as Report
from .reports import ReportRow as ReportRow
from .reports import SkippedFile as SkippedFile
from .reports import report as report
from .shapes import COMBINE as COMBINE
from .shapes import Layout as Layout
from .shapes import Shape as Shape
from .shapes import ShapeLike as ShapeLike
from .shapes import numpy_dtype as numpy_dtype
from .shapes import parse_jax_layout as parse_jax_layout
from .shapes import parse_shape as parse_shape

__version__: str
