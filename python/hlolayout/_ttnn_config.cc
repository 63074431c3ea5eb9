// python/hlolayout/_ttnn_config.cc: hl.ttnn's memory config classes as C++
// values (see _ttnn.h): CoreCoord, CoreRange, CoreRangeSet, ShardSpec,
// NdShardSpec, MemoryConfig, Tile and DeviceParams, with ttnn's names and
// the reprs they had as Python classes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "_ttnn.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/names.h"
#include "hlolayout/ttnn/refusal.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

// The enum value of `value` (a name as EnumText reads it): ValueError with
// the nearest names when it is none of `kind`'s.
template <typename T>
T NamedEnum(py::handle value, absl::optional<T> (*from)(absl::string_view),
            ttnn::NameKind kind) {
  const std::string text = EnumText(value);
  absl::optional<T> v = from(text);
  if (!v) ThrowStatus(ttnn::CheckName(kind, text));
  return *v;
}

ttnn::ShardOrientation Orientation(py::handle v) {
  return NamedEnum(v, &ttnn::OrientationFromName, ttnn::NameKind::kOrientation);
}

std::string Repr(py::handle h) { return py::repr(h).cast<std::string>(); }

std::string Quoted(absl::string_view name) {
  return absl::StrCat("'", name, "'");
}

ttnn::CoreCoord CoordOf(py::handle h) {
  if (py::isinstance<ttnn::CoreCoord>(h)) return h.cast<ttnn::CoreCoord>();
  if (!py::isinstance<py::sequence>(h) || py::len(h) != 2) {
    throw py::type_error("a core is a CoreCoord or (x, y), not " + Repr(h));
  }
  py::sequence s = py::reinterpret_borrow<py::sequence>(h);
  return {ToInt(s[0]), ToInt(s[1])};
}

ttnn::CoreRange MakeRange(py::handle start, py::handle end) {
  ttnn::CoreRange r;
  r.start = CoordOf(start);
  r.end = end.is_none() ? r.start : CoordOf(end);
  if (r.end.x < r.start.x || r.end.y < r.start.y) {
    throw py::value_error(absl::StrFormat(
        "a core range goes from its first core to its last: end (%d,%d) is "
        "before start (%d,%d)",
        r.end.x, r.end.y, r.start.x, r.start.y));
  }
  return r;
}

// A CoreRange, or the arguments of one: (start, end) or (start,).
ttnn::CoreRange RangeOf(py::handle h) {
  if (py::isinstance<ttnn::CoreRange>(h)) return h.cast<ttnn::CoreRange>();
  if (py::isinstance<py::sequence>(h) && !py::isinstance<py::str>(h)) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(h);
    if (s.size() == 1) return MakeRange(s[0], py::none());
    if (s.size() == 2) return MakeRange(s[0], s[1]);
  }
  throw py::type_error("a core range is a CoreRange or (start, end), not " +
                       Repr(h));
}

// CoreRangeSet(ranges): a CoreRange or a sequence of them.
PyCoreRangeSet RangesOf(py::handle h) {
  if (py::isinstance<PyCoreRangeSet>(h)) return h.cast<PyCoreRangeSet>();
  PyCoreRangeSet out;
  if (py::isinstance<ttnn::CoreRange>(h)) {
    out.ranges.push_back(h.cast<ttnn::CoreRange>());
    return out;
  }
  for (py::handle r : py::iter(h)) out.ranges.push_back(RangeOf(r));
  return out;
}

py::object ShapeOrNone(const std::optional<std::array<int64_t, 2>>& s) {
  if (!s) return py::none();
  return py::make_tuple((*s)[0], (*s)[1]);
}

std::string CoordRepr(const ttnn::CoreCoord& c) {
  return absl::StrFormat("CoreCoord(x=%d, y=%d)", c.x, c.y);
}

std::string RangeRepr(const ttnn::CoreRange& r) {
  return absl::StrCat("CoreRange(", CoordRepr(r.start), ", ", CoordRepr(r.end),
                      ")");
}

