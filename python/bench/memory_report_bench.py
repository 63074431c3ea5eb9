"""hl.memory() and hl.report() on a small and a large dump, against the C++
library calls they wrap, in one run.

    ./bazelw run -c opt //python/bench:memory_report_bench
    ./bazelw run -c opt //python/bench:memory_report_bench -- --repeat 15
    ./bazelw run -c opt //python/bench:memory_report_bench -- \
        --repeat 5 --memory-file /tmp/d/classic75.hlo

hl.memory(path) and hl.report(path) call the library (memory/, report/)
and build typed records from its result. The baseline is the library's
calls alone, timed in C++ with the GIL released in the same extension
(`_core._time_memory_cpp`, `_core._time_report_cpp`: reading the file, the
modules and their analysis or report, no Python objects); the ratio
new / library is what the Python records cost on top.

Inputs (the files are written to a temporary folder first):
  memory, small: memory/testdata's jit_scan_cond, an XLA:GPU module (18 KB)
  memory, large: bench/memory_bench.cc's module of 600 while loops and
                 conditionals (10,000 instructions, scheduled), 0.7 MB
  report, small: examples/module_0001.jit_train_step (TPU layouts)
  report, large: the same 600-loop module repeated as 10 modules, 7 MB
Each round calls the new function, then the new function and to_dict(),
each as often as fills about 50 ms, then the library baseline as many times
as the new function; the figures are medians over --repeat rounds of the
time per call, and the ratio the median over rounds of new / library.
"""

import argparse
import os
import statistics
import tempfile
import time

import hlolayout as hl
from hlolayout import _hlolayout as _core


def loops_module(blocks=600, name="loops"):
    """bench/memory_bench.cc's Module(): `blocks` while loops and
    conditionals in one scheduled module."""
    state = "(s32[], f32[64,64]{1,0})"
    out = ["HloModule %s, is_scheduled=true\n\n" % name]
    entry = ["ENTRY %main (a: f32[64,64]) -> f32[64,64] {\n",
             "  %a = f32[64,64]{1,0} parameter(0)\n"]
    prev = "a"
    for i in range(blocks):
        out.append(
            "%%cond.%d (s: (s32[], f32[64,64])) -> pred[] {\n"
            "  %%s.%d = %s parameter(0)\n"
            "  %%l.%d = s32[] constant(4)\n"
            "  ROOT %%lt.%d = pred[] compare(%%s.%d#0, %%l.%d), direction=LT\n"
            "}\n\n" % (i, i, state, i, i, i, i))
        out.append(
            "%%body.%d (t: (s32[], f32[64,64])) -> (s32[], f32[64,64]) {\n"
            "  %%t.%d = %s parameter(0)\n"
            "  %%one.%d = s32[] constant(1)\n"
            "  %%n.%d = s32[] add(%%t.%d#0, %%one.%d)\n"
            "  %%m.%d = f32[64,64]{1,0} multiply(%%t.%d#1, %%t.%d#1)\n"
            "  ROOT %%r.%d = %s tuple(%%n.%d, %%m.%d)\n}\n\n" %
            (i, i, state, i, i, i, i, i, i, i, i, state, i, i))
        out.append(
            "%%yes.%d (x: f32[64,64]) -> f32[64,64] {\n"
            "  %%x.%d = f32[64,64]{1,0} parameter(0)\n"
            "  ROOT %%e.%d = f32[64,64]{1,0} exponential(%%x.%d)\n}\n\n" %
            (i, i, i, i))
        out.append(
            "%%no.%d (y: f32[64,64]) -> f32[64,64] {\n"
            "  ROOT %%y.%d = f32[64,64]{1,0} parameter(0)\n}\n\n" % (i, i))
        entry.append(
            "  %%z.%d = s32[] constant(0)\n"
            "  %%f.%d = f32[64,64]{1,0} add(%%%s, %%%s)\n"
            "  %%init.%d = %s tuple(%%z.%d, %%f.%d)\n"
            "  %%w.%d = %s while(%%init.%d), condition=%%cond.%d, "
            "body=%%body.%d\n"
            "  %%p.%d = pred[] compare(%%z.%d, %%z.%d), direction=EQ\n"
            "  %%c.%d = f32[64,64]{1,0} conditional(%%p.%d, %%w.%d#1, "
            "%%w.%d#1), true_computation=%%yes.%d, false_computation=%%no.%d\n"
            % (i, i, prev, prev, i, state, i, i, i, state, i, i, i, i, i, i, i,
               i, i, i, i, i))
        prev = "c.%d" % i
    entry.append("  ROOT %%out = f32[64,64]{1,0} negate(%%%s)\n}\n" % prev)
    return "".join(out) + "".join(entry)


