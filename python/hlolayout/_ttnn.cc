// python/hlolayout/_ttnn.cc: the C++ half of `hlolayout.ttnn`: a TTNN tensor
// spec computed once from hl.ttnn's values (a ttnn::TensorSpecInput, no
// text in between), checked against a device (ttnn/spec_text.h), its
// fields, its answer in words and JSON (ttnn/answer_json.h), its picture
// (draw/ttnn_drawing.h), the buffer distribution, element locations, and
// mesh distributions.
//
//   >>> d = hl._core._ttnn_device_choice("wormhole_n150", (16, 32, 64, 12))
//   >>> r = hl._core._ttnn_spec([64, 64], "bfloat16", "TILE", (32, 32),
//   ...                         "DRAM", "INTERLEAVED", None, None, d)
//   >>> r.num_pages
//   4
//
// A refusal comes back as a tuple ("refused", message, rule) for the Python
// side to raise as hl.ttnn.TtnnRefusal; a bad name or value raises
// ValueError with the library's message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "_binding.h"
#include "absl/strings/ascii.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/draw/ttnn_drawing.h"
#include "hlolayout/ttnn/answer_json.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/names.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/sharded_config.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

struct PyTtnnSpec {
  std::shared_ptr<const ttnn::TensorSpec> spec;
  ttnn::SpecNotes notes;  // the device checked against, its warnings
  ttnn::TensorSpecInput input;
  ttnn::DeviceChoice device;
};

py::tuple Refusal(const absl::Status& s) {
  return py::make_tuple("refused", std::string(s.message()),
                        ttnn::RefusalRule(s).value_or(""));
}

const ttnn::BufferDistribution& Distribution(const PyTtnnSpec& s) {
  if (!s.spec->distribution()) {
    throw py::value_error("an interleaved tensor has no buffer distribution");
  }
  return *s.spec->distribution();
}

int64_t CoreIndex(const ttnn::BufferDistribution& d, int64_t core) {
  if (core < 0 || core >= d.num_cores()) {
    throw py::index_error("core index " + std::to_string(core) +
                          " is not in [0, " + std::to_string(d.num_cores()) +
                          ")");
  }
  return core;
}

// The enum value of `name` (hl.ttnn has checked nothing): ValueError with
// the nearest names when it is none of `kind`'s.
template <typename T>
T Named(absl::optional<T> (*from)(absl::string_view), ttnn::NameKind kind,
        const std::string& name) {
  absl::optional<T> v = from(name);
  if (!v) ThrowStatus(ttnn::CheckName(kind, name));
  return *v;
}

// A core grid: [((x0, y0), (x1, y1)), ...].
using PyGrid = std::vector<
    std::pair<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>>>;

absl::StatusOr<ttnn::CoreRangeSet> Grid(const PyGrid& grid) {
  std::vector<ttnn::CoreRange> ranges;
  for (const auto& [a, b] : grid) {
    ranges.push_back({{a.first, a.second}, {b.first, b.second}});
  }
  return ttnn::CoreRangeSet::Make(std::move(ranges));
}

// hl.ttnn.ShardSpec: (grid, shape or None (derived), orientation).
using PyShard =
    std::tuple<PyGrid, std::optional<std::pair<int64_t, int64_t>>, std::string>;
// hl.ttnn.NdShardSpec: (shard_shape, grid, orientation, distribution).
using PyNdShard =
    std::tuple<std::vector<int64_t>, PyGrid, std::string, std::string>;

// The memory config of hl.ttnn's values: OK, or a refusal of the grid.
absl::Status MemoryFrom(const std::string& memory_layout,
                        const std::optional<PyShard>& shard,
                        const std::optional<PyNdShard>& nd,
                        ttnn::TensorSpecInput& in) {
  if (nd) {
    const auto& [shape, grid, orientation, distribution] = *nd;
    ttnn::NdShardSpec spec;
    spec.shard_shape = shape;
    absl::StatusOr<ttnn::CoreRangeSet> g = Grid(grid);
    if (!g.ok()) return g.status();
    spec.grid = *std::move(g);
    spec.orientation = Named(&ttnn::OrientationFromName,
                             ttnn::NameKind::kOrientation, orientation);
    spec.distribution = Named(&ttnn::DistributionFromName,
                              ttnn::NameKind::kDistribution, distribution);
    in.memory.layout = ttnn::TensorMemoryLayout::kNdSharded;
    in.memory.created_with_nd_shard_spec = true;
    in.memory.nd_shard_spec = std::move(spec);
    return absl::OkStatus();
  }
  in.memory.layout = Named(&ttnn::MemoryLayoutFromName,
                           ttnn::NameKind::kMemoryLayout, memory_layout);
  if (!shard) return absl::OkStatus();
  const auto& [grid, shape, orientation] = *shard;
  ttnn::ShardSpec spec;
  absl::StatusOr<ttnn::CoreRangeSet> g = Grid(grid);
  if (!g.ok()) return g.status();
  spec.grid = *std::move(g);
  if (shape) spec.shape = {shape->first, shape->second};
  in.derive_shard_shape = !shape.has_value();
  spec.orientation = Named(&ttnn::OrientationFromName,
                           ttnn::NameKind::kOrientation, orientation);
  in.memory.shard_spec = std::move(spec);
  return absl::OkStatus();
}

