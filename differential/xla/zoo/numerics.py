"""Numerics: linear algebra (custom calls on the CPU), RNG, complex, narrow types."""

import jax
import jax.numpy as jnp

from . import common as c
from . import program

LINALG = {"s": (2, 8), "m": (4, 64), "l": (8, 128)}


def _spd(a):
  return a @ jnp.swapaxes(a, -1, -2) + a.shape[-1] * jnp.eye(a.shape[-1])


@program("linalg_cholesky", sizes=("s", "m", "l"))
def linalg_cholesky(size):
  b, n = LINALG[size]
  a = c.spec((b, n, n))
  y = c.spec((b, n, 3))

  def solve(a, y):
    l = jnp.linalg.cholesky(_spd(a))
    z = jax.scipy.linalg.solve_triangular(l, y, lower=True)
    return jax.scipy.linalg.solve_triangular(l, z, lower=True, trans=1)

  return [("cholesky", jax.jit(lambda a: jnp.linalg.cholesky(_spd(a))), (a,)),
          ("cho_solve", jax.jit(solve), (a, y)),
          ("logdet_grad", jax.jit(jax.grad(lambda a: jnp.sum(
              jnp.log(jnp.diagonal(jnp.linalg.cholesky(_spd(a)), axis1=-2, axis2=-1))))), (a,))]


@program("linalg_qr", sizes=("s", "m", "l"))
def linalg_qr(size):
  b, n = LINALG[size]
  a = c.spec((b, 2 * n, n))
  return [("qr", jax.jit(jnp.linalg.qr), (a,)),
          ("qr_complete", jax.jit(lambda a: jnp.linalg.qr(a, mode="complete")), (a,)),
          ("lstsq_via_qr", jax.jit(lambda a: jax.scipy.linalg.solve_triangular(
              jnp.linalg.qr(a)[1], jnp.ones(a.shape[:-2] + (a.shape[-1],))[..., None])), (a,))]


@program("linalg_eigh", sizes=("s", "m", "l"))
def linalg_eigh(size):
  b, n = LINALG[size]
  a = c.spec((b, n, n))
  return [("eigh", jax.jit(lambda a: jnp.linalg.eigh(_spd(a))), (a,)),
          ("eigvalsh_grad", jax.jit(jax.grad(lambda a: jnp.sum(jnp.linalg.eigvalsh(_spd(a))))),
           (a,))]


@program("triangular_solve", sizes=("s", "m", "l"))
def triangular_solve(size):
  b, n = LINALG[size]
  a = c.spec((b, n, n))
  y = c.spec((b, n, 2 * n))
  return [("lower", jax.jit(lambda a, y: jax.lax.linalg.triangular_solve(
      a, y, left_side=True, lower=True)), (a, y)),
          ("upper_right_transpose", jax.jit(lambda a, y: jax.lax.linalg.triangular_solve(
              a, jnp.swapaxes(y, -1, -2), left_side=False, lower=False, transpose_a=True)),
           (a, y))]


@program("linalg_lu_solve", sizes=("s", "m", "l"))
def linalg_lu_solve(size):
  b, n = LINALG[size]
  a = c.spec((b, n, n))
  y = c.spec((b, n, 1))
  return [("solve", jax.jit(jnp.linalg.solve), (a, y)),
          ("inv_det", jax.jit(lambda a: (jnp.linalg.inv(a), jnp.linalg.det(a))), (a,)),
          ("slogdet_grad", jax.jit(jax.grad(lambda a: jnp.sum(jnp.linalg.slogdet(a)[1]))),
           (a,))]


@program("linalg_svd", sizes=("s", "m"))
def linalg_svd(size):
  b, n = LINALG[size]
  a = c.spec((b, n + 3, n))
  return [("svd", jax.jit(lambda a: jnp.linalg.svd(a, full_matrices=False)), (a,)),
          ("pinv", jax.jit(jnp.linalg.pinv), (a,))]


@program("rng_sampling", sizes=("s", "m", "l"))
def rng_sampling(size):
  n, d = {"s": (16, 8), "m": (256, 128), "l": (1024, 512)}[size]
  key = jax.ShapeDtypeStruct((2,), jnp.uint32)
  logits = c.spec((n, d))
  x = c.spec((n, d))

  def sample(key, logits):
    k1, k2, k3 = jax.random.split(key, 3)
    return (jax.random.normal(k1, (n, d)), jax.random.uniform(k2, (n,)),
            jax.random.categorical(k3, logits))

  def dropout(key, x):
    keep = jax.random.bernoulli(key, 0.9, x.shape)
    return jnp.where(keep, x / 0.9, 0.0)

  return [("sample", jax.jit(sample), (key, logits)),
          ("dropout", jax.jit(dropout), (key, x)),
          ("permutation", jax.jit(lambda k, x: jax.random.permutation(k, x, axis=0)), (key, x))]


@program("rng_rbg", sizes=("s", "m"))
def rng_rbg(size):
  n = {"s": 64, "m": 65536}[size]
  data = jax.ShapeDtypeStruct((4,), jnp.uint32)

  def f(data):
    k = jax.random.wrap_key_data(data, impl="rbg")
    return jax.random.normal(k, (n,)), jax.random.randint(k, (n,), 0, 10)

  return [("rbg", jax.jit(f), (data,))]


