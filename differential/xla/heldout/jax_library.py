"""Held-out programs from the code that ships with jax: jax.scipy's solvers and
transforms, jax.experimental.ode, jax.example_libraries (stax, optimizers)."""

import jax
import jax.numpy as jnp
import jax.scipy.optimize  # pylint: disable=unused-import
from jax.example_libraries import optimizers
from jax.example_libraries import stax
from jax.experimental import ode

import zoo
from zoo import common as c


@zoo.program("heldout_bfgs_rosenbrock", sizes=("s", "m"))
def bfgs_rosenbrock(size):
  n = {"s": 4, "m": 32}[size]

  def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

  def solve(x0):
    r = jax.scipy.optimize.minimize(rosenbrock, x0, method="BFGS")
    return r.x, r.fun, r.nit

  return [("minimize", jax.jit(solve), (c.spec((n,)),))]


@zoo.program("heldout_sparse_solvers", sizes=("s", "m"))
def sparse_solvers(size):
  n = {"s": 16, "m": 256}[size]
  a = c.spec((n, n))
  b = c.spec((n,))

  def spd(a):
    return a @ a.T + n * jnp.eye(n)

  return [("cg", jax.jit(lambda a, b: jax.scipy.sparse.linalg.cg(spd(a), b)[0]), (a, b)),
          ("gmres", jax.jit(lambda a, b: jax.scipy.sparse.linalg.gmres(
              spd(a), b, restart=8)[0]), (a, b)),
          ("bicgstab", jax.jit(lambda a, b: jax.scipy.sparse.linalg.bicgstab(
              spd(a), b)[0]), (a, b))]


@zoo.program("heldout_matrix_functions", sizes=("s", "m"))
def matrix_functions(size):
  n = {"s": 8, "m": 64}[size]
  a = c.spec((n, n))
  return [("expm", jax.jit(jax.scipy.linalg.expm), (a,)),
          ("expm_frechet", jax.jit(lambda a: jax.scipy.linalg.expm_frechet(a, a * 0.1)),
           (a,)),
          ("lu_factor_solve", jax.jit(lambda a: jax.scipy.linalg.lu_solve(
              jax.scipy.linalg.lu_factor(a), jnp.ones((n,)))), (a,))]


@zoo.program("heldout_signal", sizes=("s", "m"))
def signal(size):
  n, k = {"s": (32, 5), "m": (256, 9)}[size]
  img = c.spec((n, n))
  ker = c.spec((k, k))
  x = c.spec((n * 8,))
  return [("convolve2d", jax.jit(lambda i, k: jax.scipy.signal.convolve2d(i, k, mode="same")),
           (img, ker)),
          ("stft", jax.jit(lambda x: jnp.abs(jax.scipy.signal.stft(x, nperseg=32)[2])), (x,)),
          ("correlate", jax.jit(lambda x: jax.scipy.signal.correlate(x, x[:k], mode="valid")),
           (x,))]


@zoo.program("heldout_odeint", sizes=("s", "m"))
def odeint(size):
  n, steps = {"s": (4, 8), "m": (64, 32)}[size]
  w = c.spec((n, n))
  y0 = c.spec((n,))
  t = c.spec((steps,))

  def dynamics(y, t, w):
    return jnp.tanh(w @ y) - 0.1 * y

  def solve(w, y0, t):
    return ode.odeint(dynamics, y0, t, w)

  return [("solve", jax.jit(solve), (w, y0, t)),
          ("adjoint_grad", jax.jit(jax.grad(lambda w, y0, t: jnp.sum(solve(w, y0, t)[-1] ** 2))),
           (w, y0, t))]


def _stax_specs(init_fun, input_shape):
  """Parameter specs of a stax model: its init run abstractly."""
  out_shape, params = jax.eval_shape(lambda k: init_fun(k, input_shape),
                                     jax.ShapeDtypeStruct((2,), jnp.uint32))
  del out_shape
  return params


@zoo.program("heldout_stax_convnet", sizes=("s", "m"))
def stax_convnet(size):
  batch, hw = {"s": (4, 16), "m": (16, 28)}[size]
  init_fun, apply_fun = stax.serial(
      stax.Conv(16, (3, 3), padding="SAME"), stax.BatchNorm(), stax.Relu,
      stax.MaxPool((2, 2), strides=(2, 2)),
      stax.Conv(32, (3, 3), padding="SAME"), stax.Relu, stax.AvgPool((2, 2), strides=(2, 2)),
      stax.Flatten, stax.Dense(64), stax.Relu, stax.Dense(10), stax.LogSoftmax)
  params = _stax_specs(init_fun, (batch, hw, hw, 1))
  x = c.spec((batch, hw, hw, 1))
  y = c.spec((batch, 10))
  opt_init, opt_update, get_params = optimizers.adam(1e-3)
  state = jax.eval_shape(opt_init, params)

  def loss(p, x, y):
    return -jnp.mean(jnp.sum(apply_fun(p, x) * y, axis=1))

  def step(i, state, x, y):
    return opt_update(i, jax.grad(loss)(get_params(state), x, y), state)

  return [("predict", jax.jit(apply_fun), (params, x)),
          ("adam_step", jax.jit(step, donate_argnums=1),
           (c.spec((), jnp.int32), state, x, y))]


@zoo.program("heldout_stax_resnet_block", sizes=("s", "m"))
def stax_resnet_block(size):
  batch, hw, ch = {"s": (2, 8, 8), "m": (8, 16, 32)}[size]

  def identity_block(filters):
    main = stax.serial(stax.Conv(filters, (3, 3), padding="SAME"), stax.BatchNorm(),
                       stax.Relu, stax.Conv(filters, (3, 3), padding="SAME"),
                       stax.BatchNorm())
    return stax.serial(stax.FanOut(2), stax.parallel(main, stax.Identity), stax.FanInSum,
                       stax.Relu)

  init_fun, apply_fun = stax.serial(stax.Conv(ch, (1, 1)), identity_block(ch),
                                    identity_block(ch), stax.GeneralConv(
                                        ("NHWC", "HWIO", "NHWC"), ch, (1, 1)),
                                    stax.Flatten, stax.Dense(10), stax.Softmax)
  params = _stax_specs(init_fun, (batch, hw, hw, 3))
  x = c.spec((batch, hw, hw, 3))
  opt_init, opt_update, get_params = optimizers.momentum(0.01, 0.9)
  state = jax.eval_shape(opt_init, params)

  def step(state, x):
    g = jax.grad(lambda p: jnp.sum(apply_fun(p, x) ** 2))(get_params(state))
    return opt_update(0, g, state)

  return [("forward", jax.jit(apply_fun), (params, x)),
          ("momentum_step", jax.jit(step), (state, x))]


@zoo.program("heldout_example_optimizers", sizes=("s", "m"))
def example_optimizers(size):
  widths = {"s": [16, 32, 4], "m": [256, 512, 10]}[size]
  params = c.mlp_params(widths)
  x = c.spec((32, widths[0]))
  out = []
  for name, opt in (("rmsprop", optimizers.rmsprop(1e-3)),
                    ("adagrad", optimizers.adagrad(1e-2)),
                    ("adamax", optimizers.adamax(1e-3)),
                    ("nesterov", optimizers.nesterov(1e-2, 0.9))):
    opt_init, opt_update, get_params = opt
    state = jax.eval_shape(opt_init, params)

    def step(state, x, opt_update=opt_update, get_params=get_params):
      g = jax.grad(lambda p: jnp.sum(c.mlp_apply(p, x) ** 2))(get_params(state))
      return opt_update(1, g, state)

    out.append((name, jax.jit(step), (state, x)))
  return out
