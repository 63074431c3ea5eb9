"""hlolayout.ttnn: TTNN tensor specs, their distribution, and meshes."""

import inspect
import json

import pytest

import hlolayout as hl
from hlolayout import ttnn

from conftest import _runfile


def _grid(x1, y1, x0=0, y0=0):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))])


def _spec(row):
    """A TensorSpec from a row of the TTNN test data's input."""
    i = row["input"]
    if "nd_shard_spec" in i:
        nd = i["nd_shard_spec"]
        grid = ttnn.CoreRangeSet([ttnn.CoreRange(a, b) for a, b in nd["grid"]])
        mc = ttnn.MemoryConfig(buffer_type=i["buffer_type"], nd_shard_spec=ttnn.NdShardSpec(
            nd["shard_shape"], grid, nd["orientation"], nd["distribution"]))
    elif "shard_spec" in i:
        ss = i["shard_spec"]
        grid = ttnn.CoreRangeSet([ttnn.CoreRange(a, b) for a, b in ss["grid"]])
        mc = ttnn.MemoryConfig(i["memory_layout"], i["buffer_type"],
                               ttnn.ShardSpec(grid, ss["shape"], ss["orientation"]))
    else:
        mc = ttnn.MemoryConfig(i["memory_layout"], i["buffer_type"])
    # tt-metal's TensorSpec alone: one row's grid reaches core (6,8), past an
    # n150's 8x8 worker cores.
    return ttnn.TensorSpec(i["shape"], i["dtype"], i["layout"], mc, tile=i["tile"],
                           device="none")


def test_header_example():
    mc = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                           ttnn.ShardSpec(_grid(2, 0), (96, 64), ttnn.ShardOrientation.COL_MAJOR))
    s = ttnn.TensorSpec((272, 58), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc)
    assert (s.padded_shape, s.page_size_bytes, s.num_pages) == ((288, 64), 2048, 18)
    assert s.consumed_bytes_per_bank() == 12288
    assert s.consumed_bytes_per_bank(32, 12) == 12288
    assert s.memory_config.nd_shard_spec.shard_shape == (96, 64)
    assert s.memory_config.nd_shard_spec.shard_distribution_strategy == "ROUND_ROBIN_1D"
    assert s.cores == [ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0), ttnn.CoreCoord(2, 0)]
    assert s.host_pages(1).tolist() == [6, 7, 8, 9, 10, 11]
    assert s.place(7) == (ttnn.CoreCoord(1, 0), 1, 1)
    assert s.locate((100, 20))["offset"] == 648
    assert (s.num_shards, s.max_num_dev_pages_per_core) == (3, 6)


def test_every_row_of_the_test_data_agrees_with_the_cli():
    """The Python API gives what `hlolayout ttnn spec --json` gives, and
    both what tt-metal computed (ttnn/testdata/tensor_specs.jsonl)."""
    path = _runfile("ttnn/testdata/tensor_specs.jsonl")
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    assert len(rows) == 140
    for row in rows:
        if "error" in row:
            with pytest.raises(ttnn.TtnnRefusal) as e:
                _spec(row)
            assert e.value.rule == "grid2d-shard-rank"
            continue
        s = _spec(row)
        d = s.to_dict()
        assert d.pop("device") == "none"
        assert d == row["output"], row["id"]
        assert s.padded_shape == tuple(row["output"]["padded_shape"])


def test_enums_accept_ttnn_spellings():
    s = ttnn.TensorSpec([64, 64], "DataType.BFLOAT8_B", "Layout.TILE",
                        ttnn.MemoryConfig("TensorMemoryLayout::INTERLEAVED", "BufferType.L1"))
    assert s.page_size_bytes == 1088
    assert ttnn.TensorSpec([64, 64], ttnn.DataType.FLOAT32, ttnn.Layout.ROW_MAJOR).page_shape == (1, 64)