@program("complex_math", sizes=("s", "m"))
def complex_math(size):
  n = {"s": 16, "m": 256}[size]
  z = c.spec((n, n), jnp.complex64)
  w = c.spec((n,), jnp.complex64)
  return [("matmul_abs_angle", jax.jit(lambda z, w: (
      jnp.abs(z @ w), jnp.angle(z), jnp.real(z * jnp.conj(z)), jnp.exp(1j * jnp.real(z)))),
           (z, w)),
          ("complex_grad", jax.jit(jax.grad(lambda z: jnp.sum(jnp.abs(z @ z) ** 2),
                                            holomorphic=False)), (z,))]


@program("fp8_matmul", sizes=("s", "m"))
def fp8_matmul(size):
  n = {"s": 16, "m": 256}[size]
  a = c.spec((n, n), jnp.float8_e4m3fn)
  b = c.spec((n, n), jnp.float8_e5m2)
  s = c.spec((), jnp.float32)

  def f(a, b, s):
    out = jnp.dot(a.astype(jnp.float32), b.astype(jnp.float32)) * s
    return out.astype(jnp.float8_e4m3fn), jnp.max(jnp.abs(out))

  def quantize(x):
    scale = jnp.max(jnp.abs(x)) / 448.0
    return (x / scale).astype(jnp.float8_e4m3fn), scale

  return [("scaled", jax.jit(f), (a, b, s)),
          ("quantize", jax.jit(quantize), (c.spec((n, n)),))]


@program("sub_byte_types", sizes=("s", "m"))
def sub_byte_types(size):
  n = {"s": 16, "m": 512}[size]
  q = c.spec((n, n), jnp.int4)
  u = c.spec((n, n), jnp.uint4)
  w = c.spec((n, n), jnp.bfloat16)
  x = c.spec((n, n))

  def dequant_matmul(q, x):
    return x @ (q.astype(jnp.float32) * 0.05)

  def requant(x):
    return jnp.clip(jnp.round(x * 4), -8, 7).astype(jnp.int4)

  return [("int4_dequant", jax.jit(dequant_matmul), (q, x)),
          ("uint4_mix", jax.jit(lambda u, w: (u.astype(jnp.bfloat16) + w).astype(jnp.uint4)),
           (u, w)),
          ("requant", jax.jit(requant), (x,))]


@program("half_precision", sizes=("s", "m"))
def half_precision(size):
  n = {"s": 32, "m": 512}[size]
  a = c.spec((n, n), jnp.float16)
  b = c.spec((n, n), jnp.bfloat16)
  return [("f16", jax.jit(lambda a: jax.nn.softmax(a @ a, axis=-1)), (a,)),
          ("bf16_accumulate", jax.jit(lambda b: jnp.dot(
              b, b, preferred_element_type=jnp.float32).sum(0)), (b,)),
          ("mixed", jax.jit(lambda a, b: a.astype(jnp.float32) + b.astype(jnp.float32)), (a, b))]


@program("integer_bits", sizes=("s", "m"))
def integer_bits(size):
  n = {"s": 64, "m": 16384}[size]
  a = c.spec((n,), jnp.uint32)
  b = c.spec((n,), jnp.int8)
  d = c.spec((n,), jnp.uint8)

  def f(a, b, d):
    h = (a ^ (a >> 16)) * jnp.uint32(0x45d9f3b)
    pc = jax.lax.population_count(a)
    clz = jax.lax.clz(a)
    s = jnp.left_shift(b.astype(jnp.int32), 2) | d.astype(jnp.int32)
    return h, pc, clz, s, (b // 3).astype(jnp.int16), d % 7

  return [("bits", jax.jit(f), (a, b, d))]


@program("special_functions", sizes=("s", "m"))
def special_functions(size):
  n = {"s": 64, "m": 8192}[size]
  x = c.spec((n,))
  def special(x):
    return (jax.scipy.special.erf(x), jax.scipy.special.gammaln(jnp.abs(x) + 1),
            jax.scipy.special.logsumexp(x), jnp.log1p(jnp.abs(x)),
            jax.scipy.special.xlogy(x, jnp.abs(x) + 1))

  return [("special", jax.jit(special), (x,)),
          ("erf_inv_grad", jax.jit(jax.grad(lambda x: jnp.sum(jax.scipy.special.erfinv(
              jnp.tanh(x) * 0.9)))), (x,))]


@program("float64_x64", sizes=("s", "m"))
def float64_x64(size):
  n = {"s": 16, "m": 256}[size]

  def build():
    a = c.spec((n, n), jnp.float64)
    i = c.spec((n,), jnp.int64)
    return a, i

  def f(a, i):
    return jnp.linalg.norm(a @ a.T, axis=0), jnp.cumsum(i), a.astype(jnp.float32)

  with jax.enable_x64(True):
    a, i = build()
    fn = jax.jit(f)

    class X64:
      """Lowers inside enable_x64, so the 64-bit types stay."""

      def lower(self, *args):
        with jax.enable_x64(True):
          return fn.lower(*args)

  return [("f64", X64(), (a, i))]
