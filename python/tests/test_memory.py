"""hl.memory and hl.report: typed results from the library, their JSON form
against the CLI's, and XLA's own records."""
import json
import os
import pickle
import threading
import warnings

import pytest

import hlolayout as hl
from conftest import _runfile

# Two temps live together (x and y); z takes x's place. The output is
# smaller than the temps, so they go to XLA's heap: the temp allocation.
TWO_TEMPS = """HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> f32[128] {
  %p = f32[256]{0} parameter(0)
  %x = f32[256]{0} exponential(%p)
  %y = f32[256]{0} negate(%p)
  %z = f32[256]{0} add(%x, %y)
  ROOT %o = f32[128]{0} slice(%z), slice={[0:128]}
}
"""

# A host-memory (S(5)) parameter the output reuses, beside device values.
HOST = """HloModule m, is_scheduled=true, input_output_alias={ {1}: (1, {}, may-alias) }
ENTRY %main (p: f32[32], h: f32[64]) -> (f32[32], f32[64]) {
  %p = f32[32]{0} parameter(0)
  %h = f32[64]{0:S(5)} parameter(1)
  %n = f32[32]{0} negate(%p)
  %g = f32[64]{0:S(5)} negate(%h)
  ROOT %t = (f32[32]{0}, f32[64]{0:S(5)}) tuple(%n, %g)
}
"""

# The attributes of JAX's compiled.memory_analysis() (jaxlib's
# CompiledMemoryStats), but for serialized_buffer_assignment_proto.
JAX_NAMES = [
    "generated_code_size_in_bytes", "argument_size_in_bytes",
    "output_size_in_bytes", "alias_size_in_bytes", "temp_size_in_bytes",
    "host_generated_code_size_in_bytes", "host_argument_size_in_bytes",
    "host_output_size_in_bytes", "host_alias_size_in_bytes",
    "host_temp_size_in_bytes", "peak_memory_in_bytes",
]


def test_memory_analysis_and_allocations():
    (m,) = hl.memory(TWO_TEMPS, platform="gpu")
    assert isinstance(m, hl.ModuleMemory) and m.platform == "gpu"
    s = m.memory_analysis
    assert isinstance(s, hl.CompiledMemoryStats)
    assert (s.argument_size_in_bytes, s.output_size_in_bytes,
            s.alias_size_in_bytes, s.temp_size_in_bytes) == (1024, 512, 0, 2048)
    # parameter and output allocations + the heap's fullest moment
    assert s.peak_memory_in_bytes == 1024 + 512 + 2048
    assert m.allocated_bytes == 1024 + 2048 + 512
    assert sorted(a.kind for a in m.allocations) == ["output", "parameter",
                                                      "temp"]
    (temp,) = [a for a in m.allocations if a.kind == "temp"]
    assert isinstance(temp, hl.Allocation)
    offsets = {v.name: v.offset for v in temp.values}
    assert offsets["z"] == offsets["x"] != offsets["y"]
    assert all(isinstance(v, hl.AssignedValue) and v.index == ()
               for v in temp.values)
    assert isinstance(m.heap, hl.HeapInfo)
    assert (m.heap.size, m.heap.alignment) == (2048, 256)
    # The live-range peak is still there, beside it.
    assert isinstance(m.peaks[0], hl.MemoryPeak) and m.peaks[0].bytes > 0
    assert all(isinstance(v, hl.LiveValue) for v in m.peaks[0].live)


def test_memory_analysis_answers_to_jax_names():
    (m,) = hl.memory(TWO_TEMPS, platform="gpu")
    s = m.memory_analysis
    for name in JAX_NAMES:
        assert hasattr(s, name), name
    # What a dump cannot tell is None, not a made-up number.
    assert s.generated_code_size_in_bytes is None
    assert s.host_generated_code_size_in_bytes is None
    assert (s.host_argument_size_in_bytes, s.host_output_size_in_bytes,
            s.host_alias_size_in_bytes, s.host_temp_size_in_bytes) == (0, 0, 0,
                                                                       0)


