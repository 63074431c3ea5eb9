// python/hlolayout/_ttnn.cc: the C++ half of `hlolayout.ttnn`: TensorSpec,
// a TTNN tensor spec made from hl.ttnn's values (_ttnn.h: checked C++ values,
// no text in between) and checked against a device (ttnn/spec_text.h), with
// its fields, its answer as a record (answers/ttnn.h: SpecAnswer, whose
// to_dict() is `hlolayout ttnn spec --json`), in words, its picture
// (views/ttnn_drawing.h), the buffer distribution, element locations; and
// mesh distributions.
//
//   >>> from hlolayout import ttnn
//   >>> s = ttnn.TensorSpec((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT)
//   >>> s.num_pages, s.answer().consumed_bytes_per_bank.bytes
//   (4, 2048)
//
// What tt-metal refuses raises hl.ttnn.TtnnRefusal (a ValueError); a bad
// name or value raises ValueError with the library's message.
#include "_ttnn.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <time.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "_answer.h"
#include "_binding.h"
#include "_instance.h"
#include "_record.h"
#include "absl/strings/ascii.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/names.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/sharded_config.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/views/ttnn_drawing.h"

namespace py = pybind11;

namespace hlolayout::pyext {

// hl.ttnn.TtnnRefusal and TtnnDeviceWarning, registered by ttnn.py.
PyObject* g_refusal = nullptr;
PyObject* g_device_warning = nullptr;

void RaiseRefusal(const absl::Status& status) {
  if (g_refusal == nullptr) ThrowStatus(status);
  absl::optional<std::string> rule = ttnn::RefusalRule(status);
  py::object error = py::reinterpret_borrow<py::object>(g_refusal)(
      std::string(status.message()),
      rule ? py::object(py::str(*rule)) : py::object(py::none()));
  PyErr_SetObject(g_refusal, error.ptr());
  throw py::error_already_set();
}

void RaiseStatus(const absl::Status& status) {
  if (ttnn::RefusalRule(status)) RaiseRefusal(status);
  ThrowStatus(status);
}

void WarnDevice(const std::string& message) {
  PyObject* category =
      g_device_warning != nullptr ? g_device_warning : PyExc_UserWarning;
  if (PyErr_WarnEx(category, message.c_str(), 1) != 0) {
    throw py::error_already_set();
  }
}

namespace {

// TensorSpec's arguments read, before the check.
struct SpecArgs {
  ttnn::TensorSpecInput in;
  const ttnn::DeviceChoice* device = nullptr;
  py::object memory_config, device_params, device_name;
};

// hl.ttnn.TensorSpec: the checked spec, the device it was checked against,
// and the Python values given, answered as they were given. `checked` is
// made in place from CheckSpec's result (no copy of the spec); it is never
// an error in a TensorSpec made.
struct PyTtnnSpec {
  // ttnn::CheckSpec of `a`'s input on its device (not an aggregate, so
  // that `new PyTtnnSpec(...)` does not zero its kilobyte first).
  explicit PyTtnnSpec(SpecArgs&& a)
      : checked(ttnn::CheckSpec(std::move(a.in), *a.device)),
        device(*a.device),
        memory_config(std::move(a.memory_config)),
        device_params(std::move(a.device_params)),
        device_name(std::move(a.device_name)) {}

