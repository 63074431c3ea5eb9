"""What XLA will allocate for scheduled modules, and their live-range peak
(the library's memory/; docs/memory.md).

    >>> (m,) = hl.memory(TWO_TEMPS, platform="gpu")
    >>> m
    ModuleMemory(module='m', platform='gpu', memory_analysis=CompiledMemoryStats(argument_size_in_bytes=1024, output_size_in_bytes=512, alias_size_in_bytes=0, temp_size_in_bytes=2048, peak_memory_in_bytes=3584), allocated_bytes=3584, allocations=(3 items))
    >>> m.memory_analysis.temp_size_in_bytes     # as compiled.memory_analysis()
    2048
    >>> [(a.kind, a.size) for a in m.allocations]
    [('parameter', 1024), ('output', 512), ('temp', 2048)]
    >>> [(v.name, v.index, v.offset) for v in m.allocations[2].values]
    [('x', (), 1024), ('y', (), 0), ('z', (), 1024)]
    >>> m.peaks[0].bytes, [v.instruction for v in m.peaks[0].live]  # live ranges
    (2560, ['p', 'z', 'o'])
    >>> m.to_dict()["memory_analysis"]["temp_size_in_bytes"]   # the JSON form
    2048

Every result is a read-only object with one attribute per field (help()
describes each), `to_dict()` giving what `hlolayout memory --json` prints,
equality, hashing and pickling. `result[key]` still answers as the dicts of
earlier releases did, with a DeprecationWarning (CHANGELOG.md).
"""

from __future__ import annotations

import glob as _glob
import os as _os
from typing import TYPE_CHECKING, List, Optional, Sequence, Union

from . import _hlolayout as _core
from ._common import _path_or_text, _sort_name, _threads

if TYPE_CHECKING:
    import os

    from .reports import DumpFolderTable

__all__ = ["memory", "ModuleMemory", "CompiledMemoryStats", "HeapInfo",
           "SizingValue", "Allocation", "AssignedValue", "MemoryPeak",
           "LiveValue", "TpuMemory", "TpuMemorySpace", "TpuHeapPeak",
           "TpuHeapValue", "TpuPadding", "TpuPaddedArray"]

ModuleMemory = _core.ModuleMemory
CompiledMemoryStats = _core.CompiledMemoryStats
HeapInfo = _core.HeapInfo
SizingValue = _core.SizingValue
Allocation = _core.Allocation
AssignedValue = _core.AssignedValue
MemoryPeak = _core.MemoryPeak
LiveValue = _core.LiveValue
TpuMemory = _core.TpuMemory
TpuMemorySpace = _core.TpuMemorySpace
TpuHeapPeak = _core.TpuHeapPeak
TpuHeapValue = _core.TpuHeapValue
TpuPadding = _core.TpuPadding
TpuPaddedArray = _core.TpuPaddedArray

# The module of the examples above: two temps live together (x and y), z
# takes x's place; the output is smaller than the temps, so they go to
# XLA's heap.
TWO_TEMPS = """HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> f32[128] {
  %p = f32[256]{0} parameter(0)
  %x = f32[256]{0} exponential(%p)
  %y = f32[256]{0} negate(%p)
  %z = f32[256]{0} add(%x, %y)
  ROOT %o = f32[128]{0} slice(%z), slice={[0:128]}
}
"""


