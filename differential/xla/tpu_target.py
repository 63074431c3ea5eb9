"""XLA:TPU without a TPU: a slice of TPU chips of one generation, for compiling.

libtpu (from PyPI, `jax[tpu]`: requirements-tpu.txt) holds XLA:TPU's
compiler as a PJRT plugin. Given a topology by name it compiles for chips
it does not have, on a CPU machine: jax's own backend stays the CPU, the
programs' shardings name the topology's devices, and
`jax.jit(f).lower(*specs).compile()` runs XLA:TPU, which dumps what it
allocates (--xla_dump_to) and answers memory_analysis().

    import tpu_target
    tpu_target.prepare_environment()        # before jax is imported
    devices = tpu_target.devices("v5e", 8)  # 8 chips of a v5e slice
    devices = tpu_target.devices("v5p", 64) # a 4x4x4 v5p slice

Nothing of libtpu is read: only what XLA:TPU writes.
"""

import os

# Generation -> (topology prefix, chip configuration, slice shape by chip
# count). v4 and v5p are 3-D tori of megacore chips (one device a chip);
# v5e and v6e are 2-D.
TARGETS = {
    "v4": ("v4", "megacore", {8: "2x2x2", 64: "4x4x4", 256: "4x8x8"}),
    "v5e": ("v5e", "default", {8: "2x4", 64: "8x8", 256: "16x16"}),
    "v5p": ("v5", "megacore", {8: "2x2x2", 64: "4x4x4", 256: "4x8x8"}),
    "v6e": ("v6e", "default", {8: "2x4", 64: "8x8", 256: "16x16"}),
}

# What the chip of each generation has (public specifications), for the
# harness' notes only: HBM per chip.
HBM_BYTES = {"v4": 32 << 30, "v5e": 16 << 30, "v5p": 95 << 30, "v6e": 32 << 30}


def prepare_environment():
  """What XLA:TPU needs to compile on a machine without a TPU: no query of
  a metadata server, no lock on the (absent) chips, the CPU as jax's
  backend. libtpu's start-up warnings
  about worker hostnames and the accelerator type are harmless."""
  os.environ["TPU_SKIP_MDS_QUERY"] = "1"
  # libtpu takes a lock file (/tmp/libtpu_lockfile) that keeps a second
  # process from loading it (a TPU's chips are one process's); compiling
  # for a topology uses no chip, so several harnesses may run at once.
  os.environ.setdefault("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")
  os.environ.setdefault("JAX_PLATFORMS", "cpu")
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def topology_name(target, count):
  if target not in TARGETS:
    raise SystemExit(f"tpu_target: no target {target} (one of {', '.join(TARGETS)})")
  prefix, _, shapes = TARGETS[target]
  if count not in shapes:
    raise SystemExit(f"tpu_target: {target}: no slice of {count} chips "
                     f"(one of {', '.join(map(str, shapes))})")
  return f"{prefix}:{shapes[count]}"


_TOPOLOGIES = {}


def topology(target, count):
  """The TopologyDescription of a `count`-chip slice of `target` (hosts of
  2x2 chips), made once."""
  key = (target, count)
  if key not in _TOPOLOGIES:
    from jax.experimental import topologies  # pylint: disable=import-outside-toplevel
    _TOPOLOGIES[key] = topologies.get_topology_desc(
        platform="tpu", topology_name=topology_name(target, count),
        chip_config_name=TARGETS[target][1], chips_per_host_bounds=(2, 2, 1),
        num_slices=1)
  return _TOPOLOGIES[key]


def devices(target, count):
  return list(topology(target, count).devices)


def libtpu_version():
  try:
    from importlib import metadata  # pylint: disable=import-outside-toplevel
    return metadata.version("libtpu")
  except Exception:  # pylint: disable=broad-except
    return "unknown"
