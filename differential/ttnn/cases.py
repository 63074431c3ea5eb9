"""Seeded TTNN cases for differential/ttnn (standard library only).

Spec cases come in the groups of the TTNN test data (ttnn/testdata/README.md):
interleaved, height/width/block sharded with a 2-D ShardSpec, ND sharded
with an NdShardSpec, drawn the way those rows were: random shapes of rank 1
to 4 (dims up to ~130, plus realistic model shapes), dtypes, layouts, tiles,
DRAM or L1, grids of one rectangle or a rectangle and a partial row, shard
shapes mostly derived from the tensor (so most specs are accepted) and
sometimes not (so tt-metal's refusals are exercised). Nothing here computes
an answer.
"""

import random

DTYPES_MAIN = ["bfloat16", "float32", "uint8", "bfloat8_b"]
DTYPES_MORE = ["uint16", "uint32", "int32", "bfloat4_b", "int8", "fp8_e4m3"]
TILES = [[32, 32], [16, 32], [32, 16], [16, 16]]
TINY_TILES = [[8, 32], [4, 32], [2, 32], [1, 32], [8, 16], [4, 16], [2, 16], [1, 16]]
REALISTIC = [[1, 1, 32, 1024], [1, 197, 768], [2, 128, 768], [1, 32, 4096], [8, 64, 64],
             [1, 1, 1, 4096], [4, 12, 64, 64], [1, 1024], [256, 256], [3, 224, 224]]
# The reference data's groups and sizes; the held-out set is twice these.
GROUPS = {"interleaved": 40, "height_sharded": 20, "width_sharded": 20, "block_sharded": 20,
          "nd_sharded": 40}


def round_up(v, m):
    return (v + m - 1) // m * m


def cdiv(a, b):
    return (a + b - 1) // b


def shape(rng):
    if rng.random() < 0.12:
        return list(rng.choice(REALISTIC))
    rank = rng.choice([1, 2, 2, 3, 3, 4, 4])
    dims = []
    for i in range(rank):
        outer = i < rank - 2
        dims.append(rng.randint(1, 5) if outer else rng.randint(1, 260 if rng.random() < 0.3 else 130))
    return dims


def grid(rng, max_x=8, max_y=8):
    """One rectangle at the origin, or a full-width block plus a partial row."""
    if rng.random() < 0.75:
        return [[[0, 0], [rng.randint(0, max_x - 1), rng.randint(0, max_y - 1)]]]
    w = rng.randint(2, max_x)
    rows = rng.randint(1, max_y - 2)
    return [[[0, 0], [w - 1, rows - 1]], [[0, rows], [rng.randint(0, w - 1), rows]]]


def cores(g):
    return sum((b[0] - a[0] + 1) * (b[1] - a[1] + 1) for a, b in g)


def base(rng, group):
    dtype = rng.choice(DTYPES_MAIN) if rng.random() < 0.8 else rng.choice(DTYPES_MORE)
    layout = "TILE" if rng.random() < 0.65 else "ROW_MAJOR"
    if dtype in ("bfloat8_b", "bfloat4_b") and rng.random() < 0.9:
        layout = "TILE"
    if dtype == "fp8_e4m3" and rng.random() < 0.9:
        layout = "ROW_MAJOR"
    tile = rng.choice(TILES) if rng.random() < 0.92 else rng.choice(TINY_TILES)
    if layout == "ROW_MAJOR" and rng.random() < 0.93:
        tile = [32, 32]  # ttnn refuses other tiles for ROW_MAJOR
    buffer_type = "L1" if group != "interleaved" and rng.random() < 0.8 else rng.choice(["DRAM", "L1"])
    return {"shape": shape(rng), "dtype": dtype, "layout": layout, "tile": tile,
            "buffer_type": buffer_type}


def plane(inp):
    """The tensor's 2-D plane, rounded to the tile when tiled (the shard
    shapes a user would write: the generator's guess, not an answer)."""
    s = inp["shape"]
    h = 1
    for d in s[:-1]:
        h *= d
    w = s[-1] if s else 1
    if inp["layout"] == "TILE":
        th, tw = inp["tile"]
        h = 1
        for d in s[:-2]:
            h *= d
        h *= round_up(s[-2] if len(s) >= 2 else 1, th)
        w = round_up(w, tw)
    return h, w


def wobble(rng, v, unit):
    """Usually v, sometimes a neighbouring multiple of unit."""
    r = rng.random()
    if r < 0.8:
        return v
    return max(unit, v + unit * rng.choice([-2, -1, 1, 2]))