  absl::StatusOr<ttnn::CheckedSpec> checked;
  ttnn::DeviceChoice device;
  py::object memory_config;  // as given (a default one for None)
  py::object device_params;  // the DeviceParams given, or None
  py::object device_name;    // the device name given (a str), or None
  py::object resolved;       // memory_config, made on first use
};

// What a spec was made from (the shard shape filled in when it was
// derived, which SpecText and DrawTtnnSpec do not read).
ttnn::TensorSpecInput InputOf(const ttnn::TensorSpec& s) {
  ttnn::TensorSpecInput in;
  in.shape = s.logical_shape();
  in.dtype = s.dtype();
  in.layout = s.layout();
  in.tile = s.tile();
  in.memory = s.input_memory_config();
  in.derive_shard_shape = s.shard_shape_derived();
  return in;
}

const ttnn::TensorSpec& Spec(const PyTtnnSpec& s) { return s.checked->spec; }

// The device checked against ("none": no check).
std::string DeviceName(const PyTtnnSpec& s) {
  return s.device.check_fit ? std::string(s.device.device->name) : "none";
}

const ttnn::BufferDistribution& Distribution(const PyTtnnSpec& s) {
  if (!Spec(s).distribution()) {
    throw py::value_error("an interleaved tensor has no buffer distribution");
  }
  return *Spec(s).distribution();
}

int64_t CoreIndex(const ttnn::BufferDistribution& d, int64_t core) {
  if (core < 0 || core >= d.num_cores()) {
    throw py::index_error("core index " + std::to_string(core) +
                          " is not in [0, " + std::to_string(d.num_cores()) +
                          ")");
  }
  return core;
}

// TensorSpec's dtype and layout as its Python half read them: the name
// lower-cased (dtype), "_LAYOUT" dropped (layout), then checked.
ttnn::DataType DataTypeOf(py::handle v) {
  static StrCache<ttnn::DataType> cache;
  if (const ttnn::DataType* known = cache.Find(v)) return *known;
  const std::string name = absl::AsciiStrToLower(EnumText(v));
  absl::optional<ttnn::DataType> t = ttnn::DataTypeFromName(name);
  if (!t) ThrowStatus(ttnn::CheckName(ttnn::NameKind::kDataType, name));
  cache.Add(v, *t);
  return *t;
}

ttnn::Layout LayoutOf(py::handle v) {
  static StrCache<ttnn::Layout> cache;
  if (const ttnn::Layout* known = cache.Find(v)) return *known;
  std::string name = EnumText(v);
  for (size_t at; (at = name.find("_LAYOUT")) != std::string::npos;) {
    name.erase(at, 7);
  }
  absl::optional<ttnn::Layout> l = ttnn::LayoutFromName(name);
  if (!l) ThrowStatus(ttnn::CheckName(ttnn::NameKind::kLayout, name));
  cache.Add(v, *l);
  return *l;
}

// The device checked against for a name (DeviceParams(name=...)).
const ttnn::DeviceChoice& ChoiceNamed(py::handle name) {
  static StrCache<ttnn::DeviceChoice> cache;
  if (const ttnn::DeviceChoice* known = cache.Find(name)) return *known;
  static ttnn::DeviceChoice last;
  last = MakeDeviceParams(py::str(name).cast<std::string>()).choice;
  cache.Add(name, last);
  return last;
}

// The default memory config (DRAM interleaved) as a Python object, made once.
py::handle DefaultMemoryConfig() {
  static PyObject* kDefault = [] {
    PyMemoryConfig c;
    PrepareMemoryConfig(c);
    return py::cast(std::move(c)).release().ptr();
  }();
  return kDefault;
}

void ReadDevice(py::handle device, SpecArgs& a) {
  if (device.is_none()) {
    a.device = &DefaultDeviceParams().choice;
  } else if (const PyDeviceParams* p = ValueOf<PyDeviceParams>(device)) {
    a.device = &p->choice;
    a.device_params = py::reinterpret_borrow<py::object>(device);
  } else {
    a.device = &ChoiceNamed(device);
    a.device_name = py::str(device);
  }
}

void ReadMemory(py::handle memory_config, SpecArgs& a) {
  py::handle m =
      memory_config.is_none() ? DefaultMemoryConfig() : memory_config;
  const PyMemoryConfig* config = ValueOf<PyMemoryConfig>(m);
  if (config == nullptr) {
    throw py::type_error("memory_config is a MemoryConfig or None, not " +
                         py::repr(m).cast<std::string>());
  }
  const PyMemoryConfig& c = *config;
  if (!c.status.ok()) RaiseStatus(c.status);
  a.in.memory = c.input;
  a.in.derive_shard_shape = c.derive_shard_shape;
  a.memory_config = py::reinterpret_borrow<py::object>(m);
}

// TensorSpec(shape, dtype, layout, memory_config, tile, device): each value
// read in C++, then ttnn::CheckSpec, its result made in place in the new
// PyTtnnSpec; refusals raise TtnnRefusal, the device's warnings warn.
std::unique_ptr<PyTtnnSpec> MakeSpec(py::handle shape, py::handle dtype,
                                     py::handle layout,
                                     py::handle memory_config, py::handle tile,
                                     py::handle device) {
  SpecArgs a;
  a.in.shape = ToInts(shape);
  ReadDevice(device, a);
  a.in.dtype = DataTypeOf(dtype);
  a.in.layout = LayoutOf(layout);
  if (!tile.is_none()) a.in.tile = TileOf(tile);
  ReadMemory(memory_config, a);
  // Not worth releasing the GIL for: a spec takes a microsecond or two.
  auto out = std::make_unique<PyTtnnSpec>(std::move(a));
  if (!out->checked.ok()) RaiseRefusal(out->checked.status());
  for (const std::string& w : out->checked->warnings) WarnDevice(w);
  return out;
}

using SpecInstances = FastInstances<PyTtnnSpec>;

// The C++ exception in flight as the Python error (pybind11's own
// translation for the exceptions MakeSpec throws).
void SetPythonError() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

constexpr const char* kSpecArgNames[] = {
    "shape", "dtype", "layout", "memory_config", "tile", "device", nullptr};

// TensorSpec.__init__ as the type's tp_init (a subclass's __init__ calling
// it, TensorSpec.__new__ then __init__): the arguments parsed by CPython,
// MakeSpec, and the spec placed in the instance (-1 and a Python error on
// failure).
int InitSpec(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject *shape, *dtype, *layout;
  PyObject *memory_config = Py_None, *tile = Py_None, *device = Py_None;
  if (!PyArg_ParseTupleAndKeywords(
          args, kwargs, "OOO|OOO:TensorSpec", const_cast<char**>(kSpecArgNames),
          &shape, &dtype, &layout, &memory_config, &tile, &device)) {
    return -1;
  }
  try {
    if (SpecInstances::Made(self)) {
      throw py::type_error("a TensorSpec is made once");
    }
    SpecInstances::Place(
        self, MakeSpec(shape, dtype, layout, memory_config, tile, device));
    return 0;
  } catch (...) {
    SetPythonError();
  }
  return -1;
}

// The arguments of a vectorcall as TensorSpec's six, in order: false for
// any other form (too many, a keyword unknown or given twice, a required
// one missing), which the slow path parses and words.
bool SpecArgsOf(PyObject* const* args, size_t nargsf, PyObject* kwnames,
                PyObject* (&out)[6]) {
  static PyObject* const* const names = [] {
    static PyObject* n[6];
    for (int i = 0; i < 6; ++i)
      n[i] = PyUnicode_InternFromString(kSpecArgNames[i]);
    return n;
  }();
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (n > 6) return false;
  for (int i = 0; i < 6; ++i) out[i] = i < n ? args[i] : nullptr;
  const Py_ssize_t k = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t i = 0; i < k; ++i) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, i);
    int at = 0;
    while (at < 6 && key != names[at] &&
           !(PyUnicode_Check(key) &&
             PyUnicode_CompareWithASCIIString(key, kSpecArgNames[at]) == 0)) {
      ++at;
    }
    if (at == 6 || out[at] != nullptr) return false;
    out[at] = args[n + i];
  }
  if (out[0] == nullptr || out[1] == nullptr || out[2] == nullptr) {
    return false;
  }
  for (int i = 3; i < 6; ++i) {
    if (out[i] == nullptr) out[i] = Py_None;
  }
  return true;
}

