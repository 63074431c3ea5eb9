"""The notebook harness (differential/cute_dsl/notebooks.py and its
notebook_sources.py, notebook_worker.py, notebook_known.py) on small
notebooks and doc pages written here: no DSL and no CUTLASS snapshot
needed. The twin side runs in this process."""

import json
import os
import re
import sys

import pytest


def _harness_dir():
    root = os.environ.get("TEST_SRCDIR")
    if root:
        d = os.path.join(root, "hlolayout", "differential", "cute_dsl")
        if os.path.isdir(d):
            return d
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "differential", "cute_dsl")


sys.path.insert(0, _harness_dir())
import notebook_known  # noqa: E402
import notebook_sources  # noqa: E402
import notebook_worker  # noqa: E402
import notebooks  # noqa: E402

IMPORTS = "import cutlass\nimport cutlass.cute as cute\n"
LAYOUT = '''@cute.jit
def show(n: cutlass.Int32):
    L = cute.make_layout((n, 2))
    print(">>>", L)
    cute.printf(">?? {}", L)


show(8)
'''


def notebook(*codes):
    cells = []
    for code in codes:
        cells.append({"cell_type": "markdown", "source": ["text"]})
        cells.append({"cell_type": "code", "source": [code]})
    return json.dumps({"cells": cells})


def classified(text, path="x/n.ipynb", torch_missing=None):
    raw = list(notebook_sources._notebook_cells(path, text)
               if path.endswith(".ipynb") else
               notebook_sources._doc_blocks(path, text))
    return notebook_sources.classify_source(raw, torch_missing)


TORCH_CELLS = ("import torch\na = torch.zeros(4)\n", "print(a)\n",
               "b = torch.zeros(4, device=\"cuda\")\nprint(b)\n")


def test_cells_are_setup_examples_or_skipped_with_the_reason():
    cells = classified(notebook(
        IMPORTS, LAYOUT, *TORCH_CELLS,
        "@cute.kernel\ndef k():\n    pass\n\nk().launch(grid=(1, 1, 1))\n",
        "x = cute.make_layout(4)\nprint(x)\n"), torch_missing="no apt")
    got = [(c.where, c.role, c.reason) for c in cells]
    assert got == [
        ("n.ipynb:1", "setup", ""),
        ("n.ipynb:3", "example", ""),
        ("n.ipynb:5", "skip", "torch: no apt"),
        ("n.ipynb:7", "skip", "needs a of a skipped cell"),
        ("n.ipynb:9", "skip", notebook_sources.TORCH_ON_GPU),
        ("n.ipynb:11", "skip", "a GPU kernel launch"),
        ("n.ipynb:13", "example", ""),
    ]
    assert cells[4].gpu and cells[5].gpu and cells[5].calls
    assert not cells[2].gpu
    # With PyTorch (run.sh installs Debian's): its CPU tensors run, its
    # GPU tensors need a GPU.
    cells = classified(notebook(IMPORTS, *TORCH_CELLS))
    assert [(c.role, c.reason) for c in cells[1:]] == [
        ("example", ""), ("example", ""),
        ("skip", notebook_sources.TORCH_ON_GPU)]
    # An import of a tensor module alone does not make a cell a tensor one.
    (cell,) = classified(notebook(
        "import cutlass.cute as cute\nfrom cutlass.cute.runtime import "
        "from_dlpack\nprint(cute.make_layout(2))\n"))
    assert cell.role == "example"
    # A tensor cell over NumPy memory runs (the DSL runs it on the CPU).
    (_, cell) = classified(notebook(
        IMPORTS + "import numpy as np\nfrom cutlass.cute.runtime import "
        "from_dlpack\n", "@cute.jit\ndef f(x: cute.Tensor):\n"
        "    cute.print_tensor(x)\n\n\nf(from_dlpack(np.zeros(2)))\n"))
    assert (cell.role, cell.reason) == ("example", "")


def test_a_cell_reading_what_this_torch_lacks_is_skipped():
    torch = pytest.importorskip("torch")
    assert not hasattr(torch, "no_such_dtype")
    (_, cell) = classified(notebook(
        IMPORTS + "import torch\n", "a = torch.zeros(2, dtype=torch."
        "no_such_dtype)\nprint(a)\n"))
    assert (cell.role, cell.reason) == (
        "skip", "needs torch.no_such_dtype, which PyTorch %s (Debian's) "
        "lacks" % ".".join(torch.__version__.split(".")[:2]))


