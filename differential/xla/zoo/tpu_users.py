"""Programs TPU users run at scale, for XLA:TPU's slices only (64 and 256
chips): a transformer training step with FSDP and tensor parallelism
(unrolled and with a scan over layers, remat), a mixture-of-experts layer
with all_to_all, a pipeline with collective permutes, activations
offloaded to host memory (`pinned_host`), int8/fp8/int4 weights, donated
buffers. Compiled with `compile_zoo.py --target v4|v5e|v5p|v6e`."""

import functools

import jax
from jax.ad_checkpoint import checkpoint_name
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from . import common as c
from . import make_mesh
from . import program

TPU = ("tpu",)

# size -> (vocab, d_model, heads, layers, d_ff, global batch, sequence)
_TRANSFORMER = {
    "s": (4096, 512, 8, 4, 2048, 64, 256),
    "m": (32768, 2048, 16, 24, 8192, 64, 1024),
}


def _sharded_params(mesh, vocab, d, layers, ff, stacked):
  """Transformer parameters, FSDP over `data` and tensor-parallel over
  `model` (Megatron: qkv and ff1 by columns, out and ff2 by rows)."""
  def s(shape, spec):
    if stacked:
      shape, spec = (layers,) + shape, P(None, *spec)
    return c.spec(shape, jnp.float32, NamedSharding(mesh, spec))
  block = {
      "ln1": s((d,), P(None)), "ln2": s((d,), P(None)),
      "qkv": s((d, 3 * d), P("data", "model")),
      "out": s((d, d), P("model", "data")),
      "ff1": s((d, ff), P("data", "model")),
      "ff2": s((ff, d), P("model", "data")),
  }
  blocks = block if stacked else [
      {k: c.spec(v.shape, v.dtype, v.sharding) for k, v in block.items()}
      for _ in range(layers)]
  return {"embed": c.spec((vocab, d), jnp.float32, NamedSharding(mesh, P("model", "data"))),
          "blocks": blocks,
          "ln_f": c.spec((d,), jnp.float32, NamedSharding(mesh, P(None)))}


def _rms(x, scale):
  x32 = x.astype(jnp.float32)
  return (x32 * jax.lax.rsqrt(jnp.mean(x32 * x32, -1, keepdims=True) + 1e-6)
          * scale).astype(x.dtype)


