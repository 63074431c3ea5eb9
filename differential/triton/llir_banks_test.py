"""llir_banks on hand-written LLVM IR (testdata/banks_*.ll): the address
evaluator and the wavefront count, under NVIDIA's and gfx942's rules. Each
access's expected ways are worked out in the .ll file's comments.

  python3 differential/triton/llir_banks_test.py
  ./bazelw test //differential/triton:LlirBanksTest
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llir_banks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def _read(name):
    with open(os.path.join(HERE, "testdata", name)) as f:
        return f.read()


def _per_access(llir, target, lanes, model="hardware", warp=0):
    accesses, defs = llir_banks.shared_accesses(llir)
    ev = llir_banks.Evaluator(defs, lanes, warp)
    out = []
    for side, kind, nbytes, operand in accesses:
        banks = llir_banks.model_banks(target, model, nbytes, side == "load")
        full = kind if kind.startswith("matrix") else "vector." + side
        groups = llir_banks.phase_groups(target, full, nbytes, lanes, model)
        row = 16 if kind.startswith("matrix") else None
        out.append((side, kind, nbytes,
                    llir_banks.ways_of(ev.value(operand), groups, nbytes,
                                       banks, row)))
    return out


class EvaluatorTest(unittest.TestCase):
    def test_addresses_follow_the_arithmetic(self):
        accesses, defs = llir_banks.shared_accesses(_read("banks_nvidia.ll"))
        ev = llir_banks.Evaluator(defs, 32, 1)  # warp 1: tid 32..63
        self.assertEqual(ev.value("%lane"), list(range(32)))
        self.assertEqual(ev.value("%wid"), [1] * 32)  # shfl from lane 0
        self.assertEqual(ev.value("%o1"), [128 + 4 * i for i in range(32)])
        # getelementptr float scales the index by 4 bytes.
        self.assertEqual(ev.value("%p3"), [16 * i for i in range(32)])
        self.assertEqual(ev.value("%o5")[:4], [0, 128, 4, 132])
        self.assertEqual(ev.value("%o7")[8:10], [128 + 16, 128 + 0])

    def test_an_address_read_from_memory_is_refused(self):
        r = llir_banks.conflict_ways(_read("banks_amd.ll"), "hip:gfx942", 64,
                                     1)
        self.assertIn("cannot evaluate %p3", r["error"])

    def test_constant_expression_addresses(self):
        llir = """define void @f() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %o = shl i32 %t, 2
  %p = getelementptr inbounds i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 8192), i32 %o
  store i32 1, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @global_smem, i32 4096), align 4
  %v = load <2 x half>, ptr addrspace(3) %p, align 4
  ret void
}
"""
        accesses, defs = llir_banks.shared_accesses(llir)
        ev = llir_banks.Evaluator(defs, 4, 0)
        self.assertEqual([ev.value(a[3]) for a in accesses],
                         [[4096] * 4, [8192, 8196, 8200, 8204]])

    def test_loop_carried_buffer_at_its_first_iteration(self):
        # A pipelined loop's buffer: a struct carried by a phi, its entry
        # value a constant; the other incoming value depends on the phi.
        llir = """define void @f() {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %buf = phi { ptr addrspace(3), i32 } [ %next, %loop ], [ { ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 1024), i32 0 }, %0 ], !dbg !3
  %base = extractvalue { ptr addrspace(3), i32 } %buf, 0
  %o = shl i32 %t, 2
  %p = getelementptr inbounds i8, ptr addrspace(3) %base, i32 %o
  store i32 1, ptr addrspace(3) %p, align 4, !alias.scope !28
  %q = getelementptr inbounds i8, ptr addrspace(3) %base, i32 4096
  %s0 = insertvalue { ptr addrspace(3), i32 } undef, ptr addrspace(3) %q, 0
  %next = insertvalue { ptr addrspace(3), i32 } %s0, i32 1, 1
  br label %loop
}
"""
        accesses, defs = llir_banks.shared_accesses(llir)
        self.assertEqual(accesses[0][3], "%p")  # metadata stripped
        ev = llir_banks.Evaluator(defs, 4, 0)
        self.assertEqual(ev.value("%p"), [1024, 1028, 1032, 1036])
        self.assertEqual(ev.value("%next")[1][0], [5120] * 4)

    def test_wrapping_and_signed_ops(self):
        defs = {"%a": "sub i32 0, 1", "%b": "ashr i32 %a, 4",
                "%c": "trunc i32 %a to i8", "%d": "sdiv i32 %a, 2",
                "%e": "sext i8 %c to i32"}
        ev = llir_banks.Evaluator(defs, 2, 0)
        self.assertEqual(ev.value("%a"), [0xFFFFFFFF] * 2)
        self.assertEqual(ev.value("%b"), [0xFFFFFFFF] * 2)
        self.assertEqual(ev.value("%c"), [255] * 2)
        self.assertEqual(ev.value("%d"), [0] * 2)
        self.assertEqual(ev.value("%e"), [0xFFFFFFFF] * 2)


class WaysTest(unittest.TestCase):
    def test_nvidia(self):
        got = _per_access(_read("banks_nvidia.ll"), "cuda:90", 32)
        self.assertEqual(got, [
            ("store", "vector", 4, 1),
            ("load", "vector", 4, 32),
            ("load", "vector", 16, 1),
            ("load", "vector", 8, 1),
            ("store", "vector", 4, 2),
            ("store", "matrix.x1", 16, 8),
            ("load", "matrix.x4", 16, 1),
        ])

    def test_nvidia_sides_over_every_warp(self):
        r = llir_banks.conflict_ways(_read("banks_nvidia.ll"), "cuda:80", 32,
                                     4)
        self.assertEqual((r["store_ways"], r["load_ways"]), (8, 32))
        self.assertEqual(r["accesses"], 7)

    def test_gfx942_read_phase_of_ds_read_b128(self):
        llir = _read("banks_amd.ll").split("  ; the address of a value")[0]
        llir += "  ret void\n}\n"
        self.assertEqual(_per_access(llir, "hip:gfx942", 64), [
            ("store", "vector", 4, 1),
            ("load", "vector", 16, 1),
            ("store", "vector", 16, 1),
            ("load", "vector", 16, 2)])
        self.assertEqual(
            [a[3] for a in _per_access(llir, "hip:gfx942", 64,
                                       "first_lanes")], [1, 1, 1, 1])
        # Triton 3.9.0's estimate: ds_read_b128 reads lane bits 0, 1, 4.
        self.assertEqual(
            [a[3] for a in _per_access(llir, "hip:gfx942", 64,
                                       "triton_3.9")], [1, 2, 1, 1])
        # Triton 3.6.0's estimate: a 64-lane phase over 32 banks for 32-bit
        # accesses (2 ways), 16 lanes for 128-bit ones (2 ways).
        self.assertEqual(
            [a[3] for a in _per_access(llir, "hip:gfx942", 64,
                                       "triton_3.6")], [2, 2, 2, 2])
        r = llir_banks.conflict_ways(llir, "hip:gfx942", 64, 2)
        self.assertEqual((r["store_ways"], r["load_ways"]), (1, 2))
        self.assertEqual(r["models"]["first_lanes"], [1, 1])
        self.assertEqual(r["models"]["triton_3.9"], [1, 2])

    def test_ways_of_counts_distinct_words_per_bank(self):
        groups = [list(range(4))]
        # Same word: a broadcast, 1 way; same bank, two words: 2 ways.
        self.assertEqual(llir_banks.ways_of([0, 0, 0, 0], groups, 4, 32), 1)
        self.assertEqual(llir_banks.ways_of([0, 128, 0, 4], groups, 4, 32),
                         2)
        # An 8-byte access spans two banks: bytes 0-7 are banks 0 and 1,
        # bytes 128-135 banks 0 and 1 again (other words): 2 ways.
        self.assertEqual(llir_banks.ways_of([0, 128, 8, 16], groups, 8, 32),
                         2)
        # 64 banks: 128 bytes apart is another bank.
        self.assertEqual(llir_banks.ways_of([0, 128, 0, 4], groups, 4, 64),
                         1)

    def test_amd_groups_partition_the_wave(self):
        for target in ("hip:gfx942", "hip:gfx950"):
            for model in ("hardware", "triton_3.9"):
                for kind in ("vector.load", "vector.store"):
                    for nbytes in (1, 2, 4, 8, 16):
                        groups = llir_banks.phase_groups(target, kind, nbytes,
                                                         64, model)
                        lanes = sorted(l for g in groups for l in g)
                        self.assertEqual(lanes, list(range(64)))

    def test_hardware_phases(self):
        # gfx942 ds_read_b128 (AMD's LDS bank-conflict article): lanes 0-3
        # with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with 24-27.
        g = llir_banks.phase_groups("hip:gfx942", "vector.load", 16, 64)
        self.assertEqual(g[:4], [[0, 1, 2, 3, 20, 21, 22, 23],
                                 [4, 5, 6, 7, 16, 17, 18, 19],
                                 [8, 9, 10, 11, 28, 29, 30, 31],
                                 [12, 13, 14, 15, 24, 25, 26, 27]])
        self.assertEqual(g[4][0], 32)
        # ds_write_b128: 8 consecutive lanes.
        g = llir_banks.phase_groups("hip:gfx942", "vector.store", 16, 64)
        self.assertEqual(g[1], list(range(8, 16)))
        # gfx950 ds_read_b128 (64 banks): 0-3, 12-15, 20-23, 24-27.
        g = llir_banks.phase_groups("hip:gfx950", "vector.load", 16, 64)
        self.assertEqual(g[0], [0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23,
                                24, 25, 26, 27])
        self.assertEqual(g[1], [4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19,
                                28, 29, 30, 31])
        # gfx950 ds_read_b64: 32 consecutive lanes over 64 banks;
        # ds_write_b64 16 over 32, as on gfx942.
        g = llir_banks.phase_groups("hip:gfx950", "vector.load", 8, 64)
        self.assertEqual(g, [list(range(32)), list(range(32, 64))])
        g = llir_banks.phase_groups("hip:gfx950", "vector.store", 8, 64)
        self.assertEqual(g[0], list(range(16)))
        self.assertEqual(
            [llir_banks.hardware_banks("hip:gfx950", n, load)
             for n, load in ((4, True), (8, True), (16, True), (8, False),
                             (16, False))], [32, 64, 64, 32, 32])
        self.assertEqual(
            {llir_banks.hardware_banks("hip:gfx942", n, load)
             for n in (4, 8, 16) for load in (True, False)}, {32})

    def test_triton_39_phases(self):
        # The phases Triton 3.9.0's estimate takes: lane bits 0, 1, 4
        # (gfx942) and 0, 1, 3, 4 (gfx950) for ds_read_b128.
        g = llir_banks.phase_groups("hip:gfx942", "vector.load", 16, 64,
                                    "triton_3.9")
        self.assertEqual(g[0], [0, 1, 2, 3, 16, 17, 18, 19])
        g = llir_banks.phase_groups("hip:gfx950", "vector.load", 16, 64,
                                    "triton_3.9")
        self.assertEqual(g[0], [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19,
                                24, 25, 26, 27])
        self.assertEqual(
            llir_banks.model_banks("hip:gfx950", "triton_3.9", 4, False), 64)

if __name__ == "__main__":
    unittest.main()
