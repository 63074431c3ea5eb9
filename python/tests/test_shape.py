"""Shapes and layouts: parsing, printing, attributes, protos, JAX layouts."""

import json
import pickle

import pytest

import hlolayout as hl

EXAMPLE = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"


def test_parse_and_attributes():
    s = hl.parse_shape(EXAMPLE)
    assert str(s) == EXAMPLE
    assert s.element_type == "bf16"
    assert s.dimensions == (8, 1, 1280, 16384)
    assert s.rank == 4
    assert s.is_array and not s.is_tuple
    assert s.layout.minor_to_major == (3, 2, 0, 1)
    assert s.layout.tiles == ((8, 128), (2, 1))
    assert s.layout.memory_space == 1
    assert s.layout.element_size_in_bits == 0
    assert s.layout.tail_padding_alignment_in_elements == 1
    assert str(s.layout) == "{3,2,0,1:T(8,128)(2,1)S(1)}"


def test_angle_bracket_form_and_equality():
    a = hl.parse_shape("bf16[8,1,1280,16384]<3,2,0,1:T(8,128)(2,1)S(1)>")
    b = hl.parse_shape(EXAMPLE)
    assert a == b and hash(a) == hash(b)
    assert a == EXAMPLE
    assert a != hl.parse_shape("bf16[8,1,1280,16384]{3,2,1,0}")
    assert len({a, b}) == 1
    assert hl.Shape(EXAMPLE) == a


def test_combine_tail_padding_and_element_size():
    s = hl.parse_shape("s4[9,4]{1,0:T(*,2)L(16)E(4)}")
    assert s.layout.tiles == ((hl.COMBINE, 2),)
    assert s.layout.tail_padding_alignment_in_elements == 16
    assert s.layout.element_size_in_bits == 4
    assert hl.Layout(s.layout.minor_to_major, s.layout.tiles, 0, 4, 16) == s.layout


def test_a_layout_made_by_hand_takes_ints_only():
    # int() made 1.5 the dim 1 and "8" the tile 8.
    with pytest.raises(TypeError):
        hl.Layout((1.5, 0))
    with pytest.raises(TypeError):
        hl.Layout((1, 0), tiles=(("8", 128),))
    with pytest.raises(TypeError):
        hl.Layout((1, 0), memory_space=1.0)
    np = pytest.importorskip("numpy")
    assert str(hl.Layout((np.int64(1), 0), tiles=((8, np.int32(128)),))) == "{1,0:T(8,128)}"


@pytest.mark.parametrize("text", [
    "f32[3,5]{1,0:T(2,2)}", "(f32[2]{0}, s32[], (pred[3]{0}))", "token[]",
    "f32[<=4,?]{1,0}", "s4[64,128]{1,0:E(4)}", "u8[]", "()",
    "bf16[2,3]{0,1:T(2,128)(2,1)S(5)}", "c64[2]{0}",
])
def test_round_trip_text_and_proto(text, cli):
    s = hl.parse_shape(text)
    assert hl.parse_shape(str(s)) == s
    assert str(s) == cli.text("print", text)
    assert hl.Shape.from_proto(s.to_proto()) == s


def test_tuple_shapes():
    s = hl.parse_shape("(f32[2]{0}, (s32[], pred[3]{0}))")
    assert s.is_tuple and s.layout is None and s.element_type == "tuple"
    inner = s.tuple_shapes
    assert [str(t) for t in inner] == ["f32[2]{0}", "(s32[], pred[3]{0})"]
    assert inner[1].tuple_shapes[1].dimensions == (3,)


def test_human_string_and_dynamic():
    s = hl.parse_shape("f32[<=4,7]{1,0}")
    assert s.human_string == "f32[<=4,7]"
    assert s.dynamic_dimensions == (True, False)


