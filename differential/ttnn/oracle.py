"""The ttnn side of differential/ttnn: answers cases with tt-metal's own code.

Runs inside the venv of requirements.txt (ttnn 0.81.1). Reads JSON lines
{"id": ..., "kind": "spec" | "mesh" | "derive", ...} on standard input and
writes one JSON line per case to the file named by --out (ttnn logs to
standard output). Nothing here computes a layout: every answer is what a
ttnn call returns.

ttnn needs a device description even for host-only work (the L1 and DRAM
alignment come from it): the harness points tt-metal at a mock Wormhole n150
(TT_METAL_MOCK_CLUSTER_DESC_PATH), a cluster descriptor written here; no
device is opened.
"""

import argparse
import json
import os
import sys
import tempfile

# A Wormhole n150 for tt-metal's mock cluster (tt-umd's cluster descriptor
# format): one chip, no Ethernet links, one row of Tensix cores harvested.
MOCK_N150 = """arch:
  0: wormhole_b0
chips:
  0:
    - 0
    - 0
    - 0
    - 0
ethernet_connections:
  []
chips_with_mmio:
  - 0: 0
harvesting:
  0:
    noc_translation: true
    harvest_mask: 64
    dram_harvesting_mask: 0
    eth_harvesting_mask: 0
    pcie_harvesting_mask: 0
chip_to_boardtype:
  0: n150
boards:
  -
    - board_id: 72059269368820857
    - board_type: n150
    - chips:
        - 0
"""


def setup_mock():
    d = tempfile.mkdtemp(prefix="hlolayout-ttnn-")
    path = os.path.join(d, "n150.yaml")
    with open(path, "w") as f:
        f.write(MOCK_N150)
    os.environ["TT_METAL_MOCK_CLUSTER_DESC_PATH"] = path
    os.environ.setdefault("TT_LOGGER_LEVEL", "error")


setup_mock()
import ttnn  # noqa: E402

T = ttnn._ttnn
DTYPES = {
    "bfloat16": ttnn.bfloat16, "float32": ttnn.float32, "uint32": ttnn.uint32,
    "bfloat8_b": ttnn.bfloat8_b, "bfloat4_b": ttnn.bfloat4_b, "uint8": ttnn.uint8,
    "uint16": ttnn.uint16, "int32": ttnn.int32,
    "fp8_e4m3": ttnn.DataType.FP8_E4M3, "int8": ttnn.DataType.INT8,
}
ORIENTATIONS = {"ROW_MAJOR": ttnn.ShardOrientation.ROW_MAJOR,
                "COL_MAJOR": ttnn.ShardOrientation.COL_MAJOR}


def core_range_set(grid):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(*a), ttnn.CoreCoord(*b)) for a, b in grid])


def grid_json(g):
    return [[[r.start.x, r.start.y], [r.end.x, r.end.y]] for r in g.ranges()]


def name(e):
    return str(e).split(".")[-1].split("::")[-1]


def fatal(e):
    """The TT_FATAL text without the backtrace."""
    return str(e).split("\nbacktrace:")[0].strip()


def make_spec(inp):
    dt = DTYPES[inp["dtype"]]
    layout = ttnn.TILE_LAYOUT if inp.get("layout", "TILE") == "TILE" else ttnn.ROW_MAJOR_LAYOUT
    bt = ttnn.BufferType.L1 if inp.get("buffer_type", "DRAM") == "L1" else ttnn.BufferType.DRAM
    tile = ttnn.Tile(inp.get("tile", [32, 32]))
    shape = ttnn.Shape(inp["shape"])
    if "nd_shard_spec" in inp:
        nd = inp["nd_shard_spec"]
        spec_nd = ttnn.NdShardSpec(ttnn.Shape(nd["shard_shape"]), core_range_set(nd["grid"]),
                                   ORIENTATIONS[nd.get("orientation", "ROW_MAJOR")],
                                   getattr(ttnn.ShardDistributionStrategy, nd.get("distribution", "ROUND_ROBIN_1D")))
        return ttnn.TensorSpec(shape, dt, layout, spec_nd, bt, tile), dt, layout, tile
    ml = getattr(ttnn.TensorMemoryLayout, inp.get("memory_layout", "INTERLEAVED"))
    ss = inp.get("shard_spec")
    sspec = ttnn.ShardSpec(core_range_set(ss["grid"]), ss["shape"], ORIENTATIONS[ss["orientation"]]) if ss else None
    return ttnn.TensorSpec(shape, dt, layout, ml, sspec, bt, tile), dt, layout, tile


