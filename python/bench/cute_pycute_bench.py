"""hlolayout.cute against NVIDIA's pycute on the same calls, in one run.

    ./bazelw run -c opt //python/bench:cute_pycute_bench -- --pycute DIR
    PYCUTE_PATH=DIR ./bazelw run -c opt //python/bench:cute_pycute_bench

DIR is a folder holding the `pycute` package (CUTLASS's python/ folder);
pycute is not installable here and is never part of this repository. Without
it the pycute half is skipped with a message.

1. composition, logical_divide, coalesce and complement on nested layouts
   (the same objects given to both modules): time per call of each module
   as the median over --pairs pairs of interleaved runs of --calls calls,
   and the median of the per-pair ratios. Goal: 10x. Every case is checked
   to give the same layout (as pycute prints it) before timing; a case
   where pycute is wrong (docs/cute.md, "Python") is reported and left out.
2. Vectorized evaluation: L(indices) over --n random NumPy indices of a
   depth-3 layout (which coalesces to 4 modes), of one that stays 8 modes
   and of a swizzled one, offsets per second (median of --pairs; on all
   cores, `taskset -c 0` for one). Goal: 100 M offsets/s.
"""

import argparse
import importlib
import os
import statistics
import sys
import time

import numpy as np

from hlolayout import cute


def cases(m):
    """(name, function, operands) with operands built by module m."""
    L = m.Layout
    nested = L(((4, (3, 2)), ((2, (3, 4)), (2, 8))),
               ((1, (4, 400)), ((12, (24, 72)), (800, 1600))))
    a = L((12, (4, 8)), (59, (13, 1)))
    return [
        ("composition", m.composition,
         (L(((8, 4), (2, 16)), ((1, 256), (8, 1024))), L((4, (4, 2)), (2, (8, 64))))),
        ("composition by mode", m.composition, (a, (L(3, 4), L(8, 2)))),
        ("logical_divide", m.logical_divide,
         (L(((16, 8), (4, 32)), ((1, 512), (16, 4096))), (L((4, 2), (1, 8)), L(8, 1)))),
        ("logical_divide 1-D", m.logical_divide,
         (L((4, 2, 3, 8), (2, 1, 8, 24)), L((2, 2), (1, 8)))),
        ("coalesce", m.coalesce, (nested,)),
        ("coalesce flat", m.coalesce,
         (L((2, (1, 6), (4, (1, 2))), (1, (6, 2), (12, (7, 48)))),)),
        ("complement", m.complement, (L(((2, 4), (3, 2)), ((1, 48), (8, 384))), 4096)),
        ("complement default", m.complement, (L(((4, 2), 2), ((2, 32), 128)),)),
    ]


def time_calls(f, ops, calls):
    t = time.perf_counter()
    for _ in range(calls):
        f(*ops)
    return (time.perf_counter() - t) / calls


def load_pycute(path):
    if path:
        sys.path.insert(0, path)
    try:
        return importlib.import_module("pycute")
    except ImportError:
        return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pycute", default=os.environ.get("PYCUTE_PATH", ""),
                   help="the folder holding the pycute package")
    p.add_argument("--pairs", type=int, default=9)
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--n", type=int, default=10_000_000)
    args = p.parse_args()

    pycute = load_pycute(args.pycute)
    if pycute is None:
        print("pycute not found (give --pycute DIR or PYCUTE_PATH): "
              "the pycute comparison is skipped")
    else:
        ours, theirs = cases(cute), cases(pycute)
        print("%-22s %12s %12s %8s" % ("call", "hlolayout", "pycute", "ratio"))
        ratios = []
        for (name, f, ops), (_, g, pops) in zip(ours, theirs):
            want, got = str(g(*pops)), str(f(*ops))
            if want != got:
                print("%-22s pycute differs (%s vs CuTe's %s): skipped" %
                      (name, want, got))
                continue
            t_ours, t_theirs, r = [], [], []
            for _ in range(args.pairs):
                a = time_calls(f, ops, args.calls)
                b = time_calls(g, pops, max(1, args.calls // 10))
                t_ours.append(a)
                t_theirs.append(b)
                r.append(b / a)
            ratio = statistics.median(r)
            ratios.append(ratio)
            print("%-22s %10.2f us %10.2f us %7.1fx" %
                  (name, statistics.median(t_ours) * 1e6,
                   statistics.median(t_theirs) * 1e6, ratio))
        print("smallest ratio %.1fx (median of %d pairs each; goal 10x)" %
              (min(ratios), args.pairs))

    rng = np.random.default_rng(0)
    for name, layout in [
            ("depth-3 layout", cute.Layout(
                ((4, (3, 2)), ((2, (3, 4)), (2, 8))),
                ((1, (4, 400)), ((12, (24, 72)), (800, 1600))))),
            ("8-mode layout", cute.Layout(  # coalesce leaves 8 modes
                ((4, (3, 2)), ((2, (3, 4)), (2, 8))),
                ((3, (1, 400)), ((12, (5, 72)), (1, 1600))))),
            ("swizzled layout", cute.ComposedLayout(
                cute.Swizzle(3, 4, 3), 0,
                cute.Layout(((8, 16), (64, 4)), ((64, 512), (1, 8192)))))]:
        idx = rng.integers(0, layout.size(), args.n, dtype=np.int64)
        out = layout(idx)
        assert all(out[i] == layout(int(idx[i])) for i in range(0, args.n, args.n // 97))
        rates = []
        for _ in range(args.pairs):
            t = time.perf_counter()
            layout(idx)
            rates.append(args.n / (time.perf_counter() - t))
        print("vectorized %-16s %8.1f M offsets/s (median of %d; goal 100 M)" %
              (name, statistics.median(rates) / 1e6, args.pairs))


if __name__ == "__main__":
    main()
