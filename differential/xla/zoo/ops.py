"""Array operations: sort, top_k, gather/scatter, reductions, windows, shapes."""

import jax
import jax.numpy as jnp

from . import common as c
from . import program


@program("sort_several_operands", sizes=("s", "m", "l"))
def sort_several_operands(size):
  n, d = {"s": (4, 32), "m": (16, 512), "l": (64, 2048)}[size]
  keys = c.spec((n, d))
  vals = c.spec((n, d), jnp.int32)
  more = c.spec((n, d), jnp.bfloat16)

  return [("sort_keys_values", jax.jit(lambda k, v, m: jax.lax.sort((k, v, m), num_keys=1)),
           (keys, vals, more)),
          ("sort_two_keys", jax.jit(lambda k, v: jax.lax.sort((v, k), num_keys=2)), (keys, vals)),
          ("jnp_sort_stable", jax.jit(lambda k: jnp.sort(k, axis=0, stable=True)), (keys,))]


@program("top_k_argsort", sizes=("s", "m", "l"))
def top_k_argsort(size):
  n, d, k = {"s": (4, 64, 4), "m": (32, 1024, 16), "l": (128, 4096, 64)}[size]
  x = c.spec((n, d))
  return [("top_k", jax.jit(lambda x: jax.lax.top_k(x, k)), (x,)),
          ("argsort", jax.jit(lambda x: jnp.argsort(x, axis=-1)), (x,)),
          ("argsort_desc_gather", jax.jit(
              lambda x: jnp.take_along_axis(x, jnp.argsort(-x, axis=-1)[:, :k], axis=-1)), (x,))]


@program("gather_scatter", sizes=("s", "m", "l"))
def gather_scatter(size):
  n, d, m = {"s": (32, 8, 16), "m": (1024, 64, 256), "l": (8192, 128, 2048)}[size]
  x = c.spec((n, d))
  idx = c.spec((m,), jnp.int32)
  upd = c.spec((m, d))

  return [("take", jax.jit(lambda x, i: x[i]), (x, idx)),
          ("scatter_add", jax.jit(lambda x, i, u: x.at[i].add(u)), (x, idx, upd)),
          ("scatter_set_donated", jax.jit(lambda x, i, u: x.at[i].set(u), donate_argnums=0),
           (x, idx, upd)),
          ("scatter_max", jax.jit(lambda x, i, u: x.at[i].max(u)), (x, idx, upd)),
          ("take_along_axis", jax.jit(
              lambda x, i: jnp.take_along_axis(x, (i[:d] % n)[None, :].repeat(4, 0), axis=0)),
           (x, idx))]


@program("cumulative_ops", sizes=("s", "m", "l"))
def cumulative_ops(size):
  n, d = {"s": (8, 32), "m": (64, 1024), "l": (256, 4096)}[size]
  x = c.spec((n, d))
  i = c.spec((n, d), jnp.int32)
  return [("cumsum", jax.jit(lambda x: jnp.cumsum(x, axis=1)), (x,)),
          ("cumprod_cummax", jax.jit(lambda x: (jnp.cumprod(x, axis=0),
                                                jax.lax.cummax(x, axis=1))), (x,)),
          ("cumsum_int", jax.jit(lambda i: jnp.cumsum(i, axis=0)), (i,)),
          ("cumlogsumexp", jax.jit(lambda x: jax.lax.cumlogsumexp(x, axis=1)), (x,))]


@program("reduce_window_pools", sizes=("s", "m"))
def reduce_window_pools(size):
  b, hw, ch = {"s": (2, 16, 4), "m": (8, 64, 16)}[size]
  x = c.spec((b, hw, hw, ch))

  def pools(x):
    mx = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    sm = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")
    return mx, sm

  return [("pools", jax.jit(pools), (x,)),
          ("max_pool_grad", jax.jit(jax.grad(lambda x: jnp.sum(pools(x)[0] ** 2))), (x,))]