def test_host_memory_counts_apart(cli):
    (m,) = hl.memory(HOST, platform="gpu")
    s = m.memory_analysis
    assert (s.argument_size_in_bytes, s.host_argument_size_in_bytes) == (128,
                                                                         256)
    assert (s.alias_size_in_bytes, s.host_alias_size_in_bytes) == (0, 256)
    assert (s.output_size_in_bytes, s.host_output_size_in_bytes) == (128 + 16,
                                                                     256)
    (h,) = [a for a in m.allocations if a.parameter_number == 1]
    assert h.color == 5 and h.parameter_aliased and h.parameter_index == ()
    assert [x.to_dict() for x in hl.memory(HOST, platform="gpu")] == cli.json(
        "memory", "--json", "--platform=gpu", "-", input=HOST)


def test_cpu_peak_counts_no_temps():
    (m,) = hl.memory(TWO_TEMPS, platform="cpu")
    # The same heap (1024 is a multiple of CPU's 64-byte alignment too)...
    assert m.memory_analysis.temp_size_in_bytes == 2048
    # ...but XLA:CPU's peak counts parameters and outputs only.
    assert m.memory_analysis.peak_memory_in_bytes == 1024 + 512
    assert m.heap.alignment == 64


@pytest.mark.parametrize("args", [
    {}, {"platform": "cpu"}, {"top": 0}, {"top": 1}, {"space": 0},
    {"space": 3},
])
def test_to_dict_is_the_cli_json(cli, args):
    flags = ["--%s=%s" % kv for kv in args.items()]
    for text in (TWO_TEMPS, HOST):
        got = [m.to_dict() for m in hl.memory(text, **args)]
        assert got == cli.json("memory", "--json", *flags, "-", input=text)


def test_values_name_their_instruction_as_live_values_do():
    """AssignedValue.instruction, as LiveValue.instruction; the old name
    still answers, with a DeprecationWarning."""
    (m,) = hl.memory(TWO_TEMPS)
    value = m.allocations[0].values[0]
    live = m.peaks[0].live[0]
    assert isinstance(value.instruction, str) and value.instruction
    assert isinstance(live.instruction, str)
    assert "instruction" in value.to_dict() and "name" not in value.to_dict()
    with pytest.warns(DeprecationWarning, match="AssignedValue.name is now"):
        assert value.name == value.instruction


def test_unknown_opcodes_warn_as_the_cli_does(cli):
    """hl.memory() and `hlolayout memory` make one library call: the same
    located warning, once per unknown opcode."""
    text = ("HloModule m, is_scheduled=true\n"
            "ENTRY %main (p: f32[256]) -> f32[256] {\n"
            "  %p = f32[256]{0} parameter(0)\n"
            "  %a = f32[256]{0} frobnicate(%p)\n"
            "  ROOT %c = f32[256]{0} negate(%a)\n}\n")
    with pytest.warns(UserWarning) as caught:
        (m,) = hl.memory(text)
    assert m.module == "m"
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1
    assert messages[0].startswith(
        "4:20: warning: unknown opcode 'frobnicate' (1 instruction")


def test_xla_records(tmp_path):
    """The modules of memory/testdata with XLA's compiled.memory_analysis()."""
    folder = _runfile("memory/testdata")
    with open(os.path.join(folder, "memory_analysis.json")) as f:
        records = json.load(f)
    assert len(records) >= 3
    for name, want in records.items():
        (m,) = hl.memory(os.path.join(folder, name))
        got = {k: getattr(m.memory_analysis, k) for k in want}
        assert got == want, name


