// python/hlolayout/_ttmlir.cc: the C++ half of `hlolayout.grid`: a tt-mlir
// tensor type analysed once, and `locate` over a NumPy array of indices.
//
//   >>> g = hl._core._GridLayout(text, 8, 8, 12)
//   >>> g.locate_many(np.array([[0, 0], [2, 1541]]))["core"]
//   array([[0, 0], [3, 0]])
//
// The keys of locate_many's dict are those `hlolayout grid locate --json`
// writes for the layout's form, each an int64 array with one row per index
// (a column for scalar keys). A core the layout does not place is -1, -1.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "_answer.h"
#include "_binding.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/views/grid_analysis_picture.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

struct PyGridLayout {
  grid::GridAnalysis analysis;
};

// Output columns: name -> (width, values row-major).
class Columns {
 public:
  explicit Columns(int64_t rows) : rows_(rows) {}
  // Reserves column `name` of `width` values per row (0: one scalar).
  void Add(const std::string& name, int64_t width) {
    auto& c = columns_[name];
    c.first = width;
    c.second.assign(rows_ * std::max<int64_t>(width, 1), -1);
  }
  void Set(const std::string& name, int64_t row,
           const std::vector<int64_t>& values) {
    auto& c = columns_.at(name);
    for (size_t i = 0; i < values.size() && i < static_cast<size_t>(c.first);
         ++i) {
      c.second[row * c.first + i] = values[i];
    }
  }
  void Set(const std::string& name, int64_t row, int64_t value) {
    columns_.at(name).second[row] = value;
  }
  py::dict ToDict() const {
    py::dict out;
    for (const auto& [name, c] : columns_) {
      py::array_t<int64_t> a = c.first == 0
                                   ? py::array_t<int64_t>(rows_)
                                   : py::array_t<int64_t>({rows_, c.first});
      std::copy(c.second.begin(), c.second.end(), a.mutable_data());
      out[py::str(name)] = std::move(a);
    }
    return out;
  }

 private:
  int64_t rows_;
  std::map<std::string, std::pair<int64_t, std::vector<int64_t>>> columns_;
};

PyGridLayout MakeGridLayout(const std::string& text, int64_t rows, int64_t cols,
                            int64_t banks) {
  if (rows < 1 || cols < 1 || banks < 1 || rows > 1024 || cols > 1024 ||
      banks > 1024) {
    throw py::value_error(
        "worker_grid and dram_banks must be between 1 and 1024");
  }
  return PyGridLayout{
      Unwrap(grid::AnalyzeGridText(text, grid::TtnnDevice{rows, cols, banks}))};
}

// The columns of the locations of a #ttnn.ttnn_layout, row by row.
absl::Status LocateTtnn(const grid::TtnnLayoutAttr& l, const int64_t* in,
                        int64_t n, int64_t rank, Columns& cols) {
  std::vector<int64_t> index(rank);
  cols.Add("physical", 2);
  if (l.tiled()) {
    cols.Add("tile", 2);
    cols.Add("in_tile", 2);
  }
  if (l.sharded()) {
    cols.Add("shard", 2);
    cols.Add("shard_index", 0);
    cols.Add("offset", 2);
    if (l.tiled()) {
      cols.Add("offset_tile", 2);
      cols.Add("offset_in_tile", 2);
    }
    cols.Add(grid::IsDram(l.buffer_type()) ? "dram_bank" : "core",
             grid::IsDram(l.buffer_type()) ? 0 : 2);
  } else {
    cols.Add("page", 0);
    if (grid::IsDram(l.buffer_type())) {
      cols.Add("dram_bank", 0);
      cols.Add("page_in_bank", 0);
    }
  }
  for (int64_t r = 0; r < n; ++r) {
    index.assign(in + r * rank, in + (r + 1) * rank);
    absl::StatusOr<grid::TtnnAttrLocation> loc = l.Locate(index);
    if (!loc.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("index at row ", r, ": ", loc.status().message()));
    }
    cols.Set("physical", r, loc->physical);
    if (l.tiled()) {
      cols.Set("tile", r, loc->tile);
      cols.Set("in_tile", r, loc->in_tile);
    }
    if (l.sharded()) {
      cols.Set("shard", r, loc->shard);
      cols.Set("shard_index", r, loc->shard_index);
      cols.Set("offset", r, loc->offset);
      if (l.tiled()) {
        cols.Set("offset_tile", r, loc->offset_tile);
        cols.Set("offset_in_tile", r, loc->offset_in_tile);
      }
      if (loc->core) cols.Set("core", r, {loc->core->x, loc->core->y});
      if (loc->dram_bank) cols.Set("dram_bank", r, *loc->dram_bank);
    } else {
      cols.Set("page", r, *loc->page);
      if (loc->dram_bank) {
        cols.Set("dram_bank", r, *loc->dram_bank);
        cols.Set("page_in_bank", r, *loc->page_in_bank);
      }
    }
  }
  return absl::OkStatus();
}

// The columns of a #ttcore.metal_layout's locations.
absl::Status LocateMetal(const grid::TtcoreMetalLayout& l, const int64_t* in,
                         int64_t n, int64_t rank, Columns& cols) {
  std::vector<int64_t> index(rank);
  const int64_t p = static_cast<int64_t>(l.physical_shape().size());
  cols.Add("physical", p);
  cols.Add("shard", p);
  cols.Add("offset", p);
  if (l.tiled()) {
    cols.Add("offset_tile", p);
    cols.Add("offset_in_tile", 2);
  }
  cols.Add("core", 2);
  for (int64_t r = 0; r < n; ++r) {
    index.assign(in + r * rank, in + (r + 1) * rank);
    absl::StatusOr<grid::MetalLocation> loc = l.Locate(index);
    if (!loc.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("index at row ", r, ": ", loc.status().message()));
    }
    cols.Set("physical", r, loc->physical);
    cols.Set("shard", r, loc->shard);
    cols.Set("offset", r, loc->offset);
    if (l.tiled()) {
      cols.Set("offset_tile", r, loc->offset_tile);
      cols.Set("offset_in_tile", r, loc->offset_in_tile);
    }
    if (loc->core) cols.Set("core", r, {loc->core->x, loc->core->y});
  }
  return absl::OkStatus();
}