def test_doc_blocks_are_python_code_blocks_and_fragments_are_skipped():
    page = (".. code-block:: python\n\n    " +
            (IMPORTS + LAYOUT).replace("\n", "\n    ") + "\n"
            "Text.\n\n.. code-block:: python\n   :linenos:\n\n"
            "    op = warp.MmaF16BF16Op(...)\n\n"
            ".. code-block:: text\n\n    not python\n\n"
            ".. code-block:: python\n\n    show(3)\n    tiled(op)\n")
    cells = classified(page, "d/p.rst")
    assert [(c.where, c.role) for c in cells] == [
        ("p.rst:0", "example"), ("p.rst:1", "skip"), ("p.rst:2", "skip")]
    assert cells[0].code.startswith("import cutlass\n")
    assert cells[1].reason == "a fragment: uses warp, which it never defines"
    assert cells[2].reason == "needs op of a skipped cell"


def test_verdicts():
    ok = {"error": None, "out": "a 0x7f12\n"}
    assert notebooks.verdict(ok, {"error": None, "out": "a 0x55\n"}) == (
        "same", "1 lines")
    status, detail = notebooks.verdict(ok, {"error": None, "out": "b\n"})
    assert status == "differs" and detail.startswith("line 1:")
    assert notebooks.verdict(ok, {"error": None, "out": "a 0x1\nc\n"})[0] \
        == "differs"
    gpu = {"error": 'DynamicLibNotFoundError: "cuda" is an NVIDIA driver '
                    "library", "out": ""}
    assert notebooks.verdict(gpu, ok)[0] == "dsl-cannot-run-on-cpu"
    for error in ("AssertionError: Torch not compiled with CUDA enabled",
                  "RuntimeError: Tried to instantiate dummy base class "
                  "CUDAGraph"):
        assert notebooks.gpu_verdict({"error": error, "out": ""})[0] == \
            "dsl-cannot-run-on-cpu"
    assert notebooks.verdict({"error": "ValueError: x", "out": ""}, ok)[0] \
        == "dsl-fails"
    assert notebooks.verdict(ok, {"error": "TypeError: y", "out": ""}) == (
        "twin-unsupported", "TypeError: y")
    # Both refuse the same way, after the same output: same-error (not
    # failing); a different refusal of the twin leaves dsl-fails.
    refusal = {"error": "BufferError: bool at 0x7f", "out": "a\n"}
    assert notebooks.verdict(refusal, dict(refusal, error="BufferError: "
                                           "bool at 0x55")) == (
        "same-error", "BufferError: bool at 0x7f")
    assert notebooks.verdict(refusal, dict(refusal, error="TypeError: b")
                             )[0] == "dsl-fails"
    assert notebooks.verdict(refusal, dict(refusal, out="b\n"))[0] == \
        "dsl-fails"
    assert "same-error" not in notebooks.FAILING


def test_a_known_difference_holds_only_with_its_status_and_evidence(
        monkeypatch):
    monkeypatch.setitem(notebook_known.KNOWN, "n.ipynb:3",
                        ("twin-unsupported", r"Float32", "floats: why"))
    rows = [("n.ipynb:3", "twin-unsupported", "TypeError: Float32 ..."),
            ("n.ipynb:3", "twin-unsupported", "TypeError: other"),
            ("n.ipynb:3", "differs", "Float32"),
            ("n.ipynb:5", "same", "2 lines")]
    assert [(r[3], r[4]) for r in notebooks.judge(rows)] == [
        ("floats: why", False), (None, True), (None, True), (None, False)]


@pytest.fixture
def twin_modules(monkeypatch):
    """`cutlass` as the twin for this test only."""
    for name in list(sys.modules):
        if name == "cutlass" or name.startswith("cutlass."):
            monkeypatch.delitem(sys.modules, name)
    real = dict(sys.modules)
    notebook_worker.install_twin()
    yield
    for name in list(sys.modules):
        if name not in real:
            del sys.modules[name]


def test_the_twin_runs_a_notebook_and_prints_the_dsl_text(tmp_path,
                                                          twin_modules):
    ns = {"__name__": "__main__"}
    cells = [{"id": "a", "role": "setup",
              "code": IMPORTS + "import no_such_module_here\n"},
             {"id": "b", "role": "example", "code": LAYOUT},
             {"id": "c", "role": "example", "code": "cutlass.nothing\n"}]
    out = [notebook_worker.run_cell(c, str(tmp_path), ns) for c in cells]
    assert out[0]["error"] is None
    assert out[0]["skipped_imports"] == ["no_such_module_here"]
    # The trace's print first, then the run's printf with the values (the
    # DSL's text for this cell).
    assert out[1]["out"] == ">>> (?,2):(1,?)\n>?? (8,2):(1,8)\n"
    assert out[2]["error"] == ("AttributeError: the twin has no "
                               "cutlass.nothing")


TENSOR = '''import numpy as np
from cutlass.cute.runtime import from_dlpack


@cute.jit
def column(x: cute.Tensor):
    print(x)
    cute.print_tensor(x[None, 1])


column(from_dlpack(np.arange(4, dtype=np.float32).reshape(2, 2)))
'''