// `device`: a device name (ttnn/device.h) to check the spec against, or
// "none" for tt-metal's TensorSpec alone; `params`: the numbers TensorSpec
// takes (l1_alignment, dram_alignment, l1_banks, dram_banks).
ttnn::DeviceChoice Choice(const std::string& device,
                          const std::array<int64_t, 4>& params) {
  ttnn::DeviceChoice c;
  c.named = true;
  if (absl::AsciiStrToLower(device) == "none") {
    c.check_fit = false;
  } else {
    c.device = Unwrap(ttnn::FindDevice(device));
  }
  c.params = {params[0], params[1], params[2], params[3]};
  return c;
}

py::object MakeSpec(const std::vector<int64_t>& shape, const std::string& dtype,
                    const std::string& layout,
                    const std::pair<int64_t, int64_t>& tile,
                    const std::string& buffer_type,
                    const std::string& memory_layout,
                    const std::optional<PyShard>& shard,
                    const std::optional<PyNdShard>& nd,
                    const ttnn::DeviceChoice& device) {
  PyTtnnSpec out;
  ttnn::TensorSpecInput& in = out.input;
  in.shape = shape;
  in.dtype = Named(&ttnn::DataTypeFromName, ttnn::NameKind::kDataType, dtype);
  in.layout = Named(&ttnn::LayoutFromName, ttnn::NameKind::kLayout, layout);
  in.memory.buffer_type = Named(&ttnn::BufferTypeFromName,
                                ttnn::NameKind::kBufferType, buffer_type);
  absl::StatusOr<ttnn::Tile> t = ttnn::MakeTile(tile.first, tile.second);
  absl::Status status =
      t.ok() ? MemoryFrom(memory_layout, shard, nd, in) : t.status();
  if (t.ok()) in.tile = *t;
  if (!status.ok()) {
    if (ttnn::RefusalRule(status)) return Refusal(status);
    ThrowStatus(status);
  }
  out.device = device;
  // Not worth releasing the GIL for: a spec takes a microsecond or two.
  absl::StatusOr<ttnn::CheckedSpec> checked = ttnn::CheckSpec(in, out.device);
  if (!checked.ok()) return Refusal(checked.status());
  out.notes = {
      out.device.check_fit ? std::string(out.device.device->name) : "none",
      std::move(checked->warnings)};
  out.spec = std::make_shared<const ttnn::TensorSpec>(std::move(checked->spec));
  return py::cast(std::move(out));
}

// A device's numbers, by name: a dict (ttnn.device_info).
py::dict DeviceInfo(const std::string& name) {
  absl::StatusOr<const ttnn::Device*> found = ttnn::FindDevice(name);
  if (!found.ok()) throw py::value_error(std::string(found.status().message()));
  const ttnn::Device& d = **found;
  py::dict out;
  out["name"] = std::string(d.name);
  out["board"] = std::string(d.board);
  out["arch"] = std::string(d.arch);
  out["chips"] = d.chips;
  out["grid"] = py::make_tuple(d.grid_x, d.grid_y);
  out["l1_bytes_per_core"] = d.l1_bytes_per_core;
  out["l1_usable_per_core"] = d.l1_usable_per_core;
  out["dram_channels"] = d.dram_channels;
  out["dram_banks"] = d.dram_banks;
  out["dram_bank_bytes"] = d.dram_bank_bytes;
  out["l1_alignment"] = d.l1_alignment;
  out["dram_alignment"] = d.dram_alignment;
  out["summary"] = d.Summary();
  return out;
}

