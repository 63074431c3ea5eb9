// python/hlolayout/_hlolayout.cc: the C++ half of `import hlolayout`.
//
//   >>> import hlolayout as hl
//   >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
//   >>> hl.Indexer(s).offset((2, 3))
//   17
//
// The pure-Python package (python/hlolayout/__init__.py) is the public API;
// this module holds the value types (Shape, Layout), the Indexer, the
// relayout engine behind to_layout/from_layout/relayout and entry points into
// the CLI's commands (explain, report, grid: their --json output is the Python
// answer, so both always agree). Every library error becomes ValueError with
// the library's message; the GIL is released around everything that can
// take long. to_layout/from_layout/relayout run the relayout engine. Shapes,
// Layouts and Indexers are immutable after creation, so they are safe to share
// between threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/dispatch.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/ops.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/hlo_reader.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/relayout/relayout.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/shape_proto.h"

namespace py = pybind11;

namespace hlolayout {
namespace {

[[noreturn]] void ThrowStatus(const absl::Status& status) {
  throw py::value_error(std::string(status.message()));
}

template <typename T>
T Unwrap(absl::StatusOr<T> value) {
  if (!value.ok()) ThrowStatus(value.status());
  return *std::move(value);
}

// Python's view of a shape: the value and its canonical text (XLA's
// HumanStringWithLayout), computed once because it is also the hash key.
struct PyShape {
  std::shared_ptr<const Shape> shape;
  std::string text;
};

PyShape MakePyShape(Shape shape) {
  std::string text = HumanStringWithLayout(shape);
  return {std::make_shared<const Shape>(std::move(shape)), std::move(text)};
}

PyShape ParsePyShape(const std::string& text) {
  absl::StatusOr<Shape> shape;
  {
    py::gil_scoped_release release;
    shape = ParseShape(text);
  }
  return MakePyShape(Unwrap(std::move(shape)));
}

py::tuple IntTuple(absl::Span<const int64_t> values) {
  py::tuple out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = py::int_(values[i]);
  return out;
}

py::dict SizesDict(const Shape& shape) {
  ArraySizes s = Unwrap(ComputeArraySizes(shape));
  py::dict d;
  d["logical_elements"] = s.logical_elements;
  d["tiled_elements"] = s.tiled_elements;
  d["padded_elements"] = s.padded_elements;
  d["logical_bytes"] = s.logical_bytes;
  d["tiled_bytes"] = s.tiled_bytes;
  d["padded_bytes"] = s.padded_bytes;
  d["padding_elements"] = s.padding_elements();
  d["padding_bytes"] = s.padding_bytes();
  d["expansion"] = s.expansion;
  d["element_bits"] = s.element_bits;
  d["packed"] = s.packed;
  return d;
}

// Offset tables of a layout without `*`: then the indexer's program only
// splits each coordinate and sums the pieces with strides, so
// Offset(i) = base + sum_d table[d][i_d] exactly, and a batch is a few
// table lookups per index (the tables stay in cache).
struct SeparableTables {
  int64_t base = 0;
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> table;
};

// Sum of the dimensions up to which tables are built (8 bytes each).
constexpr int64_t kMaxTableEntries = int64_t{1} << 20;

std::shared_ptr<const SeparableTables> MakeTables(const TiledIndexer& t) {
  if (!t.has_split_only_forward() || t.logical_elements() == 0) return nullptr;
  int64_t entries = 0;
  for (int64_t d : t.dimensions()) entries += d;
  if (entries > kMaxTableEntries) return nullptr;
  auto tables = std::make_shared<SeparableTables>();
  std::vector<int64_t> index(t.rank(), 0);
  tables->base = t.Offset(index);
  tables->dims.assign(t.dimensions().begin(), t.dimensions().end());
  for (int64_t d = 0; d < t.rank(); ++d) {
    std::vector<int64_t> column(t.dimensions()[d]);
    for (int64_t k = 0; k < t.dimensions()[d]; ++k) {
      index[d] = k;
      column[k] = t.Offset(index) - tables->base;
    }
    index[d] = 0;
    tables->table.push_back(std::move(column));
  }
  return tables;
}

// The Indexer: a TiledIndexer plus the shape it was built for.
struct PyIndexer {
  PyShape shape;
  std::shared_ptr<const TiledIndexer> indexer;
  std::shared_ptr<const SeparableTables> tables;  // null: not separable
};

PyIndexer MakeIndexer(const PyShape& shape) {
  if (!shape.shape->IsArray()) {
    throw py::value_error("indexer needs an array shape, got " + shape.text);
  }
  auto indexer = std::make_shared<const TiledIndexer>(
      Unwrap(TiledIndexer::Create(*shape.shape)));
  auto tables = MakeTables(*indexer);
  return {shape, std::move(indexer), std::move(tables)};
}

// offsets[i] = base + sum_d table[d][index[i][d]]; returns the first i
// whose index is out of bounds, or `end`.
template <int kRank, typename T>
int64_t TableOffsets(const SeparableTables& t, int rank, const T* in,
                     int64_t* out, int64_t begin, int64_t end) {
  const int r = kRank > 0 ? kRank : rank;
  const int64_t* tab[16];
  uint64_t dim[16];
  for (int d = 0; d < r; ++d) {
    tab[d] = t.table[d].data();
    dim[d] = static_cast<uint64_t>(t.dims[d]);
  }
  for (int64_t i = begin; i < end; ++i) {
    const T* p = in + i * r;
    int64_t o = t.base;
    bool bad = false;
    for (int d = 0; d < r; ++d) {
      uint64_t u = static_cast<uint64_t>(p[d]);
      const bool b = u >= dim[d];
      bad |= b;
      u = b ? 0 : u;
      o += tab[d][u];
    }
    out[i] = o;
    if (bad) return i;
  }
  return end;
}

template <typename T>
int64_t TableOffsetsAnyRank(const SeparableTables& t, int rank, const T* in,
                            int64_t* out, int64_t begin, int64_t end) {
  switch (rank) {
    case 1:
      return TableOffsets<1>(t, rank, in, out, begin, end);
    case 2:
      return TableOffsets<2>(t, rank, in, out, begin, end);
    case 3:
      return TableOffsets<3>(t, rank, in, out, begin, end);
    case 4:
      return TableOffsets<4>(t, rank, in, out, begin, end);
    case 5:
      return TableOffsets<5>(t, rank, in, out, begin, end);
    case 6:
      return TableOffsets<6>(t, rank, in, out, begin, end);
    default:
      return TableOffsets<0>(t, rank, in, out, begin, end);
  }
}

// Splits [0, n) over up to `threads` threads (1: inline) and waits.
template <typename F>
void ParallelFor(int64_t n, int threads, int64_t min_per_thread, F f) {
  int64_t parts = std::min<int64_t>(threads, n / min_per_thread);
  if (parts <= 1) {
    f(int64_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const int64_t step = (n + parts - 1) / parts;
  for (int64_t p = 1; p < parts; ++p) {
    const int64_t begin = p * step, end = std::min(n, begin + step);
    if (begin < end) pool.emplace_back([&f, begin, end] { f(begin, end); });
  }
  f(int64_t{0}, std::min(n, step));
  for (std::thread& t : pool) t.join();
}

int DefaultThreads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 8u));
}

// ix.offsets(idx): idx is a C-contiguous int32 or int64 array [n, rank]
// (the Python side converts other integer types).
template <typename T>
py::array_t<int64_t> Offsets(const PyIndexer& ix,
                             py::array_t<T, py::array::c_style> idx,
                             int threads) {
  const int64_t rank = ix.indexer->rank();
  if (idx.ndim() != 2 || idx.shape(1) != rank) {
    std::ostringstream msg;
    msg << "indices must have shape [n, " << rank << "], got (";
    for (py::ssize_t i = 0; i < idx.ndim(); ++i) {
      msg << (i ? ", " : "") << idx.shape(i);
    }
    msg << (idx.ndim() == 1 ? ",)" : ")");
    throw py::value_error(msg.str());
  }
  const int64_t n = idx.shape(0);
  py::array_t<int64_t> out(n);
  const T* in = idx.data();
  int64_t* o = out.mutable_data();
  absl::Status status;
  {
    py::gil_scoped_release release;
    if (ix.tables != nullptr && rank >= 1 && rank <= 16) {
      std::vector<int64_t> first_bad(std::max(threads, 1), n);
      std::atomic<int> slot{0};
      ParallelFor(n, threads, 1 << 18, [&](int64_t begin, int64_t end) {
        const int64_t bad =
            TableOffsetsAnyRank(*ix.tables, rank, in, o, begin, end);
        first_bad[slot.fetch_add(1)] = bad == end ? n : bad;
      });
      const int64_t bad = *std::min_element(first_bad.begin(), first_bad.end());
      if (bad < n) {
        std::vector<int64_t> row(in + bad * rank, in + (bad + 1) * rank);
        status = ix.indexer->TryOffset(row).status();
        status = absl::InvalidArgumentError(
            absl::StrCat("index at row ", bad, ": ", status.message()));
      }
    } else {
      std::vector<absl::Status> errors(std::max(threads, 1));
      std::atomic<int> next{0};
      ParallelFor(n, threads, 1 << 18, [&](int64_t begin, int64_t end) {
        const int slot = next.fetch_add(1);
        if (std::is_same<T, int64_t>::value) {
          errors[slot] = ix.indexer->TryOffsets(
              absl::MakeConstSpan(
                  reinterpret_cast<const int64_t*>(in) + begin * rank,
                  (end - begin) * rank),
              absl::MakeSpan(o + begin, end - begin));
          return;
        }
        constexpr int64_t kChunk = 4096;
        std::vector<int64_t> wide(kChunk * rank);
        for (int64_t b = begin; b < end && errors[slot].ok(); b += kChunk) {
          const int64_t e = std::min(end, b + kChunk);
          std::copy(in + b * rank, in + e * rank, wide.begin());
          errors[slot] = ix.indexer->TryOffsets(
              absl::MakeConstSpan(wide.data(), (e - b) * rank),
              absl::MakeSpan(o + b, e - b));
        }
      });
      for (const absl::Status& e : errors) {
        if (!e.ok()) {
          status = e;
          break;
        }
      }
    }
  }
  if (!status.ok()) ThrowStatus(status);
  return out;
}

// ix.elements_at(offsets) -> (indices [n, rank], kinds [n] uint8).
py::tuple ElementsAt(const PyIndexer& ix,
                     py::array_t<int64_t, py::array::c_style> offsets) {
  if (offsets.ndim() != 1) {
    throw py::value_error("offsets must be a 1-D integer array");
  }
  const int64_t n = offsets.shape(0), rank = ix.indexer->rank();
  const int64_t padded = ix.indexer->padded_elements();
  const int64_t* in = offsets.data();
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < 0 || in[i] >= padded) {
      throw py::value_error("offset " + std::to_string(in[i]) +
                            " at position " + std::to_string(i) +
                            " is out of range [0, " + std::to_string(padded) +
                            ")");
    }
  }
  py::array_t<int64_t> indices({n, rank});
  py::array_t<uint8_t> kinds(n);
  int64_t* idx = indices.mutable_data();
  uint8_t* k = kinds.mutable_data();
  {
    py::gil_scoped_release release;
    std::vector<int64_t> scratch(rank);
    for (int64_t i = 0; i < n; ++i) {
      const OffsetKind kind =
          ix.indexer->ElementAt(in[i], absl::MakeSpan(idx + i * rank, rank));
      if (kind != OffsetKind::kElement) {
        std::fill(idx + i * rank, idx + (i + 1) * rank, int64_t{-1});
      }
      k[i] = static_cast<uint8_t>(kind);
    }
  }
  return py::make_tuple(indices, kinds);
}

