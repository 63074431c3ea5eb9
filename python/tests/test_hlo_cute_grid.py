"""read_hlo, report, cute and grid, against the CLI."""

import numpy as np
import pytest

import hlolayout as hl
from hlolayout import cute, grid

SMALL = """HloModule m

ENTRY %main (p: bf16[8,256]) -> bf16[8,256] {
  %p = bf16[8,256]{1,0:T(8,128)(2,1)} parameter(0)
  ROOT %n = bf16[8,256]{1,0:T(8,128)(2,1)} negate(bf16[8,256]{1,0:T(8,128)(2,1)} %p), metadata={op_name="neg"}
}
"""
TENSOR = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
          "<3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>")


def test_read_hlo_text():
    (m,) = hl.read_hlo(SMALL)
    assert m.name == "m" and len(m.computations) == 1
    e = m.entry
    assert e.is_entry and e.name == "main"
    assert [i.name for i in e.instructions] == ["p", "n"]
    assert e.root.opcode == "negate" and e.root.operands == ("p",)
    assert str(e.root.shape) == "bf16[8,256]{1,0:T(8,128)(2,1)}"
    assert e.instructions[0].parameter_number == 0
    assert e.root.attributes["metadata"] == '{op_name="neg"}'


def test_read_hlo_file(example_dump):
    mods = hl.read_hlo(example_dump)
    assert mods and mods[0].name == "jit_train_step"
    assert sum(len(c.instructions) for c in mods[0].computations) > 3


def test_read_hlo_errors(tmp_path):
    with pytest.raises(ValueError):
        hl.read_hlo("ENTRY %e {\n  %x = f32[2]{0 parameter(0)\n}\n")
    with pytest.raises(OSError):
        hl.read_hlo(str(tmp_path / "missing.txt"))
    with pytest.raises(TypeError):
        hl.read_hlo(42)
    assert hl.read_hlo("") == []


def test_report_matches_cli(cli, example_dump):
    got = hl.report(example_dump)
    assert isinstance(got, hl.Report)
    assert got.to_dict() == cli.json("report", "--json", example_dump)
    assert hl.report(SMALL).to_dict() == cli.json("report", "--json", "-",
                                                  input=SMALL)
    summary = hl.report(SMALL, summary=True)
    assert summary.modules[0].totals.instructions == 2
    assert summary.to_dict() == cli.json("report", "--json", "--summary", "-",
                                         input=SMALL)
    assert hl.report(example_dump, top=3).to_dict() == cli.json(
        "report", "--json", "--top=3", example_dump)


SCHEDULED = """HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> (f32[256]) {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} negate(%p)
  %b = f32[256]{0} exponential(%a)
  ROOT %t = (f32[256]{0}) tuple(%b)
}
"""


def test_dump_folder_matches_cli(cli, example_dump, tmp_path):
    import shutil
    folder = tmp_path / "dump"
    folder.mkdir()
    shutil.copy(example_dump, folder / "module_0001.jit_train_step.txt")
    (folder / "module_0002.scheduled.txt").write_text(SCHEDULED)
    (folder / "notes.txt").write_text("not a module\n")
    (folder / "graph.pb").write_bytes(b"\x08\x01")
    got = hl.report(folder)
    assert isinstance(got, hl.DumpFolderTable)
    assert got.to_dict() == cli.json("report", "--json", str(folder))
    assert [r.file for r in got.modules] == [
        "module_0001.jit_train_step.txt", "module_0002.scheduled.txt"]
    assert {s.file: s.reason for s in got.skipped} == {
        "graph.pb": "not a .txt file",
        "notes.txt": "no HloModule line in its first 64 KiB: not a module"}
    # The memory table: the same rows, most allocated by XLA first.
    table = hl.memory(str(folder))
    assert table.to_dict() == cli.json("memory", "--json", str(folder))
    rows = {r.module: r for r in table.modules}
    # The example dump has TPU layouts: its allocations are not modelled.
    assert rows["jit_train_step"].platform == "tpu"
    assert rows["jit_train_step"].allocated_bytes is None
    assert rows["jit_train_step"].memory_analysis is None
    assert rows["jit_train_step"].peak_bytes > 0
    assert rows["m"].platform == "gpu"
    assert isinstance(rows["m"].memory_analysis, hl.CompiledMemoryStats)
    assert rows["m"].memory_analysis.temp_size_in_bytes >= 0
    assert table.modules[0].module == "m"  # the one with allocations
    assert rows["m"].peak_bytes == 2056
    assert hl.report(folder, threads=1) == got


