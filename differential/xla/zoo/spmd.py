"""SPMD programs on 8 CPU devices: jit with NamedSharding (data, model, 2-D,
FSDP) and shard_map with explicit collectives."""

import functools
import re

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from . import common as c
from . import make_mesh
from . import program


def mesh(shape, names):
  """A mesh over the 8 devices compiled for (zoo.make_mesh)."""
  return make_mesh(shape, names)


def sharded(m, shape, spec_, dtype=jnp.float32):
  return c.spec(shape, dtype, NamedSharding(m, spec_))


def shard_tree(m, tree, rule):
  """Specs of `tree` sharded by rule(path, spec) -> PartitionSpec."""
  return jax.tree_util.tree_map_with_path(
      lambda path, s: sharded(m, s.shape, rule(jax.tree_util.keystr(path), s), s.dtype), tree)


MLP = {"s": (64, [128, 256, 128, 16]), "m": (256, [512, 1024, 1024, 64])}


def _mlp_step(widths, adam):
  def loss(p, x, y):
    return c.softmax_cross_entropy(c.mlp_apply(p, x, jax.nn.gelu), y)

  def step(p, s, x, y):
    l, g = jax.value_and_grad(loss)(p, x, y)
    if adam:
      p, s = c.adamw_update(p, g, s)
    else:
      p = c.sgd_update(p, g)
    return p, s, l
  return step


def _mlp_program(size, shape, names, param_rule, batch_spec, adam=True):
  batch, widths = MLP[size]
  m = mesh(shape, names)
  params = shard_tree(m, c.mlp_params(widths), param_rule)
  state = shard_tree(m, c.adam_state(c.mlp_params(widths)), lambda path, s: (
      P() if s.ndim == 0 else param_rule(path, s)))
  x = sharded(m, (batch, widths[0]), batch_spec)
  y = sharded(m, (batch,), P(batch_spec[0]), jnp.int32)
  step = _mlp_step(widths, adam)
  return [("train_step", jax.jit(step, donate_argnums=(0, 1)), (params, state, x, y)),
          ("loss_grad", jax.jit(jax.value_and_grad(
              lambda p, x, y: c.softmax_cross_entropy(c.mlp_apply(p, x), y))), (params, x, y)),
          ("predict", jax.jit(lambda p, x: jnp.argmax(c.mlp_apply(p, x), -1)), (params, x))]


@program("spmd_mlp_data", sizes=("s", "m"), devices=8)
def spmd_mlp_data(size):
  return _mlp_program(size, (8,), ("data",), lambda path, s: P(), P("data", None))


@program("spmd_mlp_model", sizes=("s", "m"), devices=8)
def spmd_mlp_model(size):
  """Megatron style: alternate column- and row-sharded weights."""
  def rule(path, s):
    layer = int(re.search(r"\[(\d+)\]", path).group(1))
    if s.ndim == 2:
      return P(None, "model") if layer % 2 == 0 else P("model", None)
    return P("model") if layer % 2 == 0 else P()
  return _mlp_program(size, (8,), ("model",), rule, P(None, None))


@program("spmd_mlp_2d", sizes=("s", "m"), devices=8)
def spmd_mlp_2d(size):
  def rule(path, s):
    return P("data", "model") if s.ndim == 2 else P("model")
  return _mlp_program(size, (2, 4), ("data", "model"), rule, P("data", None))


@program("spmd_mlp_fsdp", sizes=("s", "m"), devices=8)
def spmd_mlp_fsdp(size):
  def rule(path, s):
    return P("fsdp", None) if s.ndim == 2 else P()
  return _mlp_program(size, (8,), ("fsdp",), rule, P("fsdp", None), adam=False)


TRANSFORMER = {"s": (256, 64, 4, 2, 256, 8, 32), "m": (512, 128, 8, 2, 512, 16, 64)}


