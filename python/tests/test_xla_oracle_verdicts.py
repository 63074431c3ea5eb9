"""The XLA oracle's verdicts (differential/xla/oracle.py) on canned module
results: a value-id difference is documented only on a listed module, so
the check can fail (issue 46 item 4); a known XLA:GPU difference only with
the class it is listed with (issue 89 item 5). No jax needed."""

import os
import sys


def _harness_dir():
    root = os.environ.get("TEST_SRCDIR")
    if root:
        d = os.path.join(root, "hlolayout", "differential", "xla")
        if os.path.isdir(d):
            return d
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "differential", "xla")


sys.path.insert(0, _harness_dir())
import compare_zoo  # noqa: E402
import oracle  # noqa: E402


class _Module:
    def __init__(self, name, **results):
        self.name = name
        self.compiled = True
        self.results = results


def test_value_id_differences_count_only_on_listed_modules():
    listed = {"mlp.small.spmd": "reducer clones of the SPMD partitioner"}
    modules = [
        _Module("mlp.small.spmd", value_ids="id 12 != 14",
                usage=compare_zoo.TIE_ORDER),
        _Module("cnn.big.plain", value_ids="id 3 != 5"),
        _Module("rnn.small.plain", usage=compare_zoo.TIE_ORDER),
    ]
    classes = oracle.classify(modules, {}, listed)
    _, doc, undoc = classes["value_ids"]
    assert [n for n, _ in doc] == ["mlp.small.spmd"]
    assert [n for n, _ in undoc] == ["cnn.big.plain"]
    _, doc, undoc = classes["usage"]
    assert [n for n, _ in doc] == ["mlp.small.spmd"]
    assert [n for n, _ in undoc] == ["rnn.small.plain"]


def test_the_list_is_read_with_its_reasons():
    listed = oracle.listed_value_id_modules(oracle.VALUE_ID_MODULES)
    assert all(reason for reason in listed.values())


def test_a_listed_module_is_documented_only_when_xla_creation_order_explains_it():
    # The list names both modules; given XLA's creation order, hlolayout's
    # ids match on the first (the order the text lacks is the whole reason)
    # and still differ on the second (a fault of the model: never
    # documented, whatever the list or docs/memory.md's table say).
    listed = {"a.s.f": "creation order", "b.s.f": "creation order"}
    modules = [
        _Module("a.s.f", value_ids="id 12 != 14", created_ids=None,
                usage=compare_zoo.TIE_ORDER),
        _Module("b.s.f", value_ids="id 3 != 5", created_ids="id 3 != 4",
                usage=compare_zoo.TIE_ORDER),
    ]
    known = {("b.s.f", "created_ids"): "value ids (docs/memory.md)"}
    classes = oracle.classify(modules, known, listed)
    for check in ("value_ids", "usage"):
        _, doc, undoc = classes[check]
        assert [n for n, _ in doc] == ["a.s.f"]
        assert [n for n, _ in undoc] == ["b.s.f"]
    _, doc, undoc = classes["created_ids"]
    assert doc == []
    assert [n for n, _ in undoc] == ["b.s.f"]


def test_a_known_difference_can_name_its_target():
    # A known difference names a module bare (every target), with one
    # target (`h100:`), or with `gpu:` (the three GPUs, not XLA:CPU).
    known = {("h100:mlp.s.step", "buffers"): "open: allocation 3: size 8, XLA 16",
             ("gpu:cnn.s.step", "usage"): "open: report line 2"}
    modules = [_Module("mlp.s.step", buffers="allocation 3: size 8, XLA 16"),
               _Module("cnn.s.step", usage="report line 2")]
    for target, buffers_doc, usage_doc in (("h100", ["mlp.s.step"], ["cnn.s.step"]),
                                           ("a100", [], ["cnn.s.step"]),
                                           ("cpu", [], [])):
        classes = oracle.classify(modules, known, {}, target)
        assert [n for n, _ in classes["buffers"][1]] == buffers_doc, target
        assert [n for n, _ in classes["usage"][1]] == usage_doc, target


