"""What a JAX user writes with NumPy alone: the baselines of python_bench.

tiled_offsets_numpy: the seed formula of XLA's tiled layout for a row-major
rank-N array with tiles T(a,b)(c,1) on its two minor dimensions (c divides
a): the tile grid is row-major, elements inside an (a,b) tile are stored as
(a/c, b, c) row-major.

pad_reshape_transpose: logical array -> physical bytes of the same layout,
by padding to whole tiles, one reshape and one transpose.
"""

import numpy as np


def tiled_offsets_numpy(idx, dims, tile=(8, 128), subtile_rows=2):
    """int64 [n, rank] indices -> int64 [n] offsets (vectorized)."""
    idx = np.asarray(idx, dtype=np.int64)
    a, b = tile
    c = subtile_rows
    rank = len(dims)
    rows = -(-dims[-2] // a)
    cols = -(-dims[-1] // b)
    outer = np.zeros(idx.shape[0], dtype=np.int64)
    for d in range(rank - 2):
        outer = outer * dims[d] + idx[:, d]
    r = idx[:, -2]
    k = idx[:, -1]
    tile_index = (outer * rows + r // a) * cols + k // b
    rr = r % a
    in_tile = ((rr // c) * b + k % b) * c + rr % c
    return tile_index * (a * b) + in_tile


def pad_reshape_transpose(x, tile=(8, 128), subtile_rows=2):
    """2-D logical array -> uint8 bytes in {1,0:T(a,b)(c,1)}."""
    a, b = tile
    c = subtile_rows
    m, n = x.shape
    pm, pn = -(-m // a) * a, -(-n // b) * b
    if (pm, pn) != (m, n):
        x = np.pad(x, ((0, pm - m), (0, pn - n)))
    y = x.reshape(pm // a, a // c, c, pn // b, b).transpose(0, 3, 1, 4, 2)
    return np.ascontiguousarray(y).reshape(-1).view(np.uint8)