EXPLAINED = [EXAMPLE, "s4[64,128]{1,0:E(4)}", "(f32[2], s8[3])", "f32[?,<=4]",
             "(pred[], token[], b(s8[2]{0:T(4)}), (f32[3,5]{0,1:T(2,2)L(8)}))",
             "u4[128,256]{1,0:T(8,128)(2,1)E(4)}", "opaque[]", "token[]",
             "f32[3037000499,3037000499]{1,0:T(8,128)}",
             "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"]


def _fields_as_dict(record):
    """A record's JSON form read from its attributes alone (the field list
    with its JSON keys; None left out where the CLI leaves it out)."""
    if isinstance(record, tuple):
        return [_fields_as_dict(x) for x in record]
    if not hasattr(record, "_fields"):
        return record
    out = {}
    for name in record._fields:
        value = getattr(record, name)
        if value is None and name == "padding_and_size_error":
            continue
        out[name] = _fields_as_dict(value)
    return out


@pytest.mark.parametrize("text", EXPLAINED)
def test_explain_matches_cli(cli, text):
    """explain()'s records, their to_dict() and the CLI's --json follow one
    field list (layout/explain_record.h)."""
    e = hl.parse_shape(text).explain()
    run = cli.run("explain", "--json", text)  # exit 1 when not sized
    want = json.loads(run.stdout)
    assert e.to_dict() == want
    assert _fields_as_dict(e) == want
    assert type(e).__module__ == "hlolayout.shapes"


def test_explain_records():
    e = hl.parse_shape("f32[3,5]{1,0:T(2,2)}").explain()
    assert isinstance(e, hl.shapes.ArrayExplanation)
    assert e.dimensions == (3, 5) and e.padding_and_size.padded_bytes == 96
    assert [a.key for a in e.attributes] == ["minor_to_major", "T"]
    assert e.padding_and_size_error is None
    assert e == hl.parse_shape("f32[3,5]{1,0:T(2,2)}").explain()
    assert pickle.loads(pickle.dumps(e)) == e
    # __setstate__ gives a record its values once; not to another object.
    e.__setstate__(hl.parse_shape("f32[8]{0}").explain().__getstate__())
    assert e.dimensions == (3, 5)
    blank = hl.shapes.ArrayExplanation.__new__(hl.shapes.ArrayExplanation)
    with pytest.raises(RuntimeError, match="bad pickled record"):
        blank.__setstate__(())
    with pytest.raises(TypeError, match="not a hlolayout.shapes.ArrayExplanation$"):
        hl.shapes.ArrayExplanation.__setstate__(object(), e.__getstate__())
    t = hl.parse_shape("(f32[?], token[], b(s8[2]{0:T(4)}))").explain()
    assert [type(x).__name__ for x in t.elements_shapes] == [
        "ArrayExplanation", "OpaqueExplanation", "BufferExplanation"]
    unbounded = t.elements_shapes[0]
    assert unbounded.dimensions == (None,) and unbounded.elements is None
    assert unbounded.padding_and_size is None
    assert unbounded.padding_and_size_error == (
        "dimension 0 is unbounded (`?`): no size")
    assert t.elements_shapes[2].buffer_shape.padding_and_size.expansion == "2.0x"
    # The dict of earlier releases still answers, with a warning.
    with pytest.warns(DeprecationWarning):
        assert e["padding_and_size"]["padded_bytes"] == 96


def test_sizes():
    z = hl.parse_shape("f32[3,5]{1,0:T(2,2)}").sizes()
    assert (z["logical_elements"], z["tiled_elements"], z["padded_bytes"]) == (15, 24, 96)
    assert z["expansion"] == pytest.approx(1.6)
    z = hl.parse_shape("s4[9]{0:T(4)L(16)E(4)}").sizes()
    assert (z["padded_elements"], z["padded_bytes"], z["packed"]) == (16, 8, True)