// The usual call of the type (its metaclass's tp_call: tp_new, then
// tp_init = InitSpec) with the vectorcall's arguments as a tuple and a
// dict.
PyObject* CallSpecSlowly(PyObject* type, PyObject* const* args, size_t nargsf,
                         PyObject* kwnames) {
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  py::tuple positional(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    positional[i] = py::reinterpret_borrow<py::object>(args[i]);
  }
  py::dict keywords;
  const Py_ssize_t k = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t i = 0; i < k; ++i) {
    keywords[PyTuple_GET_ITEM(kwnames, i)] =
        py::reinterpret_borrow<py::object>(args[n + i]);
  }
  return Py_TYPE(type)->tp_call(type, positional.ptr(),
                                k == 0 ? nullptr : keywords.ptr());
}

// TensorSpec(...) itself (the type object's tp_vectorcall, which its
// metaclass calls): no argument tuple or dict, no tp_new or tp_init
// dispatch, no lookup of the class, and the new instance filled at once.
PyObject* CallSpec(PyObject* type, PyObject* const* args, size_t nargsf,
                   PyObject* kwnames) {
  PyObject* a[6];
  try {
    if (!SpecArgsOf(args, nargsf, kwnames, a) ||
        type != SpecInstances::Type()) {
      return CallSpecSlowly(type, args, nargsf, kwnames);
    }
  } catch (...) {
    SetPythonError();
    return nullptr;
  }
  PyObject* self = SpecInstances::Allocate();
  if (self == nullptr) return nullptr;
  try {
    SpecInstances::Place(self, MakeSpec(a[0], a[1], a[2], a[3], a[4], a[5]));
    return self;
  } catch (...) {
    SetPythonError();
  }
  Py_DECREF(self);
  return nullptr;
}