@program("fft_ops", sizes=("s", "m", "l"))
def fft_ops(size):
  n, d = {"s": (4, 64), "m": (16, 1024), "l": (32, 4096)}[size]
  x = c.spec((n, d))
  z = c.spec((n, d), jnp.complex64)
  img = c.spec((n, 32, 32))
  return [("rfft_irfft", jax.jit(lambda x: jnp.fft.irfft(jnp.fft.rfft(x) * 0.5, n=d)), (x,)),
          ("fft_complex", jax.jit(lambda z: jnp.fft.ifft(jnp.fft.fft(z) * jnp.conj(z))), (z,)),
          ("fft2", jax.jit(lambda i: jnp.abs(jnp.fft.fft2(i))), (img,))]


@program("many_outputs", sizes=("s", "m"))
def many_outputs(size):
  n = {"s": 16, "m": 1024}[size]
  x = c.spec((n,))
  y = c.spec((n, 4))

  def f(x, y):
    return (x + 1, x * 2, jnp.sin(x), jnp.cos(x), x.sum(), x.max(), y.T, y @ y.T,
            jnp.exp(y), (x[:, None] * y).sum(0), x.astype(jnp.int32), x > 0)

  def nested(x, y):
    return {"a": (x, x + 1), "b": [y, {"c": y * 2, "d": x.min()}]}

  return [("twelve", jax.jit(f), (x, y)),
          ("nested_tree", jax.jit(nested), (x, y)),
          ("passthrough_donated", jax.jit(lambda x, y: (y, x, x * 3), donate_argnums=(0, 1)),
           (x, y))]


@program("vmap_per_example_grads", sizes=("s", "m"))
def vmap_per_example_grads(size):
  batch, widths = {"s": (8, [16, 32, 4]), "m": (32, [128, 256, 10])}[size]
  params = c.mlp_params(widths)
  x = c.spec((batch, widths[0]))
  y = c.spec((batch,), jnp.int32)

  def loss(p, x, y):
    return c.softmax_cross_entropy(c.mlp_apply(p, x[None]), y[None])

  per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))

  def clipped_mean(p, x, y):
    g = per_example(p, x, y)
    norms = jnp.sqrt(sum(jnp.sum(l.reshape(batch, -1) ** 2, axis=1) for l in jax.tree.leaves(g)))
    scale = jnp.minimum(1.0, 1.0 / (norms + 1e-6))
    return jax.tree.map(lambda l: jnp.mean(l * scale.reshape((-1,) + (1,) * (l.ndim - 1)), 0), g)

  return [("per_example", jax.jit(per_example), (params, x, y)),
          ("dp_sgd_clip", jax.jit(clipped_mean), (params, x, y)),
          ("vmap_matvec", jax.jit(jax.vmap(jnp.matmul, in_axes=(None, 0))),
           (c.spec((widths[1], widths[0])), x))]


@program("einsum_contractions", sizes=("s", "m"))
def einsum_contractions(size):
  a, b, k, h = {"s": (4, 8, 16, 2), "m": (16, 64, 128, 8)}[size]
  x = c.spec((a, b, h, k))
  y = c.spec((a, h, k, b))
  z = c.spec((k, k))
  return [("batched", jax.jit(lambda x, y: jnp.einsum("abhk,ahkc->abhc", x, y)), (x, y)),
          ("chain", jax.jit(lambda x, z: jnp.einsum("abhk,kl,lm->abhm", x, z, z)), (x, z)),
          ("outer_trace", jax.jit(lambda z: (jnp.einsum("ij,kl->ikjl", z, z).sum(),
                                             jnp.einsum("ii->", z))), (z,))]


@program("shape_shuffles", sizes=("s", "m"))
def shape_shuffles(size):
  n, d = {"s": (6, 10), "m": (60, 100)}[size]
  x = c.spec((n, d))
  y = c.spec((d, n))

  def f(x, y):
    p = jnp.pad(x, ((1, 2), (3, 0)), mode="reflect")
    q = jnp.concatenate([x, y.T, x[::-1]], axis=0)
    r = jnp.flip(jnp.transpose(q.reshape(3, n, d), (2, 0, 1)), axis=1)
    s = jnp.roll(x, 3, axis=1)
    t = jnp.tile(x[:2], (2, 3))
    return p, r, s, t, jax.lax.rev(x, (0,))

  return [("shuffles", jax.jit(f), (x, y)),
          ("grad", jax.jit(jax.grad(lambda x, y: sum(jnp.sum(o) for o in f(x, y)))), (x, y))]


