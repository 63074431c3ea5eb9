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
words and its name in `.rule`. Mesh mappers: distribute(shape, mesh_shape,
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

import html as _html
import json as _json
import warnings as _warnings

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
]


class TtnnRefusal(ValueError):
    """tt-metal refuses the input: str(e) is the rule in words, e.g.
    "GRID_2D distribution needs a shard of rank 2 or less, ..."; `rule` its
    name ("grid2d-shard-rank"; docs/ttnn.md lists them)."""

    def __init__(self, message, rule):
        super().__init__(message)
        self.rule = rule


class TtnnDeviceWarning(UserWarning):
    """A spec close to what its device holds (more than 3/4 of a core's
    usable L1 or of a DRAM bank), or a DRAM-sharded grid wider than the
    DRAM banks."""


_DEVICES = {}


def _device(name):
    """device_info(name), computed once per name (not to be changed)."""
    d = _DEVICES.get(name)
    if d is None:
        d = _DEVICES[name] = _core._ttnn_device_info(name)
    return d


def device_info(name="wormhole_n150"):
    """A device's numbers (ttnn/device.h, docs/ttnn.md "Devices"): a dict
    with name, board, arch, chips, grid (x, y), l1_bytes_per_core,
    l1_usable_per_core, dram_channels, dram_banks, dram_bank_bytes,
    l1_alignment, dram_alignment and summary.

        >>> device_info("p150")["grid"], device_info("n150")["l1_usable_per_core"]
        ((13, 10), 1463968)
    """
    return dict(_device(str(name)))


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


class CoreCoord:
    """ttnn.CoreCoord(x, y): a Tensix core."""
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = int(x), int(y)

    def __repr__(self):
        return "CoreCoord(x=%d, y=%d)" % (self.x, self.y)

    def __eq__(self, other):
        return isinstance(other, CoreCoord) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))


class CoreRange:
    """ttnn.CoreRange(start, end): the cores from start to end, inclusive."""
    __slots__ = ("start", "end")

    def __init__(self, start, end=None):
        self.start = start if isinstance(start, CoreCoord) else CoreCoord(*start)
        end = self.start if end is None else end
        self.end = end if isinstance(end, CoreCoord) else CoreCoord(*end)
        if self.end.x < self.start.x or self.end.y < self.start.y:
            raise ValueError("a core range goes from its first core to its last: end "
                             "(%d,%d) is before start (%d,%d)" % (
                                 self.end.x, self.end.y, self.start.x, self.start.y))

    def __repr__(self):
        return "CoreRange(%r, %r)" % (self.start, self.end)

    def __eq__(self, other):
        return isinstance(other, CoreRange) and (self.start, self.end) == (other.start, other.end)

    def _value(self):
        return ((self.start.x, self.start.y), (self.end.x, self.end.y))


class CoreRangeSet:
    """ttnn.CoreRangeSet(ranges): disjoint core ranges, in the order given."""
    __slots__ = ("ranges",)

    def __init__(self, ranges):
        if isinstance(ranges, CoreRange):
            ranges = [ranges]
        self.ranges = tuple(r if isinstance(r, CoreRange) else CoreRange(*r) for r in ranges)

    def num_cores(self):
        return sum((r.end.x - r.start.x + 1) * (r.end.y - r.start.y + 1) for r in self.ranges)

    def __repr__(self):
        return "CoreRangeSet(%r)" % (list(self.ranges),)

    def __eq__(self, other):
        return isinstance(other, CoreRangeSet) and self.ranges == other.ranges

    def _value(self):
        return [r._value() for r in self.ranges]

    @staticmethod
    def _from_value(grid):
        return CoreRangeSet([CoreRange(CoreCoord(*a), CoreCoord(*b)) for a, b in grid])


class ShardSpec:
    """ttnn.ShardSpec(grid, shard_shape, shard_orientation): a 2-D shard.
    shard_shape None: derived by TensorSpec from the tensor's shape and the
    grid (a CoreGrid's rectangle from core (0,0)) as
    ttnn.create_sharded_memory_config derives it."""
    __slots__ = ("grid", "shape", "orientation")

    def __init__(self, grid, shard_shape=None, shard_orientation=ShardOrientation.ROW_MAJOR):
        self.grid = grid if isinstance(grid, CoreRangeSet) else CoreRangeSet(grid)
        self.shape = None if shard_shape is None else tuple(int(d) for d in shard_shape)
        self.orientation = _name(shard_orientation, "orientation")

    def __repr__(self):
        return "ShardSpec(%r, %r, %r)" % (self.grid, self.shape, self.orientation)

    def __eq__(self, other):
        return isinstance(other, ShardSpec) and (self.grid, self.shape, self.orientation) == (
            other.grid, other.shape, other.orientation)

    def _value(self):
        return (self.grid._value(), self.shape, self.orientation)