def answer_spec(inp):
    """TensorSpec's resolution and refusals, the padded shape of a host
    tensor of that spec, the tile's bytes, and BufferDistributionSpec's page
    mapping of the resolved ND spec."""
    try:
        spec, dt, layout, tile = make_spec(inp)
    except Exception as e:  # tt-metal refused the spec
        return {"error": fatal(e), "stage": "TensorSpec"}
    out = {}
    mc = spec.memory_config
    out["memory_layout"] = name(mc.memory_layout)
    if mc.shard_spec is not None:
        s = mc.shard_spec
        out["resolved_shard_spec"] = {"grid": grid_json(s.grid), "orientation": name(s.orientation),
                                      "shape": list(s.shape)}
    nd = mc.nd_shard_spec
    if nd is not None:
        out["resolved_nd_shard_spec"] = {"distribution": name(nd.shard_distribution_strategy),
                                         "grid": grid_json(nd.grid), "orientation": name(nd.orientation),
                                         "shard_shape": list(nd.shard_shape)}
    if inp.get("layout", "TILE") == "TILE":
        out["tile_bytes"] = tile.get_tile_size(dt)
    volume = 1
    for d in inp["shape"]:
        volume *= d
    try:
        integer = inp["dtype"] in ("uint8", "uint16", "uint32", "int32", "int8")
        data = [0] * volume if integer else [0.0] * volume
        t = ttnn.Tensor(data, inp["shape"], dt, layout, None, mc, tile)
        out["padded_shape"] = list(t.padded_shape)
    except Exception as e:  # the host tensor (its buffer size) refused
        return {"error": fatal(e), "stage": "host tensor"}
    if nd is not None and mc.memory_layout != ttnn.TensorMemoryLayout.INTERLEAVED:
        # A page is a tile, or one shard-wide row segment.
        ph, pw = (inp.get("tile", [32, 32]) if inp.get("layout", "TILE") == "TILE"
                  else (1, list(nd.shard_shape)[-1]))
        try:
            mapping = T.bfp_utils.compute_shard_page_mapping(
                out["padded_shape"], list(nd.shard_shape), ph, pw, nd.grid, nd.orientation,
                nd.shard_distribution_strategy)
        except Exception as e:  # BufferDistributionSpec refused
            return {"error": fatal(e), "stage": "BufferDistributionSpec"}
        out["cores"] = [[c.x, c.y] for c, _ in mapping]
        out["core_host_pages"] = [list(p) for _, p in mapping]
    return out


def answer_derive(case):
    """ttnn.create_sharded_memory_config's shard shape (ttnn/core.py), or
    its refusal."""
    try:
        kw = {}
        if case["orientation"] is not None:
            kw["orientation"] = ORIENTATIONS[case["orientation"]]
        m = ttnn.create_sharded_memory_config(
            case["shape"], ttnn.CoreGrid(x=case["x"], y=case["y"]),
            getattr(ttnn.ShardStrategy, case["strategy"]), **kw)
    except Exception as e:
        return {"error": fatal(e)}
    return {"shape": list(m.shard_spec.shape), "memory_layout": name(m.memory_layout),
            "buffer_type": name(m.buffer_type)}


def answer_mesh(case):
    """ttnn.create_mesh_mapper on a mesh shape (no device) and
    distribute_tensor of a host tensor holding 0, 1, 2, ...: each device's
    slice, read from its data."""
    M = T.multi_device
    shape = case["shape"]
    volume = 1
    for d in shape:
        volume *= d
    placements = [M.PlacementShard(p["dim"]) if p["shard"] else M.PlacementReplicate() for p in case["placements"]]
    try:
        override = case.get("mesh_shape_override")
        config = (M.MeshMapperConfig(placements, M.MeshShape(override)) if override
                  else M.MeshMapperConfig(placements))
        mapper = M.create_mesh_mapper(M.MeshShape(case["mesh"]), config)
        t = ttnn.Tensor([float(i) for i in range(volume)], shape, ttnn.float32, ttnn.ROW_MAJOR_LAYOUT)
        d = M.distribute_tensor(t, mapper, None)
    except Exception as e:
        return {"error": fatal(e)}
    coords = [[c[i] for i in range(c.dims())] for c in d.tensor_topology().mesh_coords()]
    tensors = M.get_device_tensors(d)
    devices = []
    for coord, dt in zip(coords, tensors):
        s = list(dt.shape)
        first = int(dt.to_numpy().ravel()[0]) if all(x > 0 for x in s) else 0
        begin = []
        for i in range(len(shape) - 1, -1, -1):
            begin.append(first % shape[i])
            first //= shape[i]
        begin.reverse()
        devices.append({"device": coord, "begin": begin, "end": [b + n for b, n in zip(begin, s)]})
    return {"devices": devices}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with open(args.out, "w") as out:
        for line in sys.stdin:
            case = json.loads(line)
            try:
                if case["kind"] == "spec":
                    a = answer_spec(case["input"])
                elif case["kind"] == "derive":
                    a = answer_derive(case)
                else:
                    a = answer_mesh(case)
            except Exception as e:  # the harness's own bug, reported as such
                a = {"harness_error": repr(e)}
            out.write(json.dumps({"id": case["id"], "answer": a}) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