@program("dynamic_slicing", sizes=("s", "m"))
def dynamic_slicing(size):
  n, d, w = {"s": (32, 8, 4), "m": (1024, 64, 32)}[size]
  x = c.spec((n, d))
  start = c.spec((), jnp.int32)

  def windows(x, s):
    return jnp.stack([jax.lax.dynamic_slice(x, (s + i, 0), (w, d)) for i in range(3)])

  return [("windows", jax.jit(windows), (x, start)),
          ("dynamic_index", jax.jit(lambda x, s: x[s] + x[s + 1]), (x, start)),
          ("update_window", jax.jit(lambda x, s: jax.lax.dynamic_update_slice(
              x, jnp.zeros((w, d)), (s, 0)), donate_argnums=0), (x, start))]


@program("arg_reductions", sizes=("s", "m", "l"))
def arg_reductions(size):
  n, d = {"s": (8, 16), "m": (128, 1000), "l": (512, 4096)}[size]
  x = c.spec((n, d))
  return [("argmax_argmin", jax.jit(lambda x: (jnp.argmax(x, 1), jnp.argmin(x, 0))), (x,)),
          ("max_with_index", jax.jit(lambda x: jax.lax.reduce(
              (x, jax.lax.broadcasted_iota(jnp.int32, x.shape, 1)),
              (-jnp.inf, 0),
              lambda a, b: (jnp.maximum(a[0], b[0]), jnp.where(a[0] >= b[0], a[1], b[1])),
              (1,))), (x,)),
          ("logsumexp_var", jax.jit(lambda x: (jax.nn.logsumexp(x, 1), jnp.var(x, 0),
                                               jnp.median(x, 1))), (x,))]


@program("histogram_bincount", sizes=("s", "m"))
def histogram_bincount(size):
  n, bins = {"s": (100, 10), "m": (100000, 256)}[size]
  x = c.spec((n,))
  i = c.spec((n,), jnp.int32)
  return [("bincount", jax.jit(lambda i: jnp.bincount(i, length=bins)), (i,)),
          ("histogram", jax.jit(lambda x: jnp.histogram(x, bins=bins, range=(0.0, 1.0))),
           (x,))]


@program("one_hot_masks", sizes=("s", "m"))
def one_hot_masks(size):
  n, k, d = {"s": (16, 10, 8), "m": (512, 1000, 64)}[size]
  labels = c.spec((n,), jnp.int32)
  x = c.spec((n, d))
  w = c.spec((k, d))

  def f(labels, x, w):
    oh = jax.nn.one_hot(labels, k)
    centers = oh.T @ x / jnp.maximum(oh.sum(0), 1)[:, None]
    masked = jnp.where(x > 0, x, 0.01 * x)
    return centers, jnp.clip(masked @ w.T, -3, 3), jnp.sum(oh * (x @ w.T))

  return [("f", jax.jit(f), (labels, x, w)),
          ("grad", jax.jit(jax.grad(lambda x, w, l: f(l, x, w)[2], argnums=(0, 1))),
           (x, w, labels))]


@program("segment_reductions", sizes=("s", "m"))
def segment_reductions(size):
  n, segs, d = {"s": (64, 8, 4), "m": (8192, 128, 32)}[size]
  x = c.spec((n, d))
  ids = c.spec((n,), jnp.int32)
  return [("sum_max_min", jax.jit(lambda x, i: (
      jax.ops.segment_sum(x, i, segs), jax.ops.segment_max(x, i, segs),
      jax.ops.segment_min(x, i, segs))), (x, ids)),
          ("sorted_sum", jax.jit(lambda x, i: jax.ops.segment_sum(
              x, i, segs, indices_are_sorted=True)), (x, ids))]


@program("iota_broadcast", sizes=("s", "m"))
def iota_broadcast(size):
  n, d = {"s": (8, 12), "m": (256, 384)}[size]
  x = c.spec((n, d))

  def f(x):
    rows = jnp.arange(n)[:, None]
    cols = jnp.arange(d)[None, :]
    tri = jnp.where(rows >= cols, x, 0.0)
    grid = jnp.meshgrid(jnp.linspace(0, 1, n), jnp.linspace(0, 1, d), indexing="ij")
    return tri, grid[0] * grid[1] + x, jnp.broadcast_to(x[:, :1], (n, d))

  return [("f", jax.jit(f), (x,))]