def test_tpu_modules_get_the_model_of_xla_tpu(cli, example_dump):
    """XLA:TPU modules: the model of XLA:TPU's buffer assignment gives the
    allocations and memory_analysis() (docs/xla-tpu.md), the same as
    memory --json."""
    mods = hl.memory(example_dump)
    assert mods and all(m.platform == "tpu" for m in mods)
    m = mods[0]
    assert m.memory_analysis is not None and m.allocations
    assert m.memory_analysis.peak_memory_in_bytes >= (
        m.memory_analysis.argument_size_in_bytes)
    assert m.peaks[0].bytes > 0
    assert [x.to_dict() for x in mods] == cli.json("memory", "--json",
                                                    example_dump)


def test_the_module_is_memory_usage_and_the_old_name_still_imports():
    """hl.memory's module is hlolayout.memory_usage (issue 85: a name a
    newcomer finds); hlolayout.allocations, its old name, still imports
    the same objects and reads pickles that name it."""
    from hlolayout import allocations, memory_usage
    assert hl.memory is memory_usage.memory is allocations.memory
    assert hl.ModuleMemory.__module__ == "hlolayout.memory_usage"
    assert allocations.ModuleMemory is hl.ModuleMemory
    (m,) = hl.memory(TWO_TEMPS, platform="gpu")
    # Protocol 2 names each class as text, "module\nname\n".
    old = pickle.dumps(m, protocol=2).replace(b"hlolayout.memory_usage\n",
                                              b"hlolayout.allocations\n")
    assert b"hlolayout.allocations" in old and pickle.loads(old) == m


def test_results_are_values():
    (a,) = hl.memory(TWO_TEMPS, platform="gpu")
    (b,) = hl.memory(TWO_TEMPS, platform="gpu")
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != hl.memory(TWO_TEMPS, platform="cpu")[0]
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.platform = "cpu"
    with pytest.raises(AttributeError):
        a.memory_analysis.temp_size_in_bytes = 0
    assert isinstance(a.allocations, tuple)
    assert hl.ModuleMemory._fields[0] == "module"
    assert repr(a.memory_analysis).startswith(
        "CompiledMemoryStats(argument_size_in_bytes=1024, ")
    assert repr(a.allocations[0]) == (
        "Allocation(index=0, size=1024, kind='parameter', values=(1 items))")
    for cls in (hl.ModuleMemory, hl.CompiledMemoryStats, hl.Allocation,
                hl.AssignedValue, hl.MemoryPeak, hl.LiveValue, hl.HeapInfo):
        assert cls.__module__ == "hlolayout.memory_usage"
        assert cls.__doc__ and cls.to_dict.__doc__
        for field in cls._fields:
            assert getattr(cls, field).__doc__, (cls, field)


def test_dict_access_still_works_with_a_warning():
    (m,) = hl.memory(TWO_TEMPS, platform="gpu")
    with pytest.warns(DeprecationWarning, match=r"to_dict\(\)"):
        assert m["memory_analysis"]["temp_size_in_bytes"] == 2048
    with pytest.warns(DeprecationWarning):
        assert m["allocations"][2]["values"][0]["index"] == "{}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(KeyError):
            m["no such key"]
        t = hl.report(TWO_TEMPS)
        assert t["modules"][0]["totals"]["instructions"] == 5


def test_bad_arguments_raise(tmp_path):
    with pytest.raises(ValueError, match="platform must be 'gpu', 'cpu' or 'tpu'"):
        hl.memory(TWO_TEMPS, platform="npu")
    # XLA:TPU's rules asked for: the model of XLA:TPU's assignment
    # (docs/xla-tpu.md).
    (m,) = hl.memory(TWO_TEMPS, platform="tpu")
    assert m.platform == "tpu" and m.memory_analysis is not None
    with pytest.raises(ValueError, match="top must be >= 0"):
        hl.memory(TWO_TEMPS, top=-1)
    with pytest.raises(ValueError, match="space must be >= 0"):
        hl.memory(TWO_TEMPS, space=-1)
    with pytest.raises(ValueError, match="is not scheduled"):
        hl.memory(TWO_TEMPS.replace(", is_scheduled=true", ""))
    with pytest.raises(FileNotFoundError):
        hl.memory(str(tmp_path / "missing.txt"))
    with pytest.raises(ValueError, match="top must be >= 0"):
        hl.report(TWO_TEMPS, top=-1)
    with pytest.raises(ValueError, match=r"^3:17: "):  # line 3, column 17
        hl.report("HloModule m\nENTRY %e {\n  %x = f32[2]{0 parameter(0)\n}\n")