std::string SetRepr(const PyCoreRangeSet& s) {
  std::string out = "CoreRangeSet([";
  for (size_t i = 0; i < s.ranges.size(); ++i) {
    absl::StrAppend(&out, i ? ", " : "", RangeRepr(s.ranges[i]));
  }
  return out + "])";
}

std::string ShardRepr(const PyShardSpec& s) {
  return absl::StrCat("ShardSpec(", SetRepr(s.grid), ", ",
                      Repr(ShapeOrNone(s.shape)), ", ",
                      Quoted(ttnn::OrientationName(s.orientation)), ")");
}

std::string NdRepr(const PyNdShardSpec& s) {
  return absl::StrCat("NdShardSpec(", Repr(IntTuple(s.shard_shape)), ", ",
                      SetRepr(s.grid), ", ",
                      Quoted(ttnn::OrientationName(s.orientation)), ", ",
                      Quoted(ttnn::DistributionName(s.distribution)), ")");
}

std::string MemoryRepr(const PyMemoryConfig& m) {
  return absl::StrCat(
      "MemoryConfig(", Quoted(ttnn::MemoryLayoutName(m.layout)), ", ",
      Quoted(ttnn::BufferTypeName(m.buffer_type)),
      ", shard_spec=", m.shard_spec ? ShardRepr(*m.shard_spec) : "None",
      ", nd_shard_spec=", m.nd_shard_spec ? NdRepr(*m.nd_shard_spec) : "None",
      ")");
}

bool SameRanges(const PyCoreRangeSet& a, const PyCoreRangeSet& b) {
  return a.ranges == b.ranges;
}

bool SameShard(const PyShardSpec& a, const PyShardSpec& b) {
  return SameRanges(a.grid, b.grid) && a.shape == b.shape &&
         a.orientation == b.orientation;
}

bool SameNd(const PyNdShardSpec& a, const PyNdShardSpec& b) {
  return a.shard_shape == b.shard_shape && SameRanges(a.grid, b.grid) &&
         a.orientation == b.orientation && a.distribution == b.distribution;
}

template <typename T>
bool SameOptional(const std::optional<T>& a, const std::optional<T>& b,
                  bool (*same)(const T&, const T&)) {
  return a.has_value() == b.has_value() && (!a || same(*a, *b));
}

// __eq__: NotImplemented for another type.
template <typename T>
py::object Equal(const T& a, py::handle b, bool (*same)(const T&, const T&)) {
  if (!py::isinstance<T>(b)) {
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  }
  return py::bool_(same(a, b.cast<const T&>()));
}

// __reduce__: the object's class and the arguments that make it again
// (pickle, copy).
py::tuple Reduce(py::handle self, py::tuple args) {
  return py::make_tuple(py::type::of(self), std::move(args));
}

