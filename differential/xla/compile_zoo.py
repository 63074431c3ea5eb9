"""Compiles the zoo with XLA:CPU or XLA:GPU and keeps what XLA wrote, in a cache.

Run inside the harness' venv (run.sh makes it). For every module
PROGRAM.SIZE.VARIANT it lowers and compiles the jitted function on its
argument specs with --xla_dump_to and --xla_dump_hlo_as_text, and keeps in
CACHE/jaxlib-VERSION[-TARGET]/FAMILY/PROGRAM/SIZE.VARIANT-HASH/:

  module_*.{cpu,sm_*_gpu}_after_optimizations.txt   the optimized module
  module_*_after_optimizations-buffer-assignment.txt
  module_*_after_optimizations-memory-usage-report.txt
  module_*_after_optimizations-live-range.txt
  xla.json   compiled.memory_analysis() (every field), the computation and
             instruction counts of XLA's own module, the versions

HASH is that of the program's source file and the shared helpers, so an
edited program is compiled again and an unchanged one is reused. A module
that XLA cannot compile is recorded in xla.json with the error.

--target cpu (the default) compiles with XLA:CPU, the SPMD programs on 8
host devices; --target h100|a100|b200 with XLA:GPU for that GPU without one
(gpu_target.py: the CUDA plugin of jaxlib, a topology of 8 GPUs described
by gpu_targets/): single-device programs on its first GPU, SPMD programs on
8. The GPU venv is requirements-gpu.txt's. --target v4|v5e|v5p|v6e compiles
with XLA:TPU for a slice of that generation without a TPU (tpu_target.py:
libtpu, requirements-tpu.txt): single-device programs on its first chip,
SPMD programs on a slice of as many chips as they ask for (8, 64 or 256).
A program made for one platform only (zoo.program's `platforms`) is left
out of the others.

  python compile_zoo.py --cache DIR [--target T] [--programs a,b]
                        [--sample N --seed S]
"""

import argparse
import glob
import json
import os
import shutil
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_target  # pylint: disable=wrong-import-position
import tpu_target  # pylint: disable=wrong-import-position


def target_of(argv):
  """--target's value (cpu when absent): read before jax is imported."""
  for i, arg in enumerate(argv):
    if arg == "--target" and i + 1 < len(argv):
      return argv[i + 1]
    if arg.startswith("--target="):
      return arg.split("=", 1)[1]
  return "cpu"


TARGET = target_of(sys.argv)
# The platform of the target: cpu, gpu or tpu.
PLATFORM = ("tpu" if TARGET in tpu_target.TARGETS else
            "gpu" if TARGET in gpu_target.TARGETS else "cpu")
# Before jax is imported: 8 CPU devices for the SPMD programs, or what
# XLA:GPU or XLA:TPU needs without the accelerator.
if PLATFORM == "cpu":
  os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                             " --xla_force_host_platform_device_count=8").strip()
  os.environ.setdefault("JAX_PLATFORMS", "cpu")
elif PLATFORM == "gpu":
  gpu_target.prepare_environment()
else:
  tpu_target.prepare_environment()

import jax  # pylint: disable=wrong-import-position
import jaxlib  # pylint: disable=wrong-import-position

import zoo  # pylint: disable=wrong-import-position

STATS_FIELDS = (
    "generated_code_size_in_bytes", "argument_size_in_bytes",
    "output_size_in_bytes", "alias_size_in_bytes", "temp_size_in_bytes",
    "peak_memory_in_bytes", "host_generated_code_size_in_bytes",
    "host_argument_size_in_bytes", "host_output_size_in_bytes",
    "host_alias_size_in_bytes", "host_temp_size_in_bytes",
)

DUMP_SUFFIXES = ("", "-buffer-assignment", "-memory-usage-report", "-live-range")


def version_dir(cache):
  suffix = "" if TARGET == "cpu" else f"-{TARGET}"
  if PLATFORM == "tpu":
    suffix = f"-libtpu-{tpu_target.libtpu_version()}{suffix}"
  return os.path.join(cache, f"jaxlib-{jaxlib.__version__}{suffix}")