def _long_module(adds):
    """A scheduled module whose entry chains `adds` adds, with a while loop
    every 50 of them (a tuple, phis, a get-tuple-element), each line with
    metadata as XLA's dumps write it."""
    meta = (' metadata={op_name="jit(step)/add" source_file="/home/u/'
            'model.py" source_line=%d}')
    lines = [
        "HloModule long, is_scheduled=true",
        "",
        "%cond (c: (s32[], f32[8])) -> pred[] {",
        "  %c = (s32[], f32[8]{0}) parameter(0)",
        "  %i = s32[] get-tuple-element((s32[], f32[8]{0}) %c), index=0",
        "  %n = s32[] constant(3)",
        "  ROOT %lt = pred[] compare(s32[] %i, s32[] %n), direction=LT",
        "}",
        "",
        "%body (b: (s32[], f32[8])) -> (s32[], f32[8]) {",
        "  %b = (s32[], f32[8]{0}) parameter(0)",
        "  %j = s32[] get-tuple-element((s32[], f32[8]{0}) %b), index=0",
        "  %v = f32[8]{0} get-tuple-element((s32[], f32[8]{0}) %b), index=1",
        "  %one = s32[] constant(1)",
        "  %k = s32[] add(s32[] %j, s32[] %one)",
        "  %w = f32[8]{0} add(f32[8]{0} %v, f32[8]{0} %v)",
        "  ROOT %t = (s32[], f32[8]{0}) tuple(s32[] %k, f32[8]{0} %w)",
        "}",
        "",
        "ENTRY %e (a: f32[8]) -> f32[8] {",
        "  %a = f32[8]{0} parameter(0)",
        "  %zero = s32[] constant(0)",
    ]
    prev = "a"
    for k in range(adds):
        lines.append("  %%x%d = f32[8]{0} add(f32[8]{0} %%%s, f32[8]{0} %%%s),%s"
                     % (k, prev, prev, meta % k))
        prev = "x%d" % k
        if k % 50 == 49:
            state = "(s32[], f32[8]{0})"
            lines.append("  %%t%d = %s tuple(s32[] %%zero, f32[8]{0} %%%s)"
                         % (k, state, prev))
            lines.append("  %%w%d = %s while(%s %%t%d), condition=%%cond, "
                         "body=%%body" % (k, state, state, k))
            lines.append("  %%g%d = f32[8]{0} get-tuple-element(%s %%w%d), "
                         "index=1" % (k, state, k))
            prev = "g%d" % k
    lines.append("  ROOT %%r = f32[8]{0} copy(f32[8]{0} %%%s)" % prev)
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_threads_give_the_same_answers(tmp_path):
    """A file of 8 MB or more is read in parts on two threads, and a module
    of 32,768 instructions or more analysed side by side (the C++ tests,
    LiveRangeThreadsTest and MemoryCommand.ThreadsGiveTheSameAnswer, check
    that those paths run): the answers are the ones of one thread."""
    text = _long_module(60000)
    assert len(text) >= 8 << 20
    path = tmp_path / "module_0001.jit_step.sm_9.0a_gpu_after_optimizations.txt"
    path.write_text(text)
    one = hl.memory(str(path), threads=1, top=0)
    two = hl.memory(str(path), threads=2, top=0)
    assert len(one) == 1 and one[0].value_count > 60000
    assert one == two
    assert one[0].to_dict() == two[0].to_dict()
    assert hl.memory([str(path)], threads=2, top=0) == one
    for bad in (0, -1):
        with pytest.raises(ValueError, match="threads must be >= 1"):
            hl.memory(TWO_TEMPS, threads=bad)


