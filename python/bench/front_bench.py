"""Python's thin faces against the C++ calls they wrap, in one run.

    ./bazelw run -c opt //python/bench:front_bench
    ./bazelw run -c opt //python/bench:front_bench -- --repeat 9

hl.parse_shape(text).explain() (the library's ExplainShape, turned into its
records, layout/explain_record.h) against ExplainShape alone in C++
(`_time_explain_cpp`, the GIL released), and hl.ttnn.TensorSpec(...)'s
construction against the C++ call it wraps (ttnn::CheckSpec: TensorSpec::Make
and the device check, `_time_cpp`; TensorSpec and its memory config are
C++ values, so the call reads its arguments in C++), all timed in the
calling thread's CPU time, which the machine's load does not inflate (until
0.3 explain was timed in wall time). Goal: within 2x. Each figure is the
median over --repeat rounds of the mean time of one call in a round of
--calls calls.
"""

import argparse
import functools
import statistics
import time

import hlolayout as hl
from hlolayout import ttnn

SHAPES = [
    "f32[3,5]{1,0:T(2,2)}",
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    "(f32[2]{0}, (s32[], bf16[128,256]{1,0:T(8,128)(2,1)}))",
]


def per_call(f, calls, clock=time.perf_counter):
    t = clock()
    for _ in range(calls):
        f()
    return (clock() - t) / calls


def _grid(x1, y1):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(x1, y1))])


# (name, the arguments of hl.ttnn.TensorSpec): interleaved, 2-D sharded,
# a derived shard shape, ND sharded.
SPECS = [
    ("bf16[64,64] DRAM interleaved", ((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT), {}),
    ("bf16[272,58] L1 height-sharded", ((272, 58), ttnn.bfloat16, ttnn.TILE_LAYOUT,
     ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                       ttnn.ShardSpec(_grid(2, 0), (96, 64),
                                      ttnn.ShardOrientation.COL_MAJOR))), {}),
    ("bf8[32,2048,1024] block, derived", ((32, 2048, 1024), ttnn.bfloat8_b,
     ttnn.TILE_LAYOUT, ttnn.MemoryConfig(
         ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.L1,
         ttnn.ShardSpec(_grid(7, 7), None))), {"device": "p150"}),
    ("bf16[4,128,256] ND sharded", ((4, 128, 256), ttnn.bfloat16, ttnn.TILE_LAYOUT,
     ttnn.MemoryConfig(buffer_type=ttnn.BufferType.L1, nd_shard_spec=ttnn.NdShardSpec(
         (1, 64, 64), _grid(3, 3)))), {}),
]


def bench_ttnn(args):
    print("%-55s %10s %10s %7s" % ("hl.ttnn.TensorSpec (thread CPU time)", "Python us",
                                   "C++ us", "ratio"))
    for name, a, kw in SPECS:
        s = ttnn.TensorSpec(*a, **kw)
        # The call itself, as s.explain is below: no Python frame around it.
        make = functools.partial(ttnn.TensorSpec, *a, **kw)
        py_times, cpp_times = [], []
        for _ in range(args.repeat):
            py_times.append(per_call(make, args.calls, time.thread_time))
            cpp_times.append(s._time_cpp(args.calls, cpu=True))
        py, cpp = statistics.median(py_times), statistics.median(cpp_times)
        print("%-55s %10.2f %10.2f %6.2fx" % (name, py * 1e6, cpp * 1e6, py / cpp))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--calls", type=int, default=2000)
    args = p.parse_args()
    print("%-55s %10s %10s %7s" % ("Shape.explain() (thread CPU time)", "Python us",
                                   "C++ us", "ratio"))
    for text in SHAPES:
        s = hl.parse_shape(text)
        py_times, cpp_times = [], []
        for _ in range(args.repeat):
            py_times.append(per_call(s.explain, args.calls, time.thread_time))
            cpp_times.append(s._s._time_explain_cpp(args.calls, cpu=True))
        py, cpp = statistics.median(py_times), statistics.median(cpp_times)
        print("%-55s %10.2f %10.2f %6.2fx" % (text[:55], py * 1e6, cpp * 1e6,
                                             py / cpp))
    bench_ttnn(args)


if __name__ == "__main__":
    main()