// A subclass of pybind11's metaclass whose types may be called by
// vectorcall (the type object's tp_vectorcall, when set; else its tp_call,
// pybind11's).
py::object VectorcallMetaclass() {
  py::handle base(reinterpret_cast<PyObject*>(
      py::detail::get_internals().default_metaclass));
  py::object meta = py::reinterpret_borrow<py::object>(
      reinterpret_cast<PyObject*>(&PyType_Type))(
      "pybind11_vectorcall_type", py::make_tuple(base),
      py::dict(py::arg("__module__") = "hlolayout.ttnn"));
  auto* t = reinterpret_cast<PyTypeObject*>(meta.ptr());
  t->tp_vectorcall_offset = offsetof(PyTypeObject, tp_vectorcall);
  t->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  return meta;
}

py::object ResolvedMemory(PyTtnnSpec& s) {
  if (s.resolved) return s.resolved;
  const ttnn::MemoryConfig& m = Spec(s).memory_config();
  PyMemoryConfig c;
  c.layout = m.layout;
  c.buffer_type = m.buffer_type;
  if (m.sharded() && m.shard_spec) {
    c.shard_spec = PyShardSpec{{m.shard_spec->grid.ranges()},
                               m.shard_spec->shape,
                               m.shard_spec->orientation};
  }
  if (m.sharded() && m.nd_shard_spec) {
    const ttnn::NdShardSpec& n = *m.nd_shard_spec;
    c.nd_shard_spec = PyNdShardSpec{
        n.shard_shape, {n.grid.ranges()}, n.orientation, n.distribution};
  }
  PrepareMemoryConfig(c);
  s.resolved = py::cast(std::move(c));
  return s.resolved;
}

// The spec's SpecAnswer record (`full`: every core and page).
py::object Answer(const PyTtnnSpec& s, bool full) {
  ttnn::JsonLimits limits;
  if (full) limits = {-1, -1, -1};
  const ttnn::SpecNotes notes{DeviceName(s), s.checked->warnings};
  return ToPython(ttnn::AnswerSpec(Spec(s), limits, &notes));
}

std::string SpecTextOf(const PyTtnnSpec& s, bool full) {
  return ttnn::SpecText(InputOf(Spec(s)), *s.checked, s.device, full);
}