void BindCores(py::module_& m) {
  py::class_<ttnn::CoreCoord>(m, "CoreCoord",
                              "ttnn.CoreCoord(x, y): a Tensix core.")
      .def(py::init([](Typed<kIntHint> x, Typed<kIntHint> y) {
             return ttnn::CoreCoord{ToInt(x), ToInt(y)};
           }),
           py::arg("x"), py::arg("y"))
      .def_readonly("x", &ttnn::CoreCoord::x)
      .def_readonly("y", &ttnn::CoreCoord::y)
      .def("__repr__", &CoordRepr)
      .def("__reduce__",
           [](py::handle self) {
             const auto& c = self.cast<const ttnn::CoreCoord&>();
             return Reduce(self, py::make_tuple(c.x, c.y));
           })
      .def("__eq__",
           [](const ttnn::CoreCoord& a, py::handle b) {
             return Equal<ttnn::CoreCoord>(
                 a, b, [](const ttnn::CoreCoord& p, const ttnn::CoreCoord& q) {
                   return p == q;
                 });
           })
      .def("__hash__", [](const ttnn::CoreCoord& c) {
        return py::hash(py::make_tuple(c.x, c.y));
      });
  py::class_<ttnn::CoreRange>(
      m, "CoreRange",
      "ttnn.CoreRange(start, end): the cores from start to end, inclusive.")
      .def(py::init([](Typed<kCoreHint> start, Typed<kOptionalCoreHint> end) {
             return MakeRange(start, end);
           }),
           py::arg("start"), py::arg("end") = py::none())
      .def_readonly("start", &ttnn::CoreRange::start)
      .def_readonly("end", &ttnn::CoreRange::end)
      .def("__repr__", &RangeRepr)
      .def("__reduce__",
           [](py::handle self) {
             return Reduce(
                 self, py::make_tuple(self.attr("start"), self.attr("end")));
           })
      .def("__eq__", [](const ttnn::CoreRange& a, py::handle b) {
        return Equal<ttnn::CoreRange>(
            a, b, [](const ttnn::CoreRange& p, const ttnn::CoreRange& q) {
              return p == q;
            });
      });
  py::class_<PyCoreRangeSet>(
      m, "CoreRangeSet",
      "ttnn.CoreRangeSet(ranges): disjoint core ranges, in the order given.")
      .def(py::init([](Typed<kRangesHint> ranges) { return RangesOf(ranges); }),
           py::arg("ranges"))
      .def_property_readonly(
          "ranges",
          [](const PyCoreRangeSet& s) -> Typed<kRangeTupleHint> {
            py::tuple out(s.ranges.size());
            for (size_t i = 0; i < s.ranges.size(); ++i) {
              out[i] = py::cast(s.ranges[i]);
            }
            return out;
          })
      .def("num_cores",
           [](const PyCoreRangeSet& s) {
             int64_t n = 0;
             for (const ttnn::CoreRange& r : s.ranges) n += r.size();
             return n;
           })
      .def("__repr__", &SetRepr)
      .def("__reduce__",
           [](py::handle self) {
             return Reduce(self, py::make_tuple(self.attr("ranges")));
           })
      .def("__eq__", [](const PyCoreRangeSet& a, py::handle b) {
        return Equal<PyCoreRangeSet>(a, b, &SameRanges);
      });
}

PyShardSpec MakeShard(py::handle grid, py::handle shape,
                      py::handle orientation) {
  PyShardSpec s;
  s.grid = RangesOf(grid);
  if (!shape.is_none()) {
    std::vector<int64_t> dims = ToInts(shape);
    if (dims.size() != 2) {
      throw py::value_error(
          "a ShardSpec's shard_shape is (height, width), not " +
          Repr(IntTuple(dims)));
    }
    s.shape = std::array<int64_t, 2>{dims[0], dims[1]};
  }
  s.orientation = Orientation(orientation);
  return s;
}

PyNdShardSpec MakeNd(py::handle shape, py::handle grid, py::handle orientation,
                     py::handle distribution) {
  PyNdShardSpec s;
  s.shard_shape = ToInts(shape);
  s.grid = RangesOf(grid);
  s.orientation = Orientation(orientation);
  s.distribution = NamedEnum(distribution, &ttnn::DistributionFromName,
                             ttnn::NameKind::kDistribution);
  return s;
}

