"""The CuTe DSL's own notebooks and docs, from a pinned CUTLASS commit, cut
into cells, each classified: a setup cell (imports and definitions), an
example (layout algebra that runs on the CPU: it calls something at top
level), or skipped with the reason.

    sources = load(COMMIT, git_dir=None)       # {path: text}
    for cell in cells(sources): print(cell.where, cell.role, cell.reason)

Where the files come from, first that works: a cache folder
(~/.cache/hlolayout/cutlass-<commit>, or $HLOLAYOUT_CUTLASS_CACHE), a git
directory holding the commit (--cutlass-git or $HLOLAYOUT_CUTLASS_GIT, a
clone of github.com/NVIDIA/cutlass), then GitHub's raw files by commit;
what was read is written to the cache. NVIDIA's files are never part of
this repository: only the list of paths below and the cells' indices.
"""

import ast
import json
import os
import re
import subprocess
import urllib.request

# The newest commit of github.com/NVIDIA/cutlass the harness was written
# against (2026-08-20); nvidia-cutlass-dsl 4.8.1 is the DSL these
# notebooks document.
COMMIT = "7107b05535f8977f5ecb9d01ee203205b1fd9bc4"

_NB = "examples/python/CuTeDSL/cute/notebooks/"
_DOC = "media/docs/pythonDSL/"
NOTEBOOKS = [_NB + n + ".ipynb" for n in (
    "cute_layout_algebra", "print", "composed_layout", "data_types",
    "tensor", "tensorssa", "hello_world", "elementwise_add",
    "async_pipeline", "benchmark_autotune", "cuda_graphs",
    "tour_to_sol_gemm")]
DOCS = [_DOC + n + ".rst" for n in (
    "cute_dsl_general/dsl_code_generation",
    "cute_dsl_general/dsl_control_flow",
    "cute_dsl_general/dsl_dynamic_layout",
    "cute_dsl_general/dsl_jit_arg_generation",
    "cute_dsl_general/dsl_jit_caching",
    "cute_dsl_general/dsl_jit_compilation_options",
    "cute_dsl_general/dsl_struct_types",
    "guides/ahead_of_time_compilation", "guides/autotuning_gemm",
    "guides/framework_integration", "guides/iket_profiling",
    "guides/mma/tcgen05_programming", "guides/mma/wgmma_programming",
    "guides/mma/wmma_programming", "guides/tvm_ffi_compilation",
    "limitations", "quick_start", "faqs")]
PATHS = NOTEBOOKS + DOCS


class SourceError(Exception):
    """The pinned files could not be read from anywhere."""