def test_paths_name_their_file(tmp_path):
    path = tmp_path / "module_0001.m.cpu_after_optimizations.txt"
    path.write_text(TWO_TEMPS)
    (m,) = hl.memory(path)  # a PathLike; CPU from the file name
    assert m.platform == "cpu" and m == hl.memory(str(path))[0]
    bad = tmp_path / "bad.txt"
    bad.write_text(TWO_TEMPS.replace(", is_scheduled=true", ""))
    with pytest.raises(ValueError, match="^%s: " % bad):
        hl.memory(str(bad))


def test_report_rows(cli, example_dump):
    r = hl.report(example_dump)
    mod = r.modules[0]
    assert isinstance(mod, hl.ModuleReport)
    assert isinstance(mod.totals, hl.ModuleTotals)
    assert len(mod.instructions) == mod.totals.instructions
    row = mod.instructions[0]
    assert isinstance(row, hl.ReportRow)
    assert row.padding_bytes == (row.array_leaf_padded_bytes -
                                 row.array_leaf_logical_bytes)
    assert row.buffer in ("new", "part", "alias", "fused")
    assert all(isinstance(s, hl.MemorySpaceTotals) for s in mod.memory_spaces)
    w = mod.top_padding_wasters[0]
    assert isinstance(w, hl.PaddingWaster) and w.reasons
    assert r.errors == ()
    summary = hl.report(example_dump, summary=True).modules[0]
    assert summary.instructions is None and summary.top_padding_wasters is None
    assert summary.totals == mod.totals
    # The same whatever the threads.
    assert hl.report(example_dump, threads=1) == hl.report(example_dump,
                                                           threads=3)


def test_threads_share_nothing():
    """Calls from several threads at once (the GIL is released while the
    library works) give the same answers."""
    want = hl.memory(TWO_TEMPS, platform="gpu")
    got, errors = [], []

    def run():
        try:
            for _ in range(20):
                got.append(hl.memory(TWO_TEMPS, platform="gpu"))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(got) == 80 and all(g == want for g in got)


def test_padding_wasters_are_buffers_listed_once(cli, example_dump):
    """Issue 35: the example's f32[3,1000] loop state was ten wasters (one
    per name); it is one buffer now, with its other names beside it, and
    to_dict() is what `report --json` prints."""
    r = hl.report(example_dump)
    mod = r.modules[0]
    w = mod.top_padding_wasters[0]
    assert (w.instruction, w.index, w.shape) == (
        "acc.0", (), "f32[3,1000]{1,0:T(8,128)}")
    assert w.padding_bytes == 32768 - 12000
    assert w.also_defined_by == ("scaled",)
    assert w.aliases == ("state{1}", "state.1{1}", "acc", "tuple.1{1}",
                         "init{1}", "while{1}", "result", "out{1}")
    names = [x.instruction + "".join("{%d}" % i for i in x.index)
             for x in mod.top_padding_wasters]
    assert len(names) == len(set(names))
    assert not {"out", "state", "state.1", "tuple.1", "init", "while",
                "result"} & set(names)
    assert mod.padding_wasters_note is None
    got = r.to_dict()
    want = cli.json("report", "--json", example_dump)
    assert got["modules"][0]["top_padding_wasters"] == \
        want["modules"][0]["top_padding_wasters"]
    assert got == want


def _dump_files():
    folder = _runfile("memory/testdata")
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if n.endswith("_after_optimizations.txt"))