def memory(path_or_text: Union[str, bytes, os.PathLike,
                                Sequence[Union[str, os.PathLike]]],
           top: Optional[int] = None,
           space: Optional[int] = None, platform: Optional[str] = None,
           threads: Optional[int] = None, sort: Optional[str] = None,
           tpu: Optional[str] = None
           ) -> Union[List[ModuleMemory], DumpFolderTable]:
    """What XLA will allocate for each scheduled module, and its peak: a
    list of ModuleMemory, one per module (`hlolayout memory --json`).

        >>> (m,) = hl.memory(TWO_TEMPS, platform="cpu")
        >>> s = m.memory_analysis
        >>> s.argument_size_in_bytes, s.output_size_in_bytes, s.temp_size_in_bytes
        (1024, 512, 2048)
        >>> s.peak_memory_in_bytes      # XLA:CPU counts no temps in its peak
        1536
        >>> s.generated_code_size_in_bytes is None   # not in a dump
        True

    Each ModuleMemory holds XLA's buffer assignment and
    `compiled.memory_analysis()` as XLA computes them (docs/memory.md):
    `memory_analysis` (a CompiledMemoryStats with JAX's attribute names),
    `allocated_bytes` (arguments + temp + outputs - aliases), `allocations`
    (Allocations with their kind, size and AssignedValues at their offsets),
    `heap` and `platform`; and the live ranges: `schedule_end`,
    `value_count`, `peaks` (MemoryPeaks with the LiveValues live there, at
    most `top` of them; 0: all).

    `platform`: "gpu", "cpu" or "tpu" (alignment, in-place rules, peak); by
    default taken from the file name or the module. An XLA:TPU module (tpu
    in the file name, tiled layouts, or platform "tpu") has platform "tpu",
    memory_analysis, allocated_bytes, heap and allocations None, and `tpu`:
    a TpuMemory (docs/xla-tpu.md) with its memory spaces as XLA:TPU names
    them, whether it fits the HBM XLA:TPU lets a program take on the chip
    (`fits`, `hbm_left_bytes`), VMEM against the chip's, the HBM heap at
    its peak and tile padding ranked; per device for SPMD modules. The chip
    comes from the `*.target_arguments.txt` XLA:TPU writes beside a module
    file, else from `tpu` ("v4", "v5e", "v5p" or "v6e"; ValueError if the
    file names another); other modules have `tpu` None. `space`: only the peak of memory space S(space).
    Raises ValueError for modules without a schedule and for bad arguments,
    FileNotFoundError for a path that does not exist.

    Several files, as `hlolayout memory FILE...` takes them: a list or
    tuple of paths, or a glob pattern (`"dump/*after_optimizations.txt"`,
    expanded in sorted order as a shell would for the CLI); their modules
    come in one list, file after file.

    A large text is read on `threads` threads, and a large module analysed
    on up to two (default: one per core; `hlolayout memory --threads`):
    the answers are the same on any number. ValueError below 1.

    A dump folder gives its table instead (a DumpFolderTable, as `report`
    gives for a folder and `hlolayout memory DIR` prints, most allocated
    first), read on `threads` threads (default: one per core). `sort`
    orders its rows as `hlolayout memory --sort=KEY DIR` does, by one of
    `report`'s keys: order|file, name|module, padded, buffers, padding,
    expansion, instructions, allocated or peak (default "allocated"); any
    other name raises ValueError listing them. `top`, `space` and
    `platform` do not apply to a folder and raise ValueError, as the CLI
    refuses them; so does a folder without module files. `sort` applies to
    a folder only and raises ValueError for files and text, as `hlolayout
    memory --sort=KEY FILE` is refused.
    """
    if isinstance(path_or_text, (list, tuple)):
        _no_sort_for_files(sort)
        return _memory_of_files(list(path_or_text), top, space, platform,
                                threads, tpu)
    if isinstance(path_or_text, str) and _glob.has_magic(path_or_text) and \
            "\n" not in path_or_text and not _os.path.exists(path_or_text):
        _no_sort_for_files(sort)
        files = sorted(_glob.glob(path_or_text))
        if not files:
            raise FileNotFoundError("no file matches %r" % path_or_text)
        return _memory_of_files(files, top, space, platform, threads, tpu)
    path, text = _path_or_text(path_or_text)
    if path is not None and _os.path.isdir(path):
        for name, value in (("top", top), ("space", space),
                            ("platform", platform), ("tpu", tpu)):
            if value is not None:
                raise ValueError(
                    "%s does not apply to a folder (`hlolayout memory DIR` "
                    "refuses --%s too): give files for modules" % (name, name))
        return _core.memory_folder(path, _sort_name(sort, "allocated"),
                                   0 if threads is None else
                                   _threads(threads))
    _no_sort_for_files(sort)
    top = 20 if top is None else top
    if space is not None:
        space = int(space)
        if space < 0:
            raise ValueError("space must be >= 0, got %d" % space)
    return _core.memory(path if path is not None else text, path is not None,
                        int(top), -1 if space is None else space,
                        "" if platform is None else str(platform),
                        "" if tpu is None else str(tpu), _threads(threads))


def _no_sort_for_files(sort):
    """ValueError when `sort` is given for files or text (the CLI's
    `memory --sort FILE` is a usage error too)."""
    if sort is not None:
        raise ValueError("sort applies to a dump folder only (`hlolayout "
                         "memory FILE` refuses --sort too): give a folder")


def _memory_of_files(paths, top, space, platform, threads, tpu):
    """memory() of each file in turn: one list of their modules."""
    if not paths:
        raise ValueError("no files given")
    modules = []
    for path in paths:
        path = _os.fspath(path)
        if _os.path.isdir(path):
            raise ValueError("%s is a folder: give a folder alone, or files"
                             % path)
        if not _os.path.exists(path):
            raise FileNotFoundError(path)
        modules.extend(memory(path, top, space, platform, threads, tpu=tpu))
    return modules
