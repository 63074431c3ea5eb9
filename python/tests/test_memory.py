"""hl.memory: XLA's buffer assignment and memory_analysis() from a dump."""
import pytest

import hlolayout as hl

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


def test_memory_analysis_and_allocations():
    (m,) = hl.memory(TWO_TEMPS, platform="gpu")
    assert m["platform"] == "gpu"
    assert m["memory_analysis"] == {
        "argument_size_in_bytes": 1024,
        "output_size_in_bytes": 512,
        "alias_size_in_bytes": 0,
        "temp_size_in_bytes": 2048,
        # parameter and output allocations + the heap's fullest moment
        "peak_memory_in_bytes": 1024 + 512 + 2048,
    }
    assert m["allocated_bytes"] == 1024 + 2048 + 512
    kinds = sorted(a["kind"] for a in m["allocations"])
    assert kinds == ["output", "parameter", "temp"]
    (temp,) = [a for a in m["allocations"] if a["kind"] == "temp"]
    offsets = {v["name"]: v["offset"] for v in temp["values"]}
    assert offsets["z"] == offsets["x"] != offsets["y"]
    # The live-range peak is still there, beside it.
    assert m["peaks"][0]["bytes"] > 0


def test_cpu_peak_counts_no_temps():
    (m,) = hl.memory(TWO_TEMPS, platform="cpu")
    # The same heap (1024 is a multiple of CPU's 64-byte alignment too)...
    assert m["memory_analysis"]["temp_size_in_bytes"] == 2048
    # ...but XLA:CPU's peak counts parameters and outputs only.
    assert m["memory_analysis"]["peak_memory_in_bytes"] == 1024 + 512


def test_bad_platform_raises():
    with pytest.raises(ValueError, match="--platform must be gpu or cpu"):
        hl.memory(TWO_TEMPS, platform="tpu")