// ttnn.create_sharded_memory_config's shard shape, or a refusal tuple.
py::object DeriveShard(const std::vector<int64_t>& shape, int64_t x, int64_t y,
                       const std::string& layout,
                       const std::string& orientation) {
  absl::optional<ttnn::TensorMemoryLayout> l =
      ttnn::MemoryLayoutFromName(layout);
  absl::optional<ttnn::ShardOrientation> o =
      ttnn::OrientationFromName(orientation);
  if (!l || !o) throw py::value_error("bad memory layout or orientation");
  if (x < 1 || y < 1) throw py::value_error("a CoreGrid has x, y >= 1");
  absl::StatusOr<ttnn::CoreRangeSet> grid =
      ttnn::CoreRangeSet::Make({{{0, 0}, {x - 1, y - 1}}});
  if (!grid.ok()) return Refusal(grid.status());
  absl::StatusOr<std::array<int64_t, 2>> s =
      ttnn::DeriveShardShape(shape, *grid, *l, *o);
  if (!s.ok()) return Refusal(s.status());
  return py::make_tuple("ok", (*s)[0], (*s)[1]);
}

py::object Distribute(
    const std::vector<int64_t>& shape, const std::vector<int64_t>& mesh,
    const std::vector<std::pair<bool, int64_t>>& placements,
    const std::optional<std::vector<int64_t>>& override_shape) {
  ttnn::MeshMapperConfig config;
  for (const auto& [shard, dim] : placements) {
    config.placements.push_back({shard, dim});
  }
  if (override_shape) config.mesh_shape_override = *override_shape;
  absl::StatusOr<ttnn::MeshDistribution> d =
      ttnn::DistributeOverMesh(shape, mesh, config);
  if (!d.ok()) return Refusal(d.status());
  py::list slices;
  for (const ttnn::MeshSlice& s : d->slices) {
    py::dict row;
    row["device"] = IntTuple(s.device);
    row["holds_data"] = s.holds_data;
    if (s.holds_data) {
      row["begin"] = IntTuple(s.begin);
      row["end"] = IntTuple(s.end);
    }
    slices.append(row);
  }
  return py::make_tuple("ok", slices, IntTuple(d->slice_shape), d->submesh);
}

// The spec's own fields.
void SpecFields(py::class_<PyTtnnSpec>& c) {
  c.def_property_readonly(
       "padded_shape",
       [](const PyTtnnSpec& s) { return IntTuple(s.spec->padded_shape()); })
      .def_property_readonly("logical_2d_shape",
                             [](const PyTtnnSpec& s) {
                               return IntTuple(s.spec->logical_2d_shape());
                             })
      .def_property_readonly("physical_shape",
                             [](const PyTtnnSpec& s) {
                               return IntTuple(s.spec->physical_shape());
                             })
      .def_property_readonly(
          "alignment",
          [](const PyTtnnSpec& s) { return IntTuple(s.spec->alignment()); })
      .def_property_readonly(
          "page_shape",
          [](const PyTtnnSpec& s) { return IntTuple(s.spec->page_shape()); })
      .def_property_readonly(
          "page_size_bytes",
          [](const PyTtnnSpec& s) { return s.spec->page_size_bytes(); })
      .def_property_readonly("packed_buffer_size_bytes",
                             [](const PyTtnnSpec& s) {
                               return s.spec->packed_buffer_size_bytes();
                             })
      .def_property_readonly(
          "num_pages", [](const PyTtnnSpec& s) { return s.spec->num_pages(); })
      .def_property_readonly(
          "strides",
          [](const PyTtnnSpec& s) { return IntTuple(s.spec->strides()); })
      .def("consumed_bytes_per_bank",
           [](const PyTtnnSpec& s, int64_t alignment, int64_t banks) {
             if (alignment <= 0 || banks <= 0) {
               throw py::value_error(
                   "page_alignment and num_banks must be positive");
             }
             return Unwrap(s.spec->ConsumedBytesPerBank(alignment, banks));
           })
      .def("aligned_page_size",
           [](const PyTtnnSpec& s, int64_t alignment) {
             if (alignment <= 0)
               throw py::value_error("page_alignment must be positive");
             return s.spec->AlignedPageSize(alignment);
           })
      .def_property_readonly(
          "page_alignment",
          [](const PyTtnnSpec& s) { return s.spec->page_alignment(); })
      .def_property_readonly(
          "num_banks", [](const PyTtnnSpec& s) { return s.spec->num_banks(); })
      .def_property_readonly(
          "warnings", [](const PyTtnnSpec& s) { return s.notes.warnings; })
      .def_property_readonly(
          "has_warnings",
          [](const PyTtnnSpec& s) { return !s.notes.warnings.empty(); })
      .def_property_readonly("device_name",
                             [](const PyTtnnSpec& s) { return s.notes.device; })
      .def_property_readonly(
          "shard_shape_derived",
          [](const PyTtnnSpec& s) { return s.spec->shard_shape_derived(); })
      .def("to_json", [](const PyTtnnSpec& s, bool full) {
        ttnn::JsonLimits limits;
        if (full) limits = {-1, -1, -1};
        return ttnn::SpecJson(*s.spec, limits, &s.notes);
      });
}

