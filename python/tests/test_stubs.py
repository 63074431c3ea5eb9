"""The .pyi stubs follow the modules: every public name, class member and
function parameter of each module is in its stub."""

import ast
import builtins
import inspect
import os

import pytest

import hlolayout as hl
from hlolayout import (arrays, cute, grid, hlo, indexing, memory_usage,
                       pictures, reports, shapes, triton, ttnn)

MODULES = [hl, shapes, indexing, arrays, hlo, pictures, reports, memory_usage,
           cute, grid, triton, ttnn]


def _stub(module):
    path = os.path.splitext(module.__file__)[0] + ".pyi"
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def _names(tree):
    """Top-level names of a stub: {name: node}."""
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                out[t.id] = node
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                out[a.asname or a.name] = node
    return out


def _members(cls):
    out = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            out.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            out.add(node.target.id)
    return out


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_stub_names_the_public_api(module):
    names = _names(_stub(module))
    public = getattr(module, "__all__", None)
    if public is None:
        public = [n for n in vars(module) if not n.startswith("_") and
                  getattr(getattr(module, n), "__module__", "") == module.__name__]
    missing = [n for n in public if n not in names]
    if "__getattr__" in names:  # generated names (cute's OPS) are Any
        missing = []
    assert not missing, "%s.pyi lacks %s" % (module.__name__, missing)
    for name in public:
        node = names.get(name)
        value = getattr(module, name)
        if isinstance(node, ast.ClassDef) and inspect.isclass(value):
            own = {m for m in vars(value) if not m.startswith("_")}
            lacking = own - _members(node)
            assert not lacking, "%s.%s: stub lacks %s" % (
                module.__name__, name, sorted(lacking))
        if isinstance(node, ast.FunctionDef) and inspect.isfunction(value):
            args = node.args
            stub_params = [a.arg for a in args.posonlyargs + args.args +
                           args.kwonlyargs]
            params = list(inspect.signature(value).parameters)
            assert stub_params == params, "%s.%s" % (module.__name__, name)


def test_record_stubs_follow_the_field_lists():
    """The result classes' blocks are written from the library's field lists
    (`python -m hlolayout._stubgen --write` after changing one)."""
    from hlolayout import _stubgen
    assert _stubgen.main(["--check"]) == 0
    block = _stubgen.class_stub(memory_usage.AssignedValue)
    assert "    instruction: str\n" in block
    assert "    name: str  # deprecated: instruction\n" in block


def test_every_class_stub_is_written_from_its_class():
    """No class block of a .pyi is written by hand: a wrong block (here
    Indexer.kind_at said to return an int) is written again from the class,
    and `--check` fails on it."""
    from hlolayout import _stubgen
    path = os.path.splitext(indexing.__file__)[0] + ".pyi"
    with open(path, encoding="utf-8") as f:
        good = f.read()
    right = "    def kind_at(self, offset: int) -> str: ...\n"
    assert right in good
    bad = good.replace(right, right.replace("-> str", "-> int"))
    assert _stubgen.module_stub(indexing, bad) == good
    block = _stubgen.class_stub(indexing.Indexer)
    assert "    def offset(self, index: Sequence[int]) -> int: ...\n" in block
    assert "    @property\n    def padded_elements(self) -> int: ...\n" in block
    hand = {c.split(".")[0] for c in _stubgen._HAND_WRITTEN}
    for module in (shapes, indexing, hlo, grid):
        assert module.__name__.split(".")[-1] not in hand


def _annotation_names(node):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_stub_annotations_name_what_the_stub_defines(module):
    """Every name a class block's annotations use is defined or imported by
    its .pyi (the generated blocks copy the .py's annotation text)."""
    tree = _stub(module)
    known = set(_names(tree)) | set(dir(builtins)) | {
        (n.asname or n.name).split(".")[0] for node in tree.body
        if isinstance(node, ast.Import) for n in node.names}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            anns = []
            if isinstance(node, ast.AnnAssign):
                anns.append(node.annotation)
            elif isinstance(node, ast.FunctionDef):
                a = node.args
                anns += [x.annotation for x in a.posonlyargs + a.args +
                         a.kwonlyargs + [a.vararg, a.kwarg]
                         if x is not None and x.annotation is not None]
                if node.returns is not None:
                    anns.append(node.returns)
            for ann in anns:
                for name in _annotation_names(ann):
                    assert name in known, "%s.pyi: %s uses %s" % (
                        module.__name__, cls.name, name)