@pytest.mark.parametrize("args", [(), ("--summary",), ("--top=2",)])
def test_report_records_follow_the_cli_json(cli, args):
    """hl.report()'s records and `hlolayout report --json` follow one field
    list (report/report_record.h): to_dict() and the attributes read one
    by one give the CLI's document, on every dump of memory/testdata."""
    files = _dump_files()
    assert len(files) >= 6
    kwargs = {"summary": "--summary" in args}
    if "--top=2" in args:
        kwargs["top"] = 2
    for path in files:
        r = hl.report(path, **kwargs)
        want = cli.json("report", "--json", *args, path)
        assert r.to_dict() == want, path
        assert _attributes(r) == want, path


def _attributes(record):
    """The JSON form from a record's attributes (a shape index as '{1,0}',
    None left out where the field is omitted when None)."""
    if isinstance(record, tuple):
        return [_attributes(x) for x in record]
    if not hasattr(record, "_fields"):
        return record
    out = {}
    for name in record._fields:
        value = getattr(record, name)
        if value is None and name in ("padding_wasters_note",
                                      "top_padding_wasters", "instructions"):
            continue
        if name == "index":
            value = "{" + ",".join(str(i) for i in value) + "}"
        if name == "expansion":
            value = float("%.6g" % value)
        out[name] = _attributes(value)
    return out


def test_printed_forms_show_what_matters(example_dump):
    """Issue 35: repr(PaddingWaster) hid padding_bytes; every report object
    shows the fields that matter, and Jupyter gets HTML (_repr_html_), a
    waster with its padding picture."""
    mod = hl.report(example_dump).modules[0]
    w = mod.top_padding_wasters[0]
    text = repr(w)
    assert text.startswith("PaddingWaster(computation='main', "
                           "instruction='acc.0', index=(), ")
    assert "padding_bytes=20768" in text and "array_leaf_padded_bytes=32768" \
        in text
    assert "buffer_padding_bytes=" in repr(mod.totals)
    assert "top_padding_wasters=(10 items)" in repr(mod)
    html = w._repr_html_()
    assert html.startswith('<div class="hlolayout-record">')
    assert "<th" in html and "acc.0" in html and "state.1{1}" in html
    assert 'class="padding-picture"' in html and 'data-cols="104"' in html
    page = mod._repr_html_()
    assert "<b>ModuleReport</b>" in page and "acc.0" in page
    assert "&lt;" not in w.shape and "<b>Report</b>" in \
        hl.report(example_dump)._repr_html_()
    for record in (mod.totals, mod.memory_spaces[0], mod.instructions[0]):
        assert record._repr_html_().startswith('<div class="hlolayout-record">')


def test_input_without_a_module_raises(tmp_path):
    """Issue 35: an empty file, or one of comments only, is an error that
    says what was expected, for hl.report and hl.memory alike."""
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    comments = tmp_path / "comments.txt"
    comments.write_text("// nothing\n\n")
    for fn in (hl.report, hl.memory):
        with pytest.raises(ValueError, match="no HLO module: the input is "
                           "empty; expected HLO module text"):
            fn(str(empty))
        with pytest.raises(ValueError, match="only comments and blank lines"):
            fn(str(comments))
        with pytest.raises(ValueError, match="no HLO module"):
            fn("\n")


