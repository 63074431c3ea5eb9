// python/hlolayout/_cute_atoms.cc: CuTe's atoms for `hlolayout.cute`
// (cute/atom/): MMA and copy atoms, tiled MMAs and tiled copies, thread
// slices, bank conflicts and their pictures. The Python classes with CuTe's
// names are in cute_atoms.py.
//
//   >>> from hlolayout import cute
//   >>> cute.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN").get_layoutC_TV()
//   cute.Layout('((_4,_8),(_2,_2)):((_32,_1),(_16,_8))')
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "_binding.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/answers/cute.h"
#include "hlolayout/answers/smem_by_name.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/views/bank_picture.h"
#include "hlolayout/views/cute_atom_text.h"
#include "hlolayout/views/cute_picture.h"
#include "hlolayout/views/cute_tikz.h"
#include "hlolayout/views/tv_picture.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

using cute::StaticText;

py::tuple Coords(const std::vector<std::array<int64_t, 2>>& coords) {
  py::tuple out(coords.size());
  for (size_t i = 0; i < coords.size(); ++i) {
    out[i] = py::make_tuple(coords[i][0], coords[i][1]);
  }
  return out;
}

// A cell's TikZ fill from a Python function of its numbers (a layout's
// index, or thread and value) returning (from, to, colour) triples.
std::function<draw::TikzFill(const draw::GridCell&)> TikzFillOf(
    const py::function& fill) {
  return [&fill](const draw::GridCell& cell) {
    py::tuple args(cell.ids.size());
    for (size_t i = 0; i < cell.ids.size(); ++i) args[i] = cell.ids[i];
    draw::TikzFill out;
    for (const auto& [from, to, colour] :
         fill(*args)
             .cast<std::vector<std::tuple<double, double, std::string>>>()) {
      out.push_back(draw::TikzStripe{from, to, colour});
    }
    return out;
  };
}

// The TikZ pictures of cute_dsl.viz (views/cute_tikz.h): the pieces of the
// picture of a layout (swizzled or not; CuTe text), or of a thread-value layout
// over a tile layout.
void BindTikz(py::module_& m) {
  m.def("cute_tikz_layout",
        [](const std::string& layout, const py::function& fill) {
          return Unwrap(draw::CuteLayoutTikz(layout, TikzFillOf(fill)));
        });
  m.def("cute_tikz_tv", [](const std::string& tv, const std::string& tile,
                           const py::function& fill, bool axis_labels,
                           std::vector<std::string> title) {
    draw::TikzOptions o;
    o.axis_labels = axis_labels;
    o.title = std::move(title);
    return Unwrap(draw::CuteTvTikz(tv, tile, TikzFillOf(fill), std::move(o)));
  });
  m.def("cute_tikz_document", &draw::TikzDocument);
  m.def("cute_tikz_escape",
        [](const std::string& text) { return draw::TikzEscape(text); });
  m.def("cute_tikz_grey_percent", &draw::TikzGreyPercent);
  m.def("cute_tikz_grey", &draw::TikzGrey);
  m.def("cute_tikz_tv_colour", &draw::TikzTvColour);
  m.def("cute_tikz_hue", &draw::TikzHue);
}

cute::Operand ParseOperand(const std::string& operand) {
  if (operand == "A") return cute::Operand::kA;
  if (operand == "B") return cute::Operand::kB;
  if (operand == "C") return cute::Operand::kC;
  throw py::value_error(
      absl::StrCat("operand is 'A', 'B' or 'C', got '", operand, "'"));
}

// `places`: where each grid goes in the SVG (empty: side by side).
std::string Picture(absl::StatusOr<std::vector<draw::CellGrid>> grids,
                    const std::string& title, bool svg, bool colour,
                    absl::Span<const draw::GridPlace> places = {}) {
  std::vector<draw::CellGrid> g = Unwrap(std::move(grids));
  if (svg) {
    return places.empty() ? draw::GridsToSvg(g, title)
                          : draw::GridsToSvg(g, title, places);
  }
  return draw::PictureToText(title, g, draw::TextStyle{colour, false});
}