def test_known_differences_are_read_with_their_class():
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("# a comment\n\n"
                "b200:spmd_mlp_data.s.train_step\tlive_ranges\topen: live ranges line 4\n"
                "a100:vit.s.grad\tcompile\tdoes not compile: INTERNAL: N rows\n")
    try:
        assert oracle.listed_known_differences(f.name) == {
            ("b200:spmd_mlp_data.s.train_step", "live_ranges"): "open: live ranges line 4",
            ("a100:vit.s.grad", "compile"): "does not compile: INTERNAL: N rows"}
    finally:
        os.unlink(f.name)
    # A line without its class is an error, not a listing of every class.
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("a100:mlp.s.step\tusage\n")
    try:
        try:
            oracle.listed_known_differences(f.name)
        except ValueError as e:
            assert ":1:" in str(e)
        else:
            raise AssertionError("a line without a class was read")
    finally:
        os.unlink(f.name)


def test_the_known_gpu_list_parses_and_names_classes_the_oracle_computes():
    known = oracle.listed_known_differences(oracle.KNOWN_GPU_DIFFERENCES)
    assert known
    for (name, check), kind in known.items():
        assert name.split(":")[0] in ("h100", "a100", "b200", "gpu"), name
        assert check in oracle.compare_zoo.CHECKS + ("compile",), check
        assert kind.startswith(("value ids", "follows from the buffers", "open: ",
                                "does not compile: ")), kind


def test_a_listed_module_documents_only_the_class_it_is_listed_with():
    # The A100 list names scan_over_layers.s.scan_step's usage report and
    # live ranges for the order value ids give them. A wrong total and a
    # wrong live-range end on that module are other classes: undocumented
    # (issue 89 item 5: both came back documented).
    order = "value ids: the creation order guessed; XLA's gives XLA's (docs/memory.md)"
    known = {("a100:scan_over_layers.s.scan_step", "usage"): order,
             ("a100:scan_over_layers.s.scan_step", "live_ranges"): order,
             ("a100:scan_over_layers.s.scan_step", "value_ids"): order}
    good = _Module("scan_over_layers.s.scan_step", value_ids="allocation 26: x is 646, XLA 1124",
                   created_ids=None, usage=compare_zoo.TIE_ORDER,
                   live_ranges=compare_zoo.RANGE_ORDER)
    classes = oracle.classify([good], known, {}, "a100")
    for check in ("value_ids", "usage", "live_ranges"):
        assert [n for n, _ in classes[check][1]] == [good.name], check
        assert classes[check][2] == [], check
    bad = _Module("scan_over_layers.s.scan_step", value_ids="allocation 26: x is 646, XLA 1124",
                  created_ids=None,
                  usage="report line 2: 'Total bytes: 7546136 (7.20MiB)', "
                        "XLA 'Total bytes: 7546128 (7.20MiB)'",
                  live_ranges="live ranges line 391: 'triton_softmax.7{}:59-166', "
                              "XLA 'loop_dynamic_slice_fusion.8{}:342-344'")
    classes = oracle.classify([bad], known, {}, "a100")
    assert [n for n, _ in classes["value_ids"][1]] == [bad.name]
    for check in ("usage", "live_ranges"):
        assert classes[check][1] == [], check
        (name, text), = classes[check][2]
        assert name == bad.name and "listed as another class" in text, check
    # The ids themselves are listed as explained by XLA's creation order:
    # where that order does not give XLA's ids, they are undocumented too.
    unexplained = _Module("scan_over_layers.s.scan_step", value_ids="allocation 26: x",
                          created_ids="allocation 26: x is 7, XLA 8")
    classes = oracle.classify([unexplained], known, {}, "a100")
    assert classes["value_ids"][1] == []


def test_an_open_difference_is_listed_with_its_whole_text():
    # An open class is the difference's text, numbers and all: a listed
    # temp size of 8 bytes documents that figure, not another wrong one.
    known = {("h100:mlp.s.step", "memory_analysis"):
             "open: temp_size_in_bytes 8, XLA 16"}
    same = _Module("mlp.s.step", memory_analysis="temp_size_in_bytes 8, XLA 16")
    other = _Module("mlp.s.step", memory_analysis="temp_size_in_bytes 24, XLA 16")
    assert [n for n, _ in oracle.classify([same], known, {}, "h100")
            ["memory_analysis"][1]] == ["mlp.s.step"]
    assert oracle.classify([other], known, {}, "h100")["memory_analysis"][1] == []


