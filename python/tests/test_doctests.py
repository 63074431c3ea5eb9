"""The examples in the docstrings run and print what they say."""

import doctest

import numpy as np
import pytest

import hlolayout as hl
from hlolayout import (_cute_int_tuple, _cute_layout, allocations, arrays,
                       cute, grid, hlo, indexing, memory_usage, pictures,
                       reports, shapes, ttnn)
from hlolayout.cute_dsl import _func_composed, _jit

MODULES = [hl, shapes, indexing, arrays, hlo, pictures, reports, memory_usage,
           allocations, cute, _cute_layout, _cute_int_tuple, grid, ttnn,
           _jit, _func_composed]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, extraglobs={"hl": hl, "np": np},
                             optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_help_reads_well():
    text = hl.Indexer.__doc__
    assert "offset" in text and ">>>" in text
    for name in ["parse_shape", "to_layout", "from_layout", "relayout",
                 "read_hlo", "report", "parse_jax_layout"]:
        assert ">>>" in getattr(hl, name).__doc__ or name == "report", name