# Part of every module's cache key: raise it when xla.json gains a field.
RECORD_VERSION = 2


def module_dir(cache, prog, size, variant):
  return os.path.join(version_dir(cache), prog.family, prog.name,
                      f"{size}.{variant}-{prog.source_hash}-{RECORD_VERSION}")


def xla_counts(compiled):
  """The counts of XLA's own module, and two orders of its computations that
  the text does not hold: the order XLA numbers their values in (its
  computation post order, which the serialized module keeps) and the order
  they were created in (HloModule::computations())."""
  from jaxlib import _hlo  # pylint: disable=import-outside-toplevel
  (module,) = compiled.runtime_executable().hlo_modules()
  computations = module.computations()
  post_order = _hlo.HloModule.from_serialized_hlo_module_proto(
      module.as_serialized_hlo_module_proto()).computations()
  return {
      "module": module.name,
      "computations": len(computations),
      "instructions": sum(len(c.instructions()) for c in computations),
      "computation_post_order": [c.name for c in post_order],
      "computation_creation_order": [c.name for c in computations],
  }


def on_first_device(args):
  """The argument specs with those of no sharding on the first device
  compiled for (XLA:GPU: the topology's first GPU)."""
  if zoo.DEVICES is None:
    return args
  single = jax.sharding.SingleDeviceSharding(zoo.DEVICES[0])

  def place(leaf):
    if isinstance(leaf, jax.ShapeDtypeStruct) and leaf.sharding is None:
      return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=single)
    return leaf
  return jax.tree.map(place, args)


def backend_options():
  """XLA:GPU: LLVM's expensive passes off. They run on the kernels after the
  buffer assignment and change nothing the harness compares (checked on
  the zoo's transformer: the same buffer assignment); the compile is about
  a fifth faster."""
  return {"xla_llvm_disable_expensive_passes": True} if PLATFORM == "gpu" else {}


def dumped_module_suffix():
  """XLA:TPU names its optimized module `module_N.NAME.cl_M.after_optimizations.txt`
  (and writes the module before and after its buffer assignment beside it)."""
  return {"cpu": ".cpu_after_optimizations.txt", "gpu": "_gpu_after_optimizations.txt",
          "tpu": ".after_optimizations.txt"}[PLATFORM]


