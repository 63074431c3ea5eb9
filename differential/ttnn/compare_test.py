"""compare.py's verdicts on canned answers, and the CI sample's seed: no
ttnn needed (issue 89 item 7).

  python3 differential/ttnn/compare_test.py
  ./bazelw test //differential/ttnn:CompareTest
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

REFUSED = {"error": "Unsupported data type!", "rule": "row-major-element-size"}
ACCEPTED = {"memory_layout": "INTERLEAVED", "padded_shape": [32, 32]}


def _spec(dtype, layout):
    return {"shape": [32, 32], "dtype": dtype, "layout": layout,
            "memory_layout": "INTERLEAVED", "buffer_type": "DRAM"}


class RowMajorElementSizeTest(unittest.TestCase):
    """The model refuses a ROW_MAJOR page of int8 or fp8_e4m3, which ttnn
    accepts host-only: documented for those inputs only."""

    def verdict(self, inp):
        tally = compare.Tally()
        compare.compare_spec(tally, "spec", REFUSED, ACCEPTED, inp)
        return tally

    def test_documented_for_int8_and_fp8_in_row_major(self):
        for dtype in ("int8", "fp8_e4m3"):
            tally = self.verdict(_spec(dtype, "ROW_MAJOR"))
            self.assertEqual(tally.diffs, [], dtype)
            self.assertEqual(tally.documented["row-major-element-size"], 1, dtype)

    def test_a_difference_for_another_dtype_or_layout(self):
        # The old harness documented this refusal whatever the dtype.
        for dtype, layout in (("bfloat16", "ROW_MAJOR"), ("float32", "ROW_MAJOR"),
                              ("int8", "TILE")):
            tally = self.verdict(_spec(dtype, layout))
            self.assertEqual(len(tally.diffs), 1, (dtype, layout))
            self.assertEqual(sum(tally.documented.values()), 0, (dtype, layout))


class SeedTest(unittest.TestCase):
    """CI's sample draws new cases each day, never the frozen set's."""

    def test_the_daily_seed_moves_and_is_never_the_frozen_one(self):
        seeds = [compare.daily_seed(day) for day in range(1, 367)]
        self.assertNotIn(compare.FROZEN_SEED, seeds)
        self.assertEqual(len(set(seeds)), 366)

    def test_today_is_a_daily_seed(self):
        import time
        self.assertEqual(compare.seed_arg("today"),
                         compare.daily_seed(time.gmtime().tm_yday))
        self.assertEqual(compare.seed_arg("17"), 17)

    def test_ci_asks_for_the_daily_seed(self):
        # The old ci.sh passed --seed 39 on every run.
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "ci.sh")) as f:
            text = f.read()
        self.assertIn('--seed "${HLOLAYOUT_TTNN_SEED:-today}"', text)
        self.assertNotIn("--seed 39", text)


if __name__ == "__main__":
    unittest.main()