def test_refusals_raise_with_their_rule():
    with pytest.raises(ttnn.TtnnRefusal) as e:
        ttnn.TensorSpec((64, 64), ttnn.bfloat8_b, ttnn.ROW_MAJOR_LAYOUT)
    assert e.value.rule == "dtype-layout"
    assert isinstance(e.value, ValueError)
    with pytest.raises(ttnn.TtnnRefusal) as e:
        ttnn.TensorSpec((64,), ttnn.float32, ttnn.TILE_LAYOUT, tile=(8, 8))
    assert e.value.rule == "tile-shape"
    with pytest.raises(ttnn.TtnnRefusal) as e:
        ttnn.TensorSpec((64, 64), ttnn.float32, ttnn.TILE_LAYOUT, ttnn.MemoryConfig(
            ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
            ttnn.ShardSpec(_grid(0, 0), (32, 64))))
    assert e.value.rule == "height-shard-count"
    with pytest.raises(ValueError):
        ttnn.TensorSpec((64, 64), "f32", ttnn.TILE_LAYOUT)
    s = ttnn.TensorSpec((64, 64), ttnn.float32, ttnn.TILE_LAYOUT)
    with pytest.raises(ValueError):
        s.locate((64, 0))
    with pytest.raises(ValueError):
        s.host_pages(0)  # interleaved: no distribution


