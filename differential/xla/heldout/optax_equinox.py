"""Held-out programs from optax's optimizers and equinox's layers."""

import equinox as eqx
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P
import optax

import zoo
from zoo import common as c


def _specs(tree):
  return jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), tree)


OPTAX = {
    "adamw": lambda: optax.adamw(1e-3, weight_decay=1e-4),
    "lamb": lambda: optax.lamb(1e-3),
    "lion": lambda: optax.lion(1e-4),
    "adafactor": lambda: optax.adafactor(1e-3),
    "clipped_sgd_schedule": lambda: optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.sgd(optax.warmup_cosine_decay_schedule(0.0, 0.1, 10, 100), momentum=0.9)),
    "novograd": lambda: optax.novograd(1e-3),
}


@zoo.program("heldout_optax", sizes=("s", "m"))
def optax_updates(size):
  widths = {"s": [16, 32, 4], "m": [128, 512, 64]}[size]
  params = c.mlp_params(widths)
  x = c.spec((16, widths[0]))
  out = []
  for name, make in OPTAX.items():
    tx = make()
    state = jax.eval_shape(tx.init, params)

    def step(p, s, x, tx=tx):
      g = jax.grad(lambda p: jnp.mean(c.mlp_apply(p, x) ** 2))(p)
      updates, s = tx.update(g, s, p)
      return optax.apply_updates(p, updates), s

    out.append((name, jax.jit(step, donate_argnums=(0, 1)), (params, state, x)))
  return out


@zoo.program("heldout_optax_sharded", sizes=("s", "m"), devices=8)
def optax_sharded(size):
  widths = {"s": [64, 128, 8], "m": [512, 1024, 64]}[size]
  mesh = zoo.make_mesh((8,), ("d",))
  rep = NamedSharding(mesh, P())
  params = jax.tree.map(lambda s: c.spec(s.shape, s.dtype, rep), c.mlp_params(widths))
  x = c.spec((64, widths[0]), sharding=NamedSharding(mesh, P("d")))
  tx = optax.adamw(1e-3)
  state = jax.tree.map(lambda s: jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=rep),
                       jax.eval_shape(tx.init, params))

  def step(p, s, x):
    g = jax.grad(lambda p: jnp.mean(c.mlp_apply(p, x) ** 2))(p)
    updates, s = tx.update(g, s, p)
    return optax.apply_updates(p, updates), s

  return [("adamw_data_parallel", jax.jit(step), (params, state, x))]


def _eqx_model(build):
  """(parameter specs, static part) of an equinox module built abstractly."""
  model = eqx.filter_eval_shape(build, jax.random.key(0))
  params, static = eqx.partition(model, lambda x: isinstance(x, jax.ShapeDtypeStruct))
  return params, static


@zoo.program("heldout_equinox_mlp", sizes=("s", "m"))
def equinox_mlp(size):
  d, width, depth, batch = {"s": (8, 32, 2, 16), "m": (64, 256, 4, 64)}[size]
  params, static = _eqx_model(lambda k: eqx.nn.MLP(d, 1, width, depth, key=k))
  x = c.spec((batch, d))

  def loss(p, x):
    model = eqx.combine(p, static)
    return jnp.mean(jax.vmap(model)(x) ** 2)

  return [("forward", jax.jit(lambda p, x: jax.vmap(eqx.combine(p, static))(x)), (params, x)),
          ("grad", jax.jit(jax.grad(loss)), (params, x))]


@zoo.program("heldout_equinox_cnn", sizes=("s", "m"))
def equinox_cnn(size):
  ch, hw, batch = {"s": (4, 16, 4), "m": (16, 32, 8)}[size]

  def build(k):
    k1, k2, k3 = jax.random.split(k, 3)
    return eqx.nn.Sequential([
        eqx.nn.Conv2d(3, ch, 3, padding=1, key=k1), eqx.nn.Lambda(jax.nn.relu),
        eqx.nn.MaxPool2d(2, 2), eqx.nn.Conv2d(ch, ch, 3, padding=1, key=k2),
        eqx.nn.Lambda(jax.nn.relu), eqx.nn.AvgPool2d(2, 2), eqx.nn.Lambda(jnp.ravel),
        eqx.nn.Linear(ch * (hw // 4) ** 2, 10, key=k3)])

  params, static = _eqx_model(build)
  x = c.spec((batch, 3, hw, hw))

  def loss(p, x):
    return jnp.mean(jax.nn.logsumexp(jax.vmap(eqx.combine(p, static))(x), axis=-1))

  return [("forward", jax.jit(lambda p, x: jax.vmap(eqx.combine(p, static))(x)), (params, x)),
          ("grad", jax.jit(jax.grad(loss)), (params, x))]


@zoo.program("heldout_equinox_lstm", sizes=("s", "m"))
def equinox_lstm(size):
  d, hidden, steps = {"s": (4, 16, 8), "m": (32, 128, 32)}[size]
  params, static = _eqx_model(lambda k: eqx.nn.LSTMCell(d, hidden, key=k))
  xs = c.spec((steps, d))

  def run(p, xs):
    cell = eqx.combine(p, static)

    def body(carry, x):
      carry = cell(x, carry)
      return carry, carry[0]

    zeros = (jnp.zeros(hidden), jnp.zeros(hidden))
    return jax.lax.scan(body, zeros, xs)[1]

  return [("scan", jax.jit(run), (params, xs)),
          ("grad", jax.jit(jax.grad(lambda p, xs: jnp.sum(run(p, xs)))), (params, xs))]


@zoo.program("heldout_equinox_attention", sizes=("s", "m"))
def equinox_attention(size):
  heads, d, n = {"s": (2, 16, 8), "m": (4, 64, 64)}[size]
  params, static = _eqx_model(lambda k: eqx.nn.MultiheadAttention(heads, d, key=k))
  x = c.spec((n, d))

  def attend(p, x):
    return eqx.combine(p, static)(x, x, x)

  return [("forward", jax.jit(attend), (params, x)),
          ("grad", jax.jit(jax.grad(lambda p, x: jnp.sum(attend(p, x) ** 2))), (params, x))]
