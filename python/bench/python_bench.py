"""hlolayout's Python module against the NumPy a JAX user would write.

    ./bazelw run -c opt //python/bench:python_bench            # both, median of 5
    ./bazelw run -c opt //python/bench:python_bench -- --repeat 9

1. Indexer.offsets on 10 million random indices of
   bf16[8,16,256,2048]{3,2,1,0:T(8,128)(2,1)} vs the seed formula in NumPy
   (benchmark_formulas.tiled_offsets_numpy). Goal: 10x.
2. to_layout of a 64 MiB bf16[4096,8192] to {1,0:T(8,128)(2,1)} vs NumPy's
   pad-reshape-transpose. Goal: 3x.
Both results are checked equal before timing. Times are medians of
--repeat runs (wall clock, default threads of the module: one per core).
"""

import argparse
import statistics
import time

import numpy as np

import benchmark_formulas
import hlolayout as hl


def median_seconds(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--n", type=int, default=10_000_000)
    p.add_argument("--threads", type=int, default=None)
    args = p.parse_args()

    dims = (8, 16, 256, 2048)
    shape = "bf16[%s]{3,2,1,0:T(8,128)(2,1)}" % ",".join(map(str, dims))
    rng = np.random.default_rng(0)
    idx = np.stack([rng.integers(0, d, args.n, dtype=np.int64) for d in dims], 1)
    ix = hl.Indexer(shape)
    assert (ix.offsets(idx, args.threads) ==
            benchmark_formulas.tiled_offsets_numpy(idx, dims)).all()
    t_hl = median_seconds(lambda: ix.offsets(idx, args.threads), args.repeat)
    t_np = median_seconds(
        lambda: benchmark_formulas.tiled_offsets_numpy(idx, dims), args.repeat)
    print("offsets, %d random indices of %s" % (args.n, shape))
    print("  hlolayout Indexer.offsets   %8.1f ms  (%.2f ns/index)" %
          (t_hl * 1e3, t_hl * 1e9 / args.n))
    print("  NumPy seed formula          %8.1f ms" % (t_np * 1e3))
    print("  speedup                     %8.1fx  (goal 10x)" % (t_np / t_hl))

    x = rng.integers(0, 1 << 16, size=(4096, 8192), dtype=np.uint16)
    target = "bf16[4096,8192]{1,0:T(8,128)(2,1)}"
    s = hl.parse_shape(target)
    assert (hl.to_layout(x, s, args.threads) ==
            benchmark_formulas.pad_reshape_transpose(x)).all()
    t_hl = median_seconds(lambda: hl.to_layout(x, s, args.threads), args.repeat)
    t_np = median_seconds(lambda: benchmark_formulas.pad_reshape_transpose(x),
                          args.repeat)
    print("to_layout, 64 MiB logical bf16[4096,8192] -> %s" % target)
    print("  hlolayout to_layout         %8.1f ms  (%.2f GB/s)" %
          (t_hl * 1e3, x.nbytes / t_hl / 1e9))
    print("  NumPy pad-reshape-transpose %8.1f ms" % (t_np * 1e3))
    print("  speedup                     %8.1fx  (goal 3x)" % (t_np / t_hl))


if __name__ == "__main__":
    main()