def test_a_module_xla_cannot_compile_is_documented_by_its_error_class():
    known = {("a100:vit.s.grad", "compile"):
             "does not compile: JaxRuntimeError: INTERNAL: Couldn't find output tile sizes N"}
    listed = _Module("vit.s.grad")
    listed.compiled = False
    listed.xla = {"error": "JaxRuntimeError: INTERNAL: Couldn't find output tile sizes 34"}
    other = _Module("vit.s.grad")
    other.compiled = False
    other.xla = {"error": "JaxRuntimeError: RESOURCE_EXHAUSTED: out of memory"}
    assert oracle.undocumented_compile_failures([listed], known, "a100") == []
    assert oracle.undocumented_compile_failures([other], known, "a100") == [other]
    assert oracle.undocumented_compile_failures([listed], known, "h100") == [listed]


def test_value_id_list_bare_names_are_xla_cpus():
    # value_id_modules.txt's bare names are XLA:CPU's modules; an XLA:GPU
    # module's value ids are documented by `h100:` (or `gpu:`) only.
    listed = {"mlp.s.step": "cpu reason", "h100:cnn.s.step": "gpu reason"}
    modules = [_Module("mlp.s.step", value_ids="id 1 != 2"),
               _Module("cnn.s.step", value_ids="id 3 != 4")]
    for target, documented in (("cpu", ["mlp.s.step"]), ("h100", ["cnn.s.step"]),
                               ("a100", [])):
        _, doc, _ = oracle.classify(modules, {}, listed, target)["value_ids"]
        assert [n for n, _ in doc] == documented, target


def test_known_lines_name_the_class_and_modules_xla_cannot_compile():
    m = _Module("mlp.s.step", buffers="allocation 3: size 8, XLA 16",
                usage="report line 2: 'Total bytes: 8', XLA 'Total bytes: 16'",
                value_ids="not compared: the allocations differ")
    n = _Module("vit.s.grad")
    n.compiled = False
    n.xla = {"error": "JaxRuntimeError: INTERNAL: Couldn't find output tile sizes 34"}
    lines = oracle.known_lines([m, n], "h100")
    assert lines == [
        "h100:mlp.s.step\tbuffers\topen: allocation 3: size 8, XLA 16",
        "h100:mlp.s.step\tvalue_ids\tfollows from the buffers",
        "h100:mlp.s.step\tusage\topen: report line 2: 'Total bytes: 8', XLA 'Total bytes: 16'",
        "h100:vit.s.grad\tcompile\tdoes not compile: JaxRuntimeError: INTERNAL: "
        "Couldn't find output tile sizes N"]
    # What it writes, it reads back as documenting exactly these.
    known = {tuple(l.split("\t")[:2]): l.split("\t")[2] for l in lines}
    classes = oracle.classify([m], known, {}, "h100")
    for check in ("buffers", "value_ids", "usage"):
        assert [x for x, _ in classes[check][1]] == ["mlp.s.step"], check


def test_created_ids_is_never_documented_on_any_target():
    # A listed module's value ids are documented only when created_ids
    # matches; a created_ids difference is never documented, whatever the
    # known list names, on XLA:CPU or on a GPU. Where created_ids matches,
    # the `h100:` list decides on XLA:GPU.
    listed = {"a.s.f": "creation order", "h100:a.s.f": "gpu reason"}
    documented = {("a.s.f", "created_ids"): "open: id 3 != 4",
                  ("h100:a.s.f", "created_ids"): "open: id 3 != 4"}
    modules = [_Module("a.s.f", value_ids="id 3 != 5", created_ids="id 3 != 4")]
    for target in ("cpu", "h100"):
        classes = oracle.classify(modules, documented, listed, target)
        assert [n for n, _ in classes["value_ids"][2]] == ["a.s.f"], target
        assert [n for n, _ in classes["created_ids"][2]] == ["a.s.f"], target
    gpu = [_Module("a.s.f", value_ids="id 3 != 5", created_ids=None)]
    _, doc, _ = oracle.classify(gpu, {}, listed, "h100")["value_ids"]
    assert [n for n, _ in doc] == ["a.s.f"]
    _, doc, _ = oracle.classify(gpu, {}, listed, "a100")["value_ids"]
    assert doc == []


def test_created_ids_is_compared_on_xla_gpu_modules_too():
    # The order replayed is the module's: an XLA:GPU module's created_ids
    # is compared as an XLA:CPU one's (here: no order recorded).
    class _Dump:
        def __init__(self, dump):
            self.xla = {"dump": dump}
    for dump in ("module_0001.jit_f.cpu_after_optimizations.txt",
                 "module_1.jit_f.sm_8.0_gpu_after_optimizations.txt"):
        assert compare_zoo.ids_from_creation_order(
            "/nonexistent/hlolayout", _Dump(dump), None) == (
                "not compared: xla.json has no creation order")


