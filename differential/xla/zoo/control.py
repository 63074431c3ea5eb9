"""Control flow: while/fori loops, scans, cond/switch, remat, custom_vjp, map."""

import functools

import jax
import jax.numpy as jnp

from . import common as c
from . import program


@program("fori_dynamic_update_slice", sizes=("s", "m", "l"))
def fori_dynamic_update_slice(size):
  n, d = {"s": (8, 16), "m": (64, 128), "l": (256, 512)}[size]
  x = c.spec((d,))
  buf = c.spec((n, d))

  def fill(x):
    def body(i, acc):
      row = jnp.sin(x * i.astype(jnp.float32))
      return jax.lax.dynamic_update_slice(acc, row[None], (i, 0))
    return jax.lax.fori_loop(0, n, body, jnp.zeros((n, d)))

  def update_in_place(buf, x):
    def body(i, acc):
      row = jax.lax.dynamic_slice(acc, (i, 0), (1, d))
      return jax.lax.dynamic_update_slice(acc, row * 2 + x, (i, 0))
    return jax.lax.fori_loop(0, n, body, buf)

  return [("fill", jax.jit(fill), (x,)),
          ("in_place", jax.jit(update_in_place), (buf, x)),
          ("in_place_donated", jax.jit(update_in_place, donate_argnums=0), (buf, x))]


@program("while_newton", sizes=("s", "m"))
def while_newton(size):
  n = {"s": 16, "m": 1024}[size]
  a = c.spec((n,))

  def sqrt_newton(a):
    def cond(state):
      x, i = state
      return jnp.logical_and(i < 50, jnp.max(jnp.abs(x * x - a)) > 1e-6)

    def body(state):
      x, i = state
      return 0.5 * (x + a / x), i + 1
    return jax.lax.while_loop(cond, body, (jnp.ones_like(a), 0))

  return [("sqrt", jax.jit(sqrt_newton), (a,))]


@program("cond_branches", sizes=("s", "m"))
def cond_branches(size):
  n, d = {"s": (8, 16), "m": (64, 256)}[size]
  x = c.spec((n, d))
  w = c.spec((d, d))
  p = c.spec((), jnp.bool_)

  def f(p, x, w):
    return jax.lax.cond(p, lambda x, w: jnp.tanh(x @ w), lambda x, w: x * 2.0 - 1.0, x, w)

  def g(p, x, w):
    return jax.lax.cond(p, lambda x: (x @ w, jnp.sum(x)), lambda x: (x, jnp.max(x)), x)

  return [("cond", jax.jit(f), (p, x, w)),
          ("cond_tuple", jax.jit(g), (p, x, w)),
          ("cond_grad", jax.jit(jax.grad(lambda x, w, p: jnp.sum(f(p, x, w)))), (x, w, p))]


@program("switch_activation", sizes=("s", "m"))
def switch_activation(size):
  n = {"s": 64, "m": 4096}[size]
  x = c.spec((n,))
  i = c.spec((), jnp.int32)

  def f(i, x):
    return jax.lax.switch(i, [jax.nn.relu, jnp.tanh, jax.nn.gelu, lambda v: v * jax.nn.sigmoid(v)],
                          x)

  return [("switch", jax.jit(f), (i, x)),
          ("switch_grad", jax.jit(jax.grad(lambda x, i: jnp.sum(f(i, x)))), (x, i))]


@program("scan_cumulative", sizes=("s", "m", "l"))
def scan_cumulative(size):
  n, d = {"s": (16, 8), "m": (128, 64), "l": (512, 256)}[size]
  xs = c.spec((n, d))

  def f(xs):
    def body(carry, x):
      s, prod, mx = carry
      s = s + x
      prod = prod * (1 + 0.01 * x)
      mx = jnp.maximum(mx, x)
      return (s, prod, mx), (s, mx - s)
    init = (jnp.zeros(d), jnp.ones(d), jnp.full(d, -jnp.inf))
    return jax.lax.scan(body, init, xs)

  return [("scan", jax.jit(f), (xs,)),
          ("scan_reverse_unroll",
           jax.jit(lambda xs: jax.lax.scan(lambda c, x: (c * 0.9 + x, c), jnp.zeros(d), xs,
                                           reverse=True, unroll=4)), (xs,))]


