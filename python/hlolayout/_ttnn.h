// python/hlolayout/_ttnn.h: the values of hl.ttnn that the two halves of the
// binding share: the memory config classes (_ttnn_config.cc: CoreCoord,
// CoreRange, CoreRangeSet, ShardSpec, NdShardSpec, MemoryConfig, Tile,
// DeviceParams) and the TensorSpec made from them (_ttnn.cc). Each class is
// a C++ value that its constructor checks once, so that TensorSpec(...)
// takes them as they are.
//
//   >>> from hlolayout import ttnn
//   >>> mc = ttnn.MemoryConfig("HEIGHT_SHARD", "L1")
//   ValueError: unknown memory layout 'HEIGHT_SHARD'; did you mean
//   'HEIGHT_SHARDED'? ...
//
// Enum values are strings ("L1", "BufferType.L1", ttnn's enums); a name
// that is none of its enum's raises ValueError with the nearest names
// (ttnn/names.h). What tt-metal refuses raises hl.ttnn.TtnnRefusal.
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_TTNN_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_TTNN_H_

#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "hlolayout/ttnn/memory_config.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tile.h"

namespace hlolayout::pyext {

// The stub types of the arguments and results the classes take and give as
// Python objects (Typed<...>, _binding.h).
inline constexpr char kIntHint[] = "int";
inline constexpr char kOptionalIntHint[] = "Optional[int]";
inline constexpr char kIntsHint[] = "Sequence[int]";
inline constexpr char kOptionalIntsHint[] = "Optional[Sequence[int]]";
inline constexpr char kIntTupleHint[] = "Tuple[int, ...]";
inline constexpr char kPairHint[] = "Tuple[int, int]";
inline constexpr char kOptionalIntTupleHint[] = "Optional[Tuple[int, ...]]";
inline constexpr char kCoreHint[] = "Union[CoreCoord, Sequence[int]]";
inline constexpr char kOptionalCoreHint[] =
    "Optional[Union[CoreCoord, Sequence[int]]]";
inline constexpr char kRangesHint[] = "Union[CoreRange, Sequence[Any]]";
inline constexpr char kRangeTupleHint[] = "Tuple[CoreRange, ...]";
inline constexpr char kCoresHint[] = "List[CoreCoord]";
inline constexpr char kOptionalShardSpecHint[] = "Optional[ShardSpec]";
inline constexpr char kOptionalNdShardSpecHint[] = "Optional[NdShardSpec]";
inline constexpr char kOptionalMemoryConfigHint[] = "Optional[MemoryConfig]";
inline constexpr char kMemoryConfigHint[] = "MemoryConfig";
inline constexpr char kOptionalTileHint[] =
    "Optional[Union[Tile, Sequence[int]]]";
inline constexpr char kOptionalDeviceHint[] =
    "Optional[Union[DeviceParams, str]]";
inline constexpr char kDeviceHint[] = "DeviceParams";
inline constexpr char kStrHint[] = "str";
inline constexpr char kDictHint[] = "Dict[str, Any]";
inline constexpr char kSpecAnswerHint[] = "SpecAnswer";
inline constexpr char kPlaceHint[] = "Tuple[CoreCoord, int, int]";

// Raises hl.ttnn.TtnnRefusal(message, rule or None) (the class ttnn.py
// registers with _ttnn_register).
[[noreturn]] void RaiseRefusal(const absl::Status& status);
// TtnnRefusal when the status carries a model rule, else ValueError.
[[noreturn]] void RaiseStatus(const absl::Status& status);
// Warns with hl.ttnn.TtnnDeviceWarning, pointing at the caller.
void WarnDevice(const std::string& message);

// The text of an enum value a user wrote: a str, or an object's `name`
// (ttnn's enums), else its str(); the part after the last '.', then after
// the last "::" ("DataType.BFLOAT16", "TensorMemoryLayout::L1").
std::string EnumText(pybind11::handle value);

// An int64 of an int, bool or NumPy integer (anything with __index__);
// TypeError for anything else (1.5, "7": int() would take them, tt-metal's
// bindings do not), OverflowError past 64 bits.
int64_t ToInt(pybind11::handle value);
// A tuple of ints of any iterable of them.
std::vector<int64_t> ToInts(pybind11::handle values);

// The C++ value of `h` when it is an object of the bound class T, else
// null: after the first call, an exact type is recognized without
// pybind11's type lookup (TensorSpec(...) reads its memory config and
// device so).
template <typename T>
const T* ValueOf(pybind11::handle h) {
  static PyTypeObject* const type =
      reinterpret_cast<PyTypeObject*>(pybind11::type::of<T>().ptr());
  if (Py_TYPE(h.ptr()) == type) {
    return static_cast<const T*>(
        reinterpret_cast<pybind11::detail::instance*>(h.ptr())
            ->get_value_and_holder()
            .value_ptr());
  }
  return pybind11::isinstance<T>(h) ? &h.cast<const T&>() : nullptr;
}

// Values read from Python str objects, remembered by object: the names a
// program passes are mostly the same few objects (ttnn.bfloat16, "TILE",
// "p150"), so TensorSpec(...) reads each once. Each remembered str is kept
// alive, so that no other object takes its address; at most 32.
template <typename V>
class StrCache {
 public:
  const V* Find(pybind11::handle name) const {
    for (const auto& [key, value] : entries_) {
      if (key == name.ptr()) return &value;
    }
    return nullptr;
  }
  void Add(pybind11::handle name, const V& value) {
    if (!PyUnicode_CheckExact(name.ptr()) || entries_.size() >= 32) return;
    entries_.emplace_back(name.inc_ref().ptr(), value);
  }