class NdShardSpec:
    """ttnn.NdShardSpec(shard_shape, grid, orientation, shard_distribution_strategy)."""
    __slots__ = ("shard_shape", "grid", "orientation", "shard_distribution_strategy")

    def __init__(self, shard_shape, grid, orientation=ShardOrientation.ROW_MAJOR,
                 shard_distribution_strategy=ShardDistributionStrategy.ROUND_ROBIN_1D):
        self.shard_shape = tuple(int(d) for d in shard_shape)
        self.grid = grid if isinstance(grid, CoreRangeSet) else CoreRangeSet(grid)
        self.orientation = _name(orientation, "orientation")
        self.shard_distribution_strategy = _name(shard_distribution_strategy,
                                                 "distribution")

    def __repr__(self):
        return "NdShardSpec(%r, %r, %r, %r)" % (self.shard_shape, self.grid, self.orientation,
                                                self.shard_distribution_strategy)

    def __eq__(self, other):
        return isinstance(other, NdShardSpec) and self._value() == other._value()

    def _value(self):
        return (list(self.shard_shape), self.grid._value(), self.orientation,
                self.shard_distribution_strategy)


class MemoryConfig:
    """ttnn.MemoryConfig(memory_layout, buffer_type, shard_spec) or
    MemoryConfig(buffer_type=..., nd_shard_spec=...)."""
    __slots__ = ("memory_layout", "buffer_type", "shard_spec", "nd_shard_spec")

    def __init__(self, memory_layout=TensorMemoryLayout.INTERLEAVED, buffer_type=BufferType.DRAM,
                 shard_spec=None, nd_shard_spec=None):
        self.memory_layout = ("ND_SHARDED" if nd_shard_spec is not None
                              else _name(memory_layout, "memory_layout"))
        self.buffer_type = _name(buffer_type, "buffer_type")
        self.shard_spec = shard_spec
        self.nd_shard_spec = nd_shard_spec

    def is_sharded(self):
        return self.memory_layout != "INTERLEAVED"

    def __repr__(self):
        return "MemoryConfig(%r, %r, shard_spec=%r, nd_shard_spec=%r)" % (
            self.memory_layout, self.buffer_type, self.shard_spec, self.nd_shard_spec)

    def __eq__(self, other):
        return isinstance(other, MemoryConfig) and repr(self) == repr(other)


class Tile:
    """ttnn.Tile((height, width))."""
    __slots__ = ("tile_shape",)

    def __init__(self, tile_shape=(32, 32)):
        self.tile_shape = tuple(int(d) for d in tile_shape)

    def __repr__(self):
        return "Tile(%r)" % (self.tile_shape,)


class DeviceParams:
    """The device numbers the model needs: those of device `name` (a
    Wormhole n150 by default; "none": an n150's numbers and no fit check),
    each overridden when given."""
    __slots__ = ("l1_alignment", "dram_alignment", "l1_banks", "dram_banks", "name", "_c",
                 "_c_key")

    def __init__(self, l1_alignment=None, dram_alignment=None, l1_banks=None, dram_banks=None,
                 name="wormhole_n150"):
        self.name = str(name)
        d = _device("wormhole_n150" if self.name.lower() == "none" else self.name)
        pick = lambda v, default: int(default if v is None else v)  # noqa: E731
        self.l1_alignment = pick(l1_alignment, d["l1_alignment"])
        self.dram_alignment = pick(dram_alignment, d["dram_alignment"])
        self.l1_banks = pick(l1_banks, d["grid"][0] * d["grid"][1])
        self.dram_banks = pick(dram_banks, d["dram_banks"])

        self._c_key = None

    def _params(self):
        return (self.l1_alignment, self.dram_alignment, self.l1_banks, self.dram_banks)

    def _choice(self):
        """The C++ device choice of these numbers, made again only when
        they change."""
        key = (self.name, self.l1_alignment, self.dram_alignment, self.l1_banks,
               self.dram_banks)
        if key != self._c_key:
            self._c = _core._ttnn_device_choice(self.name, self._params())
            self._c_key = key
        return self._c


def _check(result):
    if isinstance(result, tuple) and result and result[0] == "refused":
        raise TtnnRefusal(result[1], result[2] or None)
    return result


_DEFAULT_DEVICE = None
_DEFAULT_TILE = Tile()


def _default_device():
    global _DEFAULT_DEVICE
    if _DEFAULT_DEVICE is None:
        _DEFAULT_DEVICE = DeviceParams()
    return _DEFAULT_DEVICE