void BindShardSpecs(py::module_& m) {
  py::class_<PyShardSpec>(
      m, "ShardSpec",
      "ttnn.ShardSpec(grid, shard_shape, shard_orientation): a 2-D shard.\n"
      "shard_shape None: derived by TensorSpec from the tensor's shape and "
      "the grid\n(a CoreGrid's rectangle from core (0,0)) as\n"
      "ttnn.create_sharded_memory_config derives it.")
      .def(py::init([](py::handle grid, Typed<kOptionalIntsHint> shape,
                       py::handle orientation) {
             return MakeShard(grid, shape, orientation);
           }),
           py::arg("grid"), py::arg("shard_shape") = py::none(),
           py::arg("shard_orientation") = py::str("ROW_MAJOR"))
      .def_readonly("grid", &PyShardSpec::grid)
      .def_property_readonly(
          "shape",
          [](const PyShardSpec& s) -> Typed<kOptionalIntTupleHint> {
            return ShapeOrNone(s.shape);
          })
      .def_property_readonly(
          "orientation",
          [](const PyShardSpec& s) {
            return std::string(ttnn::OrientationName(s.orientation));
          })
      .def("__repr__", &ShardRepr)
      .def("__reduce__",
           [](py::handle self) {
             return Reduce(self,
                           py::make_tuple(self.attr("grid"), self.attr("shape"),
                                          self.attr("orientation")));
           })
      .def("__eq__", [](const PyShardSpec& a, py::handle b) {
        return Equal<PyShardSpec>(a, b, &SameShard);
      });
  py::class_<PyNdShardSpec>(m, "NdShardSpec",
                            "ttnn.NdShardSpec(shard_shape, grid, orientation, "
                            "shard_distribution_strategy).")
      .def(py::init([](Typed<kIntsHint> shape, py::handle grid,
                       py::handle orientation, py::handle distribution) {
             return MakeNd(shape, grid, orientation, distribution);
           }),
           py::arg("shard_shape"), py::arg("grid"),
           py::arg("orientation") = py::str("ROW_MAJOR"),
           py::arg("shard_distribution_strategy") = py::str("ROUND_ROBIN_1D"))
      .def_property_readonly(
          "shard_shape",
          [](const PyNdShardSpec& s) -> Typed<kIntTupleHint> {
            return IntTuple(s.shard_shape);
          })
      .def_readonly("grid", &PyNdShardSpec::grid)
      .def_property_readonly(
          "orientation",
          [](const PyNdShardSpec& s) {
            return std::string(ttnn::OrientationName(s.orientation));
          })
      .def_property_readonly(
          "shard_distribution_strategy",
          [](const PyNdShardSpec& s) {
            return std::string(ttnn::DistributionName(s.distribution));
          })
      .def("__repr__", &NdRepr)
      .def("__reduce__",
           [](py::handle self) {
             return Reduce(
                 self,
                 py::make_tuple(self.attr("shard_shape"), self.attr("grid"),
                                self.attr("orientation"),
                                self.attr("shard_distribution_strategy")));
           })
      .def("__eq__", [](const PyNdShardSpec& a, py::handle b) {
        return Equal<PyNdShardSpec>(a, b, &SameNd);
      });
}

PyMemoryConfig MakeMemory(py::handle memory_layout, py::handle buffer_type,
                          py::handle shard_spec, py::handle nd_shard_spec) {
  PyMemoryConfig c;
  c.layout = !nd_shard_spec.is_none()
                 ? ttnn::TensorMemoryLayout::kNdSharded
                 : NamedEnum(memory_layout, &ttnn::MemoryLayoutFromName,
                             ttnn::NameKind::kMemoryLayout);
  c.buffer_type = NamedEnum(buffer_type, &ttnn::BufferTypeFromName,
                            ttnn::NameKind::kBufferType);
  if (!shard_spec.is_none()) {
    if (!py::isinstance<PyShardSpec>(shard_spec)) {
      throw py::type_error("shard_spec is a ShardSpec or None, not " +
                           Repr(shard_spec));
    }
    c.shard_spec = shard_spec.cast<PyShardSpec>();
  }
  if (!nd_shard_spec.is_none()) {
    if (!py::isinstance<PyNdShardSpec>(nd_shard_spec)) {
      throw py::type_error("nd_shard_spec is an NdShardSpec or None, not " +
                           Repr(nd_shard_spec));
    }
    c.nd_shard_spec = nd_shard_spec.cast<PyNdShardSpec>();
  }
  PrepareMemoryConfig(c);
  return c;
}