def test_dump_folder_with_a_bad_file_still_gives_its_table(cli, tmp_path):
    import json
    folder = tmp_path / "dump"
    folder.mkdir()
    (folder / "good.txt").write_text(SMALL)
    (folder / "bad.txt").write_text("HloModule broken\n\nENTRY %e {\n  %p = \n")
    got = hl.report(folder)
    assert [r.file for r in got.modules] == ["good.txt"]
    assert [f.file for f in got.failed] == ["bad.txt"]
    r = cli.run("report", "--json", str(folder))
    assert r.returncode == 1
    assert json.loads(r.stdout) == got.to_dict()
    assert "bad.txt" in r.stderr


def test_empty_dump_folder(cli, tmp_path):
    r = cli.run("report", str(tmp_path))
    assert r.returncode == 1
    assert "no module files" in r.stderr
    # Python raises where the CLI fails (it used to return an empty table).
    with pytest.raises(ValueError, match="no module files"):
        hl.memory(str(tmp_path))
    assert cli.run("memory", "--json", str(tmp_path)).returncode == 1
    with pytest.raises(FileNotFoundError):
        hl.report(str(tmp_path / "no such folder"))


def test_memory_matches_cli(cli):
    got = hl.memory(SCHEDULED)
    assert [m.to_dict() for m in got] == cli.json(
        "memory", "--json", "--top=20", "-", input=SCHEDULED)
    peak = got[0].peaks[0]
    # XLA's peak moment (see docs/memory.md): p, b and t live at time 3.
    assert (peak.time, peak.bytes) == (3, 2056)
    assert [v.instruction for v in peak.live] == ["b", "p", "t"]
    with pytest.raises(ValueError, match="is not scheduled"):
        hl.memory(SCHEDULED.replace(", is_scheduled=true", ""))


def test_cute_layout():
    L = cute.Layout("((2,2),3):((24,2),8)")
    assert (L.shape, L.stride, L.size(), L.rank, L.depth) == (((2, 2), 3), ((24, 2), 8), 12, 2, 2)
    assert [L(i) for i in range(4)] == [0, 24, 2, 26]
    assert L(((1, 0), 1)) == 32
    assert L.cute == "((2,2),3):((24,2),8)" and L == cute.Layout(L.cute)
    assert str(L) == "((2, 2), 3):((24, 2), 8)"  # as pycute prints it
    assert L.idx2crd(5) == ((1, 0), 1)
    assert L[1].cute == "3:8"


def test_cute_ops_match_cli(cli):
    cases = [("composition", "(6,2):(8,2)", "(4,3):(3,1)"),
             ("composition", "(12,(4,8)):(59,(13,1))", "<3:4, 8:2>"),
             ("complement", "4:2", "24"), ("coalesce", "(2,(1,6)):(1,(6,2))"),
             ("logical_divide", "(2,4,3):(4,1,8)", "4:2"),
             ("zipped_divide", "(4,6):(1,4)", "(2,3)"),
             ("logical_product", "(2,2):(1,2)", "3:1"),
             ("blocked_product", "(2,2):(1,2)", "3:1"),
             ("right_inverse", "(4,2):(2,1)"), ("left_inverse", "(4,2):(2,1)"),
             ("size", "(4,2):(2,1)"), ("congruent", "(4,2)", "(3,5)")]
    for op, *args in cases:
        got = getattr(cute, op)(*args)
        want = cli.text("cute", op, *args)
        got = got.cute if hasattr(got, "cute") else str(got)
        assert got.lower() == want.lower(), op
    assert set(cute.OPS) >= {"composition", "complement", "coalesce",
                             "logical_divide", "zipped_divide", "tiled_divide",
                             "logical_product", "right_inverse", "left_inverse"}
    assert cute.composition(cute.Layout("(6,2):(8,2)"), 3) == cute.Layout("3:8")
    assert cute.table("(2,3):(3,1)").startswith("(2,3):(3,1)")


def test_cute_errors():
    with pytest.raises(ValueError, match="composition"):
        cute.composition("(4,3):(1,5)", "4:3")
    with pytest.raises(ValueError):
        cute.Layout("(2,3")
    with pytest.raises(TypeError):
        cute.Layout(3.0)


def test_grid_matches_cli(cli):
    g = grid.parse(TENSOR)
    assert g.explain() == cli.json("grid", "explain", "--json", TENSOR)
    assert g.locate((20, 40)) == cli.json("grid", "locate", "--json", TENSOR, "20,40")
    assert g.locate((20, 40))["core"] == [1, 1]
    assert len(g.shards()) == 6 and g.grid == (3, 2) and g.shard_shape == (18, 32)
    with pytest.raises(ValueError, match="^1:1: expected a tensor type"):
        grid.parse("")
    with pytest.raises(ValueError):
        grid.parse("tensor<53x63xf32>x")
    with pytest.raises(ValueError):
        g.locate((60, 0))