def _cache_dir(commit):
    root = os.environ.get("HLOLAYOUT_CUTLASS_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "hlolayout")
    return os.path.join(root, "cutlass-" + commit)


def _from_git(git_dir, commit):
    out = {}
    for path in PATHS:
        proc = subprocess.run(
            ["git", "--git-dir", git_dir, "show", "%s:%s" % (commit, path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise SourceError("%s has no %s at %s" % (git_dir, path, commit))
        out[path] = proc.stdout.decode("utf-8")
    return out


def _from_github(commit):
    out = {}
    for path in PATHS:
        url = "https://raw.githubusercontent.com/NVIDIA/cutlass/%s/%s" % (
            commit, path)
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                out[path] = r.read().decode("utf-8")
        except OSError as ex:
            raise SourceError("cannot read %s: %s" % (url, ex)) from None
    return out


def load(commit=COMMIT, git_dir=None):
    """{path: text} of PATHS at `commit` (module docstring: where from)."""
    cache = _cache_dir(commit)
    index = os.path.join(cache, "files.json")
    if os.path.exists(index):
        with open(index) as f:
            files = json.load(f)
        if sorted(files) == sorted(PATHS):
            return files
    git_dir = git_dir or os.environ.get("HLOLAYOUT_CUTLASS_GIT")
    files = _from_git(git_dir, commit) if git_dir else _from_github(commit)
    os.makedirs(cache, exist_ok=True)
    with open(index + ".tmp", "w") as f:
        json.dump(files, f)
    os.replace(index + ".tmp", index)
    return files


class Cell:
    """One notebook code cell or one doc code block. `where` is
    "notebook.ipynb:INDEX" (the cell's index among all the notebook's
    cells, as nbformat counts) or "page.rst:INDEX" (the index of the
    python code block on the page)."""

    def __init__(self, path, index, code):
        self.path = path
        self.index = index
        self.code = code
        self.role = None  # "setup", "example" or "skip"
        self.reason = ""
        self.gpu = False  # skipped because it needs a GPU
        self.calls = False  # calls something at top level

    @property
    def source(self):
        return os.path.basename(self.path)

    @property
    def where(self):
        return "%s:%d" % (self.source, self.index)


def _notebook_cells(path, text):
    nb = json.loads(text)
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] == "code":
            src = c["source"]
            yield Cell(path, i, "".join(src) if isinstance(src, list)
                       else src)


_BLOCK = re.compile(r"^(\s*)\.\. code-block:: python\s*$")


def _doc_blocks(path, text):
    lines = text.split("\n")
    n = 0
    i = 0
    while i < len(lines):
        m = _BLOCK.match(lines[i])
        i += 1
        if not m:
            continue
        indent = len(m.group(1))
        while i < len(lines) and lines[i].strip().startswith(":"):
            i += 1  # the directive's options
        body = []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip())
                                  > indent):
            body.append(lines[i])
            i += 1
        code = "\n".join(body).strip("\n")
        pad = min((len(l) - len(l.lstrip()) for l in body if l.strip()),
                  default=0)
        yield Cell(path, n, "\n".join(l[pad:] for l in code.split("\n")) +
                   "\n")
        n += 1


# The reason of a cell that needs PyTorch where the harness has none
# (run.sh installs Debian's python3-torch, a CPU build: torch.sh; where it
# cannot, notebooks.py --torch-missing gives the reason). With PyTorch,
# a cell over CPU tensors runs like any other; one that puts its tensors on
# the GPU is skipped for that.
TORCH = "torch: %s"
TORCH_ON_GPU = "PyTorch tensors on the GPU (device cuda, torch.cuda)"

# What makes a cell something other than layout algebra and host tensors
# on the CPU: the first pattern found gives the reason.
_NOT_LAYOUT_ALGEBRA = [
    (r"\.launch\(|@cute\.kernel", "a GPU kernel launch"),
    (r"device\s*=\s*(\"cuda\"|'cuda'|torch\.device\(\"cuda\"\))|"
     r"\.cuda\(|torch\.cuda", TORCH_ON_GPU),
    (r"cute\.testing|benchmark|\bjax\b|tvm_ffi|export_to_c",
     "benchmarks, frameworks or compiled-function export"),
    (r"cute\.struct|SmemAllocator|pipeline\.", "shared-memory structs and "
     "pipelines"),
    (r"CUstream|cuda\.|cute\.arch\.", "CUDA streams, contexts and "
     "thread indices"),
]
_TORCH = r"\btorch\b"

# A doc block is an example when it defines a jit function or calls what
# runs on the host without one: from_dlpack and its marks, cute.compile.
# Other blocks without one are fragments (an op built and never printed).
_RUNS_HOST = r"@cute\.jit|from_dlpack|cute\.compile\("

# The reasons of cells that need a GPU: `notebooks.py --gpu-cells` runs
# them with the DSL alone, to record why they cannot run on this CPU.
GPU_REASONS = ("a GPU kernel launch", TORCH_ON_GPU, "CUDA streams, contexts "
               "and thread indices")

# Cells the patterns cannot judge: {where: reason}.
OVERRIDES = {
    "elementwise_add.ipynb:25": "needs cute_viz, which neither side has "
                                "(the cell prints nothing without it)",
}


def _calls_at_top(tree):
    """Whether a top-level statement calls something (an example prints);
    imports, definitions and assignments of constants only set up."""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef,
                             ast.ClassDef)):
            continue
        if any(isinstance(n, ast.Call) for n in ast.walk(node)):
            return True
    return False


def _imports(tree):
    return [n for n in tree.body if isinstance(n, (ast.Import,
                                                   ast.ImportFrom))]


def _bound(tree):
    """Names a cell binds at top level."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0]
                       for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        else:
            out.update(n.id for n in ast.walk(node)
                       if isinstance(n, ast.Name) and
                       isinstance(n.ctx, ast.Store))
    return out


def _used_now(tree):
    """Names a cell reads while it runs at top level: not inside function
    bodies (read when called), but decorators, annotations and defaults."""
    out = set()

    def visit(node):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list + node.args.defaults:
                visit(d)
            for a in node.args.args + node.args.kwonlyargs:
                if a.annotation is not None:
                    visit(a.annotation)
            return
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.GeneratorExp,
                             ast.DictComp, ast.SetComp)):
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.add(node.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    for node in tree.body:
        visit(node)
    return out


import builtins  # noqa: E402

_BUILTINS = set(dir(builtins))


def torch_lacks(code):
    """Why `code` cannot run with the PyTorch here: the first `torch.X` it
    reads that this torch lacks (Debian's 1.13 has no torch.uint16, added
    in 2.3); "" when none (or no torch: --torch-missing says why)."""
    names = re.findall(r"\btorch\.([A-Za-z_]\w*)", code)
    if not names:
        return ""
    try:
        import torch
    except ImportError:
        return ""
    for name in names:
        if not hasattr(torch, name):
            return "needs torch.%s, which PyTorch %s (Debian's) lacks" % (
                name, ".".join(torch.__version__.split(".")[:2]))
    return ""


def _patterns(torch_missing):
    """_NOT_LAYOUT_ALGEBRA, and where PyTorch is missing (`torch_missing`:
    why), any use of torch after the GPU's."""
    if torch_missing is None:
        return _NOT_LAYOUT_ALGEBRA
    return (_NOT_LAYOUT_ALGEBRA[:2] + [(_TORCH, TORCH % torch_missing)] +
            _NOT_LAYOUT_ALGEBRA[2:])


