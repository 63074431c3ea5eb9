"""What XLA will allocate for scheduled modules, and their live-range peak
(the library's memory/).

See `memory`.
"""

import os as _os

from ._cli import _cli_json
from ._common import _path_or_text
from .reports import _cli_folder_json

__all__ = ["memory"]


def memory(path_or_text, top=20, space=None, platform=None):
    """What XLA will allocate for each scheduled module, and its peak: the
    same content as `hlolayout memory --json` (a list, one dict per module).

        >>> (m,) = hl.memory("HloModule m, is_scheduled=true\\n\\n"
        ...                  "ENTRY %e (p: f32[256]) -> f32[256] {\\n"
        ...                  "  %p = f32[256]{0} parameter(0)\\n"
        ...                  "  ROOT %n = f32[256]{0} negate(%p)\\n}\\n", platform="gpu")
        >>> m["memory_analysis"]["argument_size_in_bytes"]
        1024

    Each dict holds XLA's buffer assignment and `compiled.memory_analysis()`
    as XLA computes them (docs/memory.md): `memory_analysis` (argument,
    output, alias, temp and peak bytes, the keys of XLA's
    CompiledMemoryStats), `allocated_bytes` (arguments + temp + outputs -
    aliases), `allocations` (each with its kind, size and values with their
    offsets) and `platform`; and the live ranges: schedule_end, values,
    `peaks` with the values live there, e.g.
    `hl.memory(path)[0]["memory_analysis"]["temp_size_in_bytes"]`.

    `platform`: "gpu" or "cpu" (alignment, in-place rules, peak); by default
    taken from the file name or the module. `space`: only the peak of memory
    space S(space). Raises ValueError for modules without a schedule and
    for bad arguments.

    A dump folder gives the folder table of `hlolayout memory --json DIR`
    (the dict `report` gives for a folder; `top`, `space` and `platform` do
    not apply).
    """
    path, text = _path_or_text(path_or_text)
    if path is not None and _os.path.isdir(path):
        return _cli_folder_json(["memory", "--json", path])
    args = ["memory", "--json", "--top=%d" % top]
    if space is not None:
        args.append("--space=%d" % space)
    if platform is not None:
        args.append("--platform=%s" % platform)
    if path is not None:
        return _cli_json(args + [path])
    return _cli_json(args + ["-"], text)