def test_with_layout():
    s = hl.parse_shape("f32[4,8]").with_layout("{0,1:T(2,2)}")
    assert str(s) == "f32[4,8]{0,1:T(2,2)}"
    with pytest.raises(ValueError):
        hl.parse_shape("f32[4,8]").with_layout("{0,0}")
    with pytest.raises(ValueError):
        hl.parse_shape("(f32[2])").with_layout("{0}")


@pytest.mark.parametrize("bad", [
    "f32[3,5]{1,0:T(2,0)}", "f32[2", "q32[2]", "f32[2]{0,0}", "",
    "f32[99999999999999999999]", "(" * 1000, "f32[2]{0:T(}",
])
def test_bad_text_is_value_error(bad):
    with pytest.raises(ValueError) as e:
        hl.parse_shape(bad)
    assert str(e.value)


def test_error_message_has_position_and_caret(cli):
    with pytest.raises(ValueError) as e:
        hl.parse_shape("f32[3,5]{1,0:T(2,0)}")
    message = str(e.value)
    assert message.startswith("1:9: tile (2,0) has a zero dimension")
    assert message.splitlines()[-1].strip() == "^"
    err = cli.run("print", "f32[3,5]{1,0:T(2,0)}").stderr
    assert message in err


@pytest.mark.parametrize("bad", [None, 3, b"f32[2]", ["f32[2]"]])
def test_wrong_types_are_type_errors(bad):
    with pytest.raises(TypeError):
        hl.parse_shape(bad)


@pytest.mark.parametrize("data", [b"\xff\xff\xff", b"\x08\x63", b"\x0a" * 50])
def test_bad_proto_is_value_error(data):
    with pytest.raises(ValueError):
        hl.Shape.from_proto(data)


def test_jax_layouts():
    l = hl.parse_jax_layout(
        "Layout(major_to_minor=(0, 1), tiling=(), sub_byte_element_size_in_bits=4)")
    assert str(l) == "{1,0:E(4)}"
    assert l.to_jax() == {"major_to_minor": (0, 1), "tiling": (),
                          "sub_byte_element_size_in_bits": 4}
    l = hl.parse_jax_layout(
        "Format(layout=Layout(major_to_minor=(1, 0), tiling=((8, 128), (2, 1)), "
        "sub_byte_element_size_in_bits=0), sharding=SingleDeviceSharding(device=CpuDevice(id=0)))")
    assert str(l) == "{0,1:T(8,128)(2,1)}"
    l = hl.parse_jax_layout(
        "Layout(major_to_minor=(0, 1), tiling=None, sub_byte_element_size_in_bits=0)")
    assert str(l) == "{1,0}"
    l = hl.parse_jax_layout("DeviceLocalLayout(major_to_minor=(2, 0, 1), "
                            "_tiling=((128,),), _sub_byte_element_size_in_bits=0)")
    assert str(l) == "{1,0,2:T(128)}"
    assert str(hl.Layout.from_jax(major_to_minor=(0, 1), tiling=((8, 128),))) == "{1,0:T(8,128)}"
    s = hl.parse_shape("bf16[16,256]").with_layout(l.__class__.from_jax((0, 1), ((8, 128), (2, 1))))
    assert str(s) == "bf16[16,256]{1,0:T(8,128)(2,1)}"


@pytest.mark.parametrize("bad", ["Layout(tiling=())", "nothing here",
                                 "Layout(major_to_minor=(0, 'a'))",
                                 "Layout(major_to_minor=(0, 1), bogus=3)"])
def test_bad_jax_layouts(bad):
    with pytest.raises(ValueError):
        hl.parse_jax_layout(bad)


def test_version():
    assert isinstance(hl.__version__, str) and hl.__version__[0].isdigit()


def test_import_warns_nothing():
    # pybind11 (debug builds) warns of every deprecated constructor it is
    # given when the module is imported: none here.
    import subprocess
    import sys
    out = subprocess.run(
        [sys.executable, "-W", "always", "-c", "import hlolayout, hlolayout.ttnn"],
        capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr == "", out.stderr