def test_folders_files_and_globs_behave_as_the_cli(cli, tmp_path):
    """One behaviour for hl.memory and `hlolayout memory` (issue 44 item 4)."""
    for name in ("a", "b"):
        (tmp_path / ("module_000%s.%s.cpu_after_optimizations.txt" %
                     ("1" if name == "a" else "2", name))).write_text(
            TWO_TEMPS.replace("HloModule m,", "HloModule %s," % name))
    folder = str(tmp_path)
    # A folder's table, as `hlolayout memory DIR` prints it.
    table = hl.memory(folder)
    assert [r.module for r in table.modules] == ["a", "b"]
    assert table.to_dict() == cli.json("memory", "--json", folder)
    # File flags given a folder are refused, as the CLI refuses them.
    for kwargs, flag in (({"top": 3}, "--top=3"), ({"space": 1}, "--space=1"),
                         ({"platform": "gpu"}, "--platform=gpu")):
        with pytest.raises(ValueError, match="does not apply to a folder"):
            hl.memory(folder, **kwargs)
        r = cli.run("memory", flag, folder)
        assert r.returncode == 2 and "does not apply to a folder" in r.stderr
    # A folder without module files raises as the CLI fails.
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no module files"):
        hl.memory(str(empty))
    with pytest.raises(ValueError, match="no module files"):
        hl.report(str(empty))
    r = cli.run("memory", str(empty))
    assert r.returncode == 1 and "no module files" in r.stderr
    # Several files: a list or a glob, the modules file after file, as
    # `hlolayout memory FILE FILE` gives them.
    files = sorted(str(p) for p in tmp_path.glob("*.txt"))
    want = cli.json("memory", "--json", *files)
    assert [m.to_dict() for m in hl.memory(files)] == want
    assert [m.to_dict() for m in hl.memory(
        str(tmp_path / "*after_optimizations.txt"))] == want
    with pytest.raises(FileNotFoundError, match="no file matches"):
        hl.memory(str(tmp_path / "*.nothing"))
    with pytest.raises(ValueError, match="no files given"):
        hl.memory([])
    with pytest.raises(ValueError, match="is a folder"):
        hl.memory([files[0], folder])


# Issue 87: texts XLA's parser refuses, refused by hl.report and hl.memory
# with the same located message as the CLI (one reader).
STRICT_REFUSALS = {
    "cut before ENTRY": ("""HloModule m, is_scheduled=true, entry_computation_layout={(f32[64]{0})->f32[64]{0}}
%fused (q: f32[8]) -> f32[8] {
  %q = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%q)
}
""", "2:1: the entry computation 'fused' takes f32[8] as parameter 0"),
    "name twice": ("""HloModule m, is_scheduled=true
ENTRY %e (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %n = f32[4]{0} negate(%p)
  ROOT %n = f32[4]{0} negate(%p)
}
""", "5:9: instruction 'n' is defined twice in 'e' (first on line 4)"),
    "call before definition": ("""HloModule m, is_scheduled=true
ENTRY %e (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %c = f32[4]{0} call(%p), to_apply=%f
}
%f (q: f32[4]) -> f32[4] {
  ROOT %q = f32[4]{0} parameter(0)
}
""", "4:43: computation 'f' is called before it is defined"),
}


@pytest.mark.parametrize("name", sorted(STRICT_REFUSALS))
def test_texts_xla_refuses_are_refused_alike(name):
    text, message = STRICT_REFUSALS[name]
    for read in (hl.report, lambda t: hl.memory(t, platform="gpu")):
        with pytest.raises(ValueError) as caught:
            read(text)
        assert message in str(caught.value), str(caught.value)


def test_tpu_answer_names_spaces_chip_and_fit():
    """An XLA:TPU module: ModuleMemory.tpu (docs/xla-tpu.md), the chip from
    the target_arguments file XLA:TPU wrote beside it, else tpu=."""
    path = _runfile("memory/testdata_xla_tpu_chips/v5e/"
                    "module_0004.jit__lambda.cl_933746096."
                    "after_optimizations.txt")
    (m,) = hl.memory(path)
    t = m.tpu
    assert (t.chip, t.devices, t.fits) == ("v5e", 8, True)
    assert t.hbm_left_bytes == t.hbm_limit_bytes - t.hbm_bytes
    assert t.hbm_limit_bytes == 1575 * 2**30 // 100
    assert [s.xla_name for s in t.spaces][0] == "default"
    assert m.to_dict()["tpu"]["chip"] == "v5e"
    with pytest.raises(ValueError, match="--tpu=v4, but XLA:TPU compiled"):
        hl.memory(path, tpu="v4")
    with pytest.raises(ValueError, match="tpu must be 'v4', 'v5e'"):
        hl.memory(TWO_TEMPS, tpu="v9")
    step = _runfile("memory/testdata_xla_tpu/module_0316.jit_step."
                    "cl_933746096.after_optimizations.txt")
    (m,) = hl.memory(step, tpu="v6e")
    assert (m.tpu.chip, m.tpu.chip_from) == ("v6e", "--tpu")
    vmem = [s for s in m.tpu.spaces if s.xla_name == "vmem"][0]
    assert vmem.capacity_bytes == 128 * 2**20
    (g,) = hl.memory(TWO_TEMPS, platform="gpu")
    assert g.tpu is None and "tpu" not in g.to_dict()


