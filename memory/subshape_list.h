// memory/subshape_list.h: the subshape lists of the memory analysis, kept
// side by side in arenas; not a public header (live_range_analyzer.h).
//
// A node's result, say `(s32[], (f32[8]{0}, f32[8]{0}))`, has one position
// per subshape, in pre-order:
//
//   {}      (s32[], (f32[8]{0}, f32[8]{0}))   16 bytes (2 pointers)
//   {0}     s32[]                              4
//   {1}     (f32[8]{0}, f32[8]{0})            16
//   {1,0}   f32[8]{0}                         32
//   {1,1}   f32[8]{0}                         32
//
// Every node of that Shape object shares one list. A list's records and
// their indices live in a SubshapeArena's chunks, many lists a chunk, so
// making a list takes no allocation of its own: the second thread of the
// analysis' node build makes the lists of its shapes beside the calling
// thread without waiting on the heap's lock (docs/memory-speed-heap.md).
// Records never move once made; an arena frees them when it is destroyed.
#ifndef HLOLAYOUT_MEMORY_SUBSHAPE_LIST_H_
#define HLOLAYOUT_MEMORY_SUBSHAPE_LIST_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/scratch_pool.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {
namespace memory_internal {

// One subshape of a list. Its index, shape and sizes (padded, and without
// tile/L padding: 8 per tuple element, an array's exact sizes, 8 for
// opaque, 0 for tokens) are the LiveValueShape its values point to.
struct Subshape : LiveValueShape {
  int64_t count = 1;  // subshapes in this one's subtree, itself included
  // The bytes of the list's first subshape (the whole result, a tuple's
  // index table only): what XLA's peak sweep counts for a value at any
  // index of it (PeakFinder).
  int64_t whole_bytes = 0;
  // The same without tile padding: what XLA:TPU's peak sweep counts
  // (its HloLiveRange counts logical sizes; docs/xla-tpu.md).
  int64_t whole_logical_bytes = 0;
  // LiveValue::MemorySpaceOf(shape): the peak sweep reads it here, next to
  // the sizes, not from the shape (scattered: a cache miss a value).
  int64_t memory_space = 0;
  bool effective_scalar = false;
  // A tuple's: where the analysis' table of child offsets (the one given
  // to SubshapeArena::List) lists the pre-order offsets (from this
  // subshape) of its elements, so that element i is found in one step, not
  // by walking the i before it (a loop state of N elements read by N
  // get-tuple-elements took N^2 steps). -1 for the others.
  int32_t children = -1;
};

// A view of one list: its first record (the whole result; its `count` is
// the list's size). 8 bytes, passed by value; equal when the same list.
class Subshapes {
 public:
  Subshapes() = default;
  explicit Subshapes(const Subshape* first) : first_(first) {}

  bool null() const { return first_ == nullptr; }
  size_t size() const { return static_cast<size_t>(first_->count); }
  const Subshape& operator[](size_t k) const { return first_[k]; }
  const Subshape* begin() const { return first_; }
  const Subshape* end() const { return first_ + size(); }

  friend bool operator==(Subshapes a, Subshapes b) {
    return a.first_ == b.first_;
  }
  friend bool operator!=(Subshapes a, Subshapes b) { return !(a == b); }

 private:
  const Subshape* first_ = nullptr;
};

// The pre-order offset, among `subshapes`, of the index `head` followed by
// `tail`; -1 when the shape has no such index. `child_offsets`: the
// tuples' element offsets (Subshape::children).
inline int64_t SubshapeAt(Subshapes subshapes,
                          absl::Span<const int32_t> child_offsets,
                          absl::Span<const int64_t> head,
                          absl::Span<const int64_t> tail = {}) {
  int64_t k = 0;
  for (absl::Span<const int64_t> part : {head, tail}) {
    for (int64_t i : part) {
      const Shape* s = subshapes[k].shape;
      if (!s->IsTuple() || i < 0 || i >= s->tuple_size()) return -1;
      k += child_offsets[subshapes[k].children + i];
    }
  }
  return k;
}

// (padded, logical) bytes of one subshape: 8 per tuple element, an array's
// exact sizes (0 when they overflow), 8 for opaque, 0 for tokens.
std::pair<int64_t, int64_t> SubshapeBytes(const Shape& shape);

// XLA's ShapeUtil::IsEffectiveScalar: an array whose dimensions are all 1.
bool IsEffectiveScalar(const Shape& shape);

// Owns lists. Not thread-safe: one thread makes lists in an arena at a
// time (a second thread makes its own, adopted after).
class SubshapeArena {
 public:
  SubshapeArena() = default;
  SubshapeArena(SubshapeArena&&) = default;
  SubshapeArena& operator=(SubshapeArena&&) = default;

  // Makes `shape`'s list (`shape` must outlive it: the records point to
  // it and its elements), its tuples' element offsets appended to
  // `child_offsets` (Subshape::children counts from the start of that
  // table).
  Subshape* List(const Shape& shape, ScratchVector<int32_t>* child_offsets);

  // Takes `other`'s lists (their records do not move); `other` is left
  // empty.
  void Adopt(SubshapeArena* other);

 private:
  // Room for `n` records (or indices) side by side.
  Subshape* Records(size_t n);
  int64_t* Indices(size_t n);
  // Room for `n` items from the open chunk `*next` (`*left` items left),
  // else from a new one of `chunk_size` items (or of `n` when `n` is over
  // a quarter of it).
  template <typename T>
  static T* Take(size_t n, size_t chunk_size,
                 std::vector<std::unique_ptr<T[]>>* chunks, T** next,
                 size_t* left);

  static constexpr size_t kChunkRecords = 1024;  // 72 KiB
  static constexpr size_t kChunkIndices = 4096;  // 32 KiB
  std::vector<std::unique_ptr<Subshape[]>> record_chunks_;
  std::vector<std::unique_ptr<int64_t[]>> index_chunks_;
  Subshape* next_record_ = nullptr;
  size_t records_left_ = 0;
  int64_t* next_index_ = nullptr;
  size_t indices_left_ = 0;
};

}  // namespace memory_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_SUBSHAPE_LIST_H_