@program("nested_loops", sizes=("s", "m"))
def nested_loops(size):
  n, d = {"s": (4, 8), "m": (16, 64)}[size]
  x = c.spec((n, d, d))

  def f(x):
    def outer(carry, m):
      def inner(i, acc):
        return acc @ m * (1.0 / (i + 1).astype(jnp.float32)) + jnp.eye(d)
      return jax.lax.fori_loop(0, 3, inner, carry), jnp.trace(carry)
    return jax.lax.scan(outer, jnp.eye(d), x)

  return [("scan_fori", jax.jit(f), (x,)),
          ("grad", jax.jit(jax.grad(lambda x: jnp.sum(f(x)[0]))), (x,))]


@program("while_with_cond", sizes=("s", "m"))
def while_with_cond(size):
  n = {"s": 32, "m": 2048}[size]
  x = c.spec((n,))

  def collatz_like(x):
    def body(state):
      v, i = state
      v = jax.lax.cond(i % 2 == 0, lambda v: v / 2, lambda v: 3 * v + 1, v)
      return v, i + 1
    return jax.lax.while_loop(lambda s: s[1] < 10, body, (x, 0))

  return [("loop", jax.jit(collatz_like), (x,))]


@program("remat_mlp", sizes=("s", "m", "l"))
def remat_mlp(size):
  batch, widths = {"s": (16, [32] * 5), "m": (64, [256] * 6), "l": (128, [512] * 6)}[size]
  params = c.mlp_params(widths)
  x = c.spec((batch, widths[0]))

  def layer(l, h):
    return jnp.tanh(h @ l["w"] + l["b"])

  def loss(p, x, policy):
    for l in p:
      x = jax.checkpoint(layer, policy=policy)(l, x)
    return jnp.sum(x ** 2)

  pol = jax.checkpoint_policies
  return [("nothing_saveable", jax.jit(jax.grad(functools.partial(loss, policy=pol.nothing_saveable))), (params, x)),
          ("dots_saveable", jax.jit(jax.grad(functools.partial(loss, policy=pol.dots_saveable))), (params, x))]


@program("custom_vjp_clip", sizes=("s", "m"))
def custom_vjp_clip(size):
  n, d = {"s": (8, 16), "m": (128, 256)}[size]

  @jax.custom_vjp
  def clip_gradient(x):
    return x

  def fwd(x):
    return x, None

  def bwd(_, g):
    return (jnp.clip(g, -1.0, 1.0),)

  clip_gradient.defvjp(fwd, bwd)
  w = c.spec((d, d))
  x = c.spec((n, d))

  def loss(w, x):
    return jnp.sum(jnp.exp(clip_gradient(x @ w)))

  return [("grad", jax.jit(jax.grad(loss)), (w, x))]


@program("lax_map_rows", sizes=("s", "m"))
def lax_map_rows(size):
  n, d = {"s": (8, 32), "m": (64, 512)}[size]
  x = c.spec((n, d))

  def f(x):
    return jax.lax.map(lambda row: jnp.sort(row)[::-1][:4] * jnp.linalg.norm(row), x)

  return [("map", jax.jit(f), (x,)),
          ("map_batched", jax.jit(lambda x: jax.lax.map(jnp.cumsum, x, batch_size=4)), (x,))]


@program("associative_scan", sizes=("s", "m"))
def associative_scan(size):
  n = {"s": 64, "m": 4096}[size]
  a = c.spec((n,))
  b = c.spec((n,))

  def linear_recurrence(a, b):
    def combine(l, r):
      return l[0] * r[0], r[0] * l[1] + r[1]
    return jax.lax.associative_scan(combine, (a, b))[1]

  return [("linear_recurrence", jax.jit(linear_recurrence), (a, b)),
          ("cummax", jax.jit(lambda a: jax.lax.associative_scan(jnp.maximum, a)), (a,))]


@program("fori_unrolled_matpow", sizes=("s", "m"))
def fori_unrolled_matpow(size):
  d = {"s": 8, "m": 64}[size]
  m = c.spec((d, d))
  return [("unrolled", jax.jit(lambda m: jax.lax.fori_loop(0, 6, lambda i, a: a @ m, m,
                                                           unroll=True)), (m,)),
          ("rolled", jax.jit(lambda m: jax.lax.fori_loop(0, 6, lambda i, a: a @ m, m)), (m,))]
