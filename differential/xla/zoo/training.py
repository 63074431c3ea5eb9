"""Training steps: MLPs and transformers with AdamW, SGD, donated state."""

import functools

import jax
import jax.numpy as jnp

from . import common as c
from . import program

MLP_SIZES = {"s": (32, [64, 128, 10]), "m": (128, [256, 512, 512, 10]),
             "l": (256, [784, 1024, 1024, 10])}


@program("mlp_sgd", sizes=("s", "m", "l"))
def mlp_sgd(size):
  batch, widths = MLP_SIZES[size]
  params = c.mlp_params(widths)
  x = c.spec((batch, widths[0]))
  y = c.spec((batch,), jnp.int32)

  def loss(p, x, y):
    return c.softmax_cross_entropy(c.mlp_apply(p, x), y)

  def step(p, x, y):
    l, g = jax.value_and_grad(loss)(p, x, y)
    return c.sgd_update(p, g), l

  return [
      ("forward", jax.jit(lambda p, x: jax.nn.softmax(c.mlp_apply(p, x))), (params, x)),
      ("loss", jax.jit(loss), (params, x, y)),
      ("step", jax.jit(step), (params, x, y)),
      ("step_donated", jax.jit(step, donate_argnums=0), (params, x, y)),
  ]


@program("mlp_adamw", sizes=("s", "m", "l"))
def mlp_adamw(size):
  batch, widths = MLP_SIZES[size]
  params = c.mlp_params(widths)
  state = c.adam_state(params)
  x = c.spec((batch, widths[0]))
  y = c.spec((batch,), jnp.int32)

  def step(p, s, x, y):
    l, g = jax.value_and_grad(
        lambda p: c.softmax_cross_entropy(c.mlp_apply(p, x, jax.nn.gelu), y))(p)
    p, s = c.adamw_update(p, g, s)
    return p, s, l

  return [
      ("step", jax.jit(step), (params, state, x, y)),
      ("step_donated", jax.jit(step, donate_argnums=(0, 1)), (params, state, x, y)),
  ]


@program("mlp_bf16_mixed", sizes=("s", "m"))
def mlp_bf16_mixed(size):
  """bf16 compute, f32 master weights, loss scaling."""
  batch, widths = MLP_SIZES[size]
  params = c.mlp_params(widths)
  x = c.spec((batch, widths[0]), jnp.bfloat16)
  y = c.spec((batch,), jnp.int32)

  def loss(p, x, y):
    p16 = jax.tree.map(lambda a: a.astype(jnp.bfloat16), p)
    logits = c.mlp_apply(p16, x).astype(jnp.float32)
    return c.softmax_cross_entropy(logits, y) * 1024.0

  def step(p, x, y):
    g = jax.grad(loss)(p, x, y)
    g = jax.tree.map(lambda a: a / 1024.0, g)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    new = c.sgd_update(p, g)
    return jax.tree.map(lambda n, o: jnp.where(finite, n, o), new, p), finite

  return [("step", jax.jit(step, donate_argnums=0), (params, x, y))]


TRANSFORMER_SIZES = {
    # vocab, d, heads, layers, ff, batch, seq
    "s": (256, 64, 4, 2, 256, 4, 32),
    "m": (512, 128, 4, 2, 512, 8, 64),
    "l": (1024, 128, 8, 4, 512, 8, 128),
}


@program("transformer_lm", sizes=("s", "m", "l"))
def transformer_lm(size):
  vocab, d, heads, layers, ff, batch, seq = TRANSFORMER_SIZES[size]
  params = c.transformer_params(vocab, d, heads, layers, ff)
  state = c.adam_state(params)
  tokens = c.spec((batch, seq + 1), jnp.int32)
  loss = functools.partial(c.lm_loss, heads=heads)

  def step(p, s, t):
    l, g = jax.value_and_grad(loss)(p, t)
    p, s = c.adamw_update(p, g, s)
    return p, s, l

  def logits(p, t):
    return c.transformer_logits(p, t, heads)

  return [
      ("logits", jax.jit(logits), (params, c.spec((batch, seq), jnp.int32))),
      ("loss_and_grad", jax.jit(jax.value_and_grad(loss)), (params, tokens)),
      ("train_step", jax.jit(step, donate_argnums=(0, 1)), (params, state, tokens)),
  ]