def _transformer_program(size, shape, names, rule, batch_spec):
  vocab, d, heads, layers, ff, batch, seq = TRANSFORMER[size]
  m = mesh(shape, names)
  raw = c.transformer_params(vocab, d, heads, layers, ff)
  params = shard_tree(m, raw, rule)
  state = shard_tree(m, c.adam_state(raw),
                     lambda path, s: P() if s.ndim == 0 else rule(path, s))
  tokens = sharded(m, (batch, seq + 1), batch_spec, jnp.int32)
  loss = functools.partial(c.lm_loss, heads=heads)

  def step(p, s, t):
    l, g = jax.value_and_grad(loss)(p, t)
    p, s = c.adamw_update(p, g, s)
    return p, s, l

  return [("train_step", jax.jit(step, donate_argnums=(0, 1)), (params, state, tokens)),
          ("loss_and_grad", jax.jit(jax.value_and_grad(loss)), (params, tokens)),
          ("logits", jax.jit(lambda p, t: c.transformer_logits(p, t, heads)),
           (params, sharded(m, (batch, seq), batch_spec, jnp.int32)))]


@program("spmd_transformer_data", sizes=("s", "m"), devices=8)
def spmd_transformer_data(size):
  return _transformer_program(size, (8,), ("data",), lambda path, s: P(), P("data", None))


def _tp_rule(path, s):
  if "qkv" in path or "ff1" in path:
    return P(None, "model")
  if "out" in path or "ff2" in path:
    return P("model", None)
  if "embed" in path:
    return P(None, "model")
  return P()


@program("spmd_transformer_tensor", sizes=("s", "m"), devices=8)
def spmd_transformer_tensor(size):
  return _transformer_program(size, (8,), ("model",), _tp_rule, P(None, None))


@program("spmd_transformer_2d", sizes=("s", "m"), devices=8)
def spmd_transformer_2d(size):
  return _transformer_program(size, (2, 4), ("data", "model"), _tp_rule, P("data", None))


