"""cvt.py's bank-conflict verdicts on canned answers, no Triton needed
(issue 89 item 6): a rule explains hlolayout's (store, load) ways only by
one counting model for both sides, and under Triton 3.6.0 on AMD, where
hlolayout gives the hardware's count, nothing but agreement passes.

  python3 differential/triton/cvt_test.py
  ./bazelw test //differential/triton:CvtTest
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cvt  # noqa: E402
import llir_banks  # noqa: E402


def _triton(hardware):
    """Triton's answer whose IR counts give `hardware` under every model
    (a test sets the models it needs apart)."""
    counted = {m: list(hardware) for m in llir_banks.MODELS if m != "hardware"}
    return {"status": "ok", "shared": 1024, "shuffles": 0,
            "banks": {"store_ways": hardware[0], "load_ways": hardware[1],
                      "models": counted}}


def _ours(store, load):
    return {"status": "ok", "kind": "shared_memory", "store_ways": store,
            "load_ways": load}


AMD = {"target": "hip:gfx942"}


class BankRulesTest(unittest.TestCase):

    def test_agreement(self):
        self.assertEqual(cvt.compare_banks(AMD, _triton((2, 1)), _ours(2, 1), "3.6.0")[0],
                         "agree")

    def test_one_model_explains_both_sides(self):
        t = _triton((1, 2))
        t["banks"]["models"]["triton_3.9"] = [2, 2]
        self.assertEqual(cvt.compare_banks(AMD, t, _ours(2, 2), "3.9.0")[0],
                         "estimate_3.9_phases")

    def test_two_models_one_per_side_explain_nothing(self):
        # The store side is the "triton_3.9" count, the load side the
        # "first_lanes" count: no one model gives both (the old rule took
        # each side from any model).
        t = _triton((1, 4))
        t["banks"]["models"]["triton_3.9"] = [2, 4]
        t["banks"]["models"]["first_lanes"] = [1, 2]
        status, note = cvt.compare_banks(AMD, t, _ours(2, 2), "3.9.0")
        self.assertEqual(status, "differ")

    def test_triton_3_6_amd_passes_only_agreement(self):
        # hlolayout gives the hardware's count there: a figure any other
        # model gives, or none gives, fails (the old estimate_3.6_span took
        # every such case, whatever hlolayout answered: 4 times the ways
        # passed; estimate_3.6_phase took Triton 3.6.0's per-side arithmetic).
        t = _triton((1, 2))
        t["banks"]["models"]["triton_3.6"] = [2, 2]
        for ours in ((2, 2), (1, 1), (4, 1), (8, 8)):
            status, note = cvt.compare_banks(AMD, t, _ours(*ours), "3.6.0")
            self.assertEqual(status, "differ", ours)
            self.assertIn("hardware's count", note)
        for target in ("hip:gfx942", "hip:gfx950"):
            status, _ = cvt.compare_banks({"target": target}, t, _ours(1, 2),
                                          "3.6.0")
            self.assertEqual(status, "agree")

    def test_nvidia_keeps_the_whole_words_rule(self):
        t = _triton((2, 1))
        t["banks"]["models"]["hardware/words"] = [1, 1]
        status, _ = cvt.compare_banks({"target": "cuda:90"}, t, _ours(1, 1),
                                      "3.6.0")
        self.assertEqual(status, "estimate_whole_words")

    def test_no_rule_is_named_for_what_it_does_not_explain(self):
        names = [name for name, _, _ in cvt.BANK_RULES]
        self.assertNotIn("estimate_3.6_span", names)
        self.assertNotIn("estimate_3.6_phase", names)


if __name__ == "__main__":
    unittest.main()
