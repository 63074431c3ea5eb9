#include "hlolayout/memory/subshape_list.h"

#include <algorithm>
#include <tuple>

#include "absl/container/inlined_vector.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/value_rules.h"

namespace hlolayout {
namespace memory_internal {
namespace {

// The subshapes of `shape` (itself included), and the index entries their
// indices take, `depth` being the shape's own.
void CountSubshapes(const Shape& shape, size_t depth, size_t* records,
                    size_t* indices) {
  ++*records;
  *indices += depth;
  if (!shape.IsTuple()) return;
  for (int64_t i = 0; i < shape.tuple_size(); ++i) {
    CountSubshapes(shape.tuple_shape(i), depth + 1, records, indices);
  }
}

// Writes the records of `shape`'s subtree from `*next` on, in pre-order,
// each with its index (`path`, copied to `*indices`).
void FillSubshapes(const Shape& shape, absl::InlinedVector<int64_t, 8>* path,
                   Subshape** next, int64_t** indices) {
  Subshape* const sub = (*next)++;
  sub->shape = &shape;
  if (!path->empty()) {
    std::copy(path->begin(), path->end(), *indices);
    sub->index = absl::MakeConstSpan(*indices, path->size());
    *indices += path->size();
  }
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      path->push_back(i);
      FillSubshapes(shape.tuple_shape(i), path, next, indices);
      path->pop_back();
    }
  }
  sub->count = *next - sub;
}

}  // namespace

std::pair<int64_t, int64_t> SubshapeBytes(const Shape& shape) {
  if (shape.IsTuple()) {
    const int64_t table = TupleTableBytes(shape);
    return {table, table};
  }
  if (shape.IsArray()) {
    // Once per list: a list is made once per distinct shape object.
    const absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
    return sizes.ok()
               ? std::make_pair(sizes->padded_bytes, sizes->logical_bytes)
               : std::make_pair<int64_t, int64_t>(0, 0);
  }
  if (shape.IsOpaque()) return {8, 8};
  return {0, 0};  // tokens
}

bool IsEffectiveScalar(const Shape& shape) {
  if (!shape.IsArray()) return false;
  for (int64_t d : shape.dimensions()) {
    if (d != 1) return false;
  }
  return true;
}

Subshape* SubshapeArena::List(const Shape& shape,
                              ScratchVector<int32_t>* child_offsets) {
  size_t records = 0, indices = 0;
  CountSubshapes(shape, 0, &records, &indices);
  Subshape* const list = Records(records);
  Subshape* next = list;
  int64_t* index = indices > 0 ? Indices(indices) : nullptr;
  absl::InlinedVector<int64_t, 8> path;
  FillSubshapes(shape, &path, &next, &index);
  for (size_t k = 0; k < records; ++k) {
    Subshape& sub = list[k];
    if (sub.shape->IsTuple()) {
      // Offsets fit 32 bits: a shape has fewer subshapes than the
      // positions' kMostIds (NumberPositions), or it is refused there.
      sub.children = static_cast<int32_t>(child_offsets->size());
      int64_t offset = 1;
      for (int64_t i = 0; i < sub.shape->tuple_size(); ++i) {
        child_offsets->push_back(static_cast<int32_t>(offset));
        offset += list[k + offset].count;
      }
    }
    std::tie(sub.bytes, sub.logical_bytes) = SubshapeBytes(*sub.shape);
    sub.whole_bytes = list[0].bytes;
    sub.whole_logical_bytes = list[0].logical_bytes;
    sub.effective_scalar = IsEffectiveScalar(*sub.shape);
    sub.memory_space = LiveValue::MemorySpaceOf(sub.shape);
  }
  return list;
}

void SubshapeArena::Adopt(SubshapeArena* other) {
  for (auto& chunk : other->record_chunks_) {
    record_chunks_.push_back(std::move(chunk));
  }
  for (auto& chunk : other->index_chunks_) {
    index_chunks_.push_back(std::move(chunk));
  }
  *other = SubshapeArena();
}

template <typename T>
T* SubshapeArena::Take(size_t n, size_t chunk_size,
                       std::vector<std::unique_ptr<T[]>>* chunks, T** next,
                       size_t* left) {
  if (n > *left) {
    // A long run gets a chunk of its own; the current one stays open.
    if (n > chunk_size / 4) {
      chunks->emplace_back(new T[n]);
      return chunks->back().get();
    }
    chunks->emplace_back(new T[chunk_size]);
    *next = chunks->back().get();
    *left = chunk_size;
  }
  T* const at = *next;
  *next += n;
  *left -= n;
  return at;
}

Subshape* SubshapeArena::Records(size_t n) {
  return Take(n, kChunkRecords, &record_chunks_, &next_record_, &records_left_);
}

int64_t* SubshapeArena::Indices(size_t n) {
  return Take(n, kChunkIndices, &index_chunks_, &next_index_, &indices_left_);
}

}  // namespace memory_internal
}  // namespace hlolayout
