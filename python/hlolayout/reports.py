"""The memory and padding report of HLO dumps, and the table of a dump
folder (the library's report/; docs/report.md).

    >>> r = hl.report(PADDED)
    >>> t = r.modules[0].totals
    >>> t.buffer_logical_bytes, t.buffer_padded_bytes, t.expansion
    (1200, 4096, 3.4133333333333336)
    >>> row = r.modules[0].instructions[0]
    >>> row.instruction, row.memory_space, row.padding_bytes, row.buffer
    ('p', 'hbm', 2896, 'new')
    >>> r.modules[0].top_padding_wasters[0].reasons[0]
    'dim 0 (size 3) is not a multiple of tile 8 of tile level 0 (8,128) in T(8,128)(2,1): padded to 8'
    >>> r.to_dict()["modules"][0]["totals"]["expansion"]   # the JSON form
    3.41333

Every result is a read-only object with one attribute per field (help()
describes each), `to_dict()` giving what `hlolayout report --json` prints,
a repr of the fields that matter, an HTML view in Jupyter (`_repr_html_`:
a table of the fields; a PaddingWaster adds the picture of its tiles),
equality, hashing and pickling. `result[key]` still answers as the dicts of
earlier releases did, with a DeprecationWarning (CHANGELOG.md).
"""

from __future__ import annotations

import os as _os
from typing import TYPE_CHECKING, Optional, Union

from . import _hlolayout as _core

if TYPE_CHECKING:
    import os
from ._common import _path_or_text, _sort_name, _threads

__all__ = ["report", "Report", "ModuleReport", "ModuleTotals",
           "MemorySpaceTotals", "PaddingWaster", "ReportRow",
           "DumpFolderTable", "DumpFolderRow", "SkippedFile", "FailedFile"]

Report = _core.Report
ModuleReport = _core.ModuleReport
ModuleTotals = _core.ModuleTotals
MemorySpaceTotals = _core.MemorySpaceTotals
PaddingWaster = _core.PaddingWaster
ReportRow = _core.ReportRow
DumpFolderTable = _core.DumpFolderTable
DumpFolderRow = _core.DumpFolderRow
SkippedFile = _core.SkippedFile
FailedFile = _core.FailedFile

# The module of the examples above: one bf16[3,200] parameter in (8,128)
# tiles, which cover [8,256].
PADDED = """HloModule m

ENTRY %e (p: bf16[3,200]) -> bf16[3,200] {
  ROOT %p = bf16[3,200]{1,0:T(8,128)(2,1)} parameter(0)
}
"""


def report(path_or_text: Union[str, bytes, os.PathLike], summary: bool = False,
           top: int = 10, threads: Optional[int] = None,
           sort: Optional[str] = None
           ) -> Union[Report, DumpFolderTable]:
    """The memory and padding report of HLO module text (a path or the
    text): a Report (`hlolayout report --json`).

        >>> r = hl.report(PADDED, summary=True)
        >>> r.modules[0].totals.buffer_padded_bytes, r.modules[0].instructions
        (4096, None)

    Report.modules holds one ModuleReport per module: `totals`
    (ModuleTotals: the buffers the module defines by XLA's dataflow rules,
    and all instruction results), `memory_spaces` (MemorySpaceTotals),
    `top_padding_wasters` (the `top` PaddingWasters: buffers, each listed
    once however many instructions name it, with the reasons, the other
    values that take its place and its other names) and `instructions`
    (one ReportRow per instruction, in text order or `sort`'s, below);
    with `summary` the last two are None and the text is read in constant
    memory. Large texts are read on `threads` threads (default: one per
    core, at most 8); the report is the same whatever the number. Raises
    ValueError ("L:C: message", the line and a caret) for bad text and for
    text without a module (empty, comments only), FileNotFoundError for a
    path that does not exist.

    `sort` is a key of `hlolayout report --sort=KEY` (docs/report.md):
    order|file, name|module, padded, buffers, padding, expansion,
    instructions, allocated or peak. A file or text keeps its order by
    default ("order"); the other keys order each module's instructions
    (padded, buffers, padding, expansion; name: by computation, then
    instruction) or the modules (instructions, allocated, peak; the last
    two not with `summary`), as the CLI does. Any other name raises
    ValueError listing the keys.

    A dump folder (as written by --xla_dump_to) gives a DumpFolderTable
    instead (`hlolayout report --json DIR`): `modules` (one DumpFolderRow
    per module: file, module, instructions, buffer bytes, padding,
    expansion, what XLA will allocate and the live-range peak of scheduled
    modules; largest buffers first), `skipped` (files not read, with the
    reason) and `failed` (files that could not be read, with the error; the
    table is returned all the same).

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as d:
        ...     _ = (pathlib.Path(d) / "module_0001.m.txt").write_text(PADDED)
        ...     _ = (pathlib.Path(d) / "notes.md").write_text("")
        ...     table = hl.report(d)
        >>> [(row.file, row.buffer_padded_bytes) for row in table.modules]
        [('module_0001.m.txt', 4096)]
        >>> table.skipped
        (SkippedFile(file='notes.md', reason='not a .txt file'),)

    A folder's rows come most padded buffer bytes first; `sort` orders them
    as `hlolayout report --sort=KEY DIR` does ("module": by module name,
    "file": by file name, "allocated": what XLA will allocate, ...).

        >>> with tempfile.TemporaryDirectory() as d:
        ...     for name, rows in (("a", 3), ("b", 30)):
        ...         text = PADDED.replace("HloModule m", "HloModule " + name)
        ...         path = pathlib.Path(d) / (name + ".txt")
        ...         _ = path.write_text(text.replace("[3,", "[%d," % rows))
        ...     by_buffers = [r.module for r in hl.report(d).modules]
        ...     by_name = [r.module for r in hl.report(d, sort="name").modules]
        >>> by_buffers, by_name
        (['b', 'a'], ['a', 'b'])
    """
    path, text = _path_or_text(path_or_text)
    if path is not None and _os.path.isdir(path):
        return _core.dump_folder(path, _sort_name(sort, "buffers"),
                                 0 if threads is None else _threads(threads))
    return _core.report(path if path is not None else text, path is not None,
                        bool(summary), int(top), _threads(threads),
                        _sort_name(sort, "order"))
