"""The memory and padding report of HLO dumps (the library's report/).

See `report`.
"""

import os as _os

from ._cli import _cli_json, _cli_message
from ._common import _path_or_text
from . import _hlolayout as _core

__all__ = ["report"]


def _cli_folder_json(args):
    """The JSON table of a dump folder command. The command exits 1 when a
    file failed or the folder holds no module, and still prints the table
    (with "failed"): that table is returned; usage errors raise."""
    import json
    status, out, err = _core.run_cli(args, "")
    if status in (0, 1) and out:
        return json.loads(out.decode("utf-8"))
    raise ValueError(_cli_message(err))


def report(path_or_text, summary=False):
    """The same content as `hlolayout report --json` (a dict).

        >>> r = hl.report("HloModule m\\n\\nENTRY %e (p: bf16[3,200]) -> bf16[3,200] {\\n"
        ...               "  ROOT %p = bf16[3,200]{1,0:T(8,128)(2,1)} parameter(0)\\n}\\n")
        >>> r["modules"][0]["totals"]["buffer_padded_bytes"]
        4096

    A dump folder (as written by --xla_dump_to) gives the folder table of
    `hlolayout report --json DIR` instead: a dict with "modules" (one row
    per module: file, module, instructions, buffer bytes, padding,
    expansion, the live-range peak of scheduled modules), "skipped" (files
    not read, with the reason) and "failed" (files that could not be read,
    with the error; the table is returned all the same).
    """
    path, text = _path_or_text(path_or_text)
    if path is not None and _os.path.isdir(path):
        return _cli_folder_json(["report", "--json", path])
    args = ["report", "--json"] + (["--summary"] if summary else [])
    if path is not None:
        return _cli_json(args + [path])
    return _cli_json(args + ["-"], text)