@program("spmd_cnn_data", sizes=("s", "m"), devices=8)
def spmd_cnn_data(size):
  from . import nets  # pylint: disable=import-outside-toplevel
  batch, hw, ch = {"s": (16, 16, 8), "m": (32, 32, 16)}[size]
  m = mesh((8,), ("data",))
  params = {"c1": sharded(m, (3, 3, 3, ch), P()), "c2": sharded(m, (3, 3, ch, ch), P()),
            "fc": sharded(m, ((hw // 4) ** 2 * ch, 10), P())}
  x = sharded(m, (batch, hw, hw, 3), P("data"))
  y = sharded(m, (batch,), P("data"), jnp.int32)

  def loss(p, x, y):
    h = nets.max_pool(jax.nn.relu(nets.conv(x, p["c1"])))
    h = nets.max_pool(jax.nn.relu(nets.conv(h, p["c2"])))
    return c.softmax_cross_entropy(h.reshape(h.shape[0], -1) @ p["fc"], y)

  return [("grad", jax.jit(jax.grad(loss)), (params, x, y)),
          ("step", jax.jit(lambda p, x, y: c.sgd_update(p, jax.grad(loss)(p, x, y)),
                           donate_argnums=0), (params, x, y))]


@program("spmd_embedding_vocab", sizes=("s", "m"), devices=8)
def spmd_embedding_vocab(size):
  vocab, d, batch, seq = {"s": (512, 32, 8, 16), "m": (8192, 128, 16, 64)}[size]
  m = mesh((8,), ("model",))
  table = sharded(m, (vocab, d), P("model", None))
  ids = sharded(m, (batch, seq), P(), jnp.int32)
  return [("lookup", jax.jit(lambda t, i: t[i]), (table, ids)),
          ("grad", jax.jit(jax.grad(lambda t, i: jnp.sum(jnp.tanh(t[i])))), (table, ids))]


@program("spmd_resharding", sizes=("s", "m"), devices=8)
def spmd_resharding(size):
  n = {"s": 64, "m": 512}[size]
  m = mesh((2, 4), ("x", "y"))
  a = sharded(m, (n, n), P("x", "y"))
  b = sharded(m, (n, n), P("y", "x"))

  def f(a, b):
    h = a @ b
    h = jax.lax.with_sharding_constraint(h, NamedSharding(m, P(None, ("x", "y"))))
    h = jnp.tanh(h) @ a.T
    return jax.lax.with_sharding_constraint(h, NamedSharding(m, P(("x", "y"), None)))

  return [("matmuls", jax.jit(f), (a, b)),
          ("transpose_reshard", jax.jit(lambda a: a.T + 1, out_shardings=NamedSharding(
              m, P("x", "y"))), (a,))]


@program("spmd_reductions", sizes=("s", "m"), devices=8)
def spmd_reductions(size):
  n, d = {"s": (64, 32), "m": (4096, 256)}[size]
  m = mesh((8,), ("data",))
  x = sharded(m, (n, d), P("data", None))
  return [("sum_max_argmax", jax.jit(lambda x: (x.sum(0), x.max(), jnp.argmax(x, 0))), (x,)),
          ("cumsum_sharded_axis", jax.jit(lambda x: jnp.cumsum(x, axis=0)), (x,)),
          ("sort_sharded_axis", jax.jit(lambda x: jnp.sort(x, axis=0)), (x,))]


@program("spmd_lstm_data", sizes=("s", "m"), devices=8)
def spmd_lstm_data(size):
  from . import nets  # pylint: disable=import-outside-toplevel
  batch, steps, features, hidden = {"s": (16, 8, 8, 16), "m": (64, 32, 32, 64)}[size]
  m = mesh((8,), ("data",))
  p = {"wx": sharded(m, (features, 4 * hidden), P()), "wh": sharded(m, (hidden, 4 * hidden), P()),
       "b": sharded(m, (4 * hidden,), P())}
  xs = sharded(m, (steps, batch, features), P(None, "data"))

  def loss(p, xs):
    zeros = jnp.zeros((xs.shape[1], hidden))
    _, hs = jax.lax.scan(functools.partial(nets.lstm_cell, p), (zeros, zeros), xs)
    return jnp.mean(hs ** 2)

  return [("grad", jax.jit(jax.grad(loss)), (p, xs))]


def _shard_map_program(size, f, in_specs, out_specs, shapes, names=("i",), shape=(8,),
                       dtypes=None):
  m = mesh(shape, names)
  dtypes = dtypes or [jnp.float32] * len(shapes)
  fn = jax.jit(jax.shard_map(f, mesh=m, in_specs=in_specs, out_specs=out_specs,
                             check_vma=False))
  args = tuple(sharded(m, s, spec_, dt) for s, spec_, dt in zip(shapes, in_specs, dtypes))
  return fn, args


@program("shard_map_psum", sizes=("s", "m"), devices=8)
def shard_map_psum(size):
  n, d = {"s": (64, 16), "m": (2048, 256)}[size]

  def local_grad(w, x):
    g = jax.grad(lambda w: jnp.mean(jnp.tanh(x @ w) ** 2))(w)
    return jax.lax.pmean(g, "i"), jax.lax.psum(jnp.sum(x), "i")

  def max_norm(x):
    return jax.lax.pmax(jnp.max(jnp.abs(x)), "i"), jax.lax.pmin(jnp.min(x), "i")

  return [("pmean_grad",) + _shard_map_program(
      size, local_grad, (P(), P("i")), (P(), P()), [(d, d), (n, d)]),
          ("pmax_pmin",) + _shard_map_program(size, max_norm, (P("i"),), (P(), P()), [(n, d)])]


@program("shard_map_all_gather", sizes=("s", "m"), devices=8)
def shard_map_all_gather(size):
  n, d = {"s": (64, 16), "m": (2048, 256)}[size]

  def gather_matmul(x, w):
    full = jax.lax.all_gather(w, "i", axis=0, tiled=True)
    return x @ full

  def reduce_scatter(x, w):
    return jax.lax.psum_scatter(x @ w, "i", scatter_dimension=0, tiled=True)

  return [("all_gather",) + _shard_map_program(
      size, gather_matmul, (P("i"), P("i")), P("i"), [(n, d), (d, d)]),
          ("psum_scatter",) + _shard_map_program(
      size, reduce_scatter, (P(None, "i"), P("i")), P("i"), [(n, d), (d, d)])]


@program("shard_map_ppermute_ring", sizes=("s", "m"), devices=8)
def shard_map_ppermute_ring(size):
  n, d = {"s": (64, 16), "m": (1024, 128)}[size]
  perm = [(j, (j + 1) % 8) for j in range(8)]

  def ring_matmul(x, w):
    def body(i, carry):
      acc, blk = carry
      acc = acc + x @ blk
      return acc, jax.lax.ppermute(blk, "i", perm)
    acc = jnp.zeros((x.shape[0], w.shape[1]))
    return jax.lax.fori_loop(0, 8, body, (acc, w))[0]

  def shift(x):
    return jax.lax.ppermute(x, "i", perm) - x

  return [("ring_matmul",) + _shard_map_program(
      size, ring_matmul, (P("i"), P("i")), P("i"), [(n, d), (d * 8, d)]),
          ("shift",) + _shard_map_program(size, shift, (P("i"),), P("i"), [(n, d)])]


@program("shard_map_all_to_all", sizes=("s", "m"), devices=8)
def shard_map_all_to_all(size):
  n, d = {"s": (64, 16), "m": (1024, 128)}[size]

  def a2a(x):
    return jax.lax.all_to_all(x, "i", split_axis=1, concat_axis=0, tiled=True)

  def expert_parallel(x, w):
    # tokens go to their expert's device and back
    y = jax.lax.all_to_all(x.reshape(8, -1, d), "i", 0, 0, tiled=False)
    y = jnp.tanh(y @ w[0])
    return jax.lax.all_to_all(y, "i", 0, 0, tiled=False).reshape(-1, d)

  return [("all_to_all",) + _shard_map_program(size, a2a, (P("i"),), P("i"), [(n, d * 8)]),
          ("expert_parallel",) + _shard_map_program(
              size, expert_parallel, (P("i"), P("i")), P("i"), [(n * 8, d), (8, d, d)])]


@program("shard_map_2d_collectives", sizes=("s", "m"), devices=8)
def shard_map_2d_collectives(size):
  n, d = {"s": (32, 16), "m": (512, 128)}[size]

  def f(x, w):
    # data-parallel over "dp", tensor-parallel over "tp"
    h = x @ w
    h = jax.lax.psum(h, "tp")
    g = jax.lax.pmean(jnp.sum(h, 0), "dp")
    return h, g

  return [("dp_tp",) + _shard_map_program(
      size, f, (P("dp", "tp"), P("tp", None)), (P("dp"), P()), [(n, d), (d, d)],
      names=("dp", "tp"), shape=(2, 4))]


@program("shard_map_pipeline", sizes=("s", "m"), devices=8)
def shard_map_pipeline(size):
  mb, d = {"s": (4, 16), "m": (16, 128)}[size]
  perm = [(j, j + 1) for j in range(7)]

  def pipeline(x, w):
    # each device holds one stage; microbatches flow through ppermute
    stage = w[0]

    def step(carry, xs):
      h = jnp.tanh(carry @ stage)
      nxt = jax.lax.ppermute(h, "s", perm)
      return nxt + xs, h
    out, hs = jax.lax.scan(step, jnp.zeros((mb, d)), x)
    return out, hs

  return [("stages",) + _shard_map_program(
      size, pipeline, (P(None), P("s")), (P("s"), P("s")), [(8, mb, d), (8, d, d)],
      names=("s",))]


@program("spmd_moe_expert", sizes=("s", "m"), devices=8)
def spmd_moe_expert(size):
  tokens, d, ff = {"s": (64, 32, 64), "m": (512, 128, 256)}[size]
  m = mesh((8,), ("expert",))
  p = {"router": sharded(m, (d, 8), P()), "w1": sharded(m, (8, d, ff), P("expert")),
       "w2": sharded(m, (8, ff, d), P("expert"))}
  x = sharded(m, (tokens, d), P("expert"))

  def f(p, x):
    weights, chosen = jax.lax.top_k(jax.nn.softmax(x @ p["router"]), 2)
    dispatch = jax.nn.one_hot(chosen, 8)
    xe = jnp.einsum("tke,td->etd", dispatch, x)
    xe = jax.lax.with_sharding_constraint(xe, NamedSharding(m, P("expert")))
    ye = jnp.einsum("etf,efd->etd", jax.nn.gelu(jnp.einsum("etd,edf->etf", xe, p["w1"])),
                    p["w2"])
    return jnp.einsum("tke,tk,etd->td", dispatch, weights, ye)

  return [("forward", jax.jit(f), (p, x)),
          ("grad", jax.jit(jax.grad(lambda p, x: jnp.sum(f(p, x) ** 2))), (p, x))]
