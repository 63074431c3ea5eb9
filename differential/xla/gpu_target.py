"""XLA:GPU without a GPU: a topology of N GPUs of one model, for compiling.

The CUDA plugin of jaxlib (jax-cuda12-plugin, jax-cuda12-pjrt from PyPI)
compiles for a GPU it does not have when it is given the GPU's description:
a `GpuTargetConfigProto` in text form. gpu_targets/ keeps XLA's own
descriptions of three GPUs (openxla/xla, xla/backends/gpu/target_config/
specs/, Apache 2.0; gpu_targets/README.md). A newer XLA's description may
carry fields the installed plugin's proto does not know: those are left
out, one at a time, each named on stderr.

    import gpu_target
    gpu_target.prepare_environment()        # before jax is imported
    devices = gpu_target.devices("h100", 8)
    # jax.ShapeDtypeStructs with SingleDeviceSharding(devices[0]) or a
    # NamedSharding over a Mesh of devices; then
    # jax.jit(f).trace(*specs).lower(lowering_platforms=("cuda",)).compile()
"""

import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Target name -> its description in gpu_targets/.
TARGETS = {
    "h100": "h100_sxm.txtpb",
    "a100": "a100_sxm_80.txtpb",
    "b200": "b200.txtpb",
}


def prepare_environment():
  """What XLA:GPU needs to compile on a machine without a GPU or a driver:
  no check of the CUDA libraries' versions, no autotuning (it runs kernels),
  and the CPU as jax's default backend (the CUDA backend cannot start)."""
  os.environ["JAX_SKIP_CUDA_CONSTRAINTS_CHECK"] = "1"
  os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                             " --xla_gpu_autotune_level=0").strip()
  os.environ.setdefault("JAX_PLATFORMS", "cpu")
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def target_text(target):
  if target not in TARGETS:
    raise SystemExit(f"gpu_target: no target {target} (one of {', '.join(TARGETS)})")
  with open(os.path.join(HERE, "gpu_targets", TARGETS[target])) as f:
    return f.read()


_UNKNOWN_FIELD = re.compile(r'(\d+):(\d+): Message type "[\w.]+" has no field named "(\w+)"')


def _with_stderr_captured(call):
  """Runs call(); returns (its result or None, the exception or None, what
  the C++ side wrote to file descriptor 2 meanwhile)."""
  sys.stderr.flush()
  saved = os.dup(2)
  with tempfile.TemporaryFile(mode="w+") as captured:
    os.dup2(captured.fileno(), 2)
    try:
      result, error = call(), None
    except Exception as e:  # pylint: disable=broad-except
      result, error = None, e
    finally:
      os.dup2(saved, 2)
      os.close(saved)
    captured.seek(0)
    return result, error, captured.read()


def _drop_field(text, line_number):
  """The text without the field on that line (1-based): a scalar line, or a
  message from its `name {` line to its closing brace."""
  lines = text.split("\n")
  start = line_number - 1
  end = start + 1
  if lines[start].rstrip().endswith("{"):
    depth = 1
    while depth and end < len(lines):
      depth += lines[end].count("{") - lines[end].count("}")
      end += 1
  return "\n".join(lines[:start] + lines[end:])


def topology(target, count):
  """The TopologyDescription of `count` GPUs of `target` (one host)."""
  from jax.experimental import topologies  # pylint: disable=import-outside-toplevel
  text = target_text(target)
  for _ in range(100):
    topo, error, log = _with_stderr_captured(lambda: topologies.get_topology_desc(
        f"{target}x{count}", "cuda", topology=f"1x1x{count}", target_config=text))
    if error is None:
      return topo
    unknown = _UNKNOWN_FIELD.search(log)
    if not unknown:
      raise SystemExit(f"gpu_target: {target}: {error}\n{log}")
    print(f"gpu_target: {target}: the installed XLA does not know "
          f"{unknown.group(3)}: left out", file=sys.stderr)
    text = _drop_field(text, int(unknown.group(1)))
  raise SystemExit(f"gpu_target: {target}: too many unknown fields")


def devices(target, count):
  return list(topology(target, count).devices)