py::tuple PyGridOf(const ttnn::CoreRangeSet& grid) {
  py::list out;
  for (const ttnn::CoreRange& r : grid.ranges()) {
    out.append(py::make_tuple(py::make_tuple(r.start.x, r.start.y),
                              py::make_tuple(r.end.x, r.end.y)));
  }
  return py::tuple(out);
}

// The memory config after TensorSpec resolved it: (memory_layout,
// (grid, shape, orientation) or None, (shard_shape, grid, orientation,
// distribution) or None).
py::tuple ResolvedMemory(const PyTtnnSpec& s) {
  const ttnn::MemoryConfig& m = s.spec->memory_config();
  py::object shard = py::none(), nd = py::none();
  if (m.sharded() && m.shard_spec) {
    shard = py::make_tuple(
        PyGridOf(m.shard_spec->grid), IntTuple(m.shard_spec->shape),
        std::string(ttnn::OrientationName(m.shard_spec->orientation)));
  }
  if (m.sharded() && m.nd_shard_spec) {
    const ttnn::NdShardSpec& n = *m.nd_shard_spec;
    nd = py::make_tuple(IntTuple(n.shard_shape), PyGridOf(n.grid),
                        std::string(ttnn::OrientationName(n.orientation)),
                        std::string(ttnn::DistributionName(n.distribution)));
  }
  return py::make_tuple(std::string(ttnn::MemoryLayoutName(m.layout)), shard,
                        nd);
}

// The spec in words (ttnn/spec_text.h), its picture (draw/ttnn_drawing.h)
// and the time of the C++ calls construction wraps (python/bench).
void AnswerFields(py::class_<PyTtnnSpec>& c) {
  c.def("resolved_memory", &ResolvedMemory)
      .def("text",
           [](const PyTtnnSpec& s, bool full) {
             return ttnn::SpecText(s.input,
                                   ttnn::CheckedSpec{*s.spec, s.notes.warnings},
                                   s.device, full);
           })
      .def("draw_svg",
           [](const PyTtnnSpec& s,
              std::optional<std::pair<int64_t, int64_t>> core) {
             absl::optional<ttnn::CoreCoord> c;
             if (core) c = ttnn::CoreCoord{core->first, core->second};
             py::gil_scoped_release release;
             draw::TtnnDrawing d =
                 Unwrap(draw::DrawTtnnSpec(s.input, *s.spec, s.device, c));
             return draw::GridsToSvg(d.grids, d.title);
           })
      .def("_time_cpp", [](const PyTtnnSpec& s, int64_t n) {
        py::gil_scoped_release release;
        const auto start = std::chrono::steady_clock::now();
        int64_t sink = 0;
        for (int64_t i = 0; i < n; ++i) {
          sink += ttnn::CheckSpec(s.input, s.device)->spec.num_pages();
        }
        const std::chrono::duration<double> t =
            std::chrono::steady_clock::now() - start;
        return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
      });
}