def test_tpu_lists_follow_top_as_the_cli_does(cli):
    """hl.memory(top=N) cuts an XLA:TPU module's lists (the padding
    rankings, the heap's values) to N, as `hlolayout memory --json --top=N`
    does: one request, one answer (they stayed 20 long in Python before)."""
    step = _runfile("memory/testdata_xla_tpu/module_0316.jit_step."
                    "cl_933746096.after_optimizations.txt")
    (m,) = hl.memory(step, top=1)
    assert len(m.tpu.padding.by_bytes) == 1
    (m20,) = hl.memory(step)
    assert len(m20.tpu.padding.by_bytes) == 20
    assert [m.to_dict()] == json.loads(cli.text("memory", "--json", "--top=1",
                                                step))


def test_peaks_hold_what_the_text_prints(cli):
    """A peak's computation, how many values are live there, the bytes by
    op_name prefix and each live value's shape: what `hlolayout memory`'s
    text prints, from the same answer (not in to_dict(), as not in --json)."""
    (m,) = hl.memory(TWO_TEMPS, platform="gpu", top=1)
    p = m.peaks[0]
    assert (p.instruction, p.computation, p.live_count) == ("o", "main", 3)
    assert [(v.instruction, v.shape) for v in p.live] == [("p", "f32[256]{0}")]
    assert p.by_op_name_prefix == (("(no op_name)", 2560),)
    assert "computation" not in p.to_dict() and "shape" not in p.live[0].to_dict()
    text = cli.text("memory", "--platform=gpu", "--top=1", "-",
                    input=TWO_TEMPS)
    assert "peak of all memory: 2560 bytes at time 4, o in main\n" in text
    assert "values live at the peak (3):\n    p{}  f32[256]{0}  1024 B" in text


def test_xla_tpus_own_buffer_assignment_file(cli):
    """hl.memory() of XLA:TPU's own -buffer-assignment.txt answers from the
    allocations XLA:TPU made, as `hlolayout memory --json` does: its
    allocations, the TPU answer said to be XLA:TPU's own, no peaks and no
    memory_analysis (the file does not say when values live)."""
    path = _runfile("memory/testdata_xla_tpu/module_0316.jit_step."
                    "cl_933746096.after_optimizations-buffer-assignment.txt")
    (m,) = hl.memory(path, tpu="v5e", top=1)
    assert (m.module, m.platform, m.peaks) == ("jit_step", "tpu", ())
    assert m.memory_analysis is None
    assert len(m.allocations) == 35
    assert m.tpu.checked and m.tpu.chip == "v5e"
    assert m.tpu.hbm_bytes == 259584
    assert m.tpu.padding.heap_bytes is None
    vmem = [s for s in m.tpu.spaces if s.memory_space == 1][0]
    assert vmem.allocated_bytes == 94720
    assert [m.to_dict()] == json.loads(cli.text("memory", "--json", "--top=1",
                                                "--tpu=v5e", path))
    # XLA:GPU's file is not a module, and not XLA:TPU's.
    gpu = _runfile("memory/testdata_xla_gpu/module_0001.jit_step."
                   "sm_9.0a_gpu_after_optimizations-buffer-assignment.txt")
    with pytest.raises(ValueError, match="not an HLO module"):
        hl.memory(gpu)
