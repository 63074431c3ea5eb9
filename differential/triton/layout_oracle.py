"""Triton's side of the layout harness: what the installed Triton says about
one case, through Gluon's layout classes and through TTGIR text.

Runs inside the harness's venv (the `triton` wheel installed there). Each
case runs in a forked child: Triton reports many refusals by aborting the
process (C++ assertions, LLVM fatal errors), so a child that dies is Triton
refusing, with its stderr as the message.

For a case (see layout_cases.py) the answer is a dict:
  gluon: the Gluon object's path: status ok | refused | unavailable, stage
         (python, builder, type, to_linear_layout), message, printed (the
         attribute as Triton prints it), bases (in-dim -> list of bases)
  ttgir: the TTGIR text's path (a module holding one op of the type, parsed
         and verified): status, stage (parse, verify, linear_layout),
         message, printed, bases
"""

import json
import os
import select
import signal
import tempfile
import time

import triton
from triton._C.libtriton import gluon_ir, ir
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language import amd as ttgl_amd
from triton.experimental.gluon.language.nvidia import blackwell as ttgl_bw

VERSION = triton.__version__


def _gluon_class(name):
    if hasattr(ttgl, name):
        return getattr(ttgl, name)
    if hasattr(ttgl_amd, name):
        return getattr(ttgl_amd, name)
    if hasattr(ttgl_bw, name):
        return getattr(ttgl_bw, name)
    if name == "PartitionedSharedLayout":
        try:
            from triton.experimental.gluon.language.amd.cdna5 import PartitionedSharedLayout
            return PartitionedSharedLayout
        except ImportError:
            pass
    raise LookupError(f"{name} is not in Triton {VERSION}")


def build_gluon(spec):
    """('Class', {kwargs}) with nested specs -> the Gluon object."""
    if isinstance(spec, (list, tuple)) and len(spec) == 2 and isinstance(spec[0], str) \
            and isinstance(spec[1], dict):
        cls = _gluon_class(spec[0])
        kwargs = {k: build_gluon(v) for k, v in spec[1].items()}
        if spec[0] == "PaddedSharedLayout.with_identity_for":
            raise AssertionError("unreachable")
        return cls(**kwargs)
    return spec


def _element_type(b, elem):
    return {
        "f16": b.get_half_ty, "bf16": b.get_bf16_ty, "f32": b.get_float_ty,
        "f64": b.get_double_ty, "i8": b.get_int8_ty, "i16": b.get_int16_ty,
        "i32": b.get_int32_ty, "i64": b.get_int64_ty,
    }[elem]()


