"""Networks: conv nets, recurrent nets, attention variants, embeddings, MoE."""

import functools

import jax
import jax.numpy as jnp

from . import common as c
from . import program


def conv(x, w, stride=1, padding="SAME", groups=1, dilation=1):
  return jax.lax.conv_general_dilated(
      x, w, (stride, stride), padding, rhs_dilation=(dilation, dilation),
      dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups)


def max_pool(x, k=2):
  return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, k, k, 1), (1, k, k, 1), "VALID")


def avg_pool(x, k=2):
  s = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, k, k, 1), (1, k, k, 1), "VALID")
  return s / (k * k)


CNN_SIZES = {"s": (8, 16, 8, 16), "m": (16, 32, 16, 32), "l": (32, 32, 32, 64)}


@program("cnn_classifier", sizes=("s", "m", "l"))
def cnn_classifier(size):
  batch, hw, ch, ch2 = CNN_SIZES[size]
  params = {"c1": c.spec((3, 3, 3, ch)), "c2": c.spec((3, 3, ch, ch2)),
            "fc": c.spec(((hw // 4) ** 2 * ch2, 10)), "b": c.spec((10,))}
  x = c.spec((batch, hw, hw, 3))
  y = c.spec((batch,), jnp.int32)

  def logits(p, x):
    h = max_pool(jax.nn.relu(conv(x, p["c1"])))
    h = avg_pool(jax.nn.relu(conv(h, p["c2"])))
    return h.reshape(h.shape[0], -1) @ p["fc"] + p["b"]

  def loss(p, x, y):
    return c.softmax_cross_entropy(logits(p, x), y)

  def step(p, x, y):
    l, g = jax.value_and_grad(loss)(p, x, y)
    return c.sgd_update(p, g), l

  return [
      ("forward", jax.jit(logits), (params, x)),
      ("backward", jax.jit(jax.grad(loss)), (params, x, y)),
      ("step_donated", jax.jit(step, donate_argnums=0), (params, x, y)),
  ]


def batch_norm(x, scale, bias, mean, var, train, momentum=0.9):
  if train:
    m = jnp.mean(x, axis=(0, 1, 2))
    v = jnp.var(x, axis=(0, 1, 2))
    mean = momentum * mean + (1 - momentum) * m
    var = momentum * var + (1 - momentum) * v
  else:
    m, v = mean, var
  return (x - m) * jax.lax.rsqrt(v + 1e-5) * scale + bias, mean, var


@program("resnet_blocks", sizes=("s", "m"))
def resnet_blocks(size):
  batch, hw, ch, _ = CNN_SIZES[size]
  blocks = 2 if size == "s" else 3
  block = {"w1": c.spec((3, 3, ch, ch)), "w2": c.spec((3, 3, ch, ch)),
           "scale": c.spec((ch,)), "bias": c.spec((ch,))}
  stats = {"mean": c.spec((ch,)), "var": c.spec((ch,))}
  params = {"stem": c.spec((3, 3, 3, ch)), "blocks": [block] * blocks, "fc": c.spec((ch, 10))}
  state = [stats] * blocks
  x = c.spec((batch, hw, hw, 3))
  y = c.spec((batch,), jnp.int32)

  def apply(p, s, x, train):
    h = conv(x, p["stem"])
    new = []
    for b, st in zip(p["blocks"], s):
      r = jax.nn.relu(conv(h, b["w1"]))
      r, mean, var = batch_norm(conv(r, b["w2"]), b["scale"], b["bias"], st["mean"],
                                st["var"], train)
      h = jax.nn.relu(h + r)
      new.append({"mean": mean, "var": var})
    return jnp.mean(h, axis=(1, 2)) @ p["fc"], new

  def loss(p, s, x, y):
    logits, new = apply(p, s, x, True)
    return c.softmax_cross_entropy(logits, y), new

  def step(p, s, x, y):
    (l, new), g = jax.value_and_grad(loss, has_aux=True)(p, s, x, y)
    return c.sgd_update(p, g), new, l

  return [
      ("eval", jax.jit(lambda p, s, x: apply(p, s, x, False)[0]), (params, state, x)),
      ("train_step", jax.jit(step, donate_argnums=(0, 1)), (params, state, x, y)),
  ]


@program("depthwise_separable", sizes=("s", "m"))
def depthwise_separable(size):
  batch, hw, ch, ch2 = CNN_SIZES[size]
  params = {"dw": c.spec((3, 3, 1, ch)), "pw": c.spec((1, 1, ch, ch2)),
            "dw2": c.spec((5, 5, 1, ch2))}
  x = c.spec((batch, hw, hw, ch))

  def f(p, x):
    h = jax.nn.relu6(conv(x, p["dw"], groups=ch))
    h = conv(h, p["pw"])
    h = conv(h, p["dw2"], stride=2, groups=ch2)
    return jnp.sum(h ** 2)

  return [("forward", jax.jit(f), (params, x)),
          ("grad", jax.jit(jax.grad(f)), (params, x))]


@program("conv1d_dilated", sizes=("s", "m"))
def conv1d_dilated(size):
  batch, length, ch = {"s": (4, 256, 16), "m": (8, 1024, 32)}[size]
  ws = [c.spec((3, ch, ch)) for _ in range(4)]
  x = c.spec((batch, length, ch))

  def f(ws, x):
    for i, w in enumerate(ws):
      h = jax.lax.conv_general_dilated(x, w, (1,), "SAME", rhs_dilation=(2 ** i,),
                                       dimension_numbers=("NWC", "WIO", "NWC"))
      x = x + jnp.tanh(h) * jax.nn.sigmoid(h)
    return jnp.mean(x ** 2)

  return [("forward", jax.jit(f), (ws, x)),
          ("grad", jax.jit(jax.value_and_grad(f)), (ws, x))]


@program("conv_transpose_decoder", sizes=("s", "m"))
def conv_transpose_decoder(size):
  batch, hw, ch = {"s": (4, 4, 16), "m": (8, 8, 32)}[size]
  params = {"d1": c.spec((4, 4, ch, ch // 2)), "d2": c.spec((4, 4, ch // 2, 3))}
  z = c.spec((batch, hw, hw, ch))
  target = c.spec((batch, hw * 4, hw * 4, 3))

  def decode(p, z):
    h = jax.nn.relu(jax.lax.conv_transpose(z, p["d1"], (2, 2), "SAME",
                                           dimension_numbers=("NHWC", "HWIO", "NHWC")))
    return jax.nn.sigmoid(jax.lax.conv_transpose(h, p["d2"], (2, 2), "SAME",
                                                 dimension_numbers=("NHWC", "HWIO", "NHWC")))

  def loss(p, z, t):
    return jnp.mean((decode(p, z) - t) ** 2)

  return [("decode", jax.jit(decode), (params, z)),
          ("grad", jax.jit(jax.grad(loss)), (params, z, target))]


def lstm_cell(p, carry, x):
  h, cell = carry
  gates = x @ p["wx"] + h @ p["wh"] + p["b"]
  i, f, g, o = jnp.split(gates, 4, axis=-1)
  cell = jax.nn.sigmoid(f) * cell + jax.nn.sigmoid(i) * jnp.tanh(g)
  h = jax.nn.sigmoid(o) * jnp.tanh(cell)
  return (h, cell), h


LSTM_SIZES = {"s": (4, 16, 8, 32), "m": (8, 64, 32, 128), "l": (16, 128, 64, 256)}


@program("lstm_scan", sizes=("s", "m", "l"))
def lstm_scan(size):
  batch, steps, features, hidden = LSTM_SIZES[size]
  p = {"wx": c.spec((features, 4 * hidden)), "wh": c.spec((hidden, 4 * hidden)),
       "b": c.spec((4 * hidden,)), "out": c.spec((hidden, 1))}
  xs = c.spec((steps, batch, features))
  ys = c.spec((steps, batch, 1))

  def run(p, xs):
    zeros = jnp.zeros((xs.shape[1], p["wh"].shape[0]))
    _, hs = jax.lax.scan(functools.partial(lstm_cell, p), (zeros, zeros), xs)
    return hs @ p["out"]

  def loss(p, xs, ys):
    return jnp.mean((run(p, xs) - ys) ** 2)

  return [("forward", jax.jit(run), (p, xs)),
          ("grad", jax.jit(jax.grad(loss)), (p, xs, ys)),
          ("step", jax.jit(lambda p, xs, ys: c.sgd_update(p, jax.grad(loss)(p, xs, ys)),
                           donate_argnums=0), (p, xs, ys))]


@program("gru_bidirectional", sizes=("s", "m"))
def gru_bidirectional(size):
  batch, steps, features, hidden = LSTM_SIZES[size]
  cell = {"wx": c.spec((features, 3 * hidden)), "wh": c.spec((hidden, 3 * hidden))}
  p = {"fwd": cell, "bwd": cell}
  xs = c.spec((steps, batch, features))

  def gru(p, h, x):
    xr, xz, xn = jnp.split(x @ p["wx"], 3, axis=-1)
    hr, hz, hn = jnp.split(h @ p["wh"], 3, axis=-1)
    r = jax.nn.sigmoid(xr + hr)
    z = jax.nn.sigmoid(xz + hz)
    n = jnp.tanh(xn + r * hn)
    h = (1 - z) * n + z * h
    return h, h

  def run(p, xs):
    h0 = jnp.zeros((xs.shape[1], hidden))
    _, f = jax.lax.scan(functools.partial(gru, p["fwd"]), h0, xs)
    _, b = jax.lax.scan(functools.partial(gru, p["bwd"]), h0, xs, reverse=True)
    return jnp.concatenate([f, b], axis=-1)

  return [("forward", jax.jit(run), (p, xs)),
          ("grad", jax.jit(jax.grad(lambda p, xs: jnp.sum(run(p, xs) ** 2))), (p, xs))]


@program("rnn_unrolled", sizes=("s", "m"))
def rnn_unrolled(size):
  batch, steps, features, hidden = LSTM_SIZES[size]
  steps = min(steps, 12)
  p = {"wx": c.spec((features, hidden)), "wh": c.spec((hidden, hidden))}
  xs = [c.spec((batch, features)) for _ in range(steps)]

  def run(p, xs):
    h = jnp.zeros((batch, hidden))
    outs = []
    for x in xs:
      h = jnp.tanh(x @ p["wx"] + h @ p["wh"])
      outs.append(h)
    return tuple(outs)

  return [("forward", jax.jit(run), (p, xs)),
          ("grad", jax.jit(jax.grad(lambda p, xs: sum(jnp.sum(o) for o in run(p, xs)))),
           (p, xs))]


@program("vae_step", sizes=("s", "m"))
def vae_step(size):
  batch, dim, hidden, latent = {"s": (16, 64, 128, 8), "m": (64, 784, 512, 32)}[size]
  params = {"enc": c.mlp_params([dim, hidden, 2 * latent]),
            "dec": c.mlp_params([latent, hidden, dim])}
  x = c.spec((batch, dim))
  key = jax.ShapeDtypeStruct((2,), jnp.uint32)

  def loss(p, x, key):
    mu, logvar = jnp.split(c.mlp_apply(p["enc"], x), 2, axis=-1)
    z = mu + jnp.exp(0.5 * logvar) * jax.random.normal(key, mu.shape)
    recon = c.mlp_apply(p["dec"], z)
    bce = jnp.sum(jax.nn.softplus(recon) - x * recon)
    kl = -0.5 * jnp.sum(1 + logvar - mu ** 2 - jnp.exp(logvar))
    return (bce + kl) / x.shape[0]

  def step(p, x, key):
    l, g = jax.value_and_grad(loss)(p, x, key)
    return c.sgd_update(p, g), l

  return [("loss", jax.jit(loss), (params, x, key)),
          ("step", jax.jit(step, donate_argnums=0), (params, x, key))]


@program("dot_product_attention", sizes=("s", "m", "l"))
def dot_product_attention(size):
  b, n, h, d = {"s": (2, 64, 4, 16), "m": (4, 128, 8, 32), "l": (4, 256, 8, 64)}[size]
  q = c.spec((b, n, h, d))

  def f(q, k, v):
    return jax.nn.dot_product_attention(q, k, v, is_causal=True)

  return [("forward", jax.jit(f), (q, q, q)),
          ("grad", jax.jit(jax.grad(lambda q, k, v: jnp.sum(f(q, k, v)), argnums=(0, 1, 2))),
           (q, q, q)),
          ("bf16", jax.jit(f), (c.spec(q.shape, jnp.bfloat16),) * 3)]


@program("vit_forward", sizes=("s", "m"))
def vit_forward(size):
  batch, hw, patch, d, heads, layers = {"s": (2, 32, 8, 64, 4, 2),
                                        "m": (4, 64, 8, 128, 4, 3)}[size]
  n = (hw // patch) ** 2
  params = c.transformer_params(16, d, heads, layers, 4 * d)
  params["patch"] = c.spec((patch * patch * 3, d))
  params["pos"] = c.spec((n + 1, d))
  params["cls"] = c.spec((1, 1, d))
  params["head"] = c.spec((d, 100))
  x = c.spec((batch, hw, hw, 3))

  def f(p, x):
    bsz = x.shape[0]
    t = x.reshape(bsz, hw // patch, patch, hw // patch, patch, 3)
    t = t.transpose(0, 1, 3, 2, 4, 5).reshape(bsz, n, -1) @ p["patch"]
    t = jnp.concatenate([jnp.broadcast_to(p["cls"], (bsz, 1, d)), t], axis=1) + p["pos"]
    for blk in p["blocks"]:
      t = c.transformer_block(blk, t, heads)
    return c.layer_norm(t[:, 0], p["ln_f"]["scale"], p["ln_f"]["bias"]) @ p["head"]

  return [("forward", jax.jit(f), (params, x)),
          ("grad", jax.jit(jax.grad(lambda p, x: jnp.sum(jax.nn.log_softmax(f(p, x))))),
           (params, x))]


@program("embedding_backward", sizes=("s", "m", "l"))
def embedding_backward(size):
  vocab, d, batch, seq = {"s": (100, 16, 4, 8), "m": (1000, 64, 8, 32),
                          "l": (5000, 128, 16, 64)}[size]
  table = c.spec((vocab, d))
  ids = c.spec((batch, seq), jnp.int32)
  w = c.spec((d, 1))

  def loss(table, w, ids):
    return jnp.mean(jnp.take(table, ids, axis=0) @ w)

  return [("lookup", jax.jit(lambda t, ids: t[ids].sum(axis=1)), (table, ids)),
          ("grad", jax.jit(jax.grad(loss)), (table, w, ids)),
          ("sparse_update", jax.jit(lambda t, ids, g: t.at[ids].add(-0.1 * g),
                                    donate_argnums=0),
           (table, ids, c.spec((batch, seq, d))))]


@program("moe_layer", sizes=("s", "m"))
def moe_layer(size):
  tokens, d, experts, ff, k = {"s": (64, 32, 4, 64, 2), "m": (256, 64, 8, 128, 2)}[size]
  p = {"router": c.spec((d, experts)), "w1": c.spec((experts, d, ff)),
       "w2": c.spec((experts, ff, d))}
  x = c.spec((tokens, d))

  def f(p, x):
    logits = x @ p["router"]
    weights, chosen = jax.lax.top_k(jax.nn.softmax(logits), k)
    dispatch = jax.nn.one_hot(chosen, experts)  # tokens, k, experts
    xe = jnp.einsum("tke,td->etd", dispatch, x)
    h = jax.nn.gelu(jnp.einsum("etd,edf->etf", xe, p["w1"]))
    ye = jnp.einsum("etf,efd->etd", h, p["w2"])
    return jnp.einsum("tke,tk,etd->td", dispatch, weights, ye)

  return [("forward", jax.jit(f), (p, x)),
          ("grad", jax.jit(jax.grad(lambda p, x: jnp.sum(f(p, x) ** 2))), (p, x))]


@program("transformer_remat", sizes=("s", "m"))
def transformer_remat(size):
  vocab, d, heads, layers, ff, batch, seq = {"s": (128, 64, 4, 2, 128, 2, 32),
                                             "m": (256, 128, 4, 3, 256, 4, 64)}[size]
  params = c.transformer_params(vocab, d, heads, layers, ff)
  tokens = c.spec((batch, seq + 1), jnp.int32)
  block = jax.checkpoint(functools.partial(c.transformer_block, heads=heads))
  dots = jax.checkpoint(functools.partial(c.transformer_block, heads=heads),
                        policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)

  def loss(p, t, blk):
    x = p["embed"][t[:, :-1]]
    for b in p["blocks"]:
      x = blk(b, x)
    x = c.layer_norm(x, p["ln_f"]["scale"], p["ln_f"]["bias"])
    return c.softmax_cross_entropy((x @ p["embed"].T).reshape(-1, vocab), t[:, 1:].reshape(-1))

  return [("remat", jax.jit(jax.grad(functools.partial(loss, blk=block))), (params, tokens)),
          ("remat_dots", jax.jit(jax.grad(functools.partial(loss, blk=dots))),
           (params, tokens))]


@program("graph_message_passing", sizes=("s", "m"))
def graph_message_passing(size):
  nodes, edges, d = {"s": (32, 128, 16), "m": (256, 2048, 64)}[size]
  p = [c.spec((d, d)) for _ in range(3)]
  x = c.spec((nodes, d))
  senders = c.spec((edges,), jnp.int32)
  receivers = c.spec((edges,), jnp.int32)

  def f(p, x, s, r):
    for w in p:
      msg = x[s] @ w
      agg = jax.ops.segment_sum(msg, r, num_segments=nodes)
      deg = jax.ops.segment_sum(jnp.ones_like(r, jnp.float32), r, num_segments=nodes)
      x = jax.nn.relu(x + agg / jnp.maximum(deg, 1.0)[:, None])
    return x

  return [("forward", jax.jit(f), (p, x, senders, receivers)),
          ("grad", jax.jit(jax.grad(lambda p, x, s, r: jnp.sum(f(p, x, s, r)))),
           (p, x, senders, receivers))]


@program("greedy_decode", sizes=("s", "m"))
def greedy_decode(size):
  vocab, d, heads, layers, ff, batch, seq = {"s": (64, 32, 2, 1, 64, 2, 16),
                                             "m": (128, 64, 4, 2, 128, 4, 32)}[size]
  params = c.transformer_params(vocab, d, heads, layers, ff)
  prompt = c.spec((batch, seq), jnp.int32)

  def decode(p, tokens):
    def body(i, tokens):
      logits = c.transformer_logits(p, tokens, heads)
      nxt = jnp.argmax(logits[:, i - 1], axis=-1).astype(jnp.int32)
      return jax.lax.dynamic_update_slice(tokens, nxt[:, None], (0, i))
    return jax.lax.fori_loop(seq // 2, seq, body, tokens)

  return [("decode", jax.jit(decode), (params, prompt))]
