// python/hlolayout/_ttnn.cc: the C++ half of `hlolayout.ttnn`: a TTNN tensor
// spec computed once from its JSON input (ttnn/spec_json.h), its fields,
// the buffer distribution, element locations, and mesh distributions.
//
//   >>> r = hl._core._ttnn_spec('{"shape": [64, 64]}', 16, 32, 64, 12,
//   ...                         "wormhole_n150")
//   >>> r.num_pages
//   4
//
// A refusal comes back as a tuple ("refused", message, rule) for the Python
// side to raise as hl.ttnn.TtnnRefusal; bad JSON raises ValueError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "hlolayout/cli/ttnn_json.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/names.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/sharded_config.h"
#include "hlolayout/ttnn/spec_json.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

struct PyTtnnSpec {
  std::shared_ptr<const ttnn::TensorSpec> spec;
  cli::TtnnSpecNotes notes;  // the device checked against, its warnings
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

// `device`: a device name (ttnn/device.h) to check the spec against, or
// "none" for tt-metal's TensorSpec alone.
py::object MakeSpec(const std::string& json, int64_t l1_alignment,
                    int64_t dram_alignment, int64_t l1_banks,
                    int64_t dram_banks, const std::string& device_name) {
  absl::StatusOr<std::vector<ttnn::TensorSpecInput>> in =
      ttnn::SpecInputsFromText(json);
  if (!in.ok()) {
    if (ttnn::RefusalRule(in.status())) return Refusal(in.status());
    ThrowStatus(in.status());
  }
  if (in->size() != 1) throw py::value_error("expected one tensor spec");
  ttnn::DeviceParams device{l1_alignment, dram_alignment, l1_banks, dram_banks};
  absl::StatusOr<ttnn::TensorSpec> spec =
      ttnn::TensorSpec::Make((*in)[0], device);
  if (!spec.ok()) return Refusal(spec.status());
  cli::TtnnSpecNotes notes{device_name, {}};
  if (device_name != "none") {
    absl::StatusOr<const ttnn::Device*> d = ttnn::FindDevice(device_name);
    if (!d.ok()) throw py::value_error(std::string(d.status().message()));
    notes.device = std::string((*d)->name);
    absl::StatusOr<ttnn::FitReport> fit = ttnn::CheckFit(*spec, **d);
    if (!fit.ok()) return Refusal(fit.status());
    notes.warnings = std::move(fit->warnings);
  }
  return py::cast(PyTtnnSpec{
      std::make_shared<const ttnn::TensorSpec>(*std::move(spec)), notes});
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
      .def_property_readonly("device_name",
                             [](const PyTtnnSpec& s) { return s.notes.device; })
      .def_property_readonly(
          "shard_shape_derived",
          [](const PyTtnnSpec& s) { return s.spec->shard_shape_derived(); })
      .def("to_json", [](const PyTtnnSpec& s, bool full) {
        cli::TtnnJsonLimits limits;
        if (full) limits = {-1, -1, -1};
        return cli::TtnnSpecJson(*s.spec, limits, &s.notes);
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
             return cli::TtnnPlaceJson(*s.spec, p);
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
  DistributionFields(c);
  m.def("_ttnn_spec", &MakeSpec, py::arg("json"), py::arg("l1_alignment"),
        py::arg("dram_alignment"), py::arg("l1_banks"), py::arg("dram_banks"),
        py::arg("device") = "wormhole_n150");
  m.def("_ttnn_device_info", &DeviceInfo, py::arg("name"));
  m.def("_ttnn_derive_shard", &DeriveShard, py::arg("shape"), py::arg("x"),
        py::arg("y"), py::arg("memory_layout"), py::arg("orientation"));
  m.def("_ttnn_distribute", &Distribute, py::arg("shape"), py::arg("mesh"),
        py::arg("placements"), py::arg("mesh_shape_override"));
}

}  // namespace hlolayout::pyext