// The buffer distribution and element locations.
void DistributionFields(py::class_<PyTtnnSpec>& c) {
  c.def_property_readonly("sharded",
                          [](const PyTtnnSpec& s) { return s.spec->sharded(); })
      .def_property_readonly(
          "num_cores",
          [](const PyTtnnSpec& s) { return Distribution(s).num_cores(); })
      .def_property_readonly(
          "num_shards",
          [](const PyTtnnSpec& s) { return Distribution(s).num_shards(); })
      .def_property_readonly("num_cores_with_data",
                             [](const PyTtnnSpec& s) {
                               return Distribution(s).num_cores_with_data();
                             })
      .def_property_readonly("max_num_shards_per_core",
                             [](const PyTtnnSpec& s) {
                               return Distribution(s).max_shards_per_core();
                             })
      .def_property_readonly("max_num_dev_pages_per_core",
                             [](const PyTtnnSpec& s) {
                               return Distribution(s).max_dev_pages_per_core();
                             })
      .def_property_readonly(
          "cores",
          [](const PyTtnnSpec& s) {
            py::list out;
            for (ttnn::CoreCoord c : Distribution(s).cores()) {
              out.append(py::make_tuple(c.x, c.y));
            }
            return out;
          })
      .def_property_readonly(
          "shard_shape_in_pages",
          [](const PyTtnnSpec& s) {
            return IntTuple(Distribution(s).shard_shape_in_pages());
          })
      .def_property_readonly(
          "tensor_shape_in_pages",
          [](const PyTtnnSpec& s) {
            return IntTuple(Distribution(s).tensor_shape_in_pages());
          })
      .def("shards_on_core",
           [](const PyTtnnSpec& s, int64_t core) {
             const ttnn::BufferDistribution& d = Distribution(s);
             return d.ShardsOnCore(CoreIndex(d, core));
           })
      .def("host_pages",
           [](const PyTtnnSpec& s, int64_t core) {
             const ttnn::BufferDistribution& d = Distribution(s);
             CoreIndex(d, core);
             const int64_t n =
                 d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
             py::array_t<int64_t> out(n);
             int64_t* p = out.mutable_data();
             {
               py::gil_scoped_release release;
               for (int64_t i = 0; i < n; ++i) p[i] = d.HostPage(core, i);
             }
             return out;
           })
      .def("place",
           [](const PyTtnnSpec& s, int64_t host_page) {
             const ttnn::BufferDistribution& d = Distribution(s);
             if (host_page < 0 || host_page >= d.host_pages()) {
               throw py::index_error("host page " + std::to_string(host_page) +
                                     " is not in [0, " +
                                     std::to_string(d.host_pages()) + ")");
             }
             const ttnn::DevicePlace p = d.Place(host_page);
             const ttnn::CoreCoord c = d.cores()[p.core_index];
             return py::make_tuple(py::make_tuple(c.x, c.y), p.device_page,
                                   p.shard);
           })
      .def("locate_json",
           [](const PyTtnnSpec& s, const std::vector<int64_t>& index) {
             ttnn::ElementPlace p = Unwrap(ttnn::Locate(*s.spec, index));
             return ttnn::PlaceJson(*s.spec, p);
           });
}

}  // namespace

// hl.ttnn's constructors check each enum name here: ValueError with the
// nearest names (ttnn/names.h), as the CLI's flags say it.
void CheckTtnnName(const std::string& kind, const std::string& name) {
  static const std::pair<const char*, ttnn::NameKind> kKinds[] = {
      {"dtype", ttnn::NameKind::kDataType},
      {"layout", ttnn::NameKind::kLayout},
      {"memory_layout", ttnn::NameKind::kMemoryLayout},
      {"buffer_type", ttnn::NameKind::kBufferType},
      {"orientation", ttnn::NameKind::kOrientation},
      {"distribution", ttnn::NameKind::kDistribution},
  };
  for (const auto& [key, value] : kKinds) {
    if (kind == key) {
      const absl::Status status = ttnn::CheckName(value, name);
      if (!status.ok()) throw py::value_error(std::string(status.message()));
      return;
    }
  }
  throw py::value_error("no enum kind '" + kind + "'");
}

void RegisterTtnn(py::module_& m) {
  m.def("_ttnn_check_name", &CheckTtnnName, py::arg("kind"), py::arg("name"));
  py::class_<PyTtnnSpec> c(m, "_TtnnSpec");
  SpecFields(c);
  AnswerFields(c);
  DistributionFields(c);
  // hl.ttnn.DeviceParams' device, made once per DeviceParams.
  py::class_<ttnn::DeviceChoice>(m, "_TtnnDeviceChoice");
  m.def("_ttnn_device_choice", &Choice, py::arg("device"), py::arg("params"));
  m.def("_ttnn_spec", &MakeSpec, py::arg("shape"), py::arg("dtype"),
        py::arg("layout"), py::arg("tile"), py::arg("buffer_type"),
        py::arg("memory_layout"), py::arg("shard_spec"),
        py::arg("nd_shard_spec"), py::arg("device"));
  m.def("_ttnn_device_info", &DeviceInfo, py::arg("name"));
  m.def("_ttnn_derive_shard", &DeriveShard, py::arg("shape"), py::arg("x"),
        py::arg("y"), py::arg("memory_layout"), py::arg("orientation"));
  m.def("_ttnn_distribute", &Distribute, py::arg("shape"), py::arg("mesh"),
        py::arg("placements"), py::arg("mesh_shape_override"));
}

}  // namespace hlolayout::pyext
