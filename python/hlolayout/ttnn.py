"""TTNN tensors as tt-metal computes them (`hlolayout ttnn`, docs/ttnn.md).

The names are ttnn's (tt-metal's Python package), so that code written for
ttnn reads the same here; enums are strings ("HEIGHT_SHARDED", "L1") and
ttnn's enum spellings are accepted too.

    >>> from hlolayout import ttnn
    >>> grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(2, 0))])
    >>> mc = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
    ...                        ttnn.ShardSpec(grid, (96, 64), ttnn.ShardOrientation.COL_MAJOR))
    >>> s = ttnn.TensorSpec((272, 58), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc)
    >>> s.padded_shape, s.page_size_bytes, s.num_pages, s.consumed_bytes_per_bank()
    ((288, 64), 2048, 18, 12288)
    >>> s.memory_config.nd_shard_spec.shard_shape
    (96, 64)
    >>> s.host_pages(1).tolist()
    [6, 7, 8, 9, 10, 11]
    >>> s.locate((100, 20))["core"]
    [1, 0]

What tt-metal refuses raises TtnnRefusal (a ValueError) with the rule in
words and its name in `.rule`; an int argument that is not an int (1.5,
"7") raises TypeError, one past 64 bits OverflowError. Mesh mappers:
distribute(shape, mesh_shape,
MeshMapperConfig([PlacementShard(0), PlacementReplicate()])).

A spec is checked against a device (a Wormhole n150 unless `device=` names
another: "n300", "p100", "p150", or "none" for no check): one it cannot
hold raises TtnnRefusal (rule "device-grid", "device-l1", "device-dram"), a
borderline one warns (TtnnDeviceWarning, and `spec.warnings`).

    >>> ttnn.TensorSpec((320, 320), ttnn.bfloat16, ttnn.TILE_LAYOUT, ttnn.MemoryConfig(
    ...     ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.L1,
    ...     ttnn.ShardSpec(ttnn.CoreRangeSet([ttnn.CoreRange((0, 0), (9, 9))]), (32, 32))))
    Traceback (most recent call last):
    ...
    hlolayout.ttnn.TtnnRefusal: the grid [(0,0)-(9,9)] reaches core (9,9), outside wormhole_n150's 8x8 worker grid (0,0)-(7,7)

s.to_dict() is `hlolayout ttnn spec --json`; s.answer() is the same answer as a
record (SpecAnswer, from the field list that writes the CLI's JSON).

    >>> s.answer().consumed_bytes_per_bank.bytes, s.to_dict()["num_pages"]
    (12288, 18)

A ShardSpec without a shard shape has it derived as
ttnn.create_sharded_memory_config derives it (also here, with ttnn's
arguments); Jupyter draws a spec (`_repr_html_`, `_repr_svg_`, `draw`).

    >>> s = ttnn.TensorSpec((32, 2048, 1024), ttnn.bfloat8_b, ttnn.TILE_LAYOUT, ttnn.MemoryConfig(
    ...     ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.L1,
    ...     ttnn.ShardSpec(ttnn.CoreRangeSet([ttnn.CoreRange((0, 0), (7, 7))]), None)),
    ...     device="p150")
    >>> s.memory_config.shard_spec.shape, s.shard_shape_derived, s.device_name
    ((8192, 128), True, 'blackhole_p150')
"""

from __future__ import annotations

import operator
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _hlolayout as _core

__all__ = [
    "TensorSpec", "MemoryConfig", "ShardSpec", "NdShardSpec", "CoreRangeSet",
    "CoreRange", "CoreCoord", "Tile", "TtnnRefusal", "TensorMemoryLayout",
    "BufferType", "ShardOrientation", "ShardDistributionStrategy", "Layout",
    "DataType", "TILE_LAYOUT", "ROW_MAJOR_LAYOUT", "bfloat16", "float32",
    "uint32", "bfloat8_b", "bfloat4_b", "uint8", "uint16", "int32", "int8",
    "fp8_e4m3", "PlacementShard", "PlacementReplicate", "MeshMapperConfig",
    "MeshSlice", "distribute", "DeviceParams", "TtnnDeviceWarning", "device_info",
    "CoreGrid", "ShardStrategy", "create_sharded_memory_config",
    "SpecAnswer", "BankBytes", "SpecDistribution", "CorePages", "ResolvedShardSpec",
    "ResolvedNdShardSpec", "ShardSpecBuffer",
]


