"""Helpers the programs of the zoo share: argument specs, layers, optimizers.

Everything works on `jax.ShapeDtypeStruct` trees: the zoo compiles, it never
runs, so parameters are specs, not arrays.
"""

import jax
import jax.numpy as jnp


def spec(shape, dtype=jnp.float32, sharding=None):
  return jax.ShapeDtypeStruct(tuple(shape), jnp.dtype(dtype), sharding=sharding)


def specs_like(tree, dtype=None):
  """Specs of the same shapes as `tree` (a tree of specs)."""
  return jax.tree.map(lambda s: spec(s.shape, dtype or s.dtype, s.sharding), tree)


def mlp_params(widths, dtype=jnp.float32):
  return [{"w": spec((a, b), dtype), "b": spec((b,), dtype)}
          for a, b in zip(widths[:-1], widths[1:])]


def mlp_apply(params, x, act=jax.nn.relu):
  for i, layer in enumerate(params):
    x = x @ layer["w"] + layer["b"]
    if i + 1 < len(params):
      x = act(x)
  return x


def softmax_cross_entropy(logits, labels):
  logp = jax.nn.log_softmax(logits)
  return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))


def layer_norm(x, scale, bias, eps=1e-5):
  mean = jnp.mean(x, axis=-1, keepdims=True)
  var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
  return (x - mean) * jax.lax.rsqrt(var + eps) * scale + bias


def attention(q, k, v, causal=True):
  """q, k, v: [batch, seq, heads, head_dim]."""
  scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
  if causal:
    n = q.shape[1]
    mask = jnp.tril(jnp.ones((n, n), bool))
    scores = jnp.where(mask, scores, jnp.finfo(scores.dtype).min)
  weights = jax.nn.softmax(scores, axis=-1)
  return jnp.einsum("bhqk,bkhd->bqhd", weights, v)


def transformer_params(vocab, d, heads, layers, ff, dtype=jnp.float32):
  block = {
      "ln1": {"scale": spec((d,), dtype), "bias": spec((d,), dtype)},
      "qkv": spec((d, 3 * d), dtype),
      "out": spec((d, d), dtype),
      "ln2": {"scale": spec((d,), dtype), "bias": spec((d,), dtype)},
      "ff1": spec((d, ff), dtype),
      "ff2": spec((ff, d), dtype),
  }
  return {
      "embed": spec((vocab, d), dtype),
      "blocks": [block] * layers,
      "ln_f": {"scale": spec((d,), dtype), "bias": spec((d,), dtype)},
  }


def transformer_block(p, x, heads):
  b, n, d = x.shape
  h = layer_norm(x, p["ln1"]["scale"], p["ln1"]["bias"])
  q, k, v = jnp.split(h @ p["qkv"], 3, axis=-1)
  q, k, v = (t.reshape(b, n, heads, d // heads) for t in (q, k, v))
  x = x + attention(q, k, v).reshape(b, n, d) @ p["out"]
  h = layer_norm(x, p["ln2"]["scale"], p["ln2"]["bias"])
  return x + jax.nn.gelu(h @ p["ff1"]) @ p["ff2"]


def transformer_logits(params, tokens, heads):
  x = params["embed"][tokens]
  for p in params["blocks"]:
    x = transformer_block(p, x, heads)
  x = layer_norm(x, params["ln_f"]["scale"], params["ln_f"]["bias"])
  return x @ params["embed"].T


def lm_loss(params, tokens, heads):
  logits = transformer_logits(params, tokens[:, :-1], heads)
  return softmax_cross_entropy(logits.reshape(-1, logits.shape[-1]),
                               tokens[:, 1:].reshape(-1))


def adam_state(params):
  zeros = specs_like(params)
  return {"mu": zeros, "nu": specs_like(params), "count": spec((), jnp.int32)}


def adamw_update(params, grads, state, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, wd=1e-2):
  count = state["count"] + 1
  mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["mu"], grads)
  nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["nu"], grads)
  c = count.astype(jnp.float32)
  def step(p, m, v):
    mhat = m / (1 - b1 ** c)
    vhat = v / (1 - b2 ** c)
    return p - lr * (mhat / (jnp.sqrt(vhat) + eps) + wd * p)
  params = jax.tree.map(step, params, mu, nu)
  return params, {"mu": mu, "nu": nu, "count": count}


def sgd_update(params, grads, lr=1e-2):
  return jax.tree.map(lambda p, g: p - lr * g, params, grads)