void BindMemoryConfig(py::module_& m) {
  py::class_<PyMemoryConfig>(
      m, "MemoryConfig",
      "ttnn.MemoryConfig(memory_layout, buffer_type, shard_spec) or\n"
      "MemoryConfig(buffer_type=..., nd_shard_spec=...).")
      .def(py::init([](py::handle memory_layout, py::handle buffer_type,
                       Typed<kOptionalShardSpecHint> shard_spec,
                       Typed<kOptionalNdShardSpecHint> nd_shard_spec) {
             return MakeMemory(memory_layout, buffer_type, shard_spec,
                               nd_shard_spec);
           }),
           py::arg("memory_layout") = py::str("INTERLEAVED"),
           py::arg("buffer_type") = py::str("DRAM"),
           py::arg("shard_spec") = py::none(),
           py::arg("nd_shard_spec") = py::none())
      .def_property_readonly(
          "memory_layout",
          [](const PyMemoryConfig& c) {
            return std::string(ttnn::MemoryLayoutName(c.layout));
          })
      .def_property_readonly(
          "buffer_type",
          [](const PyMemoryConfig& c) {
            return std::string(ttnn::BufferTypeName(c.buffer_type));
          })
      .def_readonly("shard_spec", &PyMemoryConfig::shard_spec)
      .def_readonly("nd_shard_spec", &PyMemoryConfig::nd_shard_spec)
      .def("is_sharded",
           [](const PyMemoryConfig& c) { return ttnn::IsSharded(c.layout); })
      .def("__repr__", &MemoryRepr)
      // A resolved config has both shard specs and its own layout, which
      // the constructor would not give back: _memory_config sets them.
      .def("__reduce__",
           [](py::handle self) {
             return py::make_tuple(
                 py::module_::import("hlolayout.ttnn").attr("_memory_config"),
                 py::make_tuple(
                     self.attr("memory_layout"), self.attr("buffer_type"),
                     self.attr("shard_spec"), self.attr("nd_shard_spec")));
           })
      .def("__eq__", [](const PyMemoryConfig& a, py::handle b) {
        return Equal<PyMemoryConfig>(
            a, b, [](const PyMemoryConfig& p, const PyMemoryConfig& q) {
              return p.layout == q.layout && p.buffer_type == q.buffer_type &&
                     SameOptional(p.shard_spec, q.shard_spec, &SameShard) &&
                     SameOptional(p.nd_shard_spec, q.nd_shard_spec, &SameNd);
            });
      });
}

PyTile MakePyTile(py::handle shape) {
  std::vector<int64_t> dims = ToInts(shape);
  if (dims.size() != 2) {
    throw py::value_error("a Tile's tile_shape is (height, width), not " +
                          Repr(IntTuple(dims)));
  }
  absl::StatusOr<ttnn::Tile> t = ttnn::MakeTile(dims[0], dims[1]);
  if (!t.ok()) RaiseStatus(t.status());
  return PyTile{*t};
}

// DeviceParams(l1_alignment, dram_alignment, l1_banks, dram_banks, name):
// device `name`'s numbers, each overridden when given.
PyDeviceParams MakeParams(Typed<kOptionalIntHint> l1_alignment,
                          Typed<kOptionalIntHint> dram_alignment,
                          Typed<kOptionalIntHint> l1_banks,
                          Typed<kOptionalIntHint> dram_banks,
                          Typed<kStrHint> name) {
  PyDeviceParams p = MakeDeviceParams(py::str(name).cast<std::string>());
  ttnn::DeviceParams& d = p.choice.params;
  if (!l1_alignment.is_none()) d.l1_alignment = ToInt(l1_alignment);
  if (!dram_alignment.is_none()) d.dram_alignment = ToInt(dram_alignment);
  if (!l1_banks.is_none()) d.l1_banks = ToInt(l1_banks);
  if (!dram_banks.is_none()) d.dram_banks = ToInt(dram_banks);
  return p;
}

