"""hlolayout.triton's to_linear_layout + str() per call, as a Triton user runs it.

    ./bazelw run -c opt //python/bench:triton_python_bench
    ./bazelw run -c opt //python/bench:triton_python_bench -- --calls 20000

Times (median of --repeat runs of --calls calls, wall clock) for:
1. to_linear_layout(TTGIR text of an MMA v3 layout, [128, 128]) + str();
2. the same from a Gluon-like layout object (duck-typed attributes);
3. LinearLayout.from_bases of the result's bases + str().
When `triton` (3.6.0) is importable, Triton's own
triton.tools.LinearLayout.from_bases + str() is timed the same way as the
baseline; else the figures are absolute.
"""

import argparse
import statistics
import time

from hlolayout import triton as hl

MMA_V3 = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
          "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>")


class NVMMADistributedLayout:
    """The attributes of Gluon's gl.NVMMADistributedLayout."""
    version = [3, 0]
    warps_per_cta = [4, 1]
    instr_shape = [16, 64, 16]
    cga_layout = []


def per_call_us(f, calls, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=5000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()

    shape = [128, 128]
    ll = hl.to_linear_layout(MMA_V3, shape)
    gluon = NVMMADistributedLayout()
    assert str(hl.to_linear_layout(gluon, shape)) == str(ll)
    bases, outs = ll.bases, ll.out_dims
    names = [n for n, _ in outs]
    sizes = [s for _, s in outs]

    rows = [
        ("to_linear_layout(TTGIR text) + str()",
         lambda: str(hl.to_linear_layout(MMA_V3, shape))),
        ("to_linear_layout(Gluon object) + str()",
         lambda: str(hl.to_linear_layout(gluon, shape))),
        ("LinearLayout.from_bases + str()",
         lambda: str(hl.LinearLayout.from_bases(bases, names, sizes))),
    ]
    try:
        from triton.tools import LinearLayout as TritonLL  # noqa: F401
    except ImportError:
        TritonLL = None
    if TritonLL is not None:
        assert str(TritonLL.from_bases(bases, names, sizes)) == str(ll)
        rows.append(("Triton: LinearLayout.from_bases + str()",
                     lambda: str(TritonLL.from_bases(bases, names, sizes))))
    print("MMA v3 (warps [4, 1], instrShape [16, 64, 16]) on 128x128, "
          "%d calls, median of %d" % (args.calls, args.repeat))
    for name, f in rows:
        print("  %-42s %8.2f us per call" % (name, per_call_us(
            f, args.calls, args.repeat)))
    if TritonLL is None:
        print("  (triton is not installed: no Triton baseline in this run)")


if __name__ == "__main__":
    main()