py::dict ConflictDict(const cute::ConflictReport& r) {
  py::list instructions;
  for (const cute::InstructionReport& ir : r.instructions) {
    py::list phases;
    for (const cute::PhaseReport& p : ir.phases) {
      py::list collisions;
      for (const cute::BankCollision& c : p.collisions) {
        py::dict d;
        d["bank"] = c.bank;
        d["words"] = c.words;
        d["threads"] = c.threads;
        collisions.append(d);
      }
      py::dict pd;
      pd["threads"] = py::make_tuple(p.first_thread, p.last_thread);
      pd["wavefronts"] = p.wavefronts;
      pd["ideal"] = p.ideal;
      pd["collisions"] = collisions;
      phases.append(pd);
    }
    py::dict id;
    id["warp"] = ir.warp;
    id["instruction"] = ir.instruction;
    id["wavefronts"] = ir.wavefronts;
    id["ideal"] = ir.ideal;
    id["phases"] = phases;
    instructions.append(id);
  }
  py::dict out;
  out["wavefronts"] = r.wavefronts;
  out["ideal"] = r.ideal;
  out["threads_per_phase"] = r.threads_per_phase;
  out["value_bits"] = r.value_bits;
  out["instructions"] = instructions;
  return out;
}

// SMEM text, a shared-memory atom's name or a Triton shared layout
// (answers/smem_by_name.h) for a rows x cols tile of `bits`-bit values (0:
// the width SMEM names; set to it).
cute::SmemLayout Smem(const std::string& text, int64_t rows, int64_t cols,
                      int& bits) {
  return Unwrap(triton::SmemForAccess(text, rows, cols, bits)).layout;
}

// A flat layout (shapes and strides of its leaves) as a function of an
// integer index, the rule cute_dsl/_verify.py's evaluate() states:
// colexicographic, the last mode taking the rest of the index without a
// modulo, a negative index i giving -L(-i). Overflow throws OverflowError
// (the caller then evaluates in NumPy).
struct FlatLayout {
  std::vector<int64_t> shape, stride;

  int64_t operator()(int64_t i) const {
    if (i == INT64_MIN) throw std::overflow_error("index out of range");
    const bool negative = i < 0;
    int64_t rest = negative ? -i : i, out = 0;
    for (size_t k = 0; k < shape.size(); ++k) {
      int64_t part = rest;
      if (k + 1 < shape.size()) {
        part = rest % shape[k];
        rest /= shape[k];
      }
      int64_t term;
      if (__builtin_mul_overflow(part, stride[k], &term) ||
          __builtin_add_overflow(out, term, &out)) {
        throw std::overflow_error("layout value overflows int64");
      }
    }
    return negative ? -out : out;
  }
};

FlatLayout Flat(std::vector<int64_t> shape, std::vector<int64_t> stride) {
  if (shape.size() != stride.size() || shape.empty()) {
    throw py::value_error("a flat layout needs as many strides as shapes");
  }
  for (int64_t s : shape) {
    if (s <= 0) throw py::value_error("a flat layout's shapes are positive");
  }
  return FlatLayout{std::move(shape), std::move(stride)};
}

// The first i < n where r(i) != a(b(i)), as (i, r(i), b(i), a(b(i))), or
// None.
py::object FirstMismatch(const FlatLayout& a, const FlatLayout& b,
                         const FlatLayout& r, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bi = b(i), ri = r(i), abi = a(bi);
    if (abi != ri) return py::make_tuple(i, ri, bi, abi);
  }
  return py::none();
}

// cute_dsl's check that r is the composition a o b (_verify.py): the first
// i < n where r(i) != a(b(i)), as (i, r(i), b(i), a(b(i))), or None. In C++
// because it runs on every composition of a dynamic layout the twin makes
// (issue 47 item 15: it was half of such a call's time through NumPy).
void BindCompositionCheck(py::module_& m) {
  m.def("cute_composition_mismatch",
        [](std::vector<int64_t> a_shape, std::vector<int64_t> a_stride,
           std::vector<int64_t> b_shape, std::vector<int64_t> b_stride,
           std::vector<int64_t> r_shape, std::vector<int64_t> r_stride,
           int64_t n) -> py::object {
          const FlatLayout a = Flat(std::move(a_shape), std::move(a_stride));
          const FlatLayout b = Flat(std::move(b_shape), std::move(b_stride));
          const FlatLayout r = Flat(std::move(r_shape), std::move(r_stride));
          return FirstMismatch(a, b, r, n);
        });
}

