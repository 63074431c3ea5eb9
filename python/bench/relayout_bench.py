"""to_layout / from_layout against a NumPy copy of the same array, in one run.

    ./bazelw run -c opt //python/bench:relayout_bench
    ./bazelw run -c opt //python/bench:relayout_bench -- --repeat 9

Issue 22's goals: a repeated (shape, options) call costs at most 2 us more
than NumPy's copy of the same array (the compiled copy is kept between
calls), and to_layout / from_layout reach at least half the speed of a NumPy
copy from 256 KiB up.

For f32 [n, n] arrays tiled T(8,128) (16 KiB, 256 KiB, 4 MiB, 64 MiB):
  to_layout(a, shape, threads)    against a.copy()
  from_layout(buf, shape, threads) against buf.copy() (buf: the tiled bytes)
with threads=1 and the default (one per core). Each round times as many
calls of hlolayout as fill about 20 ms, then as many of NumPy's copy; the
figures are medians over --repeat rounds of the time per call, "beyond the
copy" is their difference, and the ratio is the median over rounds of
NumPy's time over hlolayout's (1.0: as fast as a copy; pairs taken back to
back cancel most of a shared machine's drift). Also: the first call with a
new shape (the plan made, then the copy).
"""

import argparse
import statistics
import time

import numpy as np

import hlolayout as hl


def per_call(f, repeat, budget=0.02):
    """Median seconds per call of f() over `repeat` rounds."""
    return paired(f, f, repeat, budget)[0]


def paired(f, g, repeat, budget=0.02):
    """Median seconds per call of f() and of g(), and the median of their
    ratio g/f, over `repeat` rounds of f then g taken back to back (on a
    shared machine the pairs cancel most of the drift)."""
    calls = []
    for h in (f, g):
        h()
        t = time.perf_counter()
        h()
        once = max(time.perf_counter() - t, 1e-7)
        calls.append(max(1, min(100000, int(budget / once))))
    tf, tg, ratios = [], [], []
    for _ in range(repeat):
        pair = []
        for h, n in zip((f, g), calls):
            t = time.perf_counter()
            for _ in range(n):
                h()
            pair.append((time.perf_counter() - t) / n)
        tf.append(pair[0])
        tg.append(pair[1])
        ratios.append(pair[1] / pair[0])
    return (statistics.median(tf), statistics.median(tg),
            statistics.median(ratios))


def size_name(nbytes):
    return ("%d KiB" % (nbytes >> 10) if nbytes < 1 << 20 else
            "%d MiB" % (nbytes >> 20))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()

    rng = np.random.default_rng(0)
    print("%-58s %11s %11s %11s %7s" % ("case", "hlolayout", "NumPy",
                                         "beyond", "ratio"))
    for n in (64, 256, 1024, 4096):
        shape = "f32[%d,%d]{1,0:T(8,128)}" % (n, n)
        a = rng.standard_normal((n, n)).astype(np.float32)
        buf = hl.to_layout(a, shape)
        assert (hl.from_layout(buf, shape) == a).all()
        for threads in (1, None):
            tname = "1 thread" if threads == 1 else "default threads"
            cases = [
                ("to_layout", lambda: hl.to_layout(a, shape, threads),
                 lambda: a.copy()),
                ("from_layout", lambda: hl.from_layout(buf, shape, threads),
                 lambda: buf.copy()),
            ]
            for name, ours, numpy_copy in cases:
                t_hl, t_np, ratio = paired(ours, numpy_copy, args.repeat)
                print("%-58s %8.2f us %8.2f us %8.2f us %6.2fx" % (
                    "%s %s %s, %s" % (name, size_name(a.nbytes),
                                      "f32[%d,%d] T(8,128)" % (n, n), tname),
                    t_hl * 1e6, t_np * 1e6, (t_hl - t_np) * 1e6, ratio))

    # The first call with a shape: the plan is made, then kept.
    a = rng.standard_normal((64, 64)).astype(np.float32)
    shape = "f32[64,64]{1,0:T(8,128)}"

    plans = getattr(hl, "_PLANS", {})  # (a version that keeps no plans)

    def first_call():
        plans.clear()
        hl.to_layout(a, shape, 1)

    t_first = per_call(first_call, args.repeat)
    t_again = per_call(lambda: hl.to_layout(a, shape, 1), args.repeat)
    print("%-58s %8.2f us (then %.2f us)" % (
        "to_layout 16 KiB f32[64,64] T(8,128), first call with it",
        t_first * 1e6, t_again * 1e6))


if __name__ == "__main__":
    main()
