"""Programs GPU users write that the other families lack: flash-style
attention (blockwise, online softmax), mixed precision with dynamic loss
scaling, jax.checkpoint policies, a scan over stacked layers, MoE dispatch
with all_to_all (8 devices), large embedding tables (one device and
vocabulary-sharded on 8)."""

import functools

import jax
from jax.ad_checkpoint import checkpoint_name
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from . import common as c
from . import make_mesh
from . import program


def _flash_attention(q, k, v, block):
  """Attention over key/value blocks with a running max and sum (the
  online softmax of flash attention): never the whole score matrix."""
  b, n, h, d = q.shape
  kb = k.reshape(b, n // block, block, h, d).swapaxes(0, 1)
  vb = v.reshape(b, n // block, block, h, d).swapaxes(0, 1)
  scale = 1.0 / jnp.sqrt(jnp.float32(d)).astype(q.dtype)

  def step(carry, kv):
    acc, row_max, row_sum = carry
    kj, vj = kv
    s = jnp.einsum("bqhd,bkhd->bhqk", q, kj).astype(jnp.float32) * scale
    new_max = jnp.maximum(row_max, s.max(-1))
    p = jnp.exp(s - new_max[..., None])
    corr = jnp.exp(row_max - new_max)
    row_sum = row_sum * corr + p.sum(-1)
    acc = acc * corr[..., None] + jnp.einsum("bhqk,bkhd->bhqd", p.astype(q.dtype),
                                             vj).astype(jnp.float32)
    return (acc, new_max, row_sum), None

  init = (jnp.zeros((b, h, n, d), jnp.float32), jnp.full((b, h, n), -jnp.inf),
          jnp.zeros((b, h, n), jnp.float32))
  (acc, _, row_sum), _ = jax.lax.scan(step, init, (kb, vb))
  return (acc / row_sum[..., None]).swapaxes(1, 2).astype(q.dtype)


@program("flash_attention", sizes=("s", "m"))
def flash_attention(size):
  b, n, h, d, block = {"s": (2, 128, 4, 32, 32), "m": (4, 512, 8, 64, 128)}[size]
  qkv = [c.spec((b, n, h, d), jnp.bfloat16) for _ in range(3)]
  fwd = functools.partial(_flash_attention, block=block)

  def loss(q, k, v):
    return jnp.mean(fwd(q, k, v).astype(jnp.float32) ** 2)

  return [("forward", jax.jit(fwd), tuple(qkv)),
          ("grad", jax.jit(jax.grad(loss, argnums=(0, 1, 2))), tuple(qkv))]


@program("mixed_precision_loss_scale", sizes=("s", "m"))
def mixed_precision_loss_scale(size):
  widths = {"s": [64, 128, 10], "m": [512, 2048, 1000]}[size]
  batch = {"s": 32, "m": 128}[size]
  params = c.mlp_params(widths)  # f32 master weights
  state = {"scale": c.spec((), jnp.float32), "good_steps": c.spec((), jnp.int32)}
  x = c.spec((batch, widths[0]), jnp.float32)
  y = c.spec((batch,), jnp.int32)

  def step(p, s, x, y, dtype):
    def scaled_loss(p):
      half = jax.tree.map(lambda t: t.astype(dtype), p)
      logits = c.mlp_apply(half, x.astype(dtype)).astype(jnp.float32)
      return c.softmax_cross_entropy(logits, y) * s["scale"]

    g = jax.grad(scaled_loss)(p)
    g = jax.tree.map(lambda t: t / s["scale"], g)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(t)) for t in jax.tree.leaves(g)]))
    new_p = jax.tree.map(lambda a, b: jnp.where(finite, a - 1e-3 * b, a), p, g)
    grow = finite & (s["good_steps"] >= 2000)
    scale = jnp.where(finite, jnp.where(grow, s["scale"] * 2, s["scale"]), s["scale"] / 2)
    good = jnp.where(finite & ~grow, s["good_steps"] + 1, 0)
    return new_p, {"scale": scale, "good_steps": good}

  return [("f16_step", jax.jit(functools.partial(step, dtype=jnp.float16),
                               donate_argnums=(0, 1)), (params, state, x, y)),
          ("bf16_step", jax.jit(functools.partial(step, dtype=jnp.bfloat16)),
           (params, state, x, y))]