// ix.all_offsets(): the offset of every element, shaped like the array.
py::array_t<int64_t> AllOffsets(const PyIndexer& ix) {
  const TiledIndexer& t = *ix.indexer;
  std::vector<py::ssize_t> dims(t.dimensions().begin(), t.dimensions().end());
  py::array_t<int64_t> out(dims);
  int64_t* o = out.mutable_data();
  const int64_t n = t.logical_elements();
  const int64_t rank = t.rank();
  if (n == 0) return out;
  py::gil_scoped_release release;
  if (rank == 0) {
    o[0] = t.Offset({});
    return out;
  }
  const int64_t last = t.dimensions()[rank - 1];
  std::vector<int64_t> index(rank, 0);
  for (int64_t row = 0; row < n / last; ++row) {
    int64_t* dst = o + row * last;
    for (int64_t j = 0; j < last;) {
      index[rank - 1] = j;
      int64_t stride = 0, run = 0;
      const int64_t start = t.OffsetRun(index, &stride, &run);
      run = std::min(run, last - j);
      for (int64_t i = 0; i < run; ++i) dst[j + i] = start + i * stride;
      j += run;
    }
    for (int64_t d = rank - 2; d >= 0; --d) {  // next row
      if (++index[d] < t.dimensions()[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// `hlolayout ARGS...` in-process: (exit status, stdout, stderr).
py::tuple RunCli(const std::vector<std::string>& args,
                 const std::string& input) {
  int status;
  std::string out, err;
  {
    py::gil_scoped_release release;
    std::istringstream in(input);
    std::ostringstream o, e;
    cli::IoContext io{in, o, e};
    status = cli::Dispatch(args, io);
    out = o.str();
    err = e.str();
  }
  return py::make_tuple(status, py::bytes(out), py::bytes(err));
}

py::object ShapeOrNone(const Shape* shape) {
  if (shape == nullptr) return py::none();
  return py::cast(MakePyShape(*shape));
}

// read_hlo: modules as plain nested lists/dicts; the Python side wraps them.
py::list PyReadHlo(const std::string& text, const std::string& file_name) {
  HloReadOptions options;
  options.file_name = file_name;
  absl::StatusOr<std::vector<HloModule>> modules;
  {
    py::gil_scoped_release release;
    modules = ReadHloModules(text, options);
  }
  std::vector<HloModule> mods = Unwrap(std::move(modules));
  py::list out;
  for (const HloModule& m : mods) {
    py::list computations;
    for (size_t c = 0; c < m.computations.size(); ++c) {
      const HloComputation& comp = m.computations[c];
      py::list instructions;
      for (size_t i = 0; i < comp.instructions.size(); ++i) {
        const HloInstruction& in = comp.instructions[i];
        py::list operands;
        for (const HloOperand& op : in.operands) {
          operands.append(
              py::make_tuple(std::string(op.name), ShapeOrNone(op.shape)));
        }
        py::dict attributes;
        for (const HloAttribute& a : in.attributes) {
          py::str key(std::string(a.name));
          if (!attributes.contains(key)) attributes[key] = std::string(a.value);
        }
        py::dict d;
        d["name"] = std::string(in.name);
        d["opcode"] = std::string(in.opcode);
        d["shape"] = ShapeOrNone(in.shape);
        d["operands"] = operands;
        d["attributes"] = attributes;
        d["is_root"] = static_cast<int64_t>(i) == comp.root_index;
        d["parameter_number"] = in.parameter_number
                                    ? py::object(py::int_(*in.parameter_number))
                                    : py::object(py::none());
        instructions.append(d);
      }
      py::dict cd;
      cd["name"] = std::string(comp.header.name);
      cd["is_entry"] = static_cast<int64_t>(c) == m.entry_index;
      cd["instructions"] = instructions;
      computations.append(cd);
    }
    py::dict md;
    md["name"] = std::string(m.header.name);
    md["computations"] = computations;
    md["entry_index"] = m.entry_index;
    out.append(md);
  }
  return out;
}

// A CuTe layout's parts as Python values: ints and nested tuples.
py::object IntTupleToPy(const cute::IntTuple& t) {
  if (t.is_int()) return py::int_(t.value());
  py::tuple out(t.elements().size());
  for (size_t i = 0; i < t.elements().size(); ++i) {
    out[i] = IntTupleToPy(t.elements()[i]);
  }
  return out;
}

py::tuple CuteLayoutInfo(const std::string& text) {
  cute::Layout l = Unwrap(cute::ParseLayout(text));
  return py::make_tuple(cute::ToString(l), IntTupleToPy(l.shape()),
                        IntTupleToPy(l.stride()), l.size(), l.cosize(),
                        l.rank(), l.depth());
}

std::string CuteOp(const std::string& op,
                   const std::vector<std::string>& args) {
  std::vector<absl::string_view> views(args.begin(), args.end());
  absl::StatusOr<std::string> r;
  {
    py::gil_scoped_release release;
    r = cute::RunCuteOp(op, views);
  }
  return Unwrap(std::move(r));
}

std::vector<std::string> CuteOpNames() {
  std::vector<std::string> names;
  for (const cute::CuteOpInfo& op : cute::CuteOps()) {
    names.emplace_back(op.name);
  }
  return names;
}

// to_layout / from_layout / relayout: the relayout engine
// (relayout/relayout.h) between two shapes; the logical form of an array is
// its shape without layout (row-major, one byte per sub-byte element).
Shape LogicalShape(const Shape& shape) {
  Shape s = shape;
  s.clear_layout();
  return s;
}

RelayoutOptions MakeOptions(int threads, int fill, const std::string& packing) {
  RelayoutOptions options;
  options.threads = threads;
  if (fill < 0 || fill > 255) {
    throw py::value_error("fill must be a byte value 0..255, got " +
                          std::to_string(fill));
  }
  options.fill = static_cast<uint8_t>(fill);
  // "low_first" or "low-first" (the CLI's spelling), the same for high.
  std::string name = packing;
  std::replace(name.begin(), name.end(), '_', '-');
  absl::optional<PackingOrder> order = PackingOrderFromName(name);
  if (!order.has_value()) {
    throw py::value_error("packing must be 'low_first' or 'high_first', got '" +
                          packing + "'");
  }
  options.packing = *order;
  return options;
}

// A C-contiguous view of any buffer (NumPy array, bytes, bytearray,
// memoryview) through the buffer protocol itself: no format parsing, no
// copy. Throws BufferError for anything else (not C-contiguous, read-only
// when writing, no buffer at all): the Python side then converts or says
// what is wrong.
class ContiguousBuffer {
 public:
  ContiguousBuffer(py::handle object, bool writable) {
    const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object.ptr(), &view_, flags) != 0) {
      PyErr_Clear();  // NumPy says ValueError, memoryview BufferError
      throw py::buffer_error("not a C-contiguous buffer");
    }
  }
  ~ContiguousBuffer() { PyBuffer_Release(&view_); }
  ContiguousBuffer(const ContiguousBuffer&) = delete;
  ContiguousBuffer& operator=(const ContiguousBuffer&) = delete;
  uint8_t* data() const { return static_cast<uint8_t*>(view_.buf); }
  int64_t size() const { return static_cast<int64_t>(view_.len); }

 private:
  Py_buffer view_;
};

// A compiled relayout between two shapes, made once and kept by the Python
// side for each (shapes, threads, fill, packing) it meets: a repeated call
// then costs the copy and a few hundred nanoseconds, not a plan.
struct PyRelayoutPlan {
  std::shared_ptr<const RelayoutPlan> plan;
  std::string src_name, dst_name;  // "array", "buffer", ... for messages

  // Copies with the GIL released when there is enough to copy for the
  // release to pay.
  void Run(const ContiguousBuffer& in, uint8_t* dst) const {
    if (in.size() != plan->src_bytes()) {
      throw py::value_error(absl::StrCat(
          src_name, " has ", in.size(), " bytes, ", plan->from().ToString(true),
          " needs ", plan->src_bytes()));
    }
    absl::Status s;
    const auto src = absl::MakeConstSpan(in.data(), in.size());
    const auto out = absl::MakeSpan(dst, plan->dst_bytes());
    if (plan->dst_bytes() >= (int64_t{64} << 10)) {
      py::gil_scoped_release release;
      s = plan->Run(src, out);
    } else {
      s = plan->Run(src, out);
    }
    if (!s.ok()) ThrowStatus(s);
  }
};

PyRelayoutPlan MakeRelayoutPlan(const PyShape& from, const PyShape& to,
                                int threads, int fill,
                                const std::string& packing,
                                const std::string& src_name,
                                const std::string& dst_name) {
  const RelayoutOptions options = MakeOptions(threads, fill, packing);
  absl::StatusOr<RelayoutPlan> plan;
  {
    py::gil_scoped_release release;
    plan = RelayoutPlan::Create(*from.shape, *to.shape, options);
  }
  if (!plan.ok()) ThrowStatus(plan.status());
  return PyRelayoutPlan{std::make_shared<const RelayoutPlan>(*std::move(plan)),
                        src_name, dst_name};
}

// The shape without its layout: the logical form to_layout and from_layout
// copy from and to.
PyShape PyLogicalShape(const PyShape& shape) {
  return MakePyShape(LogicalShape(*shape.shape));
}

}  // namespace
}  // namespace hlolayout

namespace hlolayout {
void RegisterTriton(pybind11::module_& m);  // _triton.cc
}  // namespace hlolayout

PYBIND11_MODULE(_hlolayout, m) {
  using namespace hlolayout;
  RegisterTriton(m);
  m.doc() = "C++ core of hlolayout; use the `hlolayout` package instead.";
  m.attr("COMBINE") = py::int_(Tile::kCombineDimension);

  py::class_<Layout, std::shared_ptr<Layout>>(m, "_Layout");

  py::class_<PyShape>(m, "_Shape")
      .def_property_readonly("text", [](const PyShape& s) { return s.text; })
      .def_property_readonly(
          "human_string",
          [](const PyShape& s) { return HumanString(*s.shape); })
      .def_property_readonly(
          "element_type",
          [](const PyShape& s) {
            return std::string(PrimitiveTypeName(s.shape->element_type()));
          })
      .def_property_readonly(
          "dimensions",
          [](const PyShape& s) { return IntTuple(s.shape->dimensions()); })
      .def_property_readonly(
          "dynamic_dimensions",
          [](const PyShape& s) {
            py::tuple t(s.shape->dynamic_dimensions().size());
            for (size_t i = 0; i < t.size(); ++i) {
              t[i] = py::bool_(s.shape->dynamic_dimensions()[i]);
            }
            return t;
          })
      .def_property_readonly(
          "is_array", [](const PyShape& s) { return s.shape->IsArray(); })
      .def_property_readonly(
          "is_tuple", [](const PyShape& s) { return s.shape->IsTuple(); })
      .def_property_readonly(
          "tuple_shapes",
          [](const PyShape& s) {
            py::tuple t(s.shape->tuple_shapes().size());
            for (size_t i = 0; i < t.size(); ++i) {
              t[i] = py::cast(MakePyShape(s.shape->tuple_shapes()[i]));
            }
            return t;
          })
      .def_property_readonly(
          "has_layout", [](const PyShape& s) { return s.shape->has_layout(); })
      .def_property_readonly(
          "layout_minor_to_major",
          [](const PyShape& s) {
            return IntTuple(s.shape->layout().minor_to_major());
          })
      .def_property_readonly("layout_tiles",
                             [](const PyShape& s) {
                               const auto tiles = s.shape->layout().tiles();
                               py::tuple t(tiles.size());
                               for (size_t i = 0; i < tiles.size(); ++i) {
                                 t[i] = IntTuple(tiles[i].dimensions());
                               }
                               return t;
                             })
      .def_property_readonly("layout_text",
                             [](const PyShape& s) {
                               std::string out;
                               AppendLayout(&out, s.shape->layout());
                               return out;
                             })
      .def_property_readonly(
          "layout_memory_space",
          [](const PyShape& s) { return s.shape->layout().memory_space(); })
      .def_property_readonly("layout_element_size_in_bits",
                             [](const PyShape& s) {
                               return s.shape->layout().element_size_in_bits();
                             })
      .def_property_readonly(
          "layout_tail_padding_alignment_in_elements",
          [](const PyShape& s) {
            return s.shape->layout().tail_padding_alignment_in_elements();
          })
      .def_property_readonly(
          "layout_split_configs",
          [](const PyShape& s) {
            py::list out;
            for (const SplitConfig& c : s.shape->layout().split_configs()) {
              out.append(
                  py::make_tuple(c.dimension, IntTuple(c.split_indices)));
            }
            return py::tuple(out);
          })
      .def("to_proto",
           [](const PyShape& s) {
             return py::bytes(ShapeToProtoBytes(*s.shape));
           })
      .def("sizes", [](const PyShape& s) { return SizesDict(*s.shape); })
      .def("equals", [](const PyShape& a, const PyShape& b) {
        return Shape::Equal()(*a.shape, *b.shape);
      });

  m.def("parse_shape", &ParsePyShape, py::arg("text"));
  m.def(
      "shape_from_proto",
      [](py::bytes b) {
        std::string bytes = b;
        return MakePyShape(Unwrap(ShapeFromProtoBytes(bytes)));
      },
      py::arg("data"));
  m.def(
      "shape_with_layout",
      [](const PyShape& shape, const std::string& layout_text) {
        // Gives an array shape the layout written as "{1,0:T(8,128)}".
        Layout layout = Unwrap(ParseLayout(layout_text));
        Shape s = *shape.shape;
        s.set_layout(std::move(layout));
        absl::Status v = ValidateShape(s);
        if (!v.ok()) ThrowStatus(v);
        return MakePyShape(std::move(s));
      },
      py::arg("shape"), py::arg("layout"));

  py::class_<PyIndexer>(m, "_Indexer")
      .def(py::init(&MakeIndexer), py::arg("shape"))
      .def_property_readonly(
          "rank", [](const PyIndexer& ix) { return ix.indexer->rank(); })
      .def_property_readonly("dimensions",
                             [](const PyIndexer& ix) {
                               return IntTuple(ix.indexer->dimensions());
                             })
      .def_property_readonly(
          "logical_elements",
          [](const PyIndexer& ix) { return ix.indexer->logical_elements(); })
      .def_property_readonly(
          "padded_elements",
          [](const PyIndexer& ix) { return ix.indexer->padded_elements(); })
      .def_property_readonly(
          "tiled_elements",
          [](const PyIndexer& ix) { return ix.indexer->tiled_elements(); })
      .def_property_readonly(
          "element_bits",
          [](const PyIndexer& ix) { return ix.indexer->element_bits(); })
      .def("offset",
           [](const PyIndexer& ix, const std::vector<int64_t>& index) {
             return Unwrap(ix.indexer->TryOffset(index));
           })
      .def("element_at",
           [](const PyIndexer& ix, int64_t offset) -> py::tuple {
             std::vector<int64_t> index(ix.indexer->rank());
             OffsetKind kind = Unwrap(
                 ix.indexer->TryElementAt(offset, absl::MakeSpan(index)));
             return py::make_tuple(static_cast<int>(kind), IntTuple(index));
           })
      .def("offsets", &Offsets<int32_t>)
      .def("offsets", &Offsets<int64_t>)
      .def("elements_at", &ElementsAt)
      .def("all_offsets", &AllOffsets);

  m.def("run_cli", &RunCli, py::arg("args"), py::arg("input") = "");
  m.def("read_hlo", &PyReadHlo, py::arg("text"), py::arg("file_name") = "");
  m.def("cute_layout_info", &CuteLayoutInfo);
  m.def("cute_op", &CuteOp);
  m.def("cute_op_names", &CuteOpNames);
  m.def("default_threads", &DefaultThreads);
  m.def("logical_shape", &PyLogicalShape);
  py::class_<PyRelayoutPlan>(m, "_RelayoutPlan")
      .def(py::init(&MakeRelayoutPlan), py::arg("from_shape"),
           py::arg("to_shape"), py::arg("threads"), py::arg("fill"),
           py::arg("packing"), py::arg("src_name"), py::arg("dst_name"))
      .def_property_readonly(
          "src_bytes",
          [](const PyRelayoutPlan& p) { return p.plan->src_bytes(); })
      .def_property_readonly(
          "dst_bytes",
          [](const PyRelayoutPlan& p) { return p.plan->dst_bytes(); })
      // run(src): a new uint8 array of dst_bytes.
      .def("run",
           [](const PyRelayoutPlan& p, py::handle src) {
             const ContiguousBuffer in(src, /*writable=*/false);
             py::array_t<uint8_t> out(p.plan->dst_bytes());
             p.Run(in, out.mutable_data());
             return out;
           })
      // run_into(src, dst): dst is any writable C-contiguous buffer of
      // dst_bytes bytes (a NumPy array of any dtype and shape).
      .def("run_into",
           [](const PyRelayoutPlan& p, py::handle src, py::handle dst) {
             const ContiguousBuffer in(src, /*writable=*/false);
             const ContiguousBuffer out(dst, /*writable=*/true);
             if (out.size() != p.plan->dst_bytes()) {
               throw py::value_error(absl::StrCat(
                   p.dst_name, " needs ", p.plan->dst_bytes(), " bytes"));
             }
             p.Run(in, out.data());
           });
}