def split_top_level(text):
    """'a, #x<{b, c}>, d' -> ['a', '#x<{b, c}>', 'd'] (brackets kept)."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def encoding_of(type_text):
    """The encoding of 'tensor<64x64xf32, #ttg...>' or '!ttg.memdesc<...>'."""
    inner = type_text[type_text.index("<") + 1:type_text.rindex(">")]
    parts = split_top_level(inner)
    return parts[1] if len(parts) > 1 else None


def _bases_of(obj):
    """Bases of a Gluon linear-layout object (in-dim -> bases)."""
    name = type(obj).__name__
    if name == "DistributedLinearLayout":
        return {"register": obj.reg_bases, "lane": obj.lane_bases, "warp": obj.warp_bases,
                "block": obj.block_bases}
    if name == "SharedLinearLayout":
        return {"offset": obj.offset_bases, "block": obj.block_bases}
    if name == "_TensorMemoryLinearLayout":
        return {"row": obj.rows, "col": obj.cols}
    if name == "PaddedSharedLayout":
        # Gluon gives the block bases in units of one CTA's piece (Triton
        # builds the layout as offsets * blocks): shift them past the
        # offsets' sizes.
        block = getattr(obj, "block_bases", None)
        offset = [list(b) for b in obj.offset_bases]
        if block is not None:  # Triton 3.6.0: the bases as written
            return {"offset": offset, "block": block}
        block = obj.cga_layout
        rank = len(obj.shape)
        sizes = [1 << max([0] + [b[d] for b in offset]).bit_length() if any(b[d] for b in offset) else 1
                 for d in range(rank)]
        block = [[v * sizes[d] for d, v in enumerate(b)] for b in block]
        return {"offset": offset, "block": block}
    raise TypeError(f"not a linear layout: {obj!r}")


def _norm(bases):
    return {k: [list(map(int, b)) for b in v] for k, v in bases.items()}


def _make_type(b, attr, case):
    elem = _element_type(b, case["elem"])
    shape = list(case["shape"])
    if case["space"] == "distributed":
        return b.get_distributed_ty(elem, shape, attr)
    if case["space"] == "shared":
        return b.get_shared_mem_desc_ty(elem, shape, attr, shape)
    return b.get_tensor_mem_desc_ty(elem, shape, attr, shape)


def gluon_path(case):
    b = gluon_ir.GluonOpBuilder(_context())
    out = {"status": "ok"}
    try:
        obj = build_gluon(case["gluon"])
    except LookupError as e:
        return {"status": "unavailable", "stage": "python", "message": str(e)}
    except Exception as e:  # a Gluon class refusing its arguments
        return {"status": "refused", "stage": "python", "message": f"{type(e).__name__}: {e}"}
    try:
        attr = obj._to_ir(b)
    except Exception as e:
        return {"status": "refused", "stage": "builder", "message": f"{type(e).__name__}: {e}"}
    try:
        out["printed"] = encoding_of(str(_make_type(b, attr, case)))
    except Exception as e:
        return {"status": "refused", "stage": "type", "message": f"{type(e).__name__}: {e}"}
    _write_partial({"gluon_printed": out["printed"]})
    if type(obj).__name__ == "PaddedSharedLayout":
        out["bases"] = _norm(_bases_of(obj))  # its linear component
        out["note"] = "linear component (Triton's toLinearLayout refuses padded layouts)"
        return out
    try:
        ll = b.to_linear_layout(attr, list(case["shape"]))
    except Exception as e:
        return {"status": "refused", "stage": "to_linear_layout", "message": f"{type(e).__name__}: {e}",
                "printed": out["printed"]}
    out["bases"] = _norm(_bases_of(ll))
    return out


def module_text(case, attr):
    dims = "x".join(map(str, case["shape"]))
    elem = case["elem"]
    m = case["module"]
    if case["space"] == "distributed":
        zero = "0.000000e+00" if elem.startswith(("f", "bf")) else "0"
        body = (f"    %c = arith.constant {zero} : {elem}\n"
                f"    %0 = tt.splat %c : {elem} -> tensor<{dims}x{elem}, {attr}>\n")
    elif case["space"] == "shared":
        body = f"    %0 = ttg.local_alloc : () -> !ttg.memdesc<{dims}x{elem}, {attr}, #ttg.shared_memory, mutable>\n"
    else:
        body = f"    %0 = ttng.tmem_alloc : () -> !ttg.memdesc<{dims}x{elem}, {attr}, #ttng.tensor_memory, mutable>\n"
    return (f'module attributes {{"ttg.num-warps" = {m["num_warps"]} : i32, '
            f'"ttg.threads-per-warp" = {m["threads_per_warp"]} : i32, "ttg.num-ctas" = {m["num_ctas"]} : i32}} {{\n'
            f"  tt.func public @f() {{\n{body}    tt.return\n  }}\n}}\n")


def ttgir_path(case, attr):
    ctx = _context()
    b = gluon_ir.GluonOpBuilder(ctx)
    fd, path = tempfile.mkstemp(suffix=".mlir")
    os.write(fd, module_text(case, attr).encode())
    os.close(fd)
    try:
        try:
            m = ir.parse_mlir_module(path, ctx)
        except Exception as e:
            return {"status": "refused", "stage": "parse", "message": f"{type(e).__name__}: {e}"}
    finally:
        os.unlink(path)
    if not m.verify():
        return {"status": "refused", "stage": "verify", "message": "verify() failed"}
    ops = []
    m.walk(lambda o: ops.append(o))
    op = [o for o in ops if o.get_name() in ("tt.splat", "ttg.local_alloc", "ttng.tmem_alloc")][0]
    v = op.get_result(0)
    out = {"status": "ok", "printed": encoding_of(str(v.get_type()))}
    _write_partial({"ttgir_printed": out["printed"]})
    shape = list(case["shape"])
    try:
        if case["space"] == "distributed":
            g = b.get_gluon_layout_from_tensor(v)
        else:
            g = b.get_gluon_layout_from_memdesc(v)
    except Exception as e:
        g = None
        out["roundtrip_error"] = f"{type(e).__name__}: {e}"
    try:
        if g is not None and type(g).__name__ == "PaddedSharedLayout":
            out["bases"] = _norm(_bases_of(g))
            out["note"] = "linear component"
        elif g is not None and type(g).__name__ == "DistributedLinearLayout":
            if list(g.shape) == shape:
                out["bases"] = _norm(_bases_of(g))
            else:
                out["bases"] = _norm(_bases_of(b.to_linear_layout(g._to_ir(b), shape)))
        elif case["space"] == "shared":
            # Any shared layout: memdesc_reshape to the same shape gives its
            # LinearLayout as a shared_linear encoding (amd_rotating_shared has
            # no Gluon class).
            b.set_insertion_point_after(op)
            r = b.create_memdesc_reshape(v, shape)
            kind = type(g).__name__ if g is not None else ""
            if kind == "PartitionedSharedLayout":
                out["bases"] = _norm(_bases_of(b.to_linear_layout(g._to_ir(b), shape)))
            else:
                out["bases"] = _norm(_bases_of(b.get_gluon_layout_from_memdesc(r)))
        elif g is not None:
            out["bases"] = _norm(_bases_of(b.to_linear_layout(g._to_ir(b), shape)))
        else:
            return {"status": "unavailable", "stage": "linear_layout", "printed": out["printed"],
                    "message": out["roundtrip_error"]}
    except Exception as e:
        return {"status": "unavailable", "stage": "linear_layout", "printed": out["printed"],
                "message": f"{type(e).__name__}: {e}"}
    return out


_CTX = None


def _context():
    global _CTX
    if _CTX is None:
        _CTX = ir.context()
        ir.load_dialects(_CTX)
    return _CTX


_PARTIAL_FD = None


def _write_partial(obj):
    if _PARTIAL_FD is not None:
        data = (json.dumps(obj) + "\n").encode()
        while data:
            n = os.write(_PARTIAL_FD, data)
            data = data[n:]


def _run_child(case, parts, wout, text):
    global _PARTIAL_FD
    _PARTIAL_FD = wout
    for part in parts:
        # Everything the part writes to stderr follows its marker (a part
        # that aborts leaves no result, only this).
        os.write(2, f"\n@@part {part}\n".encode())
        try:
            if part == "gluon":
                res = gluon_path(case)
                # The TTGIR path reads the attribute as Triton printed it.
                if res.get("printed"):
                    text = res["printed"]
            else:
                _write_partial({"ttgir_text": text})
                res = ttgir_path(case, text)
        except Exception as e:
            res = {"status": "refused", "stage": "exception", "message": f"{type(e).__name__}: {e}"}
        _write_partial({"part": part, "result": res})
    os._exit(0)


def _clean_stderr(err):
    lines = [l for l in err.splitlines()
             if l.strip() and not l.startswith(("nanobind:", " - leaked", " - ... skipped"))]
    return "\n".join(lines)[-2000:]


def _fork_parts(case, parts, text, timeout):
    rout, wout = os.pipe()
    rerr, werr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rout)
        os.close(rerr)
        os.dup2(werr, 2)
        try:
            _run_child(case, parts, wout, text)
        finally:
            os._exit(0)
    os.close(wout)
    os.close(werr)
    out, err = b"", b""
    fds = {rout: "out", rerr: "err"}
    deadline = time.time() + timeout
    killed = False
    while fds:
        r, _, _ = select.select(list(fds), [], [], max(0.0, deadline - time.time()))
        if not r:
            os.kill(pid, signal.SIGKILL)
            killed = True
            break
        for fd in r:
            chunk = os.read(fd, 65536)
            if not chunk:
                os.close(fd)
                del fds[fd]
            elif fds[fd] == "out":
                out += chunk
            else:
                err += chunk
    for fd in fds:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    lines = [json.loads(l) for l in out.decode().splitlines() if l.strip()]
    by_part = {}
    current = None
    for line in err.decode(errors="replace").splitlines():
        if line.startswith("@@part "):
            current = line[len("@@part "):].strip()
            by_part[current] = []
        elif current is not None:
            by_part[current].append(line)
    return lines, {k: _clean_stderr("\n".join(v)) for k, v in by_part.items()}, sig, killed


def evaluate(case, timeout=60):
    """Both paths of one case, each part that aborts attributed to itself.
    results["ttgir_text"] is the attribute the TTGIR path read: Triton's
    printing of the Gluon object when there is one, else case["text"]."""
    parts = (["gluon"] if case.get("gluon") is not None else []) + ["ttgir"]
    results = {}
    text = case["text"]
    while parts:
        lines, err, sig, killed = _fork_parts(case, parts, text, timeout)
        partial = {}
        for line in lines:
            if "part" in line:
                res = line["result"]
                if res.get("status") != "ok" and err.get(line["part"]):
                    res["stderr"] = err[line["part"]]
                results[line["part"]] = res
            else:
                partial.update(line)
        if partial.get("gluon_printed"):
            text = partial["gluon_printed"]
        if partial.get("ttgir_text"):
            results["ttgir_text"] = partial["ttgir_text"]
        parts = [p for p in parts if p not in results]
        if not parts:
            break
        # The first unfinished part died: a refusal by abort.
        dead = parts.pop(0)
        printed = partial.get(f"{dead}_printed")
        results[dead] = {"status": "refused", "stage": "abort" if not killed else "timeout",
                         "message": f"signal {sig}" if not killed else "timed out",
                         "stderr": err.get(dead, "")}
        if printed is not None:
            results[dead]["printed"] = printed
            results[dead]["stage"] = "abort_after_parse"
    results.setdefault("ttgir_text", text)
    return results