@program("checkpoint_policies", sizes=("s", "m"))
def checkpoint_policies(size):
  vocab, d, heads, layers, ff, batch, seq = {"s": (128, 64, 4, 2, 256, 4, 32),
                                             "m": (512, 256, 8, 4, 1024, 8, 128)}[size]
  params = c.transformer_params(vocab, d, heads, layers, ff)
  tokens = c.spec((batch, seq + 1), jnp.int32)
  cp = jax.checkpoint_policies
  policies = {
      "nothing_saveable": cp.nothing_saveable,
      "dots_saveable": cp.dots_saveable,
      "dots_no_batch": cp.dots_with_no_batch_dims_saveable,
      "save_named": cp.save_only_these_names("attn_out"),
      "everything_saveable": cp.everything_saveable,
  }
  out = []
  for name, policy in policies.items():
    def block(p, x, policy=policy):
      def f(p, x):
        b, n, dd = x.shape
        h = c.layer_norm(x, p["ln1"]["scale"], p["ln1"]["bias"])
        q, k, v = jnp.split(h @ p["qkv"], 3, axis=-1)
        q, k, v = (t.reshape(b, n, heads, dd // heads) for t in (q, k, v))
        a = checkpoint_name(
            c.attention(q, k, v).reshape(b, n, dd) @ p["out"], "attn_out")
        x = x + a
        h = c.layer_norm(x, p["ln2"]["scale"], p["ln2"]["bias"])
        return x + jax.nn.gelu(h @ p["ff1"]) @ p["ff2"]
      return jax.checkpoint(f, policy=policy)(p, x)

    def loss(params, t, block=block):
      x = params["embed"][t[:, :-1]]
      for p in params["blocks"]:
        x = block(p, x)
      logits = x @ params["embed"].T
      return c.softmax_cross_entropy(logits.reshape(-1, vocab), t[:, 1:].reshape(-1))

    out.append((name, jax.jit(jax.value_and_grad(loss)), (params, tokens)))
  return out


@program("scan_over_layers", sizes=("s", "m"))
def scan_over_layers(size):
  vocab, d, heads, layers, ff, batch, seq = {"s": (128, 64, 4, 4, 256, 4, 32),
                                             "m": (512, 256, 8, 8, 1024, 8, 64)}[size]
  one = c.transformer_params(vocab, d, heads, 1, ff)["blocks"][0]
  stacked = jax.tree.map(lambda s: c.spec((layers,) + s.shape, s.dtype), one)
  embed = c.spec((vocab, d))
  tokens = c.spec((batch, seq + 1), jnp.int32)

  def loss(stacked, embed, t, remat):
    body = lambda x, p: (c.transformer_block(p, x, heads), None)
    if remat:
      body = jax.checkpoint(body)
    x, _ = jax.lax.scan(body, embed[t[:, :-1]], stacked)
    logits = x @ embed.T
    return c.softmax_cross_entropy(logits.reshape(-1, vocab), t[:, 1:].reshape(-1))

  def step(stacked, embed, t, remat):
    l, (gs, ge) = jax.value_and_grad(loss, argnums=(0, 1))(stacked, embed, t, remat)
    return c.sgd_update(stacked, gs), embed - 1e-2 * ge, l

  return [("scan_step", jax.jit(functools.partial(step, remat=False), donate_argnums=(0, 1)),
           (stacked, embed, tokens)),
          ("scan_remat_step", jax.jit(functools.partial(step, remat=True),
                                      donate_argnums=(0, 1)), (stacked, embed, tokens))]


@program("large_embedding", sizes=("s", "m"))
def large_embedding(size):
  vocab, d, batch, seq = {"s": (32768, 128, 8, 64), "m": (131072, 256, 16, 128)}[size]
  table = c.spec((vocab, d))
  ids = c.spec((batch, seq), jnp.int32)

  def loss(table, ids):
    x = table[ids]
    logits = x @ table.T  # tied output projection
    return c.softmax_cross_entropy(logits.reshape(-1, vocab)[:, :], ids.reshape(-1))

  def sparse_update(table, ids):
    g = jax.grad(lambda e: jnp.sum(jnp.tanh(e) ** 2))(table[ids])
    return table.at[ids].add(-1e-2 * g)

  return [("tied_loss_grad", jax.jit(jax.value_and_grad(loss)), (table, ids)),
          ("sparse_update", jax.jit(sparse_update, donate_argnums=0), (table, ids))]


@program("large_embedding_sharded", sizes=("s", "m"), devices=8)
def large_embedding_sharded(size):
  vocab, d, batch, seq = {"s": (32768, 128, 8, 64), "m": (131072, 256, 16, 128)}[size]
  m = make_mesh((8,), ("v",))
  table = c.spec((vocab, d), sharding=NamedSharding(m, P("v", None)))
  ids = c.spec((batch, seq), jnp.int32, NamedSharding(m, P()))

  def lookup_grad(table, ids):
    return jax.grad(lambda t: jnp.mean(t[ids] ** 2))(table)

  return [("lookup_grad", jax.jit(lookup_grad), (table, ids))]


@program("moe_all_to_all", sizes=("s", "m"), devices=8)
def moe_all_to_all(size):
  """Expert parallelism: a router's top-1 choice, tokens dispatched to their
  expert's device with all_to_all (a fixed capacity per expert) and back."""
  tokens, d, ff = {"s": (256, 32, 64), "m": (4096, 256, 1024)}[size]
  experts = 8
  capacity = tokens // experts // experts * 2
  m = make_mesh((8,), ("e",))

  def layer(x, router, w1, w2):
    logits = x @ router
    choice = jnp.argmax(logits, -1)
    gate = jax.nn.softmax(logits, -1).max(-1)
    onehot = jax.nn.one_hot(choice, experts, dtype=x.dtype)
    slot = (jnp.cumsum(onehot, 0) - 1) * onehot
    keep = (slot < capacity) & (onehot > 0)
    dispatch = jax.nn.one_hot(slot.sum(-1).astype(jnp.int32), capacity) * keep.any(-1)[:, None]
    mask = onehot[:, :, None] * dispatch[:, None, :]  # token, expert, slot
    sent = jnp.einsum("tec,td->ecd", mask, x)
    recv = jax.lax.all_to_all(sent, "e", 0, 0, tiled=True)
    h = jax.nn.gelu(recv @ w1[0]) @ w2[0]
    back = jax.lax.all_to_all(h, "e", 0, 0, tiled=True)
    return jnp.einsum("tec,ecd->td", mask, back) * gate[:, None]

  def loss(x, router, w1, w2):
    y = jax.shard_map(layer, mesh=m, in_specs=(P("e"), P(), P("e"), P("e")),
                      out_specs=P("e"), check_vma=False)(x, router, w1, w2)
    return jnp.mean(y ** 2)

  args = (c.spec((tokens, d), sharding=NamedSharding(m, P("e"))),
          c.spec((d, experts), sharding=NamedSharding(m, P())),
          c.spec((experts, d, ff), sharding=NamedSharding(m, P("e"))),
          c.spec((experts, ff, d), sharding=NamedSharding(m, P("e"))))
  return [("forward", jax.jit(loss), args),
          ("grad", jax.jit(jax.grad(loss, argnums=(1, 2, 3))), args)]