std::string DrawSvg(const PyTtnnSpec& s, py::handle core) {
  absl::optional<ttnn::CoreCoord> c;
  if (py::isinstance<ttnn::CoreCoord>(core)) {
    c = core.cast<ttnn::CoreCoord>();
  } else if (!core.is_none()) {
    std::vector<int64_t> xy = ToInts(core);
    if (xy.size() != 2) throw py::value_error("a core is (x, y)");
    c = ttnn::CoreCoord{xy[0], xy[1]};
  }
  const ttnn::TensorSpecInput in = InputOf(Spec(s));
  py::gil_scoped_release release;
  draw::TtnnDrawing d = Unwrap(draw::DrawTtnnSpec(in, Spec(s), s.device, c));
  return draw::GridsToSvg(d.grids, d.title);
}

py::tuple Refusal(const absl::Status& s) {
  return py::make_tuple("refused", std::string(s.message()),
                        ttnn::RefusalRule(s).value_or(""));
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

// Now in seconds: the calling thread's CPU time (`cpu`) or steady wall time.
double Seconds(bool cpu) {
  if (cpu) {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) +
           1e-9 * static_cast<double>(t.tv_nsec);
  }
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// What TensorSpec was made from, and its own fields.
void SpecFields(py::class_<PyTtnnSpec>& c) {
  c.def_property_readonly("shape",
                          [](const PyTtnnSpec& s) -> Typed<kIntTupleHint> {
                            return IntTuple(Spec(s).logical_shape());
                          })
      .def_property_readonly(
          "dtype",
          [](const PyTtnnSpec& s) {
            return std::string(ttnn::DataTypeName(Spec(s).dtype()));
          })
      .def_property_readonly(
          "layout",
          [](const PyTtnnSpec& s) {
            return std::string(ttnn::LayoutName(Spec(s).layout()));
          })
      .def_property_readonly(
          "tile", [](const PyTtnnSpec& s) { return PyTile{Spec(s).tile()}; })
      .def_property_readonly(
          "input_memory_config",
          [](const PyTtnnSpec& s) -> Typed<kMemoryConfigHint> {
            return s.memory_config;
          },
          "The memory config as given.")
      .def_property_readonly(
          "device",
          [](const PyTtnnSpec& s) -> Typed<kDeviceHint> {
            if (s.device_params) return s.device_params;
            return py::cast(
                PyDeviceParams{s.device_name ? s.device_name.cast<std::string>()
                                             : "wormhole_n150",
                               s.device});
          })
      .def_property_readonly(
          "memory_config",
          [](PyTtnnSpec& s) -> Typed<kMemoryConfigHint> {
            return ResolvedMemory(s);
          },
          "The memory config after TensorSpec resolved it "
          "(a derived shard\nshape filled in, a 2-D spec "
          "resolved to ND and back).")
      .def_property_readonly(
          "warnings", [](const PyTtnnSpec& s) { return s.checked->warnings; },
          "The device check's warnings (borderline fits).")
      .def_property_readonly("device_name", &DeviceName,
                             "The device checked against ('none': no check).")
      .def_property_readonly(
          "shard_shape_derived",
          [](const PyTtnnSpec& s) { return Spec(s).shard_shape_derived(); },
          "The shard shape was derived (ShardSpec(grid, None)).");
  using Pair = const std::array<int64_t, 2>& (ttnn::TensorSpec::*)() const;
  static constexpr std::pair<const char*, Pair> kPairs[] = {
      {"logical_2d_shape", &ttnn::TensorSpec::logical_2d_shape},
      {"physical_shape", &ttnn::TensorSpec::physical_shape},
      {"page_shape", &ttnn::TensorSpec::page_shape}};
  for (const auto& [name, get] : kPairs) {
    c.def_property_readonly(
        name, [get = get](const PyTtnnSpec& s) -> Typed<kPairHint> {
          return IntTuple((Spec(s).*get)());
        });
  }
  using Ints = const std::vector<int64_t>& (ttnn::TensorSpec::*)() const;
  static constexpr std::pair<const char*, Ints> kLists[] = {
      {"alignment", &ttnn::TensorSpec::alignment},
      {"padded_shape", &ttnn::TensorSpec::padded_shape},
      {"strides", &ttnn::TensorSpec::strides}};
  for (const auto& [name, get] : kLists) {
    c.def_property_readonly(
        name, [get = get](const PyTtnnSpec& s) -> Typed<kIntTupleHint> {
          return IntTuple((Spec(s).*get)());
        });
  }
  c.def_property_readonly(
       "page_size_bytes",
       [](const PyTtnnSpec& s) { return Spec(s).page_size_bytes(); })
      .def_property_readonly("packed_buffer_size_bytes",
                             [](const PyTtnnSpec& s) {
                               return Spec(s).packed_buffer_size_bytes();
                             })
      .def_property_readonly(
          "num_pages", [](const PyTtnnSpec& s) { return Spec(s).num_pages(); });
}

// Bytes per bank and per page, with the device's numbers by default.
void SizeFields(py::class_<PyTtnnSpec>& c) {
  c.def(
       "consumed_bytes_per_bank",
       [](const PyTtnnSpec& s, Typed<kOptionalIntHint> alignment,
          Typed<kOptionalIntHint> banks) {
         const int64_t a =
             alignment.is_none() ? Spec(s).page_alignment() : ToInt(alignment);
         const int64_t b = banks.is_none() ? Spec(s).num_banks() : ToInt(banks);
         if (a <= 0 || b <= 0) {
           throw py::value_error(
               "page_alignment and num_banks must be positive");
         }
         return Unwrap(Spec(s).ConsumedBytesPerBank(a, b));
       },
       py::arg("page_alignment") = py::none(),
       py::arg("num_banks") = py::none(),
       "The bytes one bank (or core) holds at most; the defaults are the\n"
       "device's for this buffer type.")
      .def(
          "aligned_page_size",
          [](const PyTtnnSpec& s, Typed<kOptionalIntHint> alignment) {
            const int64_t a = alignment.is_none() ? Spec(s).page_alignment()
                                                  : ToInt(alignment);
            if (a <= 0)
              throw py::value_error("page_alignment must be positive");
            return Spec(s).AlignedPageSize(a);
          },
          py::arg("page_alignment") = py::none());
}

// The answer as a record and a dict, in words, its picture, and the time
// of the C++ call construction wraps (python/bench).
void AnswerFields(py::class_<PyTtnnSpec>& c) {
  c.def(
       "answer",
       [](const PyTtnnSpec& s, bool full) -> Typed<kSpecAnswerHint> {
         return Answer(s, full);
       },
       py::arg("full") = false,
       "The spec's SpecAnswer record: the fields of `hlolayout ttnn spec "
       "--json`\n(full: every core and page).")
      .def(
          "to_dict",
          [](const PyTtnnSpec& s, bool full) -> Typed<kDictHint> {
            py::object a = Answer(s, full);
            return a.attr("to_dict")();
          },
          py::arg("full") = false,
          "`hlolayout ttnn spec --json` (--full: every core and page).")
      .def("text", &SpecTextOf, py::arg("full") = false,
           "The spec in words, as `hlolayout ttnn spec` prints it (device "
           "and\nwarnings included; `full`: every core and page).")
      .def(
          "draw",
          [](const PyTtnnSpec& s, Typed<kOptionalCoreHint> core) {
            return DrawSvg(s, core);
          },
          py::arg("core") = py::none(),
          "The SVG picture of `hlolayout ttnn draw --svg -`: the core grid\n"
          "with each core's shards and bytes, the pages (or, past 16,384, "
          "the\nshards) coloured by core, and with `core` ((x, y) or "
          "CoreCoord) that\ncore's device pages (ValueError for a core "
          "holding no shard).")
      .def("_repr_svg_",
           [](const PyTtnnSpec& s) { return DrawSvg(s, py::none()); })
      .def(
          "_repr_html_",
          [](const PyTtnnSpec& s) {
            return "<div class=\"hlolayout-ttnn\"><pre>" +
                   draw::XmlEscape(SpecTextOf(s, false)) + "</pre>" +
                   DrawSvg(s, py::none()) + "</div>";
          },
          "Jupyter: the spec's summary (`hlolayout ttnn spec`, device and\n"
          "warnings included) over its picture.")
      .def("__repr__",
           [](const PyTtnnSpec& s) {
             return "TensorSpec(" +
                    py::repr(IntTuple(Spec(s).logical_shape()))
                        .cast<std::string>() +
                    ", '" + std::string(ttnn::DataTypeName(Spec(s).dtype())) +
                    "', '" + std::string(ttnn::LayoutName(Spec(s).layout())) +
                    "', " + py::repr(s.memory_config).cast<std::string>() + ")";
           })
      .def(
          "_time_cpp",
          [](const PyTtnnSpec& s, int64_t n, bool cpu) {
            const ttnn::TensorSpecInput in = InputOf(Spec(s));
            py::gil_scoped_release release;
            const double start = Seconds(cpu);
            int64_t sink = 0;
            for (int64_t i = 0; i < n; ++i) {
              sink += ttnn::CheckSpec(in, s.device)->spec.num_pages();
            }
            const double t = Seconds(cpu) - start;
            return sink == 0 ? 0.0 : t / static_cast<double>(n);
          },
          py::arg("n"), py::arg("cpu") = false,
          "Seconds per ttnn::CheckSpec of this spec's input, over `n` calls "
          "(cpu: the\ncalling thread's CPU time, else wall time).");
}

// The buffer distribution's counts.
void DistributionCounts(py::class_<PyTtnnSpec>& c) {
  using Count = int64_t (ttnn::BufferDistribution::*)() const;
  static constexpr std::pair<const char*, Count> kCounts[] = {
      {"num_cores", &ttnn::BufferDistribution::num_cores},
      {"num_shards", &ttnn::BufferDistribution::num_shards},
      {"num_cores_with_data", &ttnn::BufferDistribution::num_cores_with_data},
      {"max_num_shards_per_core",
       &ttnn::BufferDistribution::max_shards_per_core},
      {"max_num_dev_pages_per_core",
       &ttnn::BufferDistribution::max_dev_pages_per_core}};
  for (const auto& [name, get] : kCounts) {
    c.def_property_readonly(name, [get = get](const PyTtnnSpec& s) {
      return (Distribution(s).*get)();
    });
  }
  c.def_property_readonly(
       "shard_shape_in_pages",
       [](const PyTtnnSpec& s) -> Typed<kIntTupleHint> {
         return IntTuple(Distribution(s).shard_shape_in_pages());
       })
      .def_property_readonly(
          "tensor_shape_in_pages",
          [](const PyTtnnSpec& s) -> Typed<kIntTupleHint> {
            return IntTuple(Distribution(s).tensor_shape_in_pages());
          });
}

// Which core holds what, and where an element lives.
void DistributionFields(py::class_<PyTtnnSpec>& c) {
  c.def_property_readonly(
       "cores",
       [](const PyTtnnSpec& s) -> Typed<kCoresHint> {
         py::list out;
         for (ttnn::CoreCoord c : Distribution(s).cores()) {
           out.append(py::cast(c));
         }
         return out;
       },
       "The cores shards are dealt to, in order (sharded specs).")
      .def(
          "shards_on_core",
          [](const PyTtnnSpec& s, int64_t core) {
            const ttnn::BufferDistribution& d = Distribution(s);
            return d.ShardsOnCore(CoreIndex(d, core));
          },
          py::arg("core"))
      .def(
          "host_pages",
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
          },
          py::arg("core"),
          "The host page at each device page of core number `core` (an "
          "index\ninto `cores`), -1 for padding: an int64 array.")
      .def(
          "place",
          [](const PyTtnnSpec& s, int64_t host_page) -> Typed<kPlaceHint> {
            const ttnn::BufferDistribution& d = Distribution(s);
            if (host_page < 0 || host_page >= d.host_pages()) {
              throw py::index_error("host page " + std::to_string(host_page) +
                                    " is not in [0, " +
                                    std::to_string(d.host_pages()) + ")");
            }
            const ttnn::DevicePlace p = d.Place(host_page);
            return py::make_tuple(py::cast(d.cores()[p.core_index]),
                                  p.device_page, p.shard);
          },
          py::arg("host_page"),
          "(core, device page, shard) holding host page `host_page`.")
      .def(
          "locate",
          [](const PyTtnnSpec& s, Typed<kIntsHint> index) -> Typed<kDictHint> {
            ttnn::ElementPlace p = Unwrap(ttnn::Locate(Spec(s), ToInts(index)));
            return ToPython(ttnn::AnswerPlace(Spec(s), p)).attr("to_dict")();
          },
          py::arg("index"),
          "Where element `index` lives: the dict of `hlolayout ttnn locate\n"
          "--json` (host_page, byte_in_page, bank or core, offset, ...).");
}

}  // namespace