def test_draw_svg_matches_cli_contract():
    svg = hl.draw("f32[3,5]{1,0:T(2,2)}")
    assert 'data-offset="17"' in svg and 'data-index="2,3"' in svg
    import re
    assert len(re.findall(r'class="padding[ "]', svg)) == 9
    assert hl.parse_shape("f32[3,5]{1,0:T(2,2)}")._repr_svg_() == svg
    assert hl.draw("f32[4,8]{1,0:T(2,4)(2,1)}", view="memory") != hl.draw(
        "f32[4,8]{1,0:T(2,4)(2,1)}", view="logical")


def test_draw_bad_inputs():
    with pytest.raises(ValueError):
        hl.draw("f32[3,5]{1,0:T(2,2)}", view="sideways")
    with pytest.raises(ValueError):
        hl.draw("f32[3,5]{1,0:T(2,")
    with pytest.raises(TypeError):
        hl.draw(42)


TTNN = ("tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
        "memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
        "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>")
METAL = ("tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
         "logical_shape = 128x384, dim_alignments = 32x32, collapsed_intervals "
         "= dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>")


@pytest.mark.parametrize("text", [TTNN, METAL, TENSOR])
def test_grid_vectorized_locate_matches_one_at_a_time(text):
    g = grid.parse(text)
    shape = g.explain()["logical_shape"]
    rng = np.random.default_rng(30)
    idx = np.stack([rng.integers(0, d, 200) for d in shape], axis=1)
    many = g.locate(idx)
    for row in (0, 17, 199):
        one = g.locate(tuple(int(v) for v in idx[row]))
        for key, column in many.items():
            want = one[key] if one.get(key) is not None else None
            got = column[row].tolist()
            assert got == want, (key, got, want)
    # A tuple of arrays (np.unravel_index) gives the same.
    flat = np.arange(0, int(np.prod(shape)), 997)
    a = g.locate(np.unravel_index(flat, shape))
    b = g.locate(np.stack(np.unravel_index(flat, shape), axis=1))
    assert all((a[k] == b[k]).all() for k in a)
    with pytest.raises(ValueError, match="index at row 1: index"):
        g.locate(np.array([[0] * len(shape), [10 ** 6] * len(shape)]))
    with pytest.raises(ValueError, match="shape"):
        g.locate(np.zeros((3, len(shape) + 1), np.int64))
    with pytest.raises(TypeError):
        g.locate(np.zeros((3, len(shape)), np.float32))


def test_grid_new_forms(cli, tmp_path):
    g = grid.parse(TTNN)
    assert (g.kind, g.grid, g.memref_shape, g.warnings) == (
        "ttnn_layout", (1, 8), (1, 16), [])
    assert g.explain() == cli.json("grid", "explain", "--json", TTNN)
    assert len(g.shards()) == 8 and g.shards()[3]["core"] == [3, 0]
    stale = grid.parse("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, "
                       "d1), <1x1>, memref<4x4x!ttcore.tile<32x32, f32>, "
                       "#ttnn.buffer_type<dram>>, <interleaved>>>")
    assert stale.memref_shape == (1, 1)
    assert stale.warnings == ["the written memref 4x4 is not the builder's 1x1 (tiles)"]
    m = grid.parse(METAL)
    assert m.kind == "metal_layout" and m.locate((127, 383))["core"] == [5, 1]
    # Another device moves the canonical core ranges.
    small = grid.parse(TTNN, worker_grid=(2, 4))
    assert small.explain()["core_ranges"] == [[[0, 0], [3, 1]]]
    with pytest.raises(ValueError, match="verifier refuses"):
        grid.parse("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), "
                   "<8x8>, memref<1x1x!ttcore.tile<32x32, f32>, "
                   "#ttnn.buffer_type<dram>>, <interleaved>>>")
    path = tmp_path / "m.mlir"
    path.write_text("#l = #ttnn.buffer_type<l1>\nfunc.func @f(%a: " + TTNN +
                    ") -> " + METAL + "\n")
    r = grid.report(path)
    assert r["counts"]["types"] == 2 and r["counts"]["ok"] == 2
    # A file that cannot be read is OSError (as hl.memory), naming the path;
    # bad device arguments are ValueError naming the argument.
    with pytest.raises(OSError, match="cannot open '.*missing.mlir'"):
        grid.report(tmp_path / "missing.mlir")
    with pytest.raises(ValueError, match="worker_grid and dram_banks"):
        grid.report(path, worker_grid=(0, 8))
    with pytest.raises(ValueError, match="out of range|index"):
        small.locate((10**6, 0))


def test_cute_and_grid_repr_svg():
    assert "data-coord=" in hl.cute.Layout("(4,2):(2,1)")._repr_svg_()
    g = hl.grid.parse(
        "tensor<6x10xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
        "<2x2>, memref<3x5xf32, #tt.memory_space<l1>>>>")
    assert "data-core=" in g._repr_svg_()
    assert "data-shard=" in hl.grid.parse(TTNN)._repr_svg_()
