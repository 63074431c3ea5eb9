"""Random calls into the whole public API: no call crashes the interpreter,
and every refusal is one of the exceptions a Python user expects.

Each public function and class of `hlolayout` (and of its submodules), and
the methods of objects they returned, is called with 0-3 arguments drawn
from a pool of ints at the 32- and 64-bit edges, shapes, layouts, names
and wrong types, by position and, where the signature names them, by
keyword. The calls run in a child interpreter (a crash there is a
failure here, with the call that made it), seeded, so a failure repeats.
Arguments are also NumPy arrays and scalars, and objects the library
returned earlier in the run. Found this way, and fixed: a CuTe shape leaf
of 0 killed the interpreter (SIGFPE), a tuple where an int belongs aborted
it (a failed CHECK), a NumPy array where an int belongs was a SystemError,
cute.shiftl("DRAM", 32) repeated the string 2**32 times,
ttnn.CoreCoord(1.5, 2) was the core (1, 2), hl.Layout((1.5, 0)) the layout
{1,0}, wrapper classes and ttnn.MeshSlice took anything
and failed later in str(), and pybind11's own cast failures were
RuntimeError.

    python3 test_api_fuzz.py SEED CALLS   # one run by hand: prints a table
"""

import collections
import inspect
import os
import random
import subprocess
import sys

import pytest

# What a refusal may raise (their subclasses too: TtnnRefusal is a
# ValueError, FileNotFoundError an OSError).
EXPECTED = (ValueError, TypeError, KeyError, IndexError, OverflowError,
            OSError, NotImplementedError)
# Plain Python arithmetic on unbounded ints, as pycute's: shiftl(1, 2**63)
# is a MemoryError of the interpreter's own (1 << 2**63).
SKIPPED = ("hl.cute.shiftl", "hl.cute.shiftr")

INTS = [0, 1, -1, 2, 7, 32, 2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, 2**63,
        2**64, -2**63, -2**63 - 1]
TEXTS = ["", "x", "\x00", "f32[8]", "f32[8,8]{0,1:T(8,128)}",
         "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
         "s4[9223372036854775807]{0:E(4)}", "(f32[2], s32[])", "ROW_MAJOR",
         "TILE", "HEIGHT_SHARDED", "L1", "DRAM", "bfloat16", "float32",
         "ROWMAJOR", "(4,8):(1,4)", "((2,2),3):((24,2),8)", "128x64",
         "register", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
         "[8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
         "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
         "memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
         "<interleaved>>>",
         '{"bases": [["register", [[0, 1]]]], "out_dims": ["dim0"], '
         '"out_sizes": [2]}', "/nonexistent", "."]
OTHERS = [None, 1.5, float("nan"), float("inf"), True, [], [0],
          [2**62, 2**62, 2**62], (7, 7), ((0, 0), (7, 7)), ((7, 7), (0, 0)),
          [[0, 0], [3, 3]], {}, {"a": 1}, b"", [-1, 5], (2**31, 2**31),
          [32, 32], [0, 47, 108], (2, 0), ((2, 2), (0, 3))]


def _targets(hl):
    out = []
    seen = set()

    def visit(obj, prefix, depth):
        for name in sorted(dir(obj)):
            if name.startswith("_"):
                continue
            try:
                value = getattr(obj, name)
            except Exception:  # a lazy attribute that needs what is absent
                continue
            full = prefix + "." + name
            if inspect.ismodule(value):
                if depth == 0 and value.__name__.startswith("hlolayout"):
                    visit(value, full, 1)
            elif callable(value) and full not in SKIPPED and id(value) not in seen:
                seen.add(id(value))
                out.append((full, value))

    visit(hl, "hl", 0)
    return out


def run(seed, calls):
    """Makes `calls` random calls; returns (counts by outcome, unexpected
    exceptions). The call about to be made is in last_call.txt."""
    import warnings
    warnings.simplefilter("ignore")
    import hlolayout as hl
    import numpy as np
    rng = random.Random(seed)
    targets = _targets(hl)
    arrays = [np.zeros(0, np.uint8), np.zeros(16, np.float32),
              np.zeros((3, 5), np.float32), np.arange(15, dtype=np.int8),
              np.zeros((2, 3, 4), np.int32), np.zeros(96, np.uint8),
              np.int64(7), np.float64(2.5)]
    made = []  # objects the library returned: arguments, and their methods
    pool = [INTS, TEXTS, OTHERS, arrays, made]

    def value():
        kind = rng.choices((0, 1, 2, 3, 4), (8, 8, 4, 1, 3 if made else 0))[0]
        return rng.choice(pool[kind])

    counts = collections.Counter()
    unexpected = []
    with open("last_call.txt", "w") as log:
        for _ in range(calls):
            name, f = rng.choice(targets)
            if made and rng.random() < 0.3:
                obj = rng.choice(made)
                methods = [m for m in dir(obj) if not m.startswith("_")]
                if not methods:
                    continue
                m = rng.choice(methods)
                name = "%s.%s" % (type(obj).__name__, m)
                f = getattr(obj, m, None)
                if not callable(f):
                    continue
            args = [value() for _ in range(rng.randint(0, 3))]
            kwargs = {}
            try:  # some of the public parameters by name, when they are known
                named = [p.name for p in inspect.signature(f).parameters.values()
                         if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                         and not p.name.startswith("_")]
            except (TypeError, ValueError):
                named = []
            if named and rng.random() < 0.5:
                args = args[:rng.randint(0, len(args))]
                for key in rng.sample(named, rng.randint(1, len(named))):
                    kwargs[key] = value()
            log.seek(0)
            log.write("%s(*%r, **%r)\n" % (name, args, kwargs))
            log.truncate()
            log.flush()
            try:
                result = f(*args, **kwargs)
                str(result), repr(result)
                counts["returned"] += 1
                if (type(result).__module__ or "").startswith("hlolayout") and len(made) < 200:
                    made.append(result)
            except EXPECTED as e:
                counts[type(e).__name__] += 1
            except Exception as e:  # what the test is looking for
                counts[type(e).__name__] += 1
                unexpected.append("%s(*%.200r, **%.200r): %s: %.200s" % (
                    name, args, kwargs, type(e).__name__, e))
    return counts, unexpected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_calls_neither_crash_nor_raise_the_unexpected(seed, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    # In a temporary folder: a call given a text as a path may write there.
    child = subprocess.run([sys.executable, os.path.abspath(__file__), str(seed), "8000"],
                           cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=600)
    last = (tmp_path / "last_call.txt").read_text() if (tmp_path / "last_call.txt").exists() else ""
    assert child.returncode == 0, "the interpreter died (%d) in %s%s" % (
        child.returncode, last, child.stderr[-2000:])
    assert "unexpected: 0" in child.stdout, child.stdout[-4000:]
    assert "returned" in child.stdout  # the pool reaches the library's answers


if __name__ == "__main__":
    counts, unexpected = run(int(sys.argv[1]), int(sys.argv[2]))
    for kind, n in counts.most_common():
        print("%-24s %7d" % (kind, n))
    print("unexpected: %d" % len(unexpected))
    for line in unexpected[:40]:
        print("  " + line)
