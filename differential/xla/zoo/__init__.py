"""The zoo: JAX programs written the way JAX users write them, for XLA:CPU.

Each program is a function of a size name that returns its variants: a list
of (variant name, jitted function, argument specs). The specs are
`jax.ShapeDtypeStruct`s (with a sharding for the SPMD programs), so a module
is only lowered and compiled, never run. A module of the zoo is named
PROGRAM.SIZE.VARIANT.

    @program("mlp", sizes=("s", "m"))
    def mlp(size):
        ...
        return [("train_step", jax.jit(step, donate_argnums=0), (params, batch))]

`devices=8` marks a program that compiles for 8 devices (the SPMD
partitioner runs): the 8 CPU devices of
--xla_force_host_platform_device_count=8, 8 GPUs of a topology
(compile_zoo.py --target h100: `set_devices`) or 8 chips of a TPU slice
(--target v5e); 64 and 256 are TPU slices only (`platforms=("tpu",)`). A program makes its meshes
with `make_mesh`, never over jax.devices(), so that they are on the devices
compiled for.
"""

import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import os
from typing import Callable, List, Sequence, Tuple

PROGRAMS = {}

# The devices the programs compile for: None for jax's own (the host's CPU
# devices), or a list of a GPU topology's devices (set_devices).
DEVICES = None


def set_devices(devices):
  global DEVICES
  DEVICES = list(devices) if devices is not None else None


def make_mesh(shape, names):
  """A mesh of the given shape over the first devices compiled for, its
  axes sharded the classic way (Auto: the partitioner propagates shardings
  from the arguments)."""
  import math  # pylint: disable=import-outside-toplevel
  import jax  # pylint: disable=import-outside-toplevel
  import numpy as np  # pylint: disable=import-outside-toplevel
  axis_types = (jax.sharding.AxisType.Auto,) * len(shape)
  if DEVICES is None:
    return jax.make_mesh(shape, names, axis_types=axis_types)
  chosen = np.array(DEVICES[:math.prod(shape)], dtype=object).reshape(shape)
  return jax.sharding.Mesh(chosen, names, axis_types=axis_types)


@dataclasses.dataclass
class Program:
  name: str
  sizes: Tuple[str, ...]
  devices: int
  build: Callable
  source_hash: str
  family: str
  platforms: Tuple[str, ...] = ("cpu", "gpu", "tpu")


def program(name, sizes=("s", "m"), devices=1, platforms=("cpu", "gpu", "tpu")):
  """Registers a program of the zoo (see the module's docstring).
  `platforms`: those it is compiled for (a program of 64 chips is made for
  XLA:TPU's slices only)."""

  def register(build):
    if name in PROGRAMS:
      raise ValueError(f"program {name} registered twice")
    # A helper the program calls changes its modules too: the whole file
    # it lives in is part of its key, with the shared helpers.
    with open(build.__code__.co_filename) as f:
      text = f.read()
    digest = hashlib.sha256((text + _COMMON_SOURCE).encode()).hexdigest()
    family = build.__module__.rsplit(".", 1)[-1]
    PROGRAMS[name] = Program(name, tuple(sizes), devices, build, digest[:12], family,
                             tuple(platforms))
    return build

  return register


def _common_source():
  from . import common  # pylint: disable=import-outside-toplevel
  return inspect.getsource(common)


_COMMON_SOURCE = ""

_FAMILIES = ("training", "nets", "control", "ops", "numerics", "spmd", "gpu_users",
             "tpu_users")


def load(other=""):
  """Imports every family of programs; returns PROGRAMS.

  With `other` (a folder), imports instead every .py file of that folder:
  a set of programs kept elsewhere (a held-out set), registered with
  `zoo.program` the same way.
  """
  global _COMMON_SOURCE
  if not _COMMON_SOURCE:
    _COMMON_SOURCE = _common_source()
  if not other:
    for family in _FAMILIES:
      importlib.import_module(f"{__name__}.{family}")
    return PROGRAMS
  for name in sorted(os.listdir(other)):
    if name.endswith(".py") and not name.startswith("_"):
      path = os.path.join(other, name)
      module_spec = importlib.util.spec_from_file_location(f"other_{name[:-3]}", path)
      module = importlib.util.module_from_spec(module_spec)
      module_spec.loader.exec_module(module)
  return PROGRAMS


def module_names(programs: Sequence[Program]) -> List[Tuple[Program, str]]:
  """(program, size) pairs of the given programs."""
  return [(p, size) for p in programs for size in p.sizes]