// The columns of a grid layout's locations (ttmlir/metal_layout.h).
absl::Status LocateSeed(const grid::MetalLayout& l, const int64_t* in,
                        int64_t n, int64_t rank, Columns& cols) {
  std::vector<int64_t> index(rank);
  const int64_t gr = l.grid_rank();
  cols.Add("collapsed", gr);
  cols.Add("core", gr);
  cols.Add("offset", gr);
  if (l.tile()) {
    cols.Add("tile", gr);
    cols.Add("in_tile", 2);
  }
  cols.Add("byte_offset", 0);
  for (int64_t r = 0; r < n; ++r) {
    index.assign(in + r * rank, in + (r + 1) * rank);
    absl::StatusOr<grid::ElementLocation> loc = l.TryLocate(index);
    if (!loc.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("index at row ", r, ": ", loc.status().message()));
    }
    cols.Set("collapsed", r, loc->collapsed);
    cols.Set("core", r, loc->core);
    cols.Set("offset", r, loc->offset);
    if (l.tile()) {
      cols.Set("tile", r, loc->tile);
      cols.Set("in_tile", r, loc->in_tile);
    }
    cols.Set("byte_offset", r, loc->byte_offset);
  }
  return absl::OkStatus();
}

py::dict LocateMany(const PyGridLayout& g,
                    py::array_t<int64_t, py::array::c_style> idx) {
  const grid::GridAnalysis& a = g.analysis;
  const int64_t rank =
      a.ttnn    ? static_cast<int64_t>(a.ttnn->logical_shape().size())
      : a.metal ? static_cast<int64_t>(a.metal->logical_shape().size())
                : a.text.seed->rank();
  if (idx.ndim() != 2 || idx.shape(1) != rank) {
    throw py::value_error(
        absl::StrCat("indices must have shape [n, ", rank, "]"));
  }
  const int64_t n = idx.shape(0);
  const int64_t* in = idx.data();
  Columns cols(n);
  absl::Status status;
  {
    py::gil_scoped_release release;
    status = a.ttnn    ? LocateTtnn(*a.ttnn, in, n, rank, cols)
             : a.metal ? LocateMetal(*a.metal, in, n, rank, cols)
                       : LocateSeed(*a.text.seed, in, n, rank, cols);
  }
  if (!status.ok()) ThrowStatus(status);
  return cols.ToDict();
}

// `hlolayout grid report`'s answer for the .mlir file at `path` (a
// GridReport object; to_dict() is the CLI's --json); OSError when it cannot
// be read, ValueError when it cannot be scanned.
py::object GridReport(const std::string& path, int64_t rows, int64_t cols,
                      int64_t banks) {
  if (rows < 1 || cols < 1 || banks < 1 || rows > 1024 || cols > 1024 ||
      banks > 1024) {
    throw py::value_error(
        "worker_grid and dram_banks must be between 1 and 1024");
  }
  absl::StatusOr<std::unique_ptr<InputText>> text;
  absl::StatusOr<grid::GridReport> report;
  {
    py::gil_scoped_release release;
    text = OpenSource(path, /*is_path=*/true);
    if (text.ok()) {
      report = grid::ReadGridReport((*text)->view(), path,
                                    grid::TtnnDevice{rows, cols, banks});
    }
  }
  if (!text.ok()) RaiseOSError(text.status());
  return ToPython(Unwrap(std::move(report)));
}

}  // namespace

void RegisterTtmlir(py::module_& m) {
  // The answers' classes (answers/ttmlir.h), from their field lists.
  py::module_ answers = m.def_submodule("_ttmlir");
  BindAnswer<grid::ExplainAnswer>(answers, "hlolayout.grid");
  BindAnswer<grid::LocationAnswer>(answers, "hlolayout.grid");
  BindAnswer<grid::GridReport>(answers, "hlolayout.grid");
  m.def("_grid_report", &GridReport, py::arg("path"), py::arg("rows") = 8,
        py::arg("cols") = 8, py::arg("banks") = 12);
  py::class_<PyGridLayout>(m, "_GridLayout")
      .def(py::init(&MakeGridLayout), py::arg("text"), py::arg("rows") = 8,
           py::arg("cols") = 8, py::arg("banks") = 12)
      .def_property_readonly("kind",
                             [](const PyGridLayout& g) {
                               return g.analysis.ttnn    ? "ttnn_layout"
                                      : g.analysis.metal ? "metal_layout"
                                                         : "seed_metal_layout";
                             })
      .def_property_readonly(
          "warnings", [](const PyGridLayout& g) { return g.analysis.warnings; })
      .def_property_readonly(
          "tensor", [](const PyGridLayout& g) { return g.analysis.text.text; })
      .def("locate_many", &LocateMany, py::arg("indices"))
      .def("explain",
           [](const PyGridLayout& g) {
             return ToPython(grid::AnswerExplain(g.analysis));
           })
      .def(
          "locate",
          [](const PyGridLayout& g, const std::vector<int64_t>& index) {
            return ToPython(Unwrap(grid::AnswerLocate(g.analysis, index)));
          },
          py::arg("index"))
      .def("svg", [](const PyGridLayout& g) {
        return Unwrap(draw::GridAnalysisSvg(g.analysis));
      });
}

}  // namespace hlolayout::pyext