class TtnnRefusal(ValueError):
    """tt-metal refuses the input: str(e) is the rule in words, e.g.
    "GRID_2D distribution needs a shard of rank 2 or less, ..."; `rule` its
    name ("grid2d-shard-rank"; docs/ttnn.md lists them)."""
    rule: Optional[str]

    def __init__(self, message: str, rule: Optional[str]):
        super().__init__(message)
        self.rule = rule


class TtnnDeviceWarning(UserWarning):
    """A spec close to what its device holds (more than 3/4 of a core's
    usable L1 or of a DRAM bank), or a DRAM-sharded grid wider than the
    DRAM banks."""


def device_info(name: str = "wormhole_n150") -> Dict[str, Any]:
    """A device's numbers (ttnn/device.h, docs/ttnn.md "Devices"): a dict
    with name, board, arch, chips, grid (x, y), l1_bytes_per_core,
    l1_usable_per_core, dram_channels, dram_banks, dram_bank_bytes,
    l1_alignment, dram_alignment and summary.

        >>> device_info("p150")["grid"], device_info("n150")["l1_usable_per_core"]
        ((13, 10), 1463968)
    """
    return _core._ttnn_device_info(str(name))


def _enum(name, values):
    return type(name, (), {v: v for v in values})


TensorMemoryLayout = _enum("TensorMemoryLayout", [
    "INTERLEAVED", "HEIGHT_SHARDED", "WIDTH_SHARDED", "BLOCK_SHARDED", "ND_SHARDED"])
BufferType = _enum("BufferType", ["DRAM", "L1"])
ShardOrientation = _enum("ShardOrientation", ["ROW_MAJOR", "COL_MAJOR"])
ShardDistributionStrategy = _enum("ShardDistributionStrategy", ["ROUND_ROBIN_1D", "GRID_2D"])
ShardStrategy = _enum("ShardStrategy", ["HEIGHT", "WIDTH", "BLOCK"])
Layout = _enum("Layout", ["ROW_MAJOR", "TILE"])
DataType = _enum("DataType", ["BFLOAT16", "FLOAT32", "UINT32", "BFLOAT8_B", "BFLOAT4_B",
                              "UINT8", "UINT16", "INT32", "FP8_E4M3", "INT8"])
TILE_LAYOUT = "TILE"
ROW_MAJOR_LAYOUT = "ROW_MAJOR"
bfloat16, float32, uint32 = "bfloat16", "float32", "uint32"
bfloat8_b, bfloat4_b, uint8 = "bfloat8_b", "bfloat4_b", "uint8"
uint16, int32, int8, fp8_e4m3 = "uint16", "int32", "int8", "fp8_e4m3"


def _name(v, kind=None):
    """An enum value as a string: "L1", ttnn.BufferType.L1 printed as
    "BufferType.L1" or "TensorMemoryLayout::L1" all give "L1". With `kind`
    ("dtype", "layout", "memory_layout", "buffer_type", "orientation",
    "distribution"), a name that is none of that enum's raises ValueError
    with the nearest ones ("unknown dtype 'bfloat8'; did you mean
    'bfloat8_b'? ...")."""
    if v.__class__ is str and (kind, v) in _KNOWN_NAMES:
        return v
    if kind is None and v.__class__ is str and "." not in v and ":" not in v:
        return v
    s = str(getattr(v, "name", v))
    s = s.split(".")[-1].split("::")[-1]
    if kind is not None:
        _core._ttnn_check_name(kind, s)
        if s == v:
            _KNOWN_NAMES.add((kind, s))
    return s


# (kind, name) pairs _name has checked (the checks cost a call into C++).
_KNOWN_NAMES = set()


# The classes are C++ values (python/hlolayout/_ttnn.h), checked when made.
_core._ttnn.register(TtnnRefusal, TtnnDeviceWarning)
CoreCoord = _core._ttnn.CoreCoord
CoreRange = _core._ttnn.CoreRange
CoreRangeSet = _core._ttnn.CoreRangeSet
ShardSpec = _core._ttnn.ShardSpec
NdShardSpec = _core._ttnn.NdShardSpec
MemoryConfig = _core._ttnn.MemoryConfig
Tile = _core._ttnn.Tile
DeviceParams = _core._ttnn.DeviceParams
TensorSpec = _core._ttnn.TensorSpec
# TensorSpec.answer()'s records (answers/ttnn.h): `hlolayout ttnn spec
# --json` is their to_dict().
SpecAnswer = _core._ttnn.SpecAnswer
BankBytes = _core._ttnn.BankBytes
SpecDistribution = _core._ttnn.SpecDistribution
CorePages = _core._ttnn.CorePages
ResolvedShardSpec = _core._ttnn.ResolvedShardSpec
ResolvedNdShardSpec = _core._ttnn.ResolvedNdShardSpec
ShardSpecBuffer = _core._ttnn.ShardSpecBuffer