def _block(p, x, heads, mesh):
  b, n, d = x.shape
  act = NamedSharding(mesh, P("data", None, None))
  h = _rms(x, p["ln1"])
  qkv = h @ p["qkv"].astype(jnp.bfloat16)
  q, k, v = (t.reshape(b, n, heads, d // heads) for t in jnp.split(qkv, 3, -1))
  a = c.attention(q, k, v).reshape(b, n, d)
  x = jax.lax.with_sharding_constraint(x + a @ p["out"].astype(jnp.bfloat16), act)
  h = _rms(x, p["ln2"])
  f = jax.nn.gelu(checkpoint_name(h @ p["ff1"].astype(jnp.bfloat16), "ff1"))
  return jax.lax.with_sharding_constraint(x + f @ p["ff2"].astype(jnp.bfloat16), act)


def _loss(params, tokens, heads, mesh, scan, remat):
  x = params["embed"].astype(jnp.bfloat16)[tokens[:, :-1]]
  block = functools.partial(_block, heads=heads, mesh=mesh)
  if remat:
    block = jax.checkpoint(block, policy=jax.checkpoint_policies.save_only_these_names("ff1"))
  if scan:
    x, _ = jax.lax.scan(lambda x, p: (block(p, x), None), x, params["blocks"])
  else:
    for p in params["blocks"]:
      x = block(p, x)
  logits = (_rms(x, params["ln_f"]) @ params["embed"].astype(jnp.bfloat16).T).astype(jnp.float32)
  return c.softmax_cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                 tokens[:, 1:].reshape(-1))


def _train_step(params, state, tokens, heads, mesh, scan, remat):
  loss, grads = jax.value_and_grad(_loss)(params, tokens, heads, mesh, scan, remat)
  params, state = c.adamw_update(params, grads, state)
  return params, state, loss


def _transformer_variants(size, mesh_shape):
  vocab, d, heads, layers, ff, batch, seq = _TRANSFORMER[size]
  mesh = make_mesh(mesh_shape, ("data", "model"))
  tokens = c.spec((batch, seq + 1), jnp.int32, NamedSharding(mesh, P("data", None)))
  out = []
  for name, scan, remat in (("unrolled_remat", False, True), ("scan_remat", True, True),
                            ("scan", True, False)):
    params = _sharded_params(mesh, vocab, d, layers, ff, scan)
    state = c.adam_state(params)
    state["count"] = c.spec((), jnp.int32, NamedSharding(mesh, P()))
    step = functools.partial(_train_step, heads=heads, mesh=mesh, scan=scan, remat=remat)
    out.append((name, jax.jit(step, donate_argnums=(0, 1)), (params, state, tokens)))
  return out


@program("tpu_transformer_fsdp_tp", sizes=("s", "m"), devices=64, platforms=TPU)
def tpu_transformer_fsdp_tp(size):
  """A training step on 64 chips: FSDP over 16, tensor parallel over 4;
  AdamW, donated parameters and state."""
  return _transformer_variants(size, (16, 4))


@program("tpu_transformer_256", sizes=("s",), devices=256, platforms=TPU)
def tpu_transformer_256(size):
  """The same step on 256 chips: FSDP over 32, tensor parallel over 8."""
  return _transformer_variants(size, (32, 8))[:2]


@program("tpu_moe_all_to_all", sizes=("s", "m"), devices=64, platforms=TPU)
def tpu_moe_all_to_all(size):
  """Expert parallelism over 8 chips times data parallelism over 8: a
  router's top-1 choice, tokens sent to their expert with all_to_all."""
  tokens, d, ff = {"s": (8192, 256, 1024), "m": (65536, 1024, 4096)}[size]
  experts = 8
  capacity = tokens // 64 // experts * 2
  mesh = make_mesh((8, 8), ("data", "expert"))

  def layer(x, router, w1, w2):
    logits = x @ router
    choice = jnp.argmax(logits, -1)
    gate = jax.nn.softmax(logits, -1).max(-1)
    onehot = jax.nn.one_hot(choice, experts, dtype=x.dtype)
    slot = (jnp.cumsum(onehot, 0) - 1) * onehot
    keep = (slot < capacity) & (onehot > 0)
    dispatch = jax.nn.one_hot(slot.sum(-1).astype(jnp.int32), capacity) * keep.any(-1)[:, None]
    mask = onehot[:, :, None] * dispatch[:, None, :]
    sent = jnp.einsum("tec,td->ecd", mask, x)
    recv = jax.lax.all_to_all(sent, "expert", 0, 0, tiled=True)
    h = jax.nn.gelu(recv @ w1[0]) @ w2[0]
    back = jax.lax.all_to_all(h, "expert", 0, 0, tiled=True)
    return jnp.einsum("tec,ecd->td", mask, back) * gate[:, None]

  def loss(x, router, w1, w2):
    y = jax.shard_map(layer, mesh=mesh,
                      in_specs=(P(("data", "expert")), P(), P("expert"), P("expert")),
                      out_specs=P(("data", "expert")), check_vma=False)(x, router, w1, w2)
    return jnp.mean(y.astype(jnp.float32) ** 2)

  dt = jnp.bfloat16
  args = (c.spec((tokens, d), dt, NamedSharding(mesh, P(("data", "expert")))),
          c.spec((d, experts), dt, NamedSharding(mesh, P())),
          c.spec((experts, d, ff), dt, NamedSharding(mesh, P("expert"))),
          c.spec((experts, ff, d), dt, NamedSharding(mesh, P("expert"))))
  return [("forward", jax.jit(loss), args),
          ("grad", jax.jit(jax.grad(loss, argnums=(1, 2, 3))), args)]


@program("tpu_pipeline_ppermute", sizes=("s", "m"), devices=64, platforms=TPU)
def tpu_pipeline_ppermute(size):
  """A GPipe pipeline: 4 stages times 16-way data parallelism, microbatches
  passed stage to stage with ppermute inside a scan; forward and grad."""
  d, micro, mb = {"s": (512, 8, 64), "m": (2048, 16, 256)}[size]
  stages = 4
  mesh = make_mesh((16, stages), ("data", "stage"))

  def stage_fn(w, x):
    return jnp.tanh(x @ w[0])

  def pipeline(w, xs):
    idx = jax.lax.axis_index("stage")
    perm = [(i, (i + 1) % stages) for i in range(stages)]

    def step(carry, t):
      state, outs = carry
      inp = jnp.where(idx == 0, xs[jnp.minimum(t, micro - 1)], state)
      y = stage_fn(w, inp)
      outs = jnp.where((idx == stages - 1) & (t >= stages - 1),
                       outs.at[jnp.maximum(t - stages + 1, 0)].set(y), outs)
      return (jax.lax.ppermute(y, "stage", perm), outs), None

    init = (jnp.zeros_like(xs[0]), jnp.zeros_like(xs))
    (_, outs), _ = jax.lax.scan(step, init, jnp.arange(micro + stages - 1))
    return outs

  def loss(w, xs):
    out = jax.shard_map(pipeline, mesh=mesh, in_specs=(P("stage"), P(None, "data")),
                        out_specs=P(None, "data"), check_vma=False)(w, xs)
    return jnp.mean(out.astype(jnp.float32) ** 2)

  dt = jnp.bfloat16
  args = (c.spec((stages, d, d), dt, NamedSharding(mesh, P("stage"))),
          c.spec((micro, mb * 16, d), dt, NamedSharding(mesh, P(None, "data"))))
  return [("forward", jax.jit(loss), args),
          ("grad", jax.jit(jax.grad(loss)), args)]


@program("tpu_host_offload", sizes=("s", "m"), devices=64, platforms=TPU)
def tpu_host_offload(size):
  """Activations offloaded to host memory (`pinned_host`) by a remat
  policy, and optimizer state kept in host memory between steps."""
  d, ff, batch, seq, layers = {"s": (512, 2048, 64, 128, 4),
                               "m": (2048, 8192, 64, 512, 8)}[size]
  mesh = make_mesh((64,), ("data",))
  policy = jax.checkpoint_policies.save_and_offload_only_these_names(
      names_which_can_be_saved=[], names_which_can_be_offloaded=["act"],
      offload_src="device", offload_dst="pinned_host")

  def block(w, x):
    h = checkpoint_name(jnp.tanh(x @ w["a"]), "act")
    return x + h @ w["b"]

  def loss(ws, x):
    for w in ws:
      x = jax.checkpoint(block, policy=policy)(w, x)
    return jnp.mean(x.astype(jnp.float32) ** 2)

  rep = NamedSharding(mesh, P())
  ws = [{"a": c.spec((d, ff), jnp.bfloat16, rep), "b": c.spec((ff, d), jnp.bfloat16, rep)}
        for _ in range(layers)]
  x = c.spec((batch, seq, d), jnp.bfloat16, NamedSharding(mesh, P("data")))

  host = NamedSharding(mesh, P("data"), memory_kind="pinned_host")
  dev = NamedSharding(mesh, P("data"))

  def sgd_host_state(w, m, g):
    m = jax.device_put(m, dev)
    m = 0.9 * m + g
    return w - 1e-2 * m, jax.device_put(m, host)

  vec = c.spec((1024 * 64, d), jnp.float32, dev)
  state = c.spec((1024 * 64, d), jnp.float32, host)
  return [("offload_grad", jax.jit(jax.grad(loss)), (ws, x)),
          ("host_state", jax.jit(sgd_host_state, donate_argnums=(0, 1),
                                 out_shardings=(dev, host)), (vec, state, vec))]


@program("tpu_quantized_weights", sizes=("s", "m"), devices=64, platforms=TPU)
def tpu_quantized_weights(size):
  """Serving with quantized weights: int8, fp8 (e4m3) and int4 weights
  with per-channel scales, dequantized at the matmul; weights sharded over
  8 chips (tensor parallel) times 8 (data)."""
  d, ff, batch = {"s": (1024, 4096, 64), "m": (4096, 16384, 256)}[size]
  mesh = make_mesh((8, 8), ("data", "model"))
  x = c.spec((batch, d), jnp.bfloat16, NamedSharding(mesh, P("data", None)))
  scale1 = c.spec((ff,), jnp.bfloat16, NamedSharding(mesh, P("model")))
  scale2 = c.spec((d,), jnp.bfloat16, NamedSharding(mesh, P(None)))

  def mlp(w1, s1, w2, s2, x):
    h = jax.nn.gelu(x @ (w1.astype(jnp.bfloat16) * s1))
    return h @ (w2.astype(jnp.bfloat16) * s2)

  out = []
  for name, dt in (("int8", jnp.int8), ("fp8", jnp.float8_e4m3fn), ("int4", jnp.int4)):
    w1 = c.spec((d, ff), dt, NamedSharding(mesh, P(None, "model")))
    w2 = c.spec((ff, d), dt, NamedSharding(mesh, P("model", None)))
    out.append((name, jax.jit(mlp), (w1, scale1, w2, scale2, x)))
  return out


@program("tpu_donated_update", sizes=("s", "m"), platforms=TPU)
def tpu_donated_update(size):
  """One chip: a KV cache updated in place with its buffer donated (the
  decoding step of serving), and an int8 weight matmul."""
  layers, batch, seq, heads, hd = {"s": (2, 8, 256, 8, 64), "m": (8, 16, 2048, 16, 128)}[size]
  cache = c.spec((layers, 2, batch, seq, heads, hd), jnp.bfloat16)
  new = c.spec((layers, 2, batch, 1, heads, hd), jnp.bfloat16)
  pos = c.spec((), jnp.int32)

  def update(cache, new, pos):
    return jax.lax.dynamic_update_slice(cache, new, (0, 0, 0, pos, 0, 0))

  w = c.spec((heads * hd, 4 * heads * hd), jnp.int8)
  x = c.spec((batch, heads * hd), jnp.bfloat16)
  return [("kv_cache_update", jax.jit(update, donate_argnums=0), (cache, new, pos)),
          ("int8_matmul", jax.jit(lambda w, x: x @ w.astype(jnp.bfloat16)), (w, x))]
