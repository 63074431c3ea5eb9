// python/hlolayout/_cute_dsl.cc: the CuTe DSL twin's dynamic integers in
// the C++ core (see _cute_dsl.h), and the core's DSL notation.
//
//   >>> from hlolayout import _hlolayout as core, cute_dsl as cute
//   >>> core.cute_product((cute.assume(cute.Int32(96), divby=32), 4))
//   ?{div=128}                       (a DynInt standing for 384)
//   >>> core.cute_dsl_text(core.CuteLayout((cute.Int64(8), 2)))
//   '(?{i64},2):(1,?{i64})'
#include "_cute_dsl.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "absl/strings/match.h"
#include "hlolayout/answers/cute_algebra.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/internal/regroup.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/recast.h"
#include "hlolayout/cute/tile_to_shape.h"
#include "hlolayout/cute/tiler.h"

namespace py = pybind11;

namespace hlolayout::pyext {

namespace {

// The plain layout (not composed, not a tiler) a Python object wraps, or a
// TypeError naming `who`.
const cute::Layout& PlainLayoutOf(py::handle x, const char* who) {
  const cute::AnyLayout* l = CuteLayoutOf(x);
  if (l == nullptr || !l->is_layout()) {
    throw py::type_error(std::string(who) + ": a plain layout only");
  }
  return l->layout();
}

// The registered class and factory (owned references, kept for the
// process: the class outlives every instance the core makes).
struct DslIntClass {
  PyObject* type = nullptr;
  PyObject* make = nullptr;
};

DslIntClass& Registered() {
  static DslIntClass* registered = new DslIntClass();
  return *registered;
}

int64_t Attr(py::handle h, const char* name) {
  PyObject* v = PyObject_GetAttrString(h.ptr(), name);
  if (v == nullptr) throw py::error_already_set();
  const long long x = PyLong_AsLongLong(v);
  Py_DECREF(v);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  return x;
}

// The value, or the error as Python's: ZeroDivisionError where CuTe's
// algorithm divides by zero (the twin refuses as the DSL fails there),
// ValueError otherwise.
template <typename T>
T DslUnwrap(absl::StatusOr<T> value) {
  if (value.ok()) return *std::move(value);
  const std::string message(value.status().message());
  if (absl::StrContains(message, "division by zero")) {
    PyErr_SetString(PyExc_ZeroDivisionError, message.c_str());
    throw py::error_already_set();
  }
  throw py::value_error(message);
}

py::object IntToPy(cute::Int v) { return CuteTupleToPy(cute::IntTuple(v)); }

// Flat modes as (shape, stride): (1, 0) for none, two integers for one.
py::tuple ModesToPy(const cute::internal::Modes& modes) {
  if (modes.empty()) return py::make_tuple(1, 0);
  if (modes.size() == 1) {
    return py::make_tuple(IntToPy(modes[0].shape), IntToPy(modes[0].stride));
  }
  py::tuple sh(modes.size()), st(modes.size());
  for (size_t i = 0; i < modes.size(); ++i) {
    sh[i] = IntToPy(modes[i].shape);
    st[i] = IntToPy(modes[i].stride);
  }
  return py::make_tuple(sh, st);
}

cute::internal::Modes LeavesFromPy(py::handle shapes, py::handle strides) {
  cute::internal::Modes in;
  cute::internal::AppendLeaves(CuteTupleFromPy(shapes),
                               CuteTupleFromPy(strides), in);
  return in;
}

void RegisterDslQueries(py::module_& m) {
  m.def(
      "cute_dsl_cosize",
      [](py::handle shape, py::handle stride) {
        const cute::Layout l = DslUnwrap(cute::Layout::Create(
            CuteTupleFromPy(shape), CuteTupleFromPy(stride)));
        return IntToPy(l.cosize_int());
      },
      py::arg("shape"), py::arg("stride"),
      "The DSL's cosize of shape:stride (cute/layout.h cosize_int).");
  m.def(
      "cute_dsl_crd2idx",
      [](py::handle coord, py::handle shape, py::handle stride) {
        return IntToPy(DslUnwrap(answers::AnswerDslCrdToIdx(
            CuteTupleFromPy(coord), CuteTupleFromPy(shape),
            CuteTupleFromPy(stride))));
      },
      py::arg("coord"), py::arg("shape"), py::arg("stride"),
      "The offset of coord in shape:stride, with the integers' tags "
      "(cute/dsl_index.h).");
  m.def(
      "cute_dsl_idx2crd",
      [](py::handle index, py::handle shape) {
        return CuteTupleToPy(DslUnwrap(answers::AnswerDslIdxToCrd(
            CuteTupleFromPy(index), CuteTupleFromPy(shape))));
      },
      py::arg("index"), py::arg("shape"),
      "The natural coordinate of index in shape, with the integers' tags "
      "(cute/dsl_index.h).");
  m.def(
      "cute_dsl_coalesce_leaves",
      [](py::handle shapes, py::handle strides, bool filter) {
        // Leaves, not a Layout: the DSL's answers that are not layouts (a
        // size 0 or below, WrongLayoutWarning) are coalesced too.
        cute::internal::Modes kept;
        for (const cute::internal::Mode& mode : LeavesFromPy(shapes, strides)) {
          if (!filter || !cute::IsConstant(mode.stride, 0)) {
            kept.push_back(mode);
          }
        }
        return ModesToPy(cute::internal::CoalesceModes(kept));
      },
      py::arg("shapes"), py::arg("strides"), py::arg("filter"),
      "CuTe's coalesce (filter: without the stride-0 leaves too) of the flat "
      "leaves shapes:strides, as (shape, stride) (cute/coalesce.h "
      "CoalesceModes: merges and drops on known integers only).");
  m.def(
      "cute_dsl_complement_leaves",
      [](py::handle shapes, py::handle strides, py::handle cotarget) {
        return ModesToPy(DslUnwrap(cute::internal::DslComplementModes(
            LeavesFromPy(shapes, strides), CuteTupleFromPy(cotarget))));
      },
      py::arg("shapes"), py::arg("strides"), py::arg("cotarget"),
      "CuTe's complement as the DSL runs it, of filter(A)'s flat leaves "
      "shapes:strides, as (shape, stride) (cute/complement.h "
      "DslComplementModes: unchecked, sizes of 0 or below where A is not "
      "injective).");
  m.def(
      "cute_dsl_left_inverse",
      [](py::handle x) {
        return WrapCuteLayout(
            cute::AnyLayout(DslUnwrap(cute::internal::DslLeftInverse(
                PlainLayoutOf(x, "cute_dsl_left_inverse")))));
      },
      py::arg("layout"),
      "CuTe's left_inverse as the DSL computes it (cute/inverse.h "
      "DslLeftInverse: no injectivity check, 1:0 for every stride 0).");
  m.def(
      "cute_dsl_filter_zeros",
      [](py::handle x) {
        return WrapCuteLayout(cute::AnyLayout(
            cute::FilterZeros(PlainLayoutOf(x, "cute_dsl_filter_zeros"))));
      },
      py::arg("layout"),
      "CuTe's filter_zeros: a static 1 for the size of every leaf whose "
      "stride is a known 0 (cute/coalesce.h FilterZeros).");
}

// CuTe's composition, logical_divide and logical_product as the DSL runs
// them (cute/composition.h, cute/divide.h, cute/product.h).
void RegisterDslComposition(py::module_& m) {
  m.def(
      "cute_dsl_composition",
      [](py::handle a_shapes, py::handle a_strides, py::handle b_shape,
         py::handle b_stride) {
        const auto r = DslUnwrap(cute::internal::DslComposition(
            LeavesFromPy(a_shapes, a_strides), CuteTupleFromPy(b_shape),
            CuteTupleFromPy(b_stride)));
        return py::make_tuple(CuteTupleToPy(r.first), CuteTupleToPy(r.second));
      },
      py::arg("a_shapes"), py::arg("a_strides"), py::arg("b_shape"),
      py::arg("b_stride"),
      "A o B as the DSL computes it, A given by its flat leaves "
      "a_shapes:a_strides, as (shape, stride) (cute/composition.h "
      "DslComposition: CuTe's weak checks on static integers only).");
  m.def(
      "cute_dsl_composition_leaf",
      [](py::handle a_shapes, py::handle s, py::handle d) {
        std::vector<cute::Int> shapes;
        const cute::IntTuple t = CuteTupleFromPy(a_shapes);
        for (const cute::IntTuple& e : t.elements()) {
          if (!e.is_int()) throw py::type_error("a_shapes: flat integers");
          shapes.push_back(e.integer());
        }
        const cute::IntTuple si = CuteTupleFromPy(s), di = CuteTupleFromPy(d);
        if (!si.is_int() || !di.is_int()) {
          throw py::type_error("s and d: integers");
        }
        const std::vector<cute::internal::SourcedMode> modes =
            DslUnwrap(cute::internal::DslCompositionLeaf(shapes, si.integer(),
                                                         di.integer()));
        py::list out;
        for (const cute::internal::SourcedMode& m : modes) {
          out.append(
              py::make_tuple(IntToPy(m.shape), IntToPy(m.factor), m.source));
        }
        return out;
      },
      py::arg("a_shapes"), py::arg("s"), py::arg("d"),
      "The modes of coalesce_x(A) o s:d as the DSL computes them, from A's "
      "flat shapes a_shapes (a tuple): [(shape, factor, source)], the "
      "stride factor times A's stride `source` (-1: factor itself) "
      "(cute/composition.h DslCompositionLeaf).");
  m.def(
      "cute_dsl_logical_divide",
      [](py::handle a_shapes, py::handle a_strides, py::handle t_shape,
         py::handle t_stride) {
        const cute::internal::DslDivision r =
            DslUnwrap(cute::internal::DslLogicalDivide(
                LeavesFromPy(a_shapes, a_strides), CuteTupleFromPy(t_shape),
                CuteTupleFromPy(t_stride)));
        return py::make_tuple(CuteTupleToPy(r.shape), CuteTupleToPy(r.stride),
                              ModesToPy(r.rest), r.several_modes);
      },
      py::arg("a_shapes"), py::arg("a_strides"), py::arg("t_shape"),
      py::arg("t_stride"),
      "logical_divide(A, T) as the DSL computes it, A given by its flat "
      "leaves: (shape, stride, rest, several), rest the tiler's complement "
      "as (shape, stride), several whether coalesce_x(A) has several modes "
      "(cute/divide.h DslLogicalDivide).");
  m.def(
      "cute_dsl_logical_product_rest",
      [](py::handle a_shapes, py::handle a_strides, py::handle t_shape,
         py::handle t_stride, py::handle cotarget) {
        const cute::internal::DslProductParts r =
            DslUnwrap(cute::internal::DslLogicalProduct(
                LeavesFromPy(a_shapes, a_strides), CuteTupleFromPy(t_shape),
                CuteTupleFromPy(t_stride), CuteTupleFromPy(cotarget)));
        return py::make_tuple(ModesToPy(r.complement), CuteTupleToPy(r.shape),
                              CuteTupleToPy(r.stride), r.several_modes);
      },
      py::arg("a_shapes"), py::arg("a_strides"), py::arg("t_shape"),
      py::arg("t_stride"), py::arg("cotarget"),
      "Mode 1 of logical_product(A, T) as the DSL computes it, A given by "
      "its flat leaves: (complement, shape, stride, several), complement "
      "A's up to cotarget as (shape, stride), several whether "
      "coalesce_x(complement) has several modes (cute/product.h "
      "DslLogicalProduct).");
}

// The twin's regroupings run on the core's trees of modes: a layout's
// leaves go in as their positions (a leaf 1:k for the twin's k-th leaf,
// k >= 1), and the positions come back in the regrouped tree (0 for a 1:0
// mode the core adds), so that any leaf of the twin, a `?` or a basis
// stride, keeps its place.
cute::IntTuple OnesLike(const cute::IntTuple& t) {
  if (t.is_int()) return cute::IntTuple::Static(1);
  std::vector<cute::IntTuple> out;
  for (const cute::IntTuple& e : t.elements()) out.push_back(OnesLike(e));
  return cute::IntTuple::Tuple(std::move(out));
}

cute::Layout PositionsLayout(py::handle positions) {
  cute::IntTuple p = CuteTupleFromPy(positions);
  cute::IntTuple ones = OnesLike(p);
  return DslUnwrap(cute::Layout::Create(std::move(ones), std::move(p)));
}

py::object Positions(const absl::StatusOr<cute::Layout>& l) {
  return CuteTupleToPy(DslUnwrap(l).stride());
}

// A tiler's profile (a tuple where the tiler has one, anything else a
// mode) as a core tiler.
cute::Tiler ProfileTiler(py::handle profile) {
  if (!py::isinstance<py::tuple>(profile)) {
    return cute::Tiler::Of(cute::Layout());
  }
  std::vector<cute::Tiler> elements;
  for (py::handle e : profile) elements.push_back(ProfileTiler(e));
  return cute::Tiler::Tuple(std::move(elements));
}

void RegisterDslRegroup(py::module_& m) {
  m.def(
      "cute_dsl_regroup",
      [](py::handle positions, py::handle profile, int grouping) {
        if (grouping < 0 || grouping > 2) {
          throw py::value_error("grouping: 0 zipped, 1 tiled, 2 flat");
        }
        return Positions(cute::internal::DslRegroup(
            PositionsLayout(positions), ProfileTiler(profile),
            static_cast<cute::internal::Grouping>(grouping)));
      },
      py::arg("positions"), py::arg("profile"), py::arg("grouping"),
      "A logical divide's or product's tree of leaf positions regrouped by "
      "the tiler's profile as the DSL does it (cute/internal/regroup.h "
      "DslRegroup; grouping 0 zipped, 1 tiled, 2 flat).");
  m.def(
      "cute_dsl_pad_rank",
      [](py::handle positions, int rank) {
        return Positions(
            cute::internal::PadRank(PositionsLayout(positions), rank));
      },
      py::arg("positions"), py::arg("rank"),
      "A tree of leaf positions padded with 1:0 modes (position 0) up to "
      "`rank` (cute/product.h PadRank, CuTe's append).");
  m.def(
      "cute_dsl_zip_modes",
      [](py::handle first, py::handle second) {
        return Positions(cute::internal::DslZipModes(PositionsLayout(first),
                                                     PositionsLayout(second)));
      },
      py::arg("first"), py::arg("second"),
      "Two trees of leaf positions paired mode by mode as the DSL's "
      "blocked_product and raked_product pair them (cute/product.h "
      "DslZipModes).");
  m.def(
      "cute_dsl_recast",
      [](py::handle shape, py::handle stride, int64_t old_bits,
         int64_t new_bits) {
        const cute::Layout l = DslUnwrap(cute::internal::DslRecastLayout(
            DslUnwrap(cute::Layout::Create(CuteTupleFromPy(shape),
                                           CuteTupleFromPy(stride))),
            old_bits, new_bits));
        return py::make_tuple(CuteTupleToPy(l.shape()),
                              CuteTupleToPy(l.stride()));
      },
      py::arg("shape"), py::arg("stride"), py::arg("old_bits"),
      py::arg("new_bits"),
      "shape:stride in elements of new_bits instead of old_bits as the DSL "
      "computes it, as (shape, stride) (cute/recast.h DslRecastLayout).");
  m.def(
      "cute_dsl_tile_repetitions",
      [](py::handle block_shape, py::handle target_shape, py::handle order) {
        absl::optional<cute::IntTuple> o;
        if (!order.is_none()) o = CuteTupleFromPy(order);
        const cute::internal::DslRepetitions r =
            DslUnwrap(cute::internal::DslTileRepetitions(
                CuteTupleFromPy(block_shape), CuteTupleFromPy(target_shape),
                o));
        return py::make_tuple(CuteTupleToPy(r.layout.shape()),
                              CuteTupleToPy(r.layout.stride()), r.divides);
      },
      py::arg("block_shape"), py::arg("target_shape"), py::arg("order"),
      "The repetitions of tile_to_shape as the DSL computes them, for a block "
      "padded to the target's rank: (shape, stride, divides) "
      "(cute/tile_to_shape.h DslTileRepetitions).");
}

// The twin's fast path for layouts whose integers are all static: CuTe's
// exact algorithms (the checked ones of hlolayout.cute: they refuse every
// result that is not the composition, so the twin need not check it), then
// regrouped as the DSL regroups. nullopt where the exact algorithm refuses:
// the twin's own rules decide there (the DSL's answer, its refusal, or a
// wrong result CuTe's weak checks let through).
absl::optional<cute::Layout> Ok(absl::StatusOr<cute::Layout> l) {
  if (!l.ok()) return absl::nullopt;
  return *std::move(l);
}

// blocked_product (raked false) and raked_product (raked true) of two
// layouts: both padded to the larger rank, their exact logical product's
// two modes paired by the DSL's zip; raked coalesces each pair.
absl::optional<cute::Layout> PairedProduct(const cute::Layout& a,
                                           const cute::Layout& b, bool raked) {
  const int rank = std::max(a.rank(), b.rank());
  absl::StatusOr<cute::Layout> pa = cute::internal::PadRank(a, rank);
  absl::StatusOr<cute::Layout> pb = cute::internal::PadRank(b, rank);
  if (!pa.ok() || !pb.ok()) return absl::nullopt;
  absl::optional<cute::Layout> both =
      Ok(cute::LogicalProduct(*pa, cute::Tiler::Of(*pb)));
  if (!both) return absl::nullopt;
  const cute::Layout block = both->mode(0), rest = both->mode(1);
  if (!raked) return Ok(cute::internal::DslZipModes(block, rest));
  absl::optional<cute::Layout> zipped =
      Ok(cute::internal::DslZipModes(rest, block));
  if (!zipped) return absl::nullopt;
  std::vector<cute::IntTuple> ones(zipped->rank(), cute::IntTuple::Static(1));
  return Ok(cute::Coalesce(*zipped, cute::IntTuple::Tuple(std::move(ones))));
}

absl::optional<cute::Layout> StaticOp(const std::string& op,
                                      const cute::Layout& a,
                                      const cute::Tiler& t) {
  using cute::internal::Grouping;
  const bool divide = absl::EndsWith(op, "_divide");
  const bool product = absl::EndsWith(op, "_product");
  if (op == "composition") {
    if (t.is_layout()) return Ok(cute::Composition(a, t.layout()));
    return Ok(cute::Composition(a, t));
  }
  if (op == "blocked_product" || op == "raked_product") {
    if (!t.is_layout()) return absl::nullopt;
    return PairedProduct(a, t.layout(), op == "raked_product");
  }
  if (!divide && !product) {
    throw py::value_error("cute_dsl_static_op: unknown op " + op);
  }
  absl::optional<cute::Layout> logical =
      Ok(divide ? cute::LogicalDivide(a, t) : cute::LogicalProduct(a, t));
  if (!logical || absl::StartsWith(op, "logical")) return logical;
  const Grouping grouping = absl::StartsWith(op, "zipped")  ? Grouping::kZipped
                            : absl::StartsWith(op, "tiled") ? Grouping::kTiled
                                                            : Grouping::kFlat;
  return Ok(cute::internal::DslRegroup(*logical, t, grouping));
}

// A tiler of the twin's fast path: a plain layout, None (CuTe's `_`) or a
// tuple of those.
cute::Tiler StaticTiler(py::handle h) {
  if (h.is_none()) return cute::Tiler::Underscore();
  if (PyTuple_Check(h.ptr())) {
    std::vector<cute::Tiler> out;
    for (py::handle e : h) out.push_back(StaticTiler(e));
    return cute::Tiler::Tuple(std::move(out));
  }
  return cute::Tiler::Of(PlainLayoutOf(h, "cute_dsl_static_op"));
}

void RegisterDslStaticOps(py::module_& m) {
  m.def(
      "cute_dsl_static_op",
      [](const std::string& op, py::handle a, py::handle tiler) -> py::object {
        absl::optional<cute::Layout> r = StaticOp(
            op, PlainLayoutOf(a, "cute_dsl_static_op"), StaticTiler(tiler));
        if (!r) return py::none();
        return WrapCuteLayout(cute::AnyLayout(*std::move(r)));
      },
      py::arg("op"), py::arg("a"), py::arg("tiler"),
      "op (composition, a divide or a product) of static layouts by CuTe's "
      "exact algorithms, regrouped as the DSL regroups (cute/internal/"
      "regroup.h DslRegroup, cute/product.h PadRank and DslZipModes); None "
      "where the exact algorithm refuses.");
}

// What two layouts share, the kernel and the alignment (cute/common_layout.h,
// through answers/cute_algebra.h).
void RegisterDslCommon(py::module_& m) {
  auto layout_of = [](py::handle shape, py::handle stride) {
    return DslUnwrap(
        cute::Layout::Create(CuteTupleFromPy(shape), CuteTupleFromPy(stride)));
  };
  auto to_py = [](const cute::Layout& l) {
    return py::make_tuple(CuteTupleToPy(l.shape()), CuteTupleToPy(l.stride()));
  };
  m.def(
      "cute_dsl_max_common_layout",
      [=](py::handle a_shape, py::handle a_stride, py::handle b_shape,
          py::handle b_stride) {
        return to_py(DslUnwrap(answers::DslMaxCommonLayout(
            layout_of(a_shape, a_stride), layout_of(b_shape, b_stride))));
      },
      py::arg("a_shape"), py::arg("a_stride"), py::arg("b_shape"),
      py::arg("b_stride"),
      "The longest run of indices two layouts send to the same offsets, as "
      "(shape, stride) (cute/common_layout.h DslMaxCommonLayout).");
  m.def(
      "cute_dsl_max_common_vector",
      [=](py::handle a_shape, py::handle a_stride, py::handle b_shape,
          py::handle b_stride) {
        return IntToPy(DslUnwrap(answers::DslMaxCommonVector(
            layout_of(a_shape, a_stride), layout_of(b_shape, b_stride))));
      },
      py::arg("a_shape"), py::arg("a_stride"), py::arg("b_shape"),
      py::arg("b_stride"),
      "The length of that run (cute/common_layout.h DslMaxCommonVector).");
  m.def(
      "cute_dsl_nullspace",
      [=](py::handle shape, py::handle stride) {
        return to_py(
            DslUnwrap(answers::DslNullspace(layout_of(shape, stride))));
      },
      py::arg("shape"), py::arg("stride"),
      "The flat modes of stride 0 at their compact strides, as (shape, "
      "stride) (cute/common_layout.h DslNullspace).");
  m.def(
      "cute_dsl_max_alignment",
      [=](py::handle shape, py::handle stride) {
        return DslUnwrap(answers::DslMaxAlignment(layout_of(shape, stride)));
      },
      py::arg("shape"), py::arg("stride"),
      "The DSL's max_alignment of shape:stride (cute/common_layout.h "
      "DslMaxAlignment).");
}

}  // namespace

bool DslIntFromPy(py::handle h, cute::Int* out) {
  const DslIntClass& r = Registered();
  if (r.type == nullptr ||
      !PyObject_TypeCheck(h.ptr(), reinterpret_cast<PyTypeObject*>(r.type))) {
    return false;
  }
  *out = cute::Int::Unknown(Attr(h, "value"), Attr(h, "div"),
                            Attr(h, "width") >= 64);
  return true;
}

py::object DslIntToPy(cute::Int v) {
  const DslIntClass& r = Registered();
  if (r.make == nullptr) return py::int_(v.value);
  return py::reinterpret_borrow<py::object>(r.make)(v.value, v.div,
                                                    v.wide ? 64 : 32);
}

void RegisterCuteDsl(py::module_& m) {
  RegisterDslQueries(m);
  RegisterDslCommon(m);
  RegisterDslComposition(m);
  RegisterDslRegroup(m);
  RegisterDslStaticOps(m);
  m.def(
      "cute_dsl_register_int",
      [](py::object type, py::object make) {
        if (!PyType_Check(type.ptr())) {
          throw py::type_error("cute_dsl_register_int takes a class");
        }
        DslIntClass& r = Registered();
        Py_XDECREF(r.type);
        Py_XDECREF(r.make);
        r.type = type.release().ptr();
        r.make = make.release().ptr();
      },
      py::arg("type"), py::arg("make"),
      "Registers the CuTe DSL twin's dynamic integer class and its factory "
      "make(value, div, width): instances are the core's `?`.");
  m.def(
      "cute_dsl_text",
      [](py::handle x) {
        if (const cute::AnyLayout* l = CuteLayoutOf(x)) {
          if (!l->is_layout()) {
            throw py::type_error("cute_dsl_text: a plain layout only");
          }
          return cute::DslText(l->layout());
        }
        return cute::DslText(CuteTupleFromPy(x));
      },
      py::arg("x"),
      "The CuTe DSL's print of an int, DSL integer, tuple of them or layout: "
      "static integers bare, `?`, `?{div=16}`, `?{i64}`.");
}

}  // namespace hlolayout::pyext