def rounds(functions, repeat, library, budget=0.05):
    """Each round's seconds per call of each function, and of `library(n)`
    (seconds per call of n calls in C++) as often as the first function."""
    calls = []
    for f in functions:
        f()
        t = time.perf_counter()
        f()
        calls.append(max(1, int(budget / max(time.perf_counter() - t, 1e-7))))
    times = [[] for _ in functions] + [[]]
    for _ in range(repeat):
        for k, (f, n) in enumerate(zip(functions, calls)):
            t = time.perf_counter()
            for _ in range(n):
                f()
            times[k].append((time.perf_counter() - t) / n)
        times[-1].append(library(calls[0]))
    return times


def ms(seconds):
    return "%8.2f ms" % (seconds * 1e3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument(
        "--memory-file", action="append", default=[], metavar="PATH",
        help="also time hl.memory(PATH) against the library on this file "
             "(repeatable; e.g. bench/hlo_dump_gen's 75 MB dumps)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="hlolayout-bench-")
    large = loops_module()
    paths = {
        "large": os.path.join(folder, "loops.sm_9.0a_gpu_after_optimizations.txt"),
        "report-large": os.path.join(folder, "ten_modules.txt"),
    }
    with open(paths["large"], "w") as f:
        f.write(large)
    with open(paths["report-large"], "w") as f:
        f.write("\n// -----\n".join(
            loops_module(name="loops_%d" % i) for i in range(10)))
    small = ("memory/testdata/"
             "module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations.txt")
    example = "examples/module_0001.jit_train_step.after_optimizations.txt"
    cases = [
        # hl.memory's default threads: one per core, as the baseline's.
        ("memory", "small", small, lambda p: hl.memory(p),
         lambda p, n: _core._time_memory_cpp(p, True, "",
                                             _core.default_threads(), n)),
        ("memory", "large", paths["large"], lambda p: hl.memory(p),
         lambda p, n: _core._time_memory_cpp(p, True, "",
                                             _core.default_threads(), n)),
        ("report", "small", example, lambda p: hl.report(p),
         lambda p, n: _core._time_report_cpp(p, True, n)),
        ("report", "large", paths["report-large"], lambda p: hl.report(p),
         lambda p, n: _core._time_report_cpp(p, True, n)),
    ] + [
        ("memory", os.path.splitext(os.path.basename(p))[0], p,
         lambda p: hl.memory(p),
         lambda p, n: _core._time_memory_cpp(p, True, "",
                                             _core.default_threads(), n))
        for p in args.memory_file
    ]
    print("median of %d rounds per call; baseline: the library's calls "
          "alone (C++, same extension)" % args.repeat)
    print("%-7s %-6s %9s %12s %12s %12s %8s" % (
        "call", "dump", "bytes", "new", "new+to_dict", "library",
        "new/lib"))
    for call, size, path, new, library in cases:
        to_dict = ((lambda p: [m.to_dict() for m in new(p)]) if call == "memory"
                   else (lambda p: new(p).to_dict()))
        t_new, t_dict, t_old = rounds(
            [lambda: new(path), lambda: to_dict(path)], args.repeat,
            lambda n: library(path, n))
        ratio = statistics.median(n / o for o, n in zip(t_old, t_new))
        print("%-7s %-6s %9d %12s %12s %12s %7.2fx" % (
            call, size, os.path.getsize(path), ms(statistics.median(t_new)),
            ms(statistics.median(t_dict)), ms(statistics.median(t_old)), ratio))
    for p in paths.values():
        os.remove(p)
    os.rmdir(folder)


if __name__ == "__main__":
    main()
