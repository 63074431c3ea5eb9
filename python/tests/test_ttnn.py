"""hlolayout.ttnn: TTNN tensor specs, their distribution, and meshes."""

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
    return ttnn.TensorSpec(i["shape"], i["dtype"], i["layout"], mc, tile=i["tile"])


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
        assert s.to_dict() == row["output"], row["id"]
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