// hl.ttnn's create_sharded_memory_config checks each enum name here:
// ValueError with the nearest names (ttnn/names.h), as the CLI's flags say
// it.
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
  py::module_ t = m.def_submodule("_ttnn", "hl.ttnn's classes");
  t.def(
      "register",
      [](py::object refusal, py::object warning) {
        g_refusal = refusal.release().ptr();
        g_device_warning = warning.release().ptr();
      },
      py::arg("refusal"), py::arg("warning"));
  RegisterTtnnConfig(t);
  // TensorSpec.answer()'s classes (answers/ttnn.h), and locate()'s, whose
  // to_dict() it returns.
  BindAnswer<ttnn::SpecAnswer>(t, "hlolayout.ttnn");
  BindAnswer<ttnn::PlaceAnswer>(t, "hlolayout.ttnn");
  py::class_<PyTtnnSpec> c(
      t, "TensorSpec",
      "ttnn.TensorSpec(shape, dtype, layout, memory_config, tile=..., "
      "device=...):\nwhat tt-metal computes for it. Every field of "
      "`hlolayout ttnn spec`, with\ntt-metal's names; to_dict() is exactly "
      "its --json (answer(): as a record).",
      py::metaclass(VectorcallMetaclass()));
  // TensorSpec(...) runs CallSpec (the type's vectorcall), a subclass's
  // construction InitSpec (the type's tp_init slot), without pybind11's
  // dispatch; `__init__` called by name (super().__init__(...)) this, which
  // does nothing to a spec already made, as py::init's __init__ did. (Not
  // a pybind11 constructor: MethodNamed says why.)
  c.attr("__init__") = MethodNamed(
      c, "__init__",
      [](py::handle self, Typed<kIntsHint> shape, py::handle dtype,
         py::handle layout, Typed<kOptionalMemoryConfigHint> memory_config,
         Typed<kOptionalTileHint> tile, Typed<kOptionalDeviceHint> device) {
        CheckSelf(self, SpecInstances::Type(), "__init__");
        if (SpecInstances::Made(self.ptr())) return;
        SpecInstances::Place(self.ptr(), MakeSpec(shape, dtype, layout,
                                                  memory_config, tile, device));
      },
      py::arg("shape"), py::arg("dtype"), py::arg("layout"),
      py::arg("memory_config") = py::none(), py::arg("tile") = py::none(),
      py::arg("device") = py::none());
  auto* type = reinterpret_cast<PyTypeObject*>(c.ptr());
  type->tp_init = &InitSpec;
  SpecInstances::Install(c);
  type->tp_vectorcall = &CallSpec;
  PyType_Modified(type);
  c.attr("__module__") = "hlolayout.ttnn";
  SpecFields(c);
  SizeFields(c);
  AnswerFields(c);
  DistributionCounts(c);
  DistributionFields(c);
  m.def("_ttnn_device_info", &DeviceInfo, py::arg("name"));
  m.def("_ttnn_derive_shard", &DeriveShard, py::arg("shape"), py::arg("x"),
        py::arg("y"), py::arg("memory_layout"), py::arg("orientation"));
  m.def("_ttnn_distribute", &Distribute, py::arg("shape"), py::arg("mesh"),
        py::arg("placements"), py::arg("mesh_shape_override"));
}

}  // namespace hlolayout::pyext