def spec_2d(rng, group):
    inp = base(rng, group)
    inp["memory_layout"] = group.upper()
    h, w = plane(inp)
    th, tw = inp["tile"] if inp["layout"] == "TILE" else (1, 1)
    orientation = rng.choice(["ROW_MAJOR", "COL_MAJOR"])
    if group == "height_sharded":
        g = grid(rng)
        n = rng.randint(1, cores(g))
        sh = round_up(cdiv(h, n), th)
        shard = [wobble(rng, sh, th), wobble(rng, w, tw)]
    elif group == "width_sharded":
        g = grid(rng)
        n = rng.randint(1, cores(g))
        sw = round_up(cdiv(w, n), tw)
        shard = [wobble(rng, h, th), wobble(rng, sw, tw)]
    else:
        g = grid(rng) if rng.random() < 0.1 else [[[0, 0], [rng.randint(0, 7), rng.randint(0, 7)]]]
        gx = g[0][1][0] + 1
        gy = g[0][1][1] + 1
        if orientation == "COL_MAJOR":
            gx, gy = gy, gx
        shard = [wobble(rng, round_up(cdiv(h, rng.randint(1, gy)), th), th),
                 wobble(rng, round_up(cdiv(w, rng.randint(1, gx)), tw), tw)]
    if inp["layout"] == "ROW_MAJOR" and rng.random() < 0.5:
        shard = [max(1, shard[0] + rng.randint(-3, 3)), max(1, shard[1] + rng.randint(-3, 3))]
    inp["shard_spec"] = {"grid": g, "orientation": orientation, "shape": shard}
    return inp


def spec_nd(rng):
    inp = base(rng, "nd_sharded")
    inp["memory_layout"] = "ND_SHARDED"
    s = inp["shape"]
    rank = len(s)
    srank = rank if rng.random() < 0.8 else rng.randint(1, max(1, rank))
    th, tw = inp["tile"] if inp["layout"] == "TILE" else (1, 1)
    shard = []
    for k in range(srank, 0, -1):
        d = s[rank - k] if k <= rank else 1
        if k == 1:
            shard.append(round_up(rng.randint(1, max(1, d)), tw))
        elif k == 2:
            shard.append(round_up(rng.randint(1, max(1, d)), th))
        else:
            shard.append(rng.choice([1, 1, d, rng.randint(1, max(1, d))]))
    distribution = "ROUND_ROBIN_1D" if rng.random() < 0.75 else "GRID_2D"
    inp["nd_shard_spec"] = {"distribution": distribution, "grid": grid(rng),
                            "orientation": rng.choice(["ROW_MAJOR", "COL_MAJOR"]), "shard_shape": shard}
    return inp


def spec_cases(seed, scale=1):
    """scale * GROUPS cases per group, in the reference data's group order."""
    rng = random.Random(seed)
    out = []
    for group, n in GROUPS.items():
        for _ in range(n * scale):
            if group == "interleaved":
                inp = base(rng, group)
                inp["memory_layout"] = "INTERLEAVED"
            elif group == "nd_sharded":
                inp = spec_nd(rng)
            else:
                inp = spec_2d(rng, group)
            out.append({"kind": "spec", "group": group, "input": inp})
    return out


STRATEGIES = ["HEIGHT", "WIDTH", "BLOCK"]


def derive_cases(seed, n):
    """ttnn.create_sharded_memory_config's arguments: a shape of rank 2 to
    4, a CoreGrid up to 8x8, a strategy and an orientation (or none). Most
    shapes are cut exactly (dims made multiples of the grid), some not, so
    that ttnn's "Invalid sharding core_grid" is exercised too."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x, y = rng.randint(1, 8), rng.randint(1, 8)
        s = shape(rng)
        while len(s) < 2:
            s = shape(rng)
        strategy = rng.choice(STRATEGIES)
        orientation = rng.choice(["ROW_MAJOR", "COL_MAJOR", None])
        if rng.random() < 0.7:  # make the cut exact
            down, across = {"HEIGHT": (x * y, 1), "WIDTH": (1, x * y)}.get(
                strategy, (y, x) if orientation != "COL_MAJOR" else (x, y))
            s[-2] = round_up(s[-2], down)
            s[-1] = round_up(s[-1], across)
        out.append({"kind": "derive", "shape": s, "x": x, "y": y, "strategy": strategy,
                    "orientation": orientation})
    return out


def mesh_cases(seed, n):
    """Shapes over 1-D and 2-D meshes with Shard and Replicate placements
    (ShardTensorToMesh, ReplicateTensorToMesh, ShardTensor2dMesh and
    MeshMapperConfig combinations), a few with a mesh_shape_override."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        rank = rng.randint(1, 4)
        s = [rng.choice([1, 2, 3, 4, 6, 8, 12, 16]) for _ in range(rank)]
        mesh = [rng.choice([1, 2, 4, 8])] if rng.random() < 0.4 else [rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8])]
        placements = []
        for _ in mesh:
            if rng.random() < 0.65:
                placements.append({"shard": True, "dim": rng.randint(-rank, rank - 1)})
            else:
                placements.append({"shard": False, "dim": 0})
        case = {"kind": "mesh", "shape": s, "mesh": mesh, "placements": placements}
        if rng.random() < 0.15:
            devices = 1
            for m in mesh:
                devices *= m
            case["mesh_shape_override"] = [devices] if len(mesh) == 2 else [1, mesh[0]]
            case["placements"] = [{"shard": True, "dim": rng.randint(0, rank - 1)}] + (
                [{"shard": False, "dim": 0}] if len(case["mesh_shape_override"]) == 2 else [])
            if len(case["mesh_shape_override"]) == 1:
                case["placements"] = case["placements"][:1]
        out.append(case)
    return out