// Appends the values of the leaves of `t` (nested Python tuples) to out:
// an int's, or a dynamic integer's (an instance of `dyn`) `value`. False at
// any other leaf (a scaled basis, a bool: the caller reads those in
// Python); OverflowError for a value past int64.
bool LeafValues(py::handle t, py::handle dyn, std::vector<int64_t>& out) {
  if (PyTuple_Check(t.ptr())) {
    for (py::handle e : py::reinterpret_borrow<py::tuple>(t)) {
      if (!LeafValues(e, dyn, out)) return false;
    }
    return true;
  }
  py::object value;
  if (PyLong_CheckExact(t.ptr())) {
    value = py::reinterpret_borrow<py::object>(t);
  } else if (py::isinstance(t, dyn)) {
    value = t.attr("value");
    if (!PyLong_CheckExact(value.ptr())) return false;
  } else {
    return false;
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0) throw std::overflow_error("a value past int64");
  out.push_back(v);
  return true;
}

// cute_composition_mismatch on the layouts' own shape and stride tuples
// (issue 47 item 15: reading their leaves in Python was most of the
// check): False where a leaf is neither an int nor a dynamic integer.
void BindCompositionCheckOfTuples(py::module_& m) {
  m.def("cute_composition_mismatch_of",
        [](py::handle a_shape, py::handle a_stride, py::handle b_shape,
           py::handle b_stride, py::handle r_shape, py::handle r_stride,
           int64_t n, py::handle dyn) -> py::object {
          std::array<std::vector<int64_t>, 6> v;
          const std::array<py::handle, 6> in = {a_shape,  a_stride, b_shape,
                                                b_stride, r_shape,  r_stride};
          for (size_t k = 0; k < in.size(); ++k) {
            if (!LeafValues(in[k], dyn, v[k])) return py::bool_(false);
          }
          const FlatLayout a = Flat(std::move(v[0]), std::move(v[1]));
          const FlatLayout b = Flat(std::move(v[2]), std::move(v[3]));
          const FlatLayout r = Flat(std::move(v[4]), std::move(v[5]));
          return FirstMismatch(a, b, r, n);
        });
}

// CuTe's MMA atoms, by name or from their layouts.
void BindMmaAtoms(py::module_& m) {
  py::class_<cute::MmaAtom>(m, "_MmaAtom")
      .def("__str__", &cute::PrintMmaAtom)
      .def_readonly("name", &cute::MmaAtom::name)
      .def_readonly("family", &cute::MmaAtom::family)
      .def_property_readonly(
          "thr_id", [](const cute::MmaAtom& a) { return StaticText(a.thr_id); })
      .def_property_readonly("shape_mnk",
                             [](const cute::MmaAtom& a) {
                               return py::make_tuple(a.shape_mnk[0].value(),
                                                     a.shape_mnk[1].value(),
                                                     a.shape_mnk[2].value());
                             })
      .def_property_readonly(
          "a", [](const cute::MmaAtom& a) { return StaticText(a.layout_a_tv); })
      .def_property_readonly(
          "b", [](const cute::MmaAtom& a) { return StaticText(a.layout_b_tv); })
      .def_property_readonly("c", [](const cute::MmaAtom& a) {
        return StaticText(a.layout_c_tv);
      });
  m.def("cute_find_mma_atom", [](const std::string& name) {
    return Unwrap(cute::FindMmaAtom(name));
  });
  // An MMA atom CuTe's C++ tables lack but whose layouts follow a family's
  // formula (the CuTe DSL's tcgen05 atoms with A in tensor memory, see
  // cute_dsl/nvgpu/tcgen05.py): built from its layouts' text.
  m.def("cute_mma_atom_from_layouts",
        [](const std::string& name, const std::string& family,
           const std::string& thr_id, const std::string& shape_mnk,
           const std::string& a, const std::string& b, const std::string& c) {
          cute::MmaAtom atom;
          atom.name = name;
          atom.family = family;
          atom.thr_id = Unwrap(cute::ParseLayout(thr_id));
          atom.shape_mnk = Unwrap(cute::ParseIntTuple(shape_mnk));
          atom.layout_a_tv = Unwrap(cute::ParseLayout(a));
          atom.layout_b_tv = Unwrap(cute::ParseLayout(b));
          atom.layout_c_tv = Unwrap(cute::ParseLayout(c));
          return atom;
        });
  m.def("cute_mma_atom_names",
        [](int64_t limit) { return cute::AllMmaAtomNames(limit); });
}