def _classify_one(cell, tree, known, from_skipped, torch_missing=None):
    """Sets cell.role and cell.reason, given the names earlier cells that
    run define (`known`) and those only skipped cells define."""
    if cell.where in OVERRIDES:
        cell.role, cell.reason = "skip", OVERRIDES[cell.where]
        return
    if tree is None:
        cell.role, cell.reason = "skip", "a fragment, not Python"
        return
    without_imports = "\n".join(
        l for l in cell.code.split("\n")
        if not re.match(r"\s*(import|from)\s", l))
    for pattern, reason in _patterns(torch_missing):
        if re.search(pattern, without_imports):
            cell.role, cell.reason = "skip", reason
            cell.gpu = reason in GPU_REASONS
            cell.calls = _calls_at_top(tree)
            return
    lacks = torch_lacks(without_imports)
    if lacks:
        cell.role, cell.reason = "skip", lacks
        return
    free = sorted(_used_now(tree) - known - _bound(tree) - _BUILTINS)
    if free:
        mine = [n for n in free if n in from_skipped]
        cell.role = "skip"
        cell.reason = ("needs %s of a skipped cell" % ", ".join(mine) if mine
                       else "a fragment: uses %s, which it never defines" %
                       ", ".join(free))
    elif not _calls_at_top(tree):
        cell.role = "setup"
    elif cell.path.endswith(".rst") and not re.search(_RUNS_HOST,
                                                       cell.code):
        cell.role, cell.reason = "skip", "a fragment: no @cute.jit function"
    else:
        cell.role = "example"


def _parse(code):
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def classify_source(raw, torch_missing=None):
    """Classifies the cells of one notebook or page, in order. The imports
    of the whole source count as known (a page's later blocks use the
    imports of its first); a cell that reads a name only a skipped cell
    defines is skipped too; where PyTorch is missing (`torch_missing`:
    why), a cell that uses it."""
    trees = [_parse(c.code) for c in raw]
    known = {"__name__"}
    if raw and raw[0].path.endswith(".rst"):
        known |= {"cutlass", "cute"}  # DOC_PRELUDE
    for t in trees:
        if t is not None:
            known |= _bound(ast.Module(body=_imports(t), type_ignores=[]))
    from_skipped = set()
    for cell, tree in zip(raw, trees):
        _classify_one(cell, tree, known, from_skipped, torch_missing)
        if tree is not None:
            (from_skipped if cell.role == "skip" else known).update(
                _bound(tree))
    return raw


# The doc pages' blocks use `cutlass` and `cute` without importing them
# (the convention of the DSL's docs): a page's imports start with these.
DOC_PRELUDE = ["import cutlass", "import cutlass.cute as cute"]


def source_imports(raw):
    """The import statements of a source's cells that parse, as one setup
    cell's code (run first: a page's later blocks use its first's), after
    DOC_PRELUDE for a doc page."""
    lines = list(DOC_PRELUDE) if raw and raw[0].path.endswith(".rst") \
        else []
    for c in raw:
        tree = _parse(c.code)
        if tree is not None:
            lines.extend(ast.unparse(n) for n in _imports(tree))
    return "\n".join(dict.fromkeys(lines)) + "\n"


def cells(sources, torch_missing=None):
    """{path: [Cell]}: every code cell of `sources` ({path: text}),
    classified, in PATHS order; `torch_missing`: why PyTorch cannot be
    had (its cells are skipped with that reason), None when both sides
    import it."""
    out = {}
    for path in PATHS:
        text = sources[path]
        raw = list(_notebook_cells(path, text) if path.endswith(".ipynb")
                   else _doc_blocks(path, text))
        out[path] = classify_source(raw, torch_missing)
    return out