void BindTileAndDevice(py::module_& m) {
  py::class_<PyTile>(m, "Tile", "ttnn.Tile((height, width)).")
      .def(py::init([](Typed<kIntsHint> shape) { return MakePyTile(shape); }),
           py::arg("tile_shape") = py::make_tuple(32, 32))
      .def_property_readonly("tile_shape",
                             [](const PyTile& t) -> Typed<kIntTupleHint> {
                               return py::make_tuple(t.tile.height,
                                                     t.tile.width);
                             })
      .def("__reduce__",
           [](py::handle self) {
             return Reduce(self, py::make_tuple(self.attr("tile_shape")));
           })
      .def("__repr__", [](const PyTile& t) {
        return absl::StrFormat("Tile((%d, %d))", t.tile.height, t.tile.width);
      });
  py::class_<PyDeviceParams> c(
      m, "DeviceParams",
      "The device numbers the model needs: those of device `name` (a\n"
      "Wormhole n150 by default; \"none\": an n150's numbers and no fit "
      "check),\neach overridden when given.");
  c.def(py::init(&MakeParams), py::arg("l1_alignment") = py::none(),
        py::arg("dram_alignment") = py::none(),
        py::arg("l1_banks") = py::none(), py::arg("dram_banks") = py::none(),
        py::arg("name") = py::str("wormhole_n150"))
      .def_readonly("name", &PyDeviceParams::name)
      .def("__reduce__", [](py::handle self) {
        return Reduce(
            self,
            py::make_tuple(self.attr("l1_alignment"),
                           self.attr("dram_alignment"), self.attr("l1_banks"),
                           self.attr("dram_banks"), self.attr("name")));
      });
  static constexpr std::pair<const char*, int64_t ttnn::DeviceParams::*>
      kFields[] = {{"l1_alignment", &ttnn::DeviceParams::l1_alignment},
                   {"dram_alignment", &ttnn::DeviceParams::dram_alignment},
                   {"l1_banks", &ttnn::DeviceParams::l1_banks},
                   {"dram_banks", &ttnn::DeviceParams::dram_banks}};
  for (const auto& [name, field] : kFields) {
    auto f = field;
    c.def_property(
        name, [f](const PyDeviceParams& p) { return p.choice.params.*f; },
        [f](PyDeviceParams& p, py::handle v) {
          p.choice.params.*f = ToInt(v);
        });
  }
}

}  // namespace

std::string EnumText(py::handle value) {
  std::string s;
  if (PyUnicode_Check(value.ptr())) {
    Py_ssize_t n = 0;
    const char* p = PyUnicode_AsUTF8AndSize(value.ptr(), &n);
    if (p == nullptr) throw py::error_already_set();
    s.assign(p, static_cast<size_t>(n));
  } else {
    py::object name = py::getattr(value, "name", value);
    s = py::str(name).cast<std::string>();
  }
  const size_t dot = s.rfind('.');
  if (dot != std::string::npos) s.erase(0, dot + 1);
  const size_t colons = s.rfind("::");
  if (colons != std::string::npos) s.erase(0, colons + 2);
  return s;
}

int64_t ToInt(py::handle value) {
  PyObject* v = value.ptr();
  int overflow = 0;
  if (PyLong_CheckExact(v)) {
    const long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow == 0) return n;
  } else if (PyIndex_Check(v)) {  // bool, NumPy integers, int subclasses
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(v));
    if (!index) throw py::error_already_set();
    const long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow == 0) return n;
  } else {
    // Not int(x): 1.5 is not the core 1, nor "7" the core 7 (tt-metal's
    // bindings refuse both).
    throw py::type_error(absl::StrCat(
        "expected an int, got ",
        std::string(py::str(py::type::of(value).attr("__name__")))));
  }
  PyErr_SetString(
      PyExc_OverflowError,
      absl::StrCat(std::string(py::repr(value)), " does not fit in 64 bits")
          .c_str());
  throw py::error_already_set();
}

std::vector<int64_t> ToInts(py::handle values) {
  std::vector<int64_t> out;
  PyObject* v = values.ptr();
  if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
    // Plain ints read in place (nothing they do can change the sequence);
    // anything else as below.
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    PyObject** items = PySequence_Fast_ITEMS(v);
    out.resize(static_cast<size_t>(n));
    Py_ssize_t i = 0;
    for (int overflow = 0; i < n && PyLong_CheckExact(items[i]); ++i) {
      out[i] = PyLong_AsLongLongAndOverflow(items[i], &overflow);
      if (overflow != 0) break;
    }
    if (i == n) return out;
    out.clear();
  }
  if (PyTuple_CheckExact(values.ptr()) || PyList_CheckExact(values.ptr())) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(values);
    out.reserve(s.size());
    for (py::handle v : s) out.push_back(ToInt(v));
    return out;
  }
  for (py::handle v : py::iter(values)) out.push_back(ToInt(v));
  return out;
}