class TensorSpec:
    """ttnn.TensorSpec(shape, dtype, layout, memory_config, tile=...): what
    tt-metal computes for it. Every field of `hlolayout ttnn spec`, with
    tt-metal's names; to_dict() is exactly its --json."""

    __slots__ = ("shape", "dtype", "layout", "tile", "input_memory_config", "device", "_s",
                 "_memory_config")

    def __init__(self, shape, dtype, layout, memory_config=None, tile=None, device=None):
        self.shape = tuple(map(int, shape))
        self.dtype = _name(dtype).lower()
        self.layout = _name(layout).replace("_LAYOUT", "")
        self.tile = (tile if isinstance(tile, Tile) else _DEFAULT_TILE if tile is None
                     else Tile(tile))
        self.input_memory_config = m = (memory_config if memory_config is not None
                                        else MemoryConfig())
        self.device = d = (device if isinstance(device, DeviceParams)
                           else _default_device() if device is None
                           else DeviceParams(name=device))
        nd = m.nd_shard_spec
        self._s = s = _core._ttnn_spec(
            self.shape, self.dtype, self.layout, self.tile.tile_shape, m.buffer_type,
            m.memory_layout, None if nd is not None or m.shard_spec is None
            else m.shard_spec._value(), None if nd is None else nd._value(),
            d._choice())
        if s.__class__ is tuple:
            _check(s)
        self._memory_config = None
        if s.has_warnings:
            for w in s.warnings:
                _warnings.warn(w, TtnnDeviceWarning, stacklevel=2)

    @property
    def memory_config(self):
        """The memory config after TensorSpec resolved it (a derived shard
        shape filled in, a 2-D spec resolved to ND and back)."""
        if self._memory_config is None:
            layout, ss, nd = self._s.resolved_memory()
            mc = MemoryConfig(layout, self.input_memory_config.buffer_type,
                              ShardSpec(CoreRangeSet._from_value(ss[0]), ss[1], ss[2])
                              if ss else None, None)
            if nd:
                mc.nd_shard_spec = NdShardSpec(nd[0], CoreRangeSet._from_value(nd[1]),
                                               nd[2], nd[3])
                mc.memory_layout = layout
            self._memory_config = mc
        return self._memory_config

    def __repr__(self):
        return "TensorSpec(%r, %r, %r, %r)" % (self.shape, self.dtype, self.layout,
                                               self.input_memory_config)

    warnings = property(lambda self: list(self._s.warnings),
                        doc="The device check's warnings (borderline fits).")
    device_name = property(lambda self: self._s.device_name,
                           doc="The device checked against ('none': no check).")
    shard_shape_derived = property(lambda self: self._s.shard_shape_derived,
                                   doc="The shard shape was derived (ShardSpec(grid, None)).")

    def draw(self, core=None):
        """The SVG picture of `hlolayout ttnn draw --svg -`: the core grid
        with each core's shards and bytes, the pages (or, past 16,384, the
        shards) coloured by core, and with `core` ((x, y) or CoreCoord) that
        core's device pages (ValueError for a core holding no shard)."""
        if core is not None:
            x, y = (core.x, core.y) if isinstance(core, CoreCoord) else core
            core = (int(x), int(y))
        return self._s.draw_svg(core)

    def _repr_svg_(self):
        return self.draw()

    def text(self, full=False):
        """The spec in words, as `hlolayout ttnn spec` prints it (device and
        warnings included; `full`: every core and page)."""
        return self._s.text(bool(full))

    def _repr_html_(self):
        """Jupyter: the spec's summary (`hlolayout ttnn spec`, device and
        warnings included) over its picture."""
        return "<div class=\"hlolayout-ttnn\"><pre>%s</pre>%s</div>" % (
            _html.escape(self.text()), self.draw())

    padded_shape = property(lambda self: self._s.padded_shape)
    logical_2d_shape = property(lambda self: self._s.logical_2d_shape)
    physical_shape = property(lambda self: self._s.physical_shape)
    alignment = property(lambda self: self._s.alignment)
    page_shape = property(lambda self: self._s.page_shape)
    page_size_bytes = property(lambda self: self._s.page_size_bytes)
    packed_buffer_size_bytes = property(lambda self: self._s.packed_buffer_size_bytes)
    num_pages = property(lambda self: self._s.num_pages)
    strides = property(lambda self: self._s.strides)

    def consumed_bytes_per_bank(self, page_alignment=None, num_banks=None):
        """The bytes one bank (or core) holds at most; the defaults are the
        device's for this buffer type."""
        return self._s.consumed_bytes_per_bank(
            self._s.page_alignment if page_alignment is None else int(page_alignment),
            self._s.num_banks if num_banks is None else int(num_banks))

    def aligned_page_size(self, page_alignment=None):
        return self._s.aligned_page_size(
            self._s.page_alignment if page_alignment is None else int(page_alignment))

    @property
    def cores(self):
        """The cores shards are dealt to, in order (sharded specs)."""
        return [CoreCoord(x, y) for x, y in self._s.cores]

    num_shards = property(lambda self: self._s.num_shards)
    num_cores_with_data = property(lambda self: self._s.num_cores_with_data)
    max_num_shards_per_core = property(lambda self: self._s.max_num_shards_per_core)
    max_num_dev_pages_per_core = property(lambda self: self._s.max_num_dev_pages_per_core)
    shard_shape_in_pages = property(lambda self: self._s.shard_shape_in_pages)
    tensor_shape_in_pages = property(lambda self: self._s.tensor_shape_in_pages)

    def shards_on_core(self, core):
        return self._s.shards_on_core(int(core))

    def host_pages(self, core):
        """The host page at each device page of core number `core` (an index
        into `cores`), -1 for padding: an int64 array."""
        return self._s.host_pages(int(core))

    def place(self, host_page):
        """(core, device page, shard) holding host page `host_page`."""
        (x, y), page, shard = self._s.place(int(host_page))
        return CoreCoord(x, y), page, shard

    def locate(self, index):
        """Where element `index` lives: the dict of `hlolayout ttnn locate
        --json` (host_page, byte_in_page, bank or core, offset, ...)."""
        return _json.loads(self._s.locate_json([int(i) for i in index]))

    def to_dict(self, full=False):
        """`hlolayout ttnn spec --json` (--full: every core and page)."""
        return _json.loads(self._s.to_json(bool(full)))


