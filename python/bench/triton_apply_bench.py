"""LinearLayout.apply over every input of an MMA v3 layout, as users call it.

    ./bazelw run -c opt //python/bench:triton_apply_bench
    ./bazelw run -c opt //python/bench:triton_apply_bench -- --repeat 9

The layout: #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1],
instrShape = [16, 64, 16]}> on 256x256, whose 2^16 inputs (register 512,
lane 32, warp 4, block 1) are given as one int64 NumPy array per in-dim (what
np.arange and friends give). Timed in one run, each the median of --repeat
(default 5) rounds, CPU time of this process (time.process_time, so
that other processes on a loaded machine do not count), the methods taking
turns within each round (the ratio to NumPy is the median of the rounds'
ratios):

1. hlolayout: l.apply({"register": r, "lane": t, "warp": w, "block": b}),
   a dict of arrays in, a dict of int32 arrays out; also with int32 inputs
   and as a 2-D (n, 4) array;
2. the NumPy baseline: XOR of the bases each input bit selects, vectorised
   (for every in-dim bit: out ^= ((col >> bit) & 1) * basis, per out-dim);
3. the per-set-bit loop in Python: for each input, XOR the basis of each
   set bit (what one writes without a library);
4. Triton's scalar form, l.apply({"register": 3, ...}) with Python ints:
   per call, and times 2^16;
5. Triton's own triton.tools.LinearLayout.apply per call, when `triton` is
   importable.
Every method's results are checked against the vectorised apply first.
"""

import argparse
import statistics
import time

import numpy as np

from hlolayout import triton as hl

MMA_V3 = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
          "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>")
SHAPE = [256, 256]


def median_seconds(f, repeat, calls=1):
    """Median over `repeat` timings of `calls` calls, CPU time of this
    process per call (other processes on a loaded machine do not count)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(calls):
            f()
        times.append((time.process_time() - t) / calls)
    return statistics.median(times)


def numpy_xor_of_bases(bases, out_dims, cols):
    outs = [np.zeros(len(cols[0]), np.int64) for _ in out_dims]
    for (name, dim_bases), col in zip(bases, cols):
        for bit, basis in enumerate(dim_bases):
            selected = (col >> bit) & 1
            for o, value in enumerate(basis):
                if value:
                    outs[o] ^= selected * value
    return outs


def per_set_bit_loop(bases, out_dims, cols):
    flat = [(d, bit, basis) for d, (_, dim_bases) in enumerate(bases)
            for bit, basis in enumerate(dim_bases)]
    n = len(cols[0])
    rows = [c.tolist() for c in cols]
    outs = [[0] * n for _ in out_dims]
    for i in range(n):
        acc = [0] * len(out_dims)
        for d, bit, basis in flat:
            if (rows[d][i] >> bit) & 1:
                for o, value in enumerate(basis):
                    acc[o] ^= value
        for o in range(len(out_dims)):
            outs[o][i] = acc[o]
    return outs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    repeat = args.repeat

    l = hl.to_linear_layout(MMA_V3, SHAPE)
    names = l.get_in_dim_names()
    sizes = [l.get_in_dim_size(n) for n in names]
    n = 1
    for s in sizes:
        n *= s
    assert n == 1 << 16, n
    x = np.arange(n, dtype=np.int64)
    cols, shift = [], 0
    for s in sizes:
        cols.append((x >> shift) & (s - 1))
        shift += s.bit_length() - 1
    inputs = dict(zip(names, cols))
    inputs32 = {k: v.astype(np.int32) for k, v in inputs.items()}
    matrix = np.stack(cols, axis=1)
    bases, out_dims = l.bases, l.out_dims

    # Exact: every method against the vectorised apply.
    want = l.apply(inputs)
    for got in (l.apply(inputs32), numpy_xor_of_bases(bases, out_dims, cols),
                per_set_bit_loop(bases, out_dims, cols)):
        got = list(got.values()) if isinstance(got, dict) else got
        for o, (name, _) in enumerate(out_dims):
            assert np.array_equal(np.asarray(got[o]), want[name]), name
    m = l.apply(matrix)
    for o, (name, _) in enumerate(out_dims):
        assert np.array_equal(m[:, o], want[name])
    for i in range(0, n, 997):
        scalar = l.apply({k: int(v[i]) for k, v in inputs.items()})
        assert scalar == {k: int(v[i]) for k, v in want.items()}

    one = {k: int(v[12345]) for k, v in inputs.items()}
    # (name, function, calls per timing, multiplier to the 2^16 inputs)
    methods = [
        ("hlolayout apply(dict of int64 arrays)", lambda: l.apply(inputs),
         20, 1),
        ("hlolayout apply(dict of int32 arrays)", lambda: l.apply(inputs32),
         20, 1),
        ("hlolayout apply((n, 4) int64 array)", lambda: l.apply(matrix), 20,
         1),
        ("NumPy XOR of the bases each bit selects",
         lambda: numpy_xor_of_bases(bases, out_dims, cols), 3, 1),
        ("per-set-bit loop in Python",
         lambda: per_set_bit_loop(bases, out_dims, cols), 1, 1),
        ("hlolayout apply(dict of ints) x 2^16", lambda: l.apply(one), 20000,
         n),
    ]
    # Round robin: each repetition times every method once, so that a
    # burst of load from elsewhere touches all of them; the ratio to NumPy
    # is the median of the per-repetition ratios.
    times = [[] for _ in methods]
    for _ in range(repeat):
        for k, (_, f, calls, scale) in enumerate(methods):
            times[k].append(median_seconds(f, 1, calls) * scale)
    numpy_k = 3
    rows = []
    for k, (name, _, _, _) in enumerate(methods):
        ratio = statistics.median(
            tn / t for tn, t in zip(times[numpy_k], times[k]))
        rows.append((name, statistics.median(times[k]), ratio))
    t_scalar = statistics.median(times[5]) / n

    print("apply over the 2^16 inputs of MMA v3 (warps [4, 1], instrShape "
          "[16, 64, 16]) on 256x256; CPU time, median of %d rounds" % repeat)
    print("  %-44s %10s %14s %10s" % ("", "ms", "M inputs/s", "vs NumPy"))
    for name, t, ratio in rows:
        print("  %-44s %10.3f %14.1f %9.1fx" % (name, t * 1e3, n / t / 1e6,
                                                ratio))
    print("  scalar form: %.2f us per call (apply(dict of ints))" %
          (t_scalar * 1e6))
    try:
        from triton.tools import LinearLayout as TritonLL
    except ImportError:
        TritonLL = None
    if TritonLL is None:
        print("  (triton is not installed: no Triton baseline in this run)")
    else:
        tl = TritonLL.from_bases(bases, [d for d, _ in out_dims],
                                 [s for _, s in out_dims])
        assert tl.apply(one) == l.apply(one)
        print("  Triton's apply(dict of ints): %.2f us per call" %
              (median_seconds(lambda: tl.apply(one), repeat, 20000) * 1e6))


if __name__ == "__main__":
    main()