def compile_module(fn, args, out):
  """Compiles fn(*args) with dumps into `out`; returns xla.json's dict."""
  tmp = out + ".tmp"
  shutil.rmtree(tmp, ignore_errors=True)
  record = {"jax": jax.__version__, "jaxlib": jaxlib.__version__, "target": TARGET}
  if PLATFORM == "tpu":
    record["libtpu"] = tpu_target.libtpu_version()
  start = time.time()
  try:
    compiled = fn.lower(*on_first_device(args)).compile(compiler_options=dict(
        {"xla_dump_to": tmp, "xla_dump_hlo_as_text": True}, **backend_options()))
  except Exception as e:  # pylint: disable=broad-except
    record["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
    shutil.rmtree(tmp, ignore_errors=True)
    return record
  record["compile_seconds"] = round(time.time() - start, 3)
  stats = compiled.memory_analysis()
  record["memory_analysis"] = {f: int(getattr(stats, f)) for f in STATS_FIELDS}
  record.update(xla_counts(compiled))
  executable = compiled.runtime_executable()
  if hasattr(executable, "local_devices"):
    record["devices"] = len(executable.local_devices())
  else:  # compiled for a topology: no devices of its own
    record["devices"] = max((len(s.device_set) for s in jax.tree.leaves(
        compiled.input_shardings)), default=1)
  mains = glob.glob(os.path.join(tmp, "*" + dumped_module_suffix()))
  if len(mains) != 1:
    record["error"] = f"expected one optimized module in the dump, found {len(mains)}"
    shutil.rmtree(tmp, ignore_errors=True)
    return record
  stem = mains[0][:-len(".txt")]
  os.makedirs(out, exist_ok=True)
  for suffix in DUMP_SUFFIXES:
    src = stem + suffix + ".txt"
    if os.path.exists(src):
      shutil.move(src, os.path.join(out, os.path.basename(src)))
  # XLA:TPU's target_arguments file names the generation (memory/tpu_chip.h).
  if stem.endswith(".after_optimizations"):
    args = stem[:-len(".after_optimizations")] + ".target_arguments.txt"
    if os.path.exists(args):
      shutil.move(args, os.path.join(out, os.path.basename(args)))
  record["dump"] = os.path.basename(stem) + ".txt"
  shutil.rmtree(tmp, ignore_errors=True)
  return record


def select(programs, names, sample, seed):
  chosen = [p for p in programs.values() if PLATFORM in p.platforms]
  if names:
    wanted = names.split(",")
    missing = [n for n in wanted if n not in programs]
    if missing:
      raise SystemExit(f"compile_zoo: no program {', '.join(missing)}")
    chosen = [programs[n] for n in wanted]
  pairs = zoo.module_names(chosen)
  # CI's samples keep to the small sizes (ci_tpu.sh: a 64-chip step of 24
  # layers alone compiles for minutes).
  sizes = os.environ.get("HLOLAYOUT_XLA_SIZES", "")
  if sizes:
    pairs = [p for p in pairs if p[1] in sizes.split(",")]
  if sample:
    import random  # pylint: disable=import-outside-toplevel
    rng = random.Random(seed)
    pairs = rng.sample(pairs, min(sample, len(pairs)))
    pairs.sort(key=lambda p: (p[0].name, p[1]))
  return pairs


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--cache", required=True)
  parser.add_argument("--target", default="cpu",
                      choices=("cpu",) + tuple(gpu_target.TARGETS) + tuple(tpu_target.TARGETS),
                      help="XLA:CPU, XLA:GPU for this GPU or XLA:TPU for this "
                      "generation (no GPU or TPU needed)")
  parser.add_argument("--programs", default="")
  parser.add_argument("--sample", type=int, default=0,
                      help="compile only N random (program, size) pairs")
  parser.add_argument("--seed", type=int, default=0)
  parser.add_argument("--zoo", default="",
                      help="compile the programs of this folder instead (zoo.load)")
  parser.add_argument("--list", action="store_true",
                      help="print the module directories of the selection")
  args = parser.parse_args()
  if PLATFORM == "gpu":
    zoo.set_devices(gpu_target.devices(TARGET, 8))
  programs = zoo.load(args.zoo)
  pairs = select(programs, args.programs, args.sample, args.seed)
  compiled = reused = failed = 0
  for prog, size in pairs:
    if PLATFORM == "tpu":
      # A slice of as many chips as the program asks for (8 for one chip).
      zoo.set_devices(tpu_target.devices(TARGET, max(prog.devices, 8)))
    try:
      variants = prog.build(size)
    except Exception:  # pylint: disable=broad-except
      print(f"compile_zoo: {prog.name}.{size}: cannot build:\n{traceback.format_exc()}",
            file=sys.stderr)
      failed += 1
      continue
    for variant, fn, fn_args in variants:
      out = module_dir(args.cache, prog, size, variant)
      if args.list:
        print(out)
        continue
      if os.path.exists(os.path.join(out, "xla.json")):
        reused += 1
        continue
      record = compile_module(fn, fn_args, out)
      record.update(program=prog.name, size=size, variant=variant,
                    spmd=prog.devices > 1)
      os.makedirs(out, exist_ok=True)
      with open(os.path.join(out, "xla.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
      if "error" in record:
        failed += 1
        print(f"compile_zoo: {prog.name}.{size}.{variant}: {record['error']}",
              file=sys.stderr)
      else:
        compiled += 1
  if not args.list:
    print(f"compile_zoo: {compiled} compiled, {reused} reused from the cache, "
          f"{failed} failed (jax {jax.__version__}, jaxlib {jaxlib.__version__}, "
          f"target {TARGET})",
          file=sys.stderr)


if __name__ == "__main__":
  main()
