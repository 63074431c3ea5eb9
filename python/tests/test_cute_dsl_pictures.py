"""The C++ texts the twin's pictures are drawn from (_pictures: draw/
reads them through cute::ParseAnyLayout), and what a swizzle alone is
drawn over (docs/cute-dsl.md, "Pictures")."""

import pytest

from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _pictures

TEXTS = [
    (cute.make_layout((2, 4), stride=(4, 1)), "(_2,_4):(_4,_1)"),
    (cute.make_layout((cute.Int32(3), (2, 2))), "(_3,(_2,_2)):(_1,(_3,_6))"),
    # 2^B rows of 2^|S| chunks of 2^M elements.
    (cute.make_swizzle(3, 4, 3), "Sw<3,4,3> o _0 o (_8,_8):(_128,_16)"),
    (cute.make_swizzle(2, 1, -3), "Sw<2,1,-3> o _0 o (_4,_8):(_16,_2)"),
    (cute.make_swizzle(1, 0, 2), "Sw<1,0,2> o _0 o (_2,_4):(_4,_1)"),
    (cute.make_swizzle(0, 4, 3), "Sw<0,4,3> o _0 o _1:_0"),
    (cute.make_composed_layout(cute.make_swizzle(2, 0, 3), 8,
                               cute.make_layout((8, 8), stride=(8, 1))),
     "Sw<2,0,3> o _8 o (_8,_8):(_8,_1)"),
    (cute.make_composed_layout(cute.make_layout(4, stride=2), 0,
                               cute.make_layout((8, 4), stride=(4, 1))),
     "_4:_2 o _0 o (_8,_4):(_4,_1)"),
]


@pytest.mark.parametrize("obj,text", TEXTS)
def test_the_texts_the_pictures_are_drawn_from(obj, text):
    assert _pictures._cpp_text(obj) == text


def test_what_is_not_drawn():
    with pytest.raises(ValueError, match="maps to coordinates"):
        _pictures._cpp_text(cute.make_identity_layout((4, 4)))
    with pytest.raises(TypeError, match="nothing to draw for tuple"):
        _pictures._cpp_text((1, 2))
    assert _pictures.svg(cute.make_identity_layout((4, 4))) is None
    assert _pictures.html(cute.make_identity_layout((4, 4))) == \
        "<pre>(4,4):(1@0,1@1)</pre>"


def test_a_swizzle_is_drawn_over_its_chunks():
    # Row r, chunk c: the swizzle of r 2^(M+S) + c 2^M, titled as the DSL
    # prints it.
    text = cute.draw(cute.make_swizzle(1, 0, 2))
    assert text.splitlines()[0] == "CuTe layout S<1,0,2>"
    sw = cute.make_swizzle(1, 0, 2)
    cells = [[str(sw.apply(r * 4 + c)) for c in range(4)] for r in range(2)]
    rows = [line.split()[1:] for line in text.splitlines()[-2:]]
    assert rows == cells
    html = _pictures.html(sw)
    assert html.startswith('<div class="hlolayout-cute-dsl"><pre>'
                           'S&lt;1,0,2&gt;</pre><svg')
    assert html.endswith("</svg>\n</div>")