void PrepareMemoryConfig(PyMemoryConfig& c) {
  ttnn::MemoryConfig& in = c.input;
  in = ttnn::MemoryConfig();
  in.buffer_type = c.buffer_type;
  c.derive_shard_shape = false;
  c.status = absl::OkStatus();
  if (c.nd_shard_spec) {
    const PyNdShardSpec& nd = *c.nd_shard_spec;
    absl::StatusOr<ttnn::CoreRangeSet> grid =
        ttnn::CoreRangeSet::Make(nd.grid.ranges);
    if (!grid.ok()) {
      c.status = grid.status();
      return;
    }
    in.layout = ttnn::TensorMemoryLayout::kNdSharded;
    in.created_with_nd_shard_spec = true;
    in.nd_shard_spec = ttnn::NdShardSpec{nd.shard_shape, *std::move(grid),
                                         nd.orientation, nd.distribution};
    return;
  }
  in.layout = c.layout;
  if (!c.shard_spec) return;
  const PyShardSpec& s = *c.shard_spec;
  absl::StatusOr<ttnn::CoreRangeSet> grid =
      ttnn::CoreRangeSet::Make(s.grid.ranges);
  if (!grid.ok()) {
    c.status = grid.status();
    return;
  }
  ttnn::ShardSpec spec;
  spec.grid = *std::move(grid);
  if (s.shape) spec.shape = *s.shape;
  spec.orientation = s.orientation;
  c.derive_shard_shape = !s.shape.has_value();
  in.shard_spec = std::move(spec);
}

ttnn::Tile TileOf(py::handle tile) {
  if (py::isinstance<PyTile>(tile)) return tile.cast<const PyTile&>().tile;
  return MakePyTile(tile).tile;
}

PyDeviceParams MakeDeviceParams(const std::string& name) {
  const bool none = absl::AsciiStrToLower(name) == "none";
  absl::StatusOr<const ttnn::Device*> device =
      ttnn::FindDevice(none ? "wormhole_n150" : name);
  if (!device.ok()) ThrowStatus(device.status());
  PyDeviceParams p;
  p.name = name;
  p.choice.named = true;
  p.choice.check_fit = !none;
  if (!none) p.choice.device = *device;
  p.choice.params = (*device)->params();
  return p;
}

const PyDeviceParams& DefaultDeviceParams() {
  static const PyDeviceParams* kDefault =
      new PyDeviceParams(MakeDeviceParams("wormhole_n150"));
  return *kDefault;
}

void RegisterTtnnConfig(py::module_& m) {
  BindCores(m);
  BindShardSpecs(m);
  BindMemoryConfig(m);
  // MemoryConfig.__reduce__'s maker (through hl.ttnn._memory_config, which
  // pickle finds by name): the fields as they were.
  m.def("_memory_config", [](py::handle layout, py::handle buffer_type,
                             py::handle shard, py::handle nd) {
    PyMemoryConfig c =
        MakeMemory(py::str("INTERLEAVED"), buffer_type, shard, nd);
    c.layout = NamedEnum(layout, &ttnn::MemoryLayoutFromName,
                         ttnn::NameKind::kMemoryLayout);
    PrepareMemoryConfig(c);
    return c;
  });
  BindTileAndDevice(m);
  for (const char* name :
       {"CoreCoord", "CoreRange", "CoreRangeSet", "ShardSpec", "NdShardSpec",
        "MemoryConfig", "Tile", "DeviceParams"}) {
    m.attr(name).attr("__module__") = "hlolayout.ttnn";
  }
}

}  // namespace hlolayout::pyext