// CuTe's copy atoms, by name.
void BindCopyAtoms(py::module_& m) {
  py::class_<cute::CopyAtom>(m, "_CopyAtom")
      .def("__str__", &cute::PrintCopyAtom)
      .def_property_readonly("name", &cute::CopyAtom::name)
      .def_property_readonly("op",
                             [](const cute::CopyAtom& a) { return a.op.name; })
      .def_readonly("value_type", &cute::CopyAtom::value_type)
      .def_readonly("value_bits", &cute::CopyAtom::value_bits)
      .def_property_readonly(
          "thr_id",
          [](const cute::CopyAtom& a) { return StaticText(a.op.thr_id); })
      .def_property_readonly(
          "val_src",
          [](const cute::CopyAtom& a) { return StaticText(a.val_src); })
      .def_property_readonly(
          "val_dst",
          [](const cute::CopyAtom& a) { return StaticText(a.val_dst); })
      .def_property_readonly(
          "val_ref",
          [](const cute::CopyAtom& a) { return StaticText(a.val_ref); })
      .def_property_readonly(
          "src",
          [](const cute::CopyAtom& a) { return StaticText(a.op.src_bits); })
      .def_property_readonly(
          "dst",
          [](const cute::CopyAtom& a) { return StaticText(a.op.dst_bits); })
      .def_property_readonly(
          "ref",
          [](const cute::CopyAtom& a) { return StaticText(a.op.ref_bits); })
      .def_property_readonly("num_val_src", &cute::CopyAtom::num_val_src)
      .def_property_readonly("num_val_dst", &cute::CopyAtom::num_val_dst);
  m.def("cute_find_copy_atom", [](const std::string& name) {
    return Unwrap(cute::FindCopyAtom(name));
  });
  m.def("cute_make_copy_atom",
        [](const std::string& op, const std::string& type) {
          return Unwrap(cute::FindCopyAtom(
              absl::StrCat("Copy_Atom<", op, ",", type, ">")));
        });
}

// TiledMMA: an atom over a thread layout and permutation.
void BindTiledMma(py::module_& m) {
  py::class_<cute::TiledMma>(m, "_TiledMma")
      .def("__str__", &cute::PrintTiledMma)
      .def_readonly("atom", &cute::TiledMma::atom)
      .def_property_readonly(
          "thr_layout_vmnk",
          [](const cute::TiledMma& t) { return StaticText(t.thr_layout_vmnk); })
      .def_property_readonly(
          "permutation",
          [](const cute::TiledMma& t) { return cute::TileText(t.permutation); })
      .def_property_readonly("tile_mnk",
                             [](const cute::TiledMma& t) {
                               return py::make_tuple(
                                   t.tile_mnk[0], t.tile_mnk[1], t.tile_mnk[2]);
                             })
      .def_property_readonly("num_threads", &cute::TiledMma::num_threads)
      .def("layout_tv",
           [](const cute::TiledMma& t, const std::string& operand) {
             return StaticText(t.layout_tv(ParseOperand(operand)));
           })
      .def("slice",
           [](const cute::TiledMma& t, const std::string& operand,
              int64_t thread) {
             return Coords(
                 Unwrap(cute::ThreadSlice(t, ParseOperand(operand), thread)));
           })
      .def("picture", [](const cute::TiledMma& t, bool svg, bool colour) {
        return Picture(draw::TiledMmaGrids(t),
                       absl::StrCat("TiledMMA ", t.atom.name), svg, colour,
                       draw::kMmaPlaces);
      });
  m.def("cute_make_tiled_mma",
        [](const cute::MmaAtom& atom, const std::string& layout,
           const std::string& permutation) {
          cute::Layout l;
          if (!layout.empty()) {
            l = Unwrap(cute::atom_internal::ParseStaticLayout(layout));
          }
          cute::Tile p;
          if (!permutation.empty()) p = Unwrap(cute::ParseTile(permutation));
          absl::StatusOr<cute::TiledMma> tm;
          {
            py::gil_scoped_release release;
            tm = cute::MakeTiledMma(atom, l, p);
          }
          return Unwrap(std::move(tm));
        });
}

