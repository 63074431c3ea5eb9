// python/hlolayout/_indexing.cc: the Indexer of `hlolayout.indexing`
// (index_util/tiled_indexer.h): element offsets of an array shape and their
// inverse, one at a time or in NumPy batches.
//
//   >>> ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
//   >>> ix.offset((2, 3))
//   17
//
// Batched calls release the GIL and split the work over threads; an
// Indexer is immutable after creation, safe to share between threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "_binding.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/shape/shape.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

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
  tables->base = t.OffsetInElements(index);
  tables->dims.assign(t.dimensions().begin(), t.dimensions().end());
  for (int64_t d = 0; d < t.rank(); ++d) {
    std::vector<int64_t> column(t.dimensions()[d]);
    for (int64_t k = 0; k < t.dimensions()[d]; ++k) {
      index[d] = k;
      column[k] = t.OffsetInElements(index) - tables->base;
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
        status = ix.indexer->TryOffsetInElements(row).status();
        status = absl::InvalidArgumentError(
            absl::StrCat("index at row ", bad, ": ", status.message()));
      }
    } else {
      std::vector<absl::Status> errors(std::max(threads, 1));
      std::atomic<int> next{0};
      ParallelFor(n, threads, 1 << 18, [&](int64_t begin, int64_t end) {
        const int slot = next.fetch_add(1);
        if (std::is_same<T, int64_t>::value) {
          errors[slot] = ix.indexer->TryOffsetsInElements(
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
          errors[slot] = ix.indexer->TryOffsetsInElements(
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
          ix.indexer->ElementAtOffsetInElements(in[i], absl::MakeSpan(idx + i * rank, rank));
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
    o[0] = t.OffsetInElements({});
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

}  // namespace

void RegisterIndexing(py::module_& m) {
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
             return Unwrap(ix.indexer->TryOffsetInElements(index));
           })
      .def("element_at",
           [](const PyIndexer& ix, int64_t offset) -> py::tuple {
             std::vector<int64_t> index(ix.indexer->rank());
             OffsetKind kind = Unwrap(
                 ix.indexer->TryElementAtOffsetInElements(offset, absl::MakeSpan(index)));
             return py::make_tuple(static_cast<int>(kind), IntTuple(index));
           })
      .def("offsets", &Offsets<int32_t>)
      .def("offsets", &Offsets<int64_t>)
      .def("elements_at", &ElementsAt)
      .def("all_offsets", &AllOffsets);

  m.def("default_threads", &DefaultThreads);
}

}  // namespace hlolayout::pyext