def test_created_ids_not_compared_follows_the_known_buffers_difference():
    # Where the allocations differ, created_ids is not compared: the known
    # list documents it (class "follows from the buffers"), and only there.
    modules = [_Module("a.s.f", buffers="allocation 7: has x too",
                       created_ids="not compared: the allocations differ")]
    buffers = {("h100:a.s.f", "buffers"): "open: allocation 7: has x too"}
    known = dict(buffers)
    known[("h100:a.s.f", "created_ids")] = "follows from the buffers"
    classes = oracle.classify(modules, known, {}, "h100")
    assert [n for n, _ in classes["created_ids"][1]] == ["a.s.f"]
    classes = oracle.classify(modules, buffers, {}, "h100")
    assert [n for n, _ in classes["created_ids"][2]] == ["a.s.f"]
    assert oracle.difference_class(
        "created_ids", "not compared: the allocations differ") == "follows from the buffers"


def _fake_hlolayout(tmp, plain, given_order):
    """A stand-in for the binary: prints `plain` for `memory`, or
    `given_order` when told XLA's creation order."""
    import stat
    for name, text in (("plain.txt", plain), ("given.txt", given_order)):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    path = os.path.join(tmp, "hlolayout")
    with open(path, "w") as f:
        f.write("#!/bin/sh\ncase \"$*\" in *--xla-creation-order*) cat %s ;; *) cat %s ;; esac\n"
                % (os.path.join(tmp, "given.txt"), os.path.join(tmp, "plain.txt")))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def test_an_order_of_ties_is_the_value_ids_only_where_xla_creation_order_removes_it():
    # The usage report and the live ranges: a difference only in the order
    # of equal-size groups (of BufferLiveRange lines) was put down to the
    # value ids whatever its cause; now only where hlolayout given XLA's
    # creation order writes XLA's text (value_id_modules.txt's modules and
    # the known XLA:GPU classes document only that).
    import tempfile
    head = "Total bytes: 16\n  cumulative_size; size; offset; used_by_n_values; shapes_list\n"
    a = "  8.0(50%); 8; 0; 1; f32[2]\n"
    b = " 16.0(100%); 8; 8; 1; s32[2]\n"
    a2 = "  8.0(50%); 8; 8; 1; s32[2]\n"
    b2 = " 16.0(100%); 8; 0; 1; f32[2]\n"
    xla_usage = head + a + b
    swapped = head + a2 + b2
    ranges = "BufferLiveRange:\n    x{}:0-1\n    y{}:1-2\n"
    ranges_swapped = "BufferLiveRange:\n    y{}:1-2\n    x{}:0-1\n"
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "m-memory-usage-report.txt"), "w") as f:
            f.write(xla_usage)
        with open(os.path.join(tmp, "m-live-range.txt"), "w") as f:
            f.write(ranges)
        m = compare_zoo.Module.__new__(compare_zoo.Module)
        m.directory = tmp
        m.xla = {"dump": "m.txt", "computation_creation_order": ["main"]}
        explained = _fake_hlolayout(tmp, swapped, xla_usage)
        assert compare_zoo.check_usage(explained, m) == compare_zoo.TIE_ORDER
        unexplained = _fake_hlolayout(tmp, swapped, swapped)
        assert compare_zoo.check_usage(unexplained, m) == compare_zoo.TIE_ORDER_UNEXPLAINED
        explained = _fake_hlolayout(tmp, ranges_swapped, ranges)
        assert compare_zoo.check_live_ranges(explained, m) == compare_zoo.RANGE_ORDER
        unexplained = _fake_hlolayout(tmp, ranges_swapped, ranges_swapped)
        assert (compare_zoo.check_live_ranges(unexplained, m)
                == compare_zoo.RANGE_ORDER_UNEXPLAINED)
    # Such an order is no value-id difference on a listed module.
    listed = {"a.s.f": "creation order"}
    modules = [_Module("a.s.f", value_ids="id 1 != 2", created_ids=None,
                       usage=compare_zoo.TIE_ORDER_UNEXPLAINED,
                       live_ranges=compare_zoo.RANGE_ORDER_UNEXPLAINED)]
    classes = oracle.classify(modules, {}, listed)
    assert [n for n, _ in classes["value_ids"][1]] == ["a.s.f"]
    for check in ("usage", "live_ranges"):
        assert classes[check][1] == [], check
        assert [n for n, _ in classes[check][2]] == ["a.s.f"], check