 private:
  std::vector<std::pair<PyObject*, V>> entries_;
};

// ttnn.CoreRangeSet: ranges as given (TensorSpec checks that they do not
// overlap).
struct PyCoreRangeSet {
  std::vector<ttnn::CoreRange> ranges;
};

// ttnn.ShardSpec: the shape None when it is to be derived.
struct PyShardSpec {
  PyCoreRangeSet grid;
  std::optional<std::array<int64_t, 2>> shape;
  ttnn::ShardOrientation orientation = ttnn::ShardOrientation::kRowMajor;
};

// ttnn.NdShardSpec.
struct PyNdShardSpec {
  std::vector<int64_t> shard_shape;
  PyCoreRangeSet grid;
  ttnn::ShardOrientation orientation = ttnn::ShardOrientation::kRowMajor;
  ttnn::ShardDistributionStrategy distribution =
      ttnn::ShardDistributionStrategy::kRoundRobin1D;
};

// ttnn.MemoryConfig, and the library's config TensorSpec is given, made
// once: from the ND spec when there is one, else the layout and 2-D spec.
// A grid the library refuses is kept as `status`, raised by TensorSpec.
struct PyMemoryConfig {
  ttnn::TensorMemoryLayout layout = ttnn::TensorMemoryLayout::kInterleaved;
  ttnn::BufferType buffer_type = ttnn::BufferType::kDram;
  std::optional<PyShardSpec> shard_spec;
  std::optional<PyNdShardSpec> nd_shard_spec;
  ttnn::MemoryConfig input;
  bool derive_shard_shape = false;
  absl::Status status;
};

// Fills `input`, `derive_shard_shape` and `status` from the fields.
void PrepareMemoryConfig(PyMemoryConfig& m);

// ttnn.Tile, checked (ttnn::MakeTile).
struct PyTile {
  ttnn::Tile tile;
};

// A ttnn::Tile of a Tile, or of a (height, width) to make one of.
ttnn::Tile TileOf(pybind11::handle tile);

// hl.ttnn.DeviceParams: a device's numbers for TensorSpec, and the device
// checked against.
struct PyDeviceParams {
  std::string name;
  ttnn::DeviceChoice choice;
};

// DeviceParams(name=...): the numbers of device `name` (or an n150's for
// "none", which checks nothing); ValueError for an unknown name.
PyDeviceParams MakeDeviceParams(const std::string& name);
// The default device (a Wormhole n150), made once.
const PyDeviceParams& DefaultDeviceParams();

// The classes above, in submodule `m` (their __module__ hlolayout.ttnn).
void RegisterTtnnConfig(pybind11::module_& m);

}  // namespace hlolayout::pyext

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_TTNN_H_