def test_nd_spec_resolves_to_height_sharding():
    mc = ttnn.MemoryConfig(buffer_type=ttnn.BufferType.L1,
                           nd_shard_spec=ttnn.NdShardSpec((1, 64, 64), _grid(3, 0)))
    s = ttnn.TensorSpec((4, 64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc)
    assert s.memory_config.memory_layout == "HEIGHT_SHARDED"
    assert s.memory_config.shard_spec.shape == (64, 64)
    assert s.input_memory_config.memory_layout == "ND_SHARDED"


def test_mesh_distribution():
    slices = ttnn.distribute((4, 6, 8), (2, 3), ttnn.MeshMapperConfig(
        [ttnn.PlacementShard(0), ttnn.PlacementShard(1)]))
    assert [(s.device, s.begin, s.end) for s in slices[:2]] == [
        ((0, 0), (0, 0, 0), (2, 2, 8)), ((0, 1), (0, 2, 0), (2, 4, 8))]
    spec = ttnn.TensorSpec((6, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    slices = ttnn.distribute(spec, (4,), ttnn.MeshMapperConfig([ttnn.PlacementShard(0)]))
    assert [s.holds_data for s in slices] == [True, True, True, False]
    assert slices[0].spec.padded_shape == (32, 64)
    with pytest.raises(ttnn.TtnnRefusal) as e:
        ttnn.distribute((10, 8), (4,), ttnn.MeshMapperConfig([ttnn.PlacementShard(0)]))
    assert e.value.rule == "mesh-shard-shape"
    assert hl.ttnn is ttnn
    # Checked where written: a placement that is neither kind was taken as
    # a replicate, 1.5 as the dim 1, a config of the wrong type failed with
    # an AttributeError.
    with pytest.raises(TypeError, match="a placement is PlacementShard"):
        ttnn.MeshMapperConfig(["S0"])
    with pytest.raises(TypeError, match="PlacementShard's dim is an int, not float"):
        ttnn.PlacementShard(1.5)
    with pytest.raises(TypeError, match="config is a MeshMapperConfig"):
        ttnn.distribute((4, 6), (2,), [ttnn.PlacementShard(0)])
    with pytest.raises(TypeError, match="a dim of the tensor is an int, not str"):
        ttnn.distribute((4, "6"), (2,), ttnn.MeshMapperConfig([ttnn.PlacementShard(0)]))
    with pytest.raises(TypeError, match="a mesh dim is an int, not float"):
        ttnn.distribute((4, 6), (2.0,), ttnn.MeshMapperConfig([ttnn.PlacementShard(0)]))
    with pytest.raises(TypeError, match="CoreGrid's x is an int, not float"):
        ttnn.CoreGrid(x=7.9, y=1)
    # A MeshSlice made by hand took anything, and its repr() then failed.
    with pytest.raises(TypeError, match="a slice begin is an int"):
        ttnn.MeshSlice((0, 1), True, ("a",), (2,), None)
    with pytest.raises(ValueError, match="a begin and an end of one length"):
        ttnn.MeshSlice((0, 1), True, (0, 0), (2,), None)
    with pytest.raises(TypeError, match="spec is a TensorSpec or None"):
        ttnn.MeshSlice((0, 1), False, None, None, 7)
    assert repr(ttnn.MeshSlice([0, 1], True, [0, 2], [2, 4], None)) == (
        "MeshSlice(device=(0, 1), 0:2, 2:4)")


def test_enum_names_get_the_nearest_ones(cli):
    """Every enum value a user writes is checked where it is written, with
    the nearest names, in Python and on the CLI (issue 47 item 4)."""
    tt = hl.ttnn
    with pytest.raises(ValueError, match=r"unknown dtype 'bfloat8'; did you "
                       r"mean 'bfloat8_b'\?"):
        tt.TensorSpec((32, 32), "bfloat8", tt.TILE_LAYOUT)
    with pytest.raises(ValueError, match="did you mean 'HEIGHT_SHARDED'"):
        tt.MemoryConfig("HEIGHT_SHARD", tt.BufferType.L1)
    grid = tt.CoreRangeSet([tt.CoreRange((0, 0), (1, 1))])
    with pytest.raises(ValueError, match="did you mean 'ROW_MAJOR'"):
        tt.ShardSpec(grid, (32, 32), "ROWMAJOR")
    with pytest.raises(ValueError, match="did you mean 'TILE'"):
        tt.TensorSpec((32, 32), tt.bfloat16, "TILED")
    with pytest.raises(ValueError, match="unknown buffer type 'SRAM'"):
        tt.MemoryConfig(tt.TensorMemoryLayout.INTERLEAVED, "SRAM")
    with pytest.raises(ValueError, match="did you mean 'GRID_2D'"):
        tt.NdShardSpec((32, 32), grid, tt.ShardOrientation.ROW_MAJOR, "GRID2D")
    with pytest.raises(ValueError, match=r"end \(0,0\) is before start \(7,7\)"):
        tt.CoreRange((7, 7), (0, 0))
    r = cli.run("ttnn", "spec", "--shape", "32,32", "--dtype", "bfloat8")
    assert r.returncode != 0
    assert "bad --dtype: unknown dtype 'bfloat8'; did you mean 'bfloat8_b'?" \
        in r.stderr


# Issue 47 item 2: the device named and checked.
def _block(shape, x, y, shard, dtype=ttnn.bfloat16, **kw):
    mc = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.L1,
                           ttnn.ShardSpec(_grid(x - 1, y - 1), shard))
    return ttnn.TensorSpec(shape, dtype, ttnn.TILE_LAYOUT, mc, **kw)


def test_a_spec_that_cannot_fit_its_device_is_refused():
    with pytest.raises(ttnn.TtnnRefusal) as e:
        _block((32, 2048, 1024), 8, 8, (8192, 128))
    assert e.value.rule == "device-l1"
    assert "more than the 1463968 bytes of its 1499136 bytes of L1" in str(e.value)
    with pytest.raises(ttnn.TtnnRefusal) as e:
        _block((320, 320), 10, 10, (32, 32))
    assert e.value.rule == "device-grid"
    assert "reaches core (9,9), outside wormhole_n150's 8x8 worker grid" in str(e.value)
    # A p150 has 13x10 worker cores; "none" checks nothing.
    assert _block((320, 320), 10, 10, (32, 32), device="p150").device_name == "blackhole_p150"
    assert _block((32, 2048, 1024), 8, 8, (8192, 128), device="none").num_shards == 64
    with pytest.raises(ValueError, match="did you mean 'p150'"):
        _block((320, 320), 1, 1, (320, 320), device="p151")


def test_borderline_specs_warn():
    with pytest.warns(ttnn.TtnnDeviceWarning, match="borderline"):
        s = _block((32, 2048, 1024), 8, 8, (8192, 128), dtype=ttnn.bfloat8_b)
    assert len(s.warnings) == 1
    assert s.to_dict()["warnings"] == s.warnings
    assert s.to_dict()["device"] == "wormhole_n150"


def test_devices_and_their_numbers():
    assert ttnn.device_info()["name"] == "wormhole_n150"
    p100 = ttnn.device_info("blackhole_p100")
    assert (p100["grid"], p100["dram_banks"], p100["dram_alignment"]) == ((11, 10), 7, 64)
    # A device's numbers reach the spec: 130 L1 banks on a p150.
    s = ttnn.TensorSpec((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT,
                        ttnn.MemoryConfig(buffer_type=ttnn.BufferType.L1), device="p150")
    assert s.to_dict()["consumed_bytes_per_bank"]["num_banks"] == 130
    assert ttnn.DeviceParams(name="p150").dram_alignment == 64
    assert ttnn.DeviceParams(16, 32, 64, 12).name == "wormhole_n150"


# Issue 47 item 3: the shard shape derived.
def test_shard_shape_derived_as_create_sharded_memory_config_does():
    s = _block((32, 2048, 1024), 8, 8, None, dtype=ttnn.bfloat8_b, device="p150")
    assert s.shard_shape_derived
    assert s.memory_config.shard_spec.shape == (8192, 128)
    assert s.to_dict()["shard_shape_derived"] is True
    assert not _block((64, 64), 2, 2, (32, 32)).shard_shape_derived
    m = ttnn.create_sharded_memory_config((32, 2048, 1024), ttnn.CoreGrid(y=4, x=8),
                                          ttnn.ShardStrategy.BLOCK, ttnn.ShardOrientation.COL_MAJOR)
    assert (m.memory_layout, m.buffer_type, m.shard_spec.shape) == ("BLOCK_SHARDED", "L1",
                                                                    (8192, 256))
    assert m.shard_spec.grid == _grid(7, 3)
    h = ttnn.create_sharded_memory_config((1, 1, 1024, 64), ttnn.CoreGrid(y=8, x=8),
                                          ttnn.ShardStrategy.HEIGHT)
    assert h.shard_spec.shape == (16, 64)
    with pytest.raises(ttnn.TtnnRefusal, match="Invalid sharding core_grid") as e:
        ttnn.create_sharded_memory_config((100, 64), ttnn.CoreGrid(y=1, x=8),
                                          ttnn.ShardStrategy.HEIGHT)
    assert e.value.rule == "shard-derive"
    with pytest.raises(ttnn.TtnnRefusal):
        ttnn.create_sharded_memory_config((64, 64), _grid(1, 1), ttnn.ShardStrategy.HEIGHT)
    both = ttnn.create_sharded_memory_config((64, 96), _grid(1, 1), ttnn.ShardStrategy.HEIGHT,
                                             ttnn.ShardOrientation.COL_MAJOR,
                                             use_height_and_width_as_shard_shape=True)
    assert both.shard_spec.shape == (96, 64)


# Issue 47 item 1: a spec draws, however big.
def test_a_spec_draws_in_jupyter_and_with_hl_draw():
    s = _block((32, 2048, 1024), 8, 8, (8192, 128), dtype=ttnn.bfloat8_b, device="p150")
    svg = s._repr_svg_()
    assert svg.startswith("<svg")
    assert 'data-shard="35" data-core="3,4"' in svg
    assert 'data-bytes="1114112"' in svg
    html = s._repr_html_()
    assert html.startswith('<div class="hlolayout-ttnn"><pre>')
    assert "device            blackhole_p150" in html
    assert "core (3,4): 1024 device pages" in hl.draw(s, core=(3, 4))
    assert "core (3,4): 1024 device pages" in s.draw(ttnn.CoreCoord(3, 4))


# Issue 45 item 2: the picture and the text come from the library
# (views/ttnn_drawing.h, ttnn/spec_text.h), the same as the CLI prints them.
def test_pictures_and_text_are_what_the_cli_prints(cli):
    path = _runfile("ttnn/testdata/tensor_specs.jsonl")
    with open(path) as f:
        rows = [json.loads(line) for line in f if '"error"' not in line]
    for row in rows[::9]:
        s = _spec(row)
        spec = json.dumps(row["input"])
        assert s.draw() == cli.run("ttnn", "draw", "--svg", "-", "--device", "none",
                                   spec).stdout, row["id"]
        assert s.text() == cli.run("ttnn", "spec", "--device", "none", spec).stdout
        assert s.text(full=True) == cli.run("ttnn", "spec", "--full", "--device",
                                            "none", spec).stdout
        if s.memory_config.is_sharded():
            c = s.cores[-1]
            assert s.draw((c.x, c.y)) == cli.run(
                "ttnn", "draw", "--svg", "-", "--device", "none", "--core",
                "%d,%d" % (c.x, c.y), spec).stdout
    s = _block((320, 320), 5, 5, (64, 64), device="n150")
    assert s.text().startswith("bfloat16[320, 320] TILE 32x32, L1 BLOCK_SHARDED\n"
                               "device            wormhole_n150 (Wormhole B0")


def test_errors_are_about_what_the_user_wrote():
    # No line, column or caret into JSON the user never wrote.
    with pytest.raises(ValueError) as e:
        ttnn.TensorSpec((64, 64), "bfloat8", ttnn.TILE_LAYOUT)
    assert str(e.value).startswith("unknown dtype 'bfloat8'; did you mean 'bfloat8_b'?")
    overlapping = ttnn.CoreRangeSet([ttnn.CoreRange((0, 0), (1, 0)),
                                     ttnn.CoreRange((1, 0), (2, 0))])
    with pytest.raises(ValueError) as e:
        ttnn.TensorSpec((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, ttnn.MemoryConfig(
            ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
            ttnn.ShardSpec(overlapping, (32, 64))))
    assert "^" not in str(e.value) and not str(e.value)[0].isdigit(), str(e.value)
    s = _block((64, 64), 2, 1, (64, 32))
    with pytest.raises(ValueError, match=r"^core \(5,5\) holds no shard of this tensor$"):
        s.draw((5, 5))


# Issue 45: one field list (answers/ttnn.h) for the CLI's --json, the
# Python SpecAnswer with its to_dict(), and ttnn.pyi.
def test_cli_json_python_record_and_stub_agree(cli, tmp_path):
    path = _runfile("ttnn/testdata/tensor_specs.jsonl")
    with open(path) as f:
        rows = [json.loads(line) for line in f if '"error"' not in line]
    specs = tmp_path / "specs.jsonl"
    specs.write_text("".join(json.dumps(r["input"]) + "\n" for r in rows))
    for full in (False, True):
        flags = ["--full"] if full else []
        out = cli.run("ttnn", "spec", "--json", "--device", "none", *flags,
                      "--spec", str(specs)).stdout.splitlines()
        assert len(out) == len(rows)
        for row, line in zip(rows, out):
            s = _spec(row)
            a = s.answer(full=full)
            # The same keys in the same order, and the same values.
            assert list(json.loads(line, object_pairs_hook=list)) == list(
                json.loads(json.dumps(s.to_dict(full=full)), object_pairs_hook=list))
            assert a.to_dict() == json.loads(line), row["id"]
            present = [f for f in a._fields if getattr(a, f) is not None]
            assert present == list(json.loads(line)), row["id"]
            for f in ("alignment", "padded_shape", "strides", "page_shape", "physical_shape",
                      "logical_2d_shape", "num_pages", "page_size_bytes",
                      "packed_buffer_size_bytes"):
                assert getattr(s, f) == getattr(a, f), (row["id"], f)
            if s.memory_config.is_sharded():
                d = a.distribution
                assert (d.num_shards, d.cores[0]) == (s.num_shards, (s.cores[0].x, s.cores[0].y))
                assert d.page_mapping[0].first_host_pages == tuple(s.host_pages(0)[:len(
                    d.page_mapping[0].first_host_pages)])
    from hlolayout import _stubgen
    with open(_stubgen.os.path.splitext(ttnn.__file__)[0] + ".pyi") as f:
        stub = f.read()
    for cls in (ttnn.SpecAnswer, ttnn.SpecDistribution, ttnn.CorePages, ttnn.BankBytes):
        assert _stubgen.class_stub(cls) in stub
    assert "    distribution: Optional[SpecDistribution]\n" in _stubgen.class_stub(ttnn.SpecAnswer)


# Issue 45: the classes are C++ values, made and checked by their
# constructors; names are read in C++ and shown as ttnn spells them.
def test_constructors_check_their_arguments():
    grid = _grid(1, 1)
    with pytest.raises(ValueError, match=r"shard_shape is \(height, width\), not \(1, 2, 3\)"):
        ttnn.ShardSpec(grid, (1, 2, 3))
    with pytest.raises(ttnn.TtnnRefusal) as e:
        ttnn.Tile((8, 8))
    assert e.value.rule == "tile-shape"
    with pytest.raises(TypeError, match="shard_spec is a ShardSpec or None"):
        ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, "grid")
    with pytest.raises(TypeError, match="memory_config is a MemoryConfig or None"):
        ttnn.TensorSpec((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, "L1")
    with pytest.raises(TypeError, match=r"a core is a CoreCoord or \(x, y\)"):
        ttnn.CoreRange((0, 0, 0))
    # Integers are integers: int() would make 1.5 the core 1 and "7" the
    # core 7, which tt-metal's bindings refuse; past 64 bits is an overflow,
    # not pybind11's "Unable to cast" RuntimeError.
    for bad in (1.5, "7", None, (1,)):
        with pytest.raises(TypeError, match="expected an int"):
            ttnn.CoreCoord(bad, 0)
    with pytest.raises(TypeError, match="expected an int"):
        ttnn.TensorSpec((64, 64.0), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    for big in (2**63, -2**63 - 1):
        with pytest.raises(OverflowError, match="does not fit in 64 bits"):
            ttnn.CoreCoord(0, big)
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        ttnn.DeviceParams(l1_alignment=2**64)
    np = pytest.importorskip("numpy")
    assert ttnn.CoreCoord(np.int64(3), np.uint8(4)) == ttnn.CoreCoord(3, 4)
    assert ttnn.CoreCoord(True, 2) == ttnn.CoreCoord(1, 2)
    m = ttnn.MemoryConfig("height_sharded", "l1", ttnn.ShardSpec(grid, (32, 64), "col_major"))
    assert (m.memory_layout, m.buffer_type, m.shard_spec.orientation) == (
        "HEIGHT_SHARDED", "L1", "COL_MAJOR")
    assert m == ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                                  ttnn.ShardSpec(grid, (32, 64), ttnn.ShardOrientation.COL_MAJOR))
    assert repr(m) == (
        "MemoryConfig('HEIGHT_SHARDED', 'L1', shard_spec=ShardSpec(CoreRangeSet([CoreRange("
        "CoreCoord(x=0, y=0), CoreCoord(x=1, y=1))]), (32, 64), 'COL_MAJOR'), "
        "nd_shard_spec=None)")
    s = ttnn.TensorSpec([64, 64], "BFLOAT16", "tile", ttnn.MemoryConfig("interleaved", "l1"))
    assert (s.dtype, s.layout, s.input_memory_config.is_sharded()) == ("bfloat16", "TILE", False)
    assert s.device.name == "wormhole_n150" and s.tile.tile_shape == (32, 32)
    # No Python-level __init__: the constructor runs in C++.
    assert not inspect.isfunction(ttnn.TensorSpec.__init__)
    assert ttnn.TensorSpec.__module__ == ttnn.MemoryConfig.__module__ == "hlolayout.ttnn"


def test_values_pickle_and_copy_as_the_python_classes_did():
    import copy
    import pickle
    grid = _grid(3, 0)
    mc = ttnn.MemoryConfig(buffer_type=ttnn.BufferType.L1,
                           nd_shard_spec=ttnn.NdShardSpec((1, 64, 64), grid))
    resolved = ttnn.TensorSpec((4, 64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc).memory_config
    for v in (ttnn.CoreCoord(1, 2), grid.ranges[0], grid, mc, resolved, ttnn.Tile((16, 32)),
              ttnn.ShardSpec(grid, None, "COL_MAJOR"), mc.nd_shard_spec):
        back = pickle.loads(pickle.dumps(v))
        assert back == v if not isinstance(v, ttnn.Tile) else repr(back) == repr(v)
        assert repr(copy.deepcopy(v)) == repr(v)
    assert resolved.memory_layout == "HEIGHT_SHARDED"
    assert repr(pickle.loads(pickle.dumps(resolved))) == repr(resolved)
    d = pickle.loads(pickle.dumps(ttnn.DeviceParams(l1_alignment=32, name="p150")))
    assert (d.name, d.l1_alignment, d.dram_alignment) == ("p150", 32, 64)


# TensorSpec(...) is the type's vectorcall (python/hlolayout/_ttnn.cc:
# CallSpec), its instances made and freed without pybind11's tables
# (_instance.h); every other way of making one still works, and argument
# errors are CPython's own words.
def test_every_way_of_calling_tensor_spec():
    import sys
    import weakref
    mc = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                           ttnn.ShardSpec(_grid(2, 0), (96, 64)))
    want = ttnn.TensorSpec((272, 58), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc, None, "p150")
    for s in (ttnn.TensorSpec(device="p150", memory_config=mc, layout=ttnn.TILE_LAYOUT,
                              dtype=ttnn.bfloat16, shape=(272, 58)),
              ttnn.TensorSpec((272, 58), ttnn.bfloat16, layout="TILE", memory_config=mc,
                              device="p150"),
              ttnn.TensorSpec(*[(272, 58), ttnn.bfloat16, ttnn.TILE_LAYOUT],
                              **{"memory_config": mc, "device": "p150"})):
        assert (s.to_dict(), s.device_name, repr(s)) == (
            want.to_dict(), want.device_name, repr(want))

    class Mine(ttnn.TensorSpec):
        pass

    class Padded(ttnn.TensorSpec):
        def __init__(self, shape):
            super().__init__(shape, ttnn.bfloat16, ttnn.TILE_LAYOUT)

    for s in (Mine((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT), Padded((64, 64))):
        assert isinstance(s, ttnn.TensorSpec) and type(s) is not ttnn.TensorSpec
        assert s.num_pages == 4
    s = ttnn.TensorSpec.__new__(ttnn.TensorSpec)
    s.__init__((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    assert s.num_pages == 4
    # A second __init__ does nothing, however the spec was made.
    for s in (s, ttnn.TensorSpec((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT)):
        s.__init__((128, 64), ttnn.float32, ttnn.TILE_LAYOUT)
        assert (s.shape, s.dtype) == ((64, 64), "bfloat16")
    with pytest.raises(TypeError, match="not a hlolayout.ttnn.TensorSpec$"):
        ttnn.TensorSpec.__init__(object(), (64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    # CPython's parser's words (they vary with its version), naming the call.
    for args, kwargs, culprit in (
            (((64, 64), ttnn.bfloat16), {}, "'layout'"),
            (((64, 64), ttnn.bfloat16, "TILE"), {"colour": 1}, "'colour'"),
            (((64, 64), ttnn.bfloat16, "TILE"), {"dtype": ttnn.bfloat16}, "'dtype'"),
            (((64, 64), ttnn.bfloat16, "TILE", None, None, None, None), {}, "7 given")):
        with pytest.raises(TypeError) as e:
            ttnn.TensorSpec(*args, **kwargs)
        assert "TensorSpec()" in str(e.value) and culprit in str(e.value), str(e.value)
    # Freed with what it holds: a weak reference dies, the memory config
    # given is released.
    before = sys.getrefcount(mc)
    specs = [ttnn.TensorSpec((272, 58), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc)
             for _ in range(100)]
    assert sys.getrefcount(mc) == before + 100
    r = weakref.ref(specs[0])
    del specs
    assert r() is None and sys.getrefcount(mc) == before
    with pytest.raises(ValueError, match="^unknown dtype 'bfloat8'"):
        ttnn.TensorSpec((64, 64), "bfloat8", ttnn.TILE_LAYOUT, mc)
    assert sys.getrefcount(mc) == before

    # Freed while an exception is on its way (a call's argument is freed
    # after the call failed): the exception arrives intact.
    with pytest.raises(TypeError, match="TensorSpec"):
        int(ttnn.TensorSpec((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, mc))
    with pytest.raises(TypeError, match="ArrayExplanation"):
        int(hl.parse_shape("f32[3,5]{1,0:T(2,2)}").explain())
    assert sys.getrefcount(mc) == before