def _memory_config(memory_layout, buffer_type, shard_spec, nd_shard_spec):
    """MemoryConfig.__reduce__'s maker: the fields as they were (a resolved
    config has both shard specs and its own layout)."""
    return _core._ttnn._memory_config(memory_layout, buffer_type, shard_spec, nd_shard_spec)


def _check(result):
    if isinstance(result, tuple) and result and result[0] == "refused":
        raise TtnnRefusal(result[1], result[2] or None)
    return result


def _int(value, what):
    """`value` as an int (a Python or NumPy integer); TypeError otherwise:
    int() would make 1.5 the 1 and "7" the 7, which tt-metal refuses."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s is an int, not %s" % (what, type(value).__name__)) from None


def _ints(values, what):
    return tuple(_int(v, what) for v in values)


class CoreGrid:
    """ttnn.CoreGrid(x=..., y=...): the cores (0,0) to (x-1, y-1)."""
    __slots__ = ("x", "y")
    x: int
    y: int

    def __init__(self, *, x: int, y: int):
        self.x, self.y = _int(x, "CoreGrid's x"), _int(y, "CoreGrid's y")
        if self.x < 1 or self.y < 1:
            raise ValueError("a CoreGrid has x >= 1 and y >= 1, not x=%d, y=%d" % (self.x, self.y))

    def __repr__(self):
        return "CoreGrid(x=%d, y=%d)" % (self.x, self.y)

    def num_cores(self) -> int:
        return self.x * self.y


_STRATEGY_LAYOUT = {"HEIGHT": "HEIGHT_SHARDED", "WIDTH": "WIDTH_SHARDED",
                    "BLOCK": "BLOCK_SHARDED"}


def create_sharded_memory_config(
        shape: Sequence[int], core_grid: Union[CoreGrid, CoreRangeSet],
        strategy: Any, orientation: Any = None,
        use_height_and_width_as_shard_shape: bool = False) -> MemoryConfig:
    """ttnn.create_sharded_memory_config: an L1 MemoryConfig whose shard is
    derived from the tensor's `shape` and `core_grid` (a CoreGrid; a
    CoreRangeSet only with use_height_and_width_as_shard_shape, which takes
    the last two dims as the shard, swapped for COL_MAJOR). The rule and its
    refusals: ttnn/sharded_config.h.

        >>> m = create_sharded_memory_config((32, 2048, 1024), CoreGrid(y=4, x=8),
        ...                                  ShardStrategy.BLOCK, ShardOrientation.COL_MAJOR)
        >>> m.memory_layout, m.shard_spec.shape
        ('BLOCK_SHARDED', (8192, 256))
    """
    s = _name(strategy)
    if s in _STRATEGY_LAYOUT:
        layout = _STRATEGY_LAYOUT[s]
    else:
        layout = _name(strategy, "memory_layout")
    o = "ROW_MAJOR" if orientation is None else _name(orientation, "orientation")
    dims = list(_ints(shape, "a dim of the shape"))
    if isinstance(core_grid, CoreGrid):
        grid = CoreRangeSet([CoreRange((0, 0), (core_grid.x - 1, core_grid.y - 1))])
    elif isinstance(core_grid, CoreRangeSet):
        grid = core_grid
        if not use_height_and_width_as_shard_shape:
            raise TtnnRefusal("cannot derive the shard shape on a CoreRangeSet (ttnn: \"height "
                              "and width must be shard shape with CoreRangeSet\"); give a "
                              "CoreGrid", "shard-derive")
    else:
        raise TypeError("core_grid is a CoreGrid or a CoreRangeSet, not %r" % (core_grid,))
    if use_height_and_width_as_shard_shape:
        if len(dims) < 2:
            raise TtnnRefusal("the shape %r has no height and width" % (tuple(dims),),
                              "shard-derive")
        shard = (dims[-2], dims[-1]) if o == "ROW_MAJOR" else (dims[-1], dims[-2])
    else:
        r = _check(_core._ttnn_derive_shard(dims, core_grid.x, core_grid.y, layout, o))
        shard = (r[1], r[2])
    return MemoryConfig(layout, BufferType.L1, ShardSpec(grid, shard, o))


class PlacementShard:
    """ttnn.PlacementShard(dim): cut tensor dim `dim` along a mesh dim."""
    __slots__ = ("dim",)
    dim: int

    def __init__(self, dim: int):
        self.dim = _int(dim, "PlacementShard's dim")

    def __repr__(self):
        return "PlacementShard(%d)" % self.dim


class PlacementReplicate:
    """ttnn.PlacementReplicate(): copy along a mesh dim."""
    __slots__ = ()

    def __repr__(self):
        return "PlacementReplicate()"


class MeshMapperConfig:
    """ttnn.MeshMapperConfig(placements, mesh_shape_override=None)."""
    __slots__ = ("placements", "mesh_shape_override")
    placements: Tuple[Union[PlacementShard, PlacementReplicate], ...]
    mesh_shape_override: Optional[Tuple[int, ...]]

    def __init__(self, placements: Sequence[Union[PlacementShard, PlacementReplicate]],
                 mesh_shape_override: Optional[Sequence[int]] = None):
        self.placements = tuple(placements)
        for p in self.placements:
            if not isinstance(p, (PlacementShard, PlacementReplicate)):
                raise TypeError("a placement is PlacementShard(dim) or PlacementReplicate(), "
                                "not %r" % (p,))
        self.mesh_shape_override = (None if mesh_shape_override is None
                                    else _ints(mesh_shape_override, "a mesh dim"))


class MeshSlice:
    """The slice one device holds: `device` (mesh coordinate), `holds_data`,
    `begin` and `end` per tensor dim (end exclusive), and `spec`, the slice's
    own TensorSpec (shared by every device holding data)."""
    __slots__ = ("device", "holds_data", "begin", "end", "spec")
    device: Tuple[int, ...]
    holds_data: bool
    begin: Optional[Tuple[int, ...]]
    end: Optional[Tuple[int, ...]]
    spec: Optional[TensorSpec]

    def __init__(self, device: Tuple[int, ...], holds_data: bool,
                 begin: Optional[Tuple[int, ...]], end: Optional[Tuple[int, ...]],
                 spec: Optional[TensorSpec]):
        # Made by distribute(); checked when made by hand, so that repr()
        # and the fields mean what they say.
        if spec is not None and not isinstance(spec, TensorSpec):
            raise TypeError("spec is a TensorSpec or None, not %r" % (spec,))
        self.device = _ints(device, "a mesh coordinate")
        self.holds_data = bool(holds_data)
        self.begin = None if begin is None else _ints(begin, "a slice begin")
        self.end = None if end is None else _ints(end, "a slice end")
        self.spec = spec
        if self.holds_data and (self.begin is None or self.end is None or
                                len(self.begin) != len(self.end)):
            raise ValueError("a slice holding data has a begin and an end of one length")

    def __repr__(self):
        if not self.holds_data:
            return "MeshSlice(device=%r, nothing)" % (self.device,)
        return "MeshSlice(device=%r, %s)" % (self.device, ", ".join(
            "%d:%d" % be for be in zip(self.begin, self.end)))


def distribute(tensor: Union[TensorSpec, Sequence[int]],
               mesh_shape: Sequence[int],
               config: MeshMapperConfig) -> List[MeshSlice]:
    """The slice each device of a `mesh_shape` mesh holds when TTNN's mesh
    mapper of `config` distributes `tensor` (a TensorSpec, or a shape):
    a list of MeshSlice in row-major order of the mesh."""
    if not isinstance(config, MeshMapperConfig):
        raise TypeError("config is a MeshMapperConfig, not %r" % (config,))
    shape = (tensor.shape if isinstance(tensor, TensorSpec)
             else _ints(tensor, "a dim of the tensor"))
    placements = [(isinstance(p, PlacementShard), p.dim if isinstance(p, PlacementShard) else 0)
                  for p in config.placements]
    _, slices, slice_shape, _submesh = _check(_core._ttnn_distribute(
        list(shape), list(_ints(mesh_shape, "a mesh dim")), placements,
        None if config.mesh_shape_override is None else list(config.mesh_shape_override)))
    spec = None
    if isinstance(tensor, TensorSpec) and any(s["holds_data"] for s in slices):
        spec = TensorSpec(slice_shape, tensor.dtype, tensor.layout, tensor.input_memory_config,
                          tensor.tile, tensor.device)
    return [MeshSlice(s["device"], s["holds_data"], s.get("begin"), s.get("end"),
                      spec if s["holds_data"] else None) for s in slices]
