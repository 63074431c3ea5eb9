"""smem_ops.py's verdicts on canned answers, no Triton needed: a run whose
matmuls Triton refuses or hlolayout does not model fails for want of
agreements (issue 89 item 7).

  python3 differential/triton/smem_ops_test.py
  ./bazelw test //differential/triton:SmemOpsTest
"""

import collections
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smem_ops  # noqa: E402

CASE = {"target": "cuda:80"}


def _triton(stores, loads):
    return {"status": "ok", "stores": stores, "loads": loads,
            "banks": {"store_ways": 1, "load_ways": 1}}


def _op(store, instr, bits, count, ways=1):
    return {"op": "local_store" if store else "local_load", "store": store,
            "costs": [{"error": None, "instr": instr, "bits": bits,
                       "count": count, "ways": ways}]}


class VerdictTest(unittest.TestCase):

    def test_each_verdict(self):
        plain = _triton([{"instr": "st.shared", "bits": 128, "count": 2}],
                        [{"instr": "ld.shared", "bits": 64, "count": 4}])
        ours = {"status": "ok", "converts": [],
                "ops": [_op(True, "st.shared", 128, 2), _op(False, "ld.shared", 64, 4)]}
        self.assertEqual(smem_ops.compare(CASE, plain, ours)[0], "agree")
        matrix = _triton([{"instr": "st.shared", "bits": 128, "count": 2}],
                         [{"instr": "ldmatrix", "bits": 128, "count": 4}])
        self.assertEqual(smem_ops.compare(CASE, matrix, ours)[0], "agree on one side")
        both = _triton([{"instr": "cp.async", "bits": 128, "count": 2}],
                       [{"instr": "ldmatrix", "bits": 128, "count": 4}])
        self.assertEqual(smem_ops.compare(CASE, both, ours)[0], "not modelled")
        refused = {"status": "error", "message": "out of resources"}
        self.assertEqual(smem_ops.compare(CASE, refused, ours)[0], "refused")
        wrong = {"status": "ok", "converts": [],
                 "ops": [_op(True, "st.shared", 128, 2), _op(False, "ld.shared", 64, 8)]}
        self.assertEqual(smem_ops.compare(CASE, plain, wrong)[0], "differ")


class LeastTest(unittest.TestCase):

    def test_a_run_of_unmodelled_or_refused_kernels_fails(self):
        # The old harness passed it: 0 differences.
        verdicts = collections.Counter({"not modelled": 4, "refused": 2})
        self.assertEqual(smem_ops.sides_agreed(verdicts), 0)
        self.assertIn("fewer than the least 3", smem_ops.too_few(verdicts, 3))

    def test_sides_are_counted(self):
        verdicts = collections.Counter({"agree": 1, "agree on one side": 2,
                                        "agree, ways not evaluated": 1,
                                        "not modelled": 3})
        self.assertEqual(smem_ops.sides_agreed(verdicts), 6)
        self.assertIsNone(smem_ops.too_few(verdicts, 6))
        self.assertIsNotNone(smem_ops.too_few(verdicts, 7))


if __name__ == "__main__":
    unittest.main()