def test_the_twin_runs_a_tensor_cell(tmp_path, twin_modules):
    ns = {"__name__": "__main__"}
    out = notebook_worker.run_cell({"id": "t", "role": "example",
                                    "code": IMPORTS + TENSOR},
                                   str(tmp_path), ns)
    assert out["error"] is None
    head, addr, tail = out["out"].partition("0x")
    assert head == ("tensor<ptr<f32, generic> o (2,2):(2,1)>\n"
                    "tensor(raw_ptr(")
    assert tail[16:] == (": f32, generic, align<4>) o (2):(2), data=\n"
                         "       [ 1.000000, ],\n"
                         "       [ 3.000000, ])\n")


TORCH_CELL = '''import torch
from cutlass.torch import dtype as torch_dtype
from cutlass.cute.runtime import from_dlpack


@cute.jit
def show(src):
    print(src)


a = torch.randn(3, 2, dtype=torch_dtype(cutlass.Float32))
show(a)
print(from_dlpack(a).mark_compact_shape_dynamic(mode=0, divisibility=3))
print(round(a[0, 0].item(), 4))
'''


def test_the_twin_runs_a_torch_cell_as_the_dsl_prints_it(tmp_path,
                                                         twin_modules,
                                                         monkeypatch):
    # framework_integration.rst's implicit conversion and marks, with
    # cutlass.torch.dtype, and the workers' seed (torch.manual_seed(0):
    # the first value torch 1.13 draws for randn(3, 2) is 1.5410...).
    torch = pytest.importorskip("torch")
    monkeypatch.delattr(torch, "_hlolayout_seeded", raising=False)
    notebook_worker._seed_torch()
    assert isinstance(torch.float8_e5m2, notebook_worker._NoDtype) or (
        torch.float8_e5m2.is_floating_point)
    out = notebook_worker.run_cell({"id": "t", "role": "example",
                                    "code": IMPORTS + TORCH_CELL},
                                   str(tmp_path), {"__name__": "__main__"})
    assert out["error"] is None
    lines = out["out"].split("\n")
    assert lines[0] == "tensor<ptr<f32, generic> o (?,?):(?{i64},1)>"
    assert re.sub("0x[0-9a-f]{16}", "0x?", lines[1]) == (
        "Tensor<0x?@generic o (?{div=3},2):(2,1)>")
    assert lines[2] == "1.541"


def test_doc_blocks_calling_the_runtime_are_examples():
    page = (".. code-block:: python\n\n"
            "    import numpy as np\n"
            "    from cutlass.cute.runtime import from_dlpack\n"
            "    print(from_dlpack(np.zeros(2)).mark_layout_dynamic())\n\n"
            ".. code-block:: python\n\n"
            "    print(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16))\n")
    cells = classified(page, "d/p.rst")
    assert [(c.role, c.reason) for c in cells] == [
        ("example", ""), ("skip", "a fragment: no @cute.jit function")]


def test_plan_runs_a_source_up_to_its_last_chosen_example():
    cells = classified(notebook(IMPORTS, LAYOUT, "import torch\n", LAYOUT,
                                LAYOUT))
    jobs = notebooks.plan({"x/n.ipynb": cells}, 1, 3)
    (run,) = jobs.values()
    assert run[0]["id"] == "imports"
    assert run[1]["id"] == "n.ipynb:1"
    assert sum(c["role"] == "example" for c in run) == 1
    everything = notebooks.plan({"x/n.ipynb": cells}, None, 0)
    assert [c["id"] for c in everything["n.ipynb"]] == [
        "imports", "n.ipynb:1", "n.ipynb:3", "n.ipynb:5", "n.ipynb:7",
        "n.ipynb:9"]


def test_a_sampled_example_brings_the_examples_it_reads():
    # print.ipynb: cell 9 calls what cell 7 compiled.
    cells = classified(notebook(
        IMPORTS, LAYOUT.replace("show(8)\n", ""),
        "compiled = cute.compile(show, cutlass.Int32(8))\n",
        "compiled(cutlass.Int32(5))\n", "show(2)\n"))
    assert [c.role for c in cells] == ["setup", "setup", "example",
                                       "example", "example"]
    chosen = notebooks._with_prerequisites({"x/n.ipynb": cells},
                                           {"n.ipynb:7"}, False)
    assert chosen == {"n.ipynb:5", "n.ipynb:7"}


def test_doc_pages_use_cute_and_cutlass_without_importing_them():
    # The DSL's docs write blocks without imports (dsl_code_generation.rst).
    page = (".. code-block:: python\n\n"
            "    @cute.jit\n    def f(b: cutlass.Constexpr):\n"
            "        print(b + 1)\n\n    f(2)\n")
    (cell,) = classified(page, "d/p.rst")
    assert cell.role == "example"
    assert notebook_sources.source_imports([cell]) == (
        "import cutlass\nimport cutlass.cute as cute\n")
    (nb_cell,) = classified(notebook("print(cute.make_layout(2))\n"))
    assert nb_cell.role == "skip"  # a notebook imports what it uses