class CoreGrid:
    """ttnn.CoreGrid(x=..., y=...): the cores (0,0) to (x-1, y-1)."""
    __slots__ = ("x", "y")

    def __init__(self, *, x, y):
        self.x, self.y = int(x), int(y)
        if self.x < 1 or self.y < 1:
            raise ValueError("a CoreGrid has x >= 1 and y >= 1, not x=%d, y=%d" % (self.x, self.y))

    def __repr__(self):
        return "CoreGrid(x=%d, y=%d)" % (self.x, self.y)

    def num_cores(self):
        return self.x * self.y


_STRATEGY_LAYOUT = {"HEIGHT": "HEIGHT_SHARDED", "WIDTH": "WIDTH_SHARDED",
                    "BLOCK": "BLOCK_SHARDED"}


def create_sharded_memory_config(shape, core_grid, strategy, orientation=None,
                                 use_height_and_width_as_shard_shape=False):
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
    dims = [int(d) for d in shape]
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

    def __init__(self, dim):
        self.dim = int(dim)

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

    def __init__(self, placements, mesh_shape_override=None):
        self.placements = tuple(placements)
        self.mesh_shape_override = (None if mesh_shape_override is None
                                    else tuple(int(d) for d in mesh_shape_override))


class MeshSlice:
    """The slice one device holds: `device` (mesh coordinate), `holds_data`,
    `begin` and `end` per tensor dim (end exclusive), and `spec`, the slice's
    own TensorSpec (shared by every device holding data)."""
    __slots__ = ("device", "holds_data", "begin", "end", "spec")

    def __init__(self, device, holds_data, begin, end, spec):
        self.device, self.holds_data, self.begin, self.end, self.spec = (
            device, holds_data, begin, end, spec)

    def __repr__(self):
        if not self.holds_data:
            return "MeshSlice(device=%r, nothing)" % (self.device,)
        return "MeshSlice(device=%r, %s)" % (self.device, ", ".join(
            "%d:%d" % be for be in zip(self.begin, self.end)))


def distribute(tensor, mesh_shape, config):
    """The slice each device of a `mesh_shape` mesh holds when TTNN's mesh
    mapper of `config` distributes `tensor` (a TensorSpec, or a shape):
    a list of MeshSlice in row-major order of the mesh."""
    shape = tensor.shape if isinstance(tensor, TensorSpec) else tuple(int(d) for d in tensor)
    placements = [(isinstance(p, PlacementShard), p.dim if isinstance(p, PlacementShard) else 0)
                  for p in config.placements]
    _, slices, slice_shape, _submesh = _check(_core._ttnn_distribute(
        list(shape), [int(d) for d in mesh_shape], placements,
        None if config.mesh_shape_override is None else list(config.mesh_shape_override)))
    spec = None
    if isinstance(tensor, TensorSpec) and any(s["holds_data"] for s in slices):
        spec = TensorSpec(slice_shape, tensor.dtype, tensor.layout, tensor.input_memory_config,
                          tensor.tile, tensor.device)
    return [MeshSlice(s["device"], s["holds_data"], s.get("begin"), s.get("end"),
                      spec if s["holds_data"] else None) for s in slices]
