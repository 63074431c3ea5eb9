"""What XLA:TPU says of each generation's chip, from what it writes.

Run in the TPU harness' venv (requirements-tpu.txt; no TPU needed):

    source differential/venv.sh
    venv=$(hlolayout_venv xla-tpu differential/xla/requirements-tpu.txt)
    "$venv/bin/python" differential/xla/tpu_chips.py --dump OUT [--limits]

For v4, v5e, v5p and v6e it compiles a one-chip program and an SPMD one on
8 chips with --xla_dump_to=OUT/GEN and prints what XLA:TPU's
`*.target_arguments.txt` names (its topology's version, variant and chip
configuration) and the module's num_partitions. With --limits it also
finds, by bisection, the largest program without temporaries XLA:TPU
compiles for one chip (an f32 array in, one out) and prints its
out-of-memory message just above: the HBM XLA:TPU lets a program take
(docs/xla-tpu.md, "The chip"). Nothing of libtpu is read: only what XLA:TPU
writes and answers.
"""

import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tpu_target  # pylint: disable=wrong-import-position

GENERATIONS = ("v4", "v5e", "v5p", "v6e")
# Where to start bisecting: XLA:TPU's figure for the generation, in GiB
# (its message, then checked here).
START_GIB = {"v4": 30.75, "v5e": 15.75, "v5p": 95.74, "v6e": 31.25}


def compile_for(jax, jnp, fn, shape, sharding):
  spec = jax.ShapeDtypeStruct(shape, jnp.float32, sharding=sharding)
  return jax.jit(fn).trace(spec).lower(lowering_platforms=("tpu",)).compile()


def target_facts(folder):
  facts = []
  for path in sorted(glob.glob(os.path.join(folder, "*.target_arguments.txt"))):
    text = open(path).read()
    get = lambda key: (re.search(r"\b%s: \"?([A-Za-z0-9_]+)" % key, text) or [None, ""])[1]
    module = path[: -len(".target_arguments.txt")] + ".after_optimizations.txt"
    head = open(module).readline() if os.path.exists(module) else ""
    parts = re.search(r"num_partitions=(\d+)", head)
    facts.append((os.path.basename(path), get("version"), get("variant"),
                  get("chip_config_name"), parts[1] if parts else "1"))
  return facts


def limit(jax, jnp, device):
  """The largest f32[8k,128] array (in and out) XLA:TPU compiles, and the
  message for one (8,128) tile more."""
  from jax.sharding import SingleDeviceSharding  # pylint: disable=import-outside-toplevel
  sharding = SingleDeviceSharding(device)

  def attempt(tiles):
    try:
      compile_for(jax, jnp, lambda x: x * 2.0 + 1.0, (tiles * 8, 128), sharding)
      return True, ""
    except Exception as e:  # pylint: disable=broad-except
      return False, str(e).split("\n")[0]

  gib = START_GIB[device_generation(device)]
  lo = int(gib * (1 << 30) / 2 / 4096 * 0.97)
  hi = int(gib * (1 << 30) / 2 / 4096 * 1.01)
  assert attempt(lo)[0] and not attempt(hi)[0]
  while hi - lo > 1:
    mid = (lo + hi) // 2
    if attempt(mid)[0]:
      lo = mid
    else:
      hi = mid
  return 2 * lo * 4096, attempt(hi)[1]


def device_generation(device):
  return {"TPU v4": "v4", "TPU v5 lite": "v5e", "TPU v5": "v5p",
          "TPU v6 lite": "v6e"}[device.device_kind]


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--dump", required=True)
  parser.add_argument("--limits", action="store_true")
  parser.add_argument("--generations", default=",".join(GENERATIONS))
  args = parser.parse_args()
  tpu_target.prepare_environment()
  for gen in args.generations.split(","):
    # XLA_FLAGS are read once per process: a process per generation and
    # task, the bisection's compiles left undumped.
    run_in_child(lambda: dump_programs(args.dump, gen))
    if args.limits:
      run_in_child(lambda: print_limit(gen))


def run_in_child(task):
  if os.fork() == 0:
    task()
    sys.stdout.flush()
    os._exit(0)
  os.wait()


def dump_programs(dump, gen):
  folder = os.path.join(dump, gen)
  os.environ["XLA_FLAGS"] = f"--xla_dump_to={folder} --xla_dump_hlo_as_text"
  import jax  # pylint: disable=import-outside-toplevel
  import jax.numpy as jnp  # pylint: disable=import-outside-toplevel
  import numpy as np  # pylint: disable=import-outside-toplevel
  from jax.sharding import Mesh, NamedSharding, PartitionSpec, SingleDeviceSharding  # pylint: disable=import-outside-toplevel
  devices = tpu_target.devices(gen, 8)
  compile_for(jax, jnp, lambda x: x * 2.0 + 1.0, (64, 128),
              SingleDeviceSharding(devices[0]))
  mesh = Mesh(np.array(devices), ("d",))
  compile_for(jax, jnp, lambda x: (x * 2.0).sum(), (64, 128),
              NamedSharding(mesh, PartitionSpec("d")))
  for name, version, variant, config, parts in target_facts(folder):
    print(f"{gen}\t{devices[0].device_kind}\t{name}\tversion={version}\t"
          f"variant={variant or '-'}\tchip_config={config}\t"
          f"num_partitions={parts}")


def print_limit(gen):
  os.environ.pop("XLA_FLAGS", None)
  import jax  # pylint: disable=import-outside-toplevel
  import jax.numpy as jnp  # pylint: disable=import-outside-toplevel
  largest, message = limit(jax, jnp, tpu_target.devices(gen, 8)[0])
  print(f"{gen}\tlargest program without temporaries: {largest} bytes of "
        f"arguments and outputs\n{gen}\t8 KiB more: {message}")


if __name__ == "__main__":
  main()