def test_pybind11_class_stubs_come_from_the_binding():
    """A pybind11 class's block is read from the signatures pybind11 writes:
    argument names from py::arg, types from the C++ types or, for a Python
    object, the binding's Typed<hint>; a wrong block is written again."""
    from hlolayout import _stubgen
    names = {c: n for n, c in _stubgen.exported_classes(ttnn).items()}
    spec = _stubgen.class_stub(ttnn.TensorSpec, names)
    assert ("    def place(self, host_page: int) -> Tuple[CoreCoord, int, int]:"
            " ...\n") in spec
    assert "    def host_pages(self, core: int) -> npt.NDArray[np.int64]: ...\n" \
        in spec
    assert "    @property\n    def memory_config(self) -> MemoryConfig: ...\n" \
        in spec
    assert "    def __init__(self, x: int, y: int) -> None: ...\n" in \
        _stubgen.class_stub(ttnn.CoreCoord, names)
    layout = _stubgen.class_stub(triton.LinearLayout)
    assert "    def compose(self, outer: LinearLayout) -> LinearLayout: ...\n" \
        in layout
    assert "    def get_free_variable_masks(self) -> Dict[str, int]: ...\n" \
        in layout
    path = os.path.splitext(triton.__file__)[0] + ".pyi"
    with open(path, encoding="utf-8") as f:
        good = f.read()
    right = "    def get_in_dim_size(self, dim: str) -> int: ...\n"
    assert right in good
    bad = good.replace(right, "    def get_in_dim_size(self, arg0: str) -> int: ...\n")
    assert _stubgen.module_stub(triton, bad) == good
    assert not _stubgen._HAND_WRITTEN


def test_c_class_stubs_come_from_their_docs():
    """cute's layouts are C types: a method's or getter's doc begins with its
    signature, the slots' signatures are `_slot_signatures`; every class of
    every stubbed module (cute's too) is written from its class."""
    from hlolayout import _stubgen
    block = _stubgen.class_stub(cute.Layout)
    assert "    def idx2crd(self, index: IntTuple) -> IntTuple: ...\n" in block
    assert "    @property\n    def shape(self) -> IntTuple: ...\n" in block
    assert "    def __getitem__(self, i: int) -> Layout: ...\n" in block
    assert block.startswith("class Layout(LayoutBase):\n")
    path = os.path.splitext(cute.__file__)[0] + ".pyi"
    with open(path, encoding="utf-8") as f:
        good = f.read()
    right = "    def cosize(self) -> int: ...\n"
    assert right in good
    bad = good.replace(right, "    def cosize(self) -> float: ...\n")
    assert _stubgen.module_stub(cute, bad) == good
    stubbed = {m.__name__ for m, _ in _stubgen._stub_paths()}
    for module in MODULES:
        tree = _stub(module)
        if any(isinstance(n, ast.ClassDef) for n in tree.body):
            assert module.__name__ in stubbed, module.__name__


def test_no_class_block_is_written_by_hand():
    """Every class block of every .pyi is one the generator writes (the
    count of issue 85: 42 of 88 were written by hand, now none)."""
    from hlolayout import _stubgen
    hand = []
    for module, path in _stubgen._stub_paths():
        names = {c: n for n, c in _stubgen.exported_classes(module).items()}
        written = {names[c] for c in _stubgen.generated_classes(module)}
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        hand += ["%s.%s" % (module.__name__, n.name) for n in tree.body
                 if isinstance(n, ast.ClassDef) and n.name not in written]
    assert not hand, hand


def test_every_function_stub_is_written_from_its_function():
    """No module-level function of a .pyi is written by hand: a
    pure-Python function's lines come from its signature and annotations, a
    C or pybind11 function's from the signature line of its doc; a wrong
    line is written again, so `--check` fails when a function changes."""
    from hlolayout import _stubgen
    assert not _stubgen._HAND_WRITTEN_FUNCTIONS
    assert _stubgen.function_stub(shapes.numpy_dtype) == (
        "def numpy_dtype(element_type: Union[str, Shape]) -> np.dtype: ...\n")
    assert _stubgen.function_stub(cute.size, "size") == (
        "def size(layout: Union[LayoutLike, IntTuple]) -> int: ...\n")
    assert _stubgen.function_stub(cute.make_layout, "make_layout") == (
        "def make_layout(*layouts: Union[Layout, Iterable[Layout]]) -> Layout:"
        " ...\n")
    path = os.path.splitext(arrays.__file__)[0] + ".pyi"
    with open(path, encoding="utf-8") as f:
        good = f.read()
    right = "def from_layout(buffer: Bytes, shape: ShapeLike,"
    assert right in good
    bad = good.replace(right, "def from_layout(buffer: bytes, shape: str,")
    assert _stubgen.module_stub(arrays, bad) == good
    # A function missing from its stub is added at the end.
    missing = good.replace(_stubgen.function_stub(arrays.relayout), "")
    assert missing != good
    assert _stubgen.module_stub(arrays, missing).count("def relayout(") == 1
    # Every def of every stub is one the generator writes (cute's module
    # __getattr__ stands for the names cute.py makes from OPS at import).
    for module, path in _stubgen._stub_paths():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        written = set(_stubgen.exported_functions(module, text))
        defs = {n.name for n in ast.parse(text, path).body
                if isinstance(n, ast.FunctionDef)} - {"__getattr__"}
        assert defs <= written, (module.__name__, sorted(defs - written))


def test_cute_c_functions_keep_their_runtime_signature():
    """cute's C functions carry CPython's signature (`__text_signature__`,
    what inspect.signature and IDEs read) before the typed line the stubs
    are written from: the typed line alone made inspect.signature raise."""
    assert list(inspect.signature(cute.size).parameters) == ["layout"]
    assert list(inspect.signature(cute.coalesce).parameters) == [
        "layout", "profile"]
    assert cute.size.__doc__.startswith(
        "size(layout: Union[LayoutLike, IntTuple]) -> int")