// TiledCopy: its layouts, slices, picture and bank conflicts.
void BindTiledCopyClass(py::module_& m) {
  py::class_<cute::TiledCopy>(m, "_TiledCopy")
      .def("__str__", &cute::PrintTiledCopy)
      .def_readonly("atom", &cute::TiledCopy::atom)
      .def_property_readonly(
          "tiler",
          [](const cute::TiledCopy& t) { return cute::TileText(t.tiler_mn); })
      .def_property_readonly("tiled_layout_tv",
                             [](const cute::TiledCopy& t) {
                               return StaticText(t.tiled_layout_tv);
                             })
      .def_property_readonly(
          "layout_s_tv",
          [](const cute::TiledCopy& t) { return StaticText(t.layout_s_tv); })
      .def_property_readonly(
          "layout_d_tv",
          [](const cute::TiledCopy& t) { return StaticText(t.layout_d_tv); })
      .def_property_readonly("num_threads", &cute::TiledCopy::num_threads)
      .def("slice",
           [](const cute::TiledCopy& t, bool destination, int64_t thread) {
             return Coords(Unwrap(cute::CopySlice(t, destination, thread)));
           })
      .def("picture",
           [](const cute::TiledCopy& t, bool svg, bool colour) {
             return Picture(draw::TiledCopyGrids(t),
                            absl::StrCat("TiledCopy ", t.atom.name()), svg,
                            colour);
           })
      .def("conflicts", [](const cute::TiledCopy& t, const std::string& smem,
                           bool destination) {
        const std::vector<int64_t> tile = t.tile_extent();
        if (tile.size() != 2) {
          throw py::value_error("the tiled copy's tile is not rank 2");
        }
        int bits = t.atom.value_bits;
        const cute::SmemLayout s = Smem(smem, tile[0], tile[1], bits);
        absl::StatusOr<cute::ConflictReport> r;
        {
          py::gil_scoped_release release;
          r = cute::SmemConflicts(
              t, destination ? cute::Side::kDestination : cute::Side::kSource,
              s);
        }
        return ConflictDict(Unwrap(std::move(r)));
      });
}

// The ways CuTe makes a TiledCopy.
void BindTiledCopyMakers(py::module_& m) {
  m.def(
      "cute_make_tiled_copy",
      [](const cute::CopyAtom& atom, const std::string& thr,
         const std::string& val, bool check) {
        return Unwrap(cute::MakeTiledCopy(
            atom, Unwrap(cute::atom_internal::ParseStaticLayout(thr)),
            Unwrap(cute::atom_internal::ParseStaticLayout(val)), check));
      },
      py::arg("atom"), py::arg("thr"), py::arg("val"), py::arg("check") = true);
  m.def(
      "cute_make_tiled_copy_tv",
      [](const cute::CopyAtom& atom, const std::string& layout_tv,
         const std::string& tiler, bool check) {
        return Unwrap(cute::MakeTiledCopyTv(
            atom, Unwrap(cute::atom_internal::ParseStaticLayout(layout_tv)),
            Unwrap(cute::ParseTile(tiler)), check));
      },
      py::arg("atom"), py::arg("layout_tv"), py::arg("tiler"),
      py::arg("check") = true);
  m.def(
      "cute_make_tiled_copy_from_mma",
      [](const cute::CopyAtom& atom, const cute::TiledMma& tm,
         const std::string& operand, bool check) {
        if (operand == "C_atom") {
          return Unwrap(cute::MakeTiledCopyCAtom(atom, tm));
        }
        return Unwrap(
            cute::MakeTiledCopyFromMma(atom, tm, ParseOperand(operand), check));
      },
      py::arg("atom"), py::arg("tiled_mma"), py::arg("operand"),
      py::arg("check") = true);
}

// Bank conflicts of a TV layout over a shared-memory layout, and the
// banks' picture.
void BindSmemConflicts(py::module_& m) {
  m.def("cute_tv_conflicts",
        [](const std::string& smem, const std::string& tv, int64_t rows,
           int64_t cols, int bits, int64_t vector) {
          const cute::SmemLayout s = Smem(smem, rows, cols, bits);
          cute::Layout l = Unwrap(cute::ParseLayout(tv));
          auto accesses = Unwrap(cute::TvAccesses(l, rows, cols, vector, s));
          return ConflictDict(Unwrap(cute::CountConflicts(accesses, bits)));
        });
  m.def("cute_banks_picture", [](const std::string& smem, int bits, bool svg,
                                 bool colour) {
    cute::AnyLayout l = Unwrap(cute::ParseAnyLayout(smem));
    absl::StatusOr<draw::CellGrid> g = draw::BankGrid(l, bits);
    std::vector<draw::CellGrid> grids = {Unwrap(std::move(g))};
    // The heading names the layout; its note the element width.
    const std::string title = grids[0].heading;
    if (svg) return draw::GridsToSvg(grids, title);
    return draw::PictureToText(title, grids, draw::TextStyle{colour, false});
  });
}

}  // namespace

void RegisterCuteAtoms(py::module_& m) {
  BindTikz(m);
  BindCompositionCheck(m);
  BindCompositionCheckOfTuples(m);
  BindMmaAtoms(m);
  BindCopyAtoms(m);
  BindTiledMma(m);
  BindTiledCopyClass(m);
  BindTiledCopyMakers(m);
  BindSmemConflicts(m);
}

}  // namespace hlolayout::pyext
