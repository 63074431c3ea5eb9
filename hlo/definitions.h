// hlo/definitions.h: the names a computation defines, for the HLO
// reader's reference checks and shape lookups. Internal to the reader.
//
//   %p = f32[8]{0} parameter(0)        Add("p", hash, "f32[8]{0}", shape, g)
//   %n = f32[8]{0} negate(%p)          Find("p") == 0
//
// Why not a std::vector of string_views: an entry computation of an XLA
// dump can hold hundreds of thousands of instructions, and the memory this
// table touches for the first time is the dearest part of reading it (a
// fresh page costs more than the parsing of the line that fills it;
// docs/report-speed-history.md, "Seventh round"). So an entry is 32 bytes (a
// vector of 48-byte views, grown by doubling, touched 2.5 times as much),
// entries live in fixed blocks that are never moved or copied, and the
// blocks and the name index stay allocated from one computation to the
// next.
//
// A table of many blocks gives their pages back to the system when it is
// destroyed, before the blocks are freed: the CLI's heap keeps freed memory
// resident (cli/heap.cc), and blocks of 128 KiB, laid between the module's
// own allocations of the same reading, are of no use to the memory analysis
// that follows (on a 75 MB dump, 10 MiB resident through its peak;
// docs/report-speed.md, "Sixteenth round").
//
// Preconditions: names and shape texts outlive the table's use of them
// (they point into the text being read, or into strings the reader keeps).
#ifndef HLOLAYOUT_HLO_DEFINITIONS_H_
#define HLOLAYOUT_HLO_DEFINITIONS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#if defined(__linux__)
#endif

#include "absl/strings/string_view.h"
#include "hlolayout/hlo/names.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/util/pages.h"

namespace hlolayout::hlo_internal {

class DefinitionTable {
 public:
  // From this many blocks (1 MiB) on, the destructor drops their pages.
  static constexpr size_t kBlocksDropped = 8;

  DefinitionTable() = default;
  DefinitionTable(const DefinitionTable&) = delete;
  DefinitionTable& operator=(const DefinitionTable&) = delete;
  ~DefinitionTable() {
    if (blocks_.size() >= kBlocksDropped) DropBlockPages();
  }
  // A definition's Shape is one the reader keeps for the module (kKept), or
  // the shape cache's, good while the cache's generation is `generation`.
  static constexpr uint64_t kKept = ~uint64_t{0};
  // Scanned from the latest definition up to this many; indexed beyond.
  static constexpr size_t kScanned = 16;

  // One definition, as a value.
  struct Definition {
    absl::string_view name;
    absl::string_view shape_text;
    const Shape* shape;
    uint64_t generation;
  };

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Forgets every definition; keeps the memory.
  void Clear() {
    size_ = 0;
    indexed_ = 0;
    duplicate_ = -1;
    far_.clear();
    index_.Clear();
  }
  // Forgets the definitions from `n` on (index entries past `n` are ignored
  // until overwritten).
  void Truncate(size_t n) {
    if (n < size_) size_ = n;
    if (n < indexed_) indexed_ = n;
  }

  // Adds a definition; `hash` is NameHash(name).
  void Add(absl::string_view name, uint64_t hash, absl::string_view shape_text,
           const Shape* shape, uint64_t generation) {
    if ((size_ & kBlockMask) == 0 && (size_ >> kBlockBits) == blocks_.size()) {
      blocks_.push_back(std::make_unique<Entry[]>(kBlockSize));
    }
    Entry& e = At(size_);
    // As integers: the two may lie in different allocations.
    const int64_t offset =
        static_cast<int64_t>(reinterpret_cast<uintptr_t>(shape_text.data()) -
                             reinterpret_cast<uintptr_t>(name.data()));
    e.name = name.data();
    if (name.size() < kFar && shape_text.size() < kFar &&
        (shape_text.empty() ||
         (offset >= std::numeric_limits<int32_t>::min() &&
          offset <= std::numeric_limits<int32_t>::max()))) {
      e.name_size = static_cast<uint32_t>(name.size());
      e.shape_size = static_cast<uint32_t>(shape_text.size());
      e.shape_offset = shape_text.empty() ? 0 : static_cast<int32_t>(offset);
    } else {
      // Rare: a shape text kept apart from the line (inferred shapes), or
      // sizes past 4 GB.
      e.name_size = kFar;
      e.shape_size = static_cast<uint32_t>(far_.size());
      e.shape_offset = 0;
      far_.push_back(Far{name, shape_text});
    }
    SetShape(size_, shape, generation);
    ++size_;
    // The latest definition goes into the index with the next one: its slot
    // (prefetched by the caller when the name was read) has a whole line's
    // time to arrive, and a lookup compares it directly meanwhile.
    if (size_ > kScanned) IndexBefore(size_ - 1);
    latest_hash_ = hash;
  }
  void Add(absl::string_view name, absl::string_view shape_text,
           const Shape* shape, uint64_t generation) {
    Add(name, NameHash(name), shape_text, shape, generation);
  }

  absl::string_view name(size_t i) const {
    const Entry& e = At(i);
    if (e.name_size == kFar) return far_[e.shape_size].name;
    return absl::string_view(e.name, e.name_size);
  }
  absl::string_view shape_text(size_t i) const {
    const Entry& e = At(i);
    if (e.name_size == kFar) return far_[e.shape_size].shape_text;
    if (e.shape_size == 0) return absl::string_view();
    return absl::string_view(
        reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(e.name) +
                                      static_cast<intptr_t>(e.shape_offset)),
        e.shape_size);
  }
  const Shape* shape(size_t i) const { return At(i).shape; }
  uint64_t generation(size_t i) const {
    const uint32_t g = At(i).generation;
    return g == kKept32 ? kKept : g;
  }
  // The shape, when it is still good with the cache at `cache_generation`.
  const Shape* ShapeIfCurrent(size_t i, uint64_t cache_generation) const {
    const Entry& e = At(i);
    if (e.shape == nullptr) return nullptr;
    if (e.generation == kKept32 || e.generation == cache_generation) {
      return e.shape;
    }
    return nullptr;
  }
  Definition Get(size_t i) const {
    return Definition{name(i), shape_text(i), shape(i), generation(i)};
  }
  void SetShape(size_t i, const Shape* shape, uint64_t generation) {
    Entry& e = At(i);
    if (generation == kKept) {
      e.shape = shape;
      e.generation = kKept32;
    } else if (generation < kKept32) {
      e.shape = shape;
      e.generation = static_cast<uint32_t>(generation);
    } else {
      // A generation past 32 bits: decoded again from the text when asked.
      e.shape = nullptr;
      e.generation = 0;
    }
  }

  // The index of the latest definition of `name` (hash `hash`), or -1.
  int64_t Find(absl::string_view name, uint64_t hash) const {
    const int64_t latest = FindFrom(indexed_, name);
    if (latest >= 0 || indexed_ == 0) return latest;
    return FindIndexed(name, hash);
  }
  int64_t Find(absl::string_view name) const {
    const int64_t latest = FindFrom(indexed_, name);
    if (latest >= 0 || indexed_ == 0) return latest;
    return FindIndexed(name, NameHash(name));
  }
  // A definition whose name an earlier definition has (the first such
  // indexed; in a small table, the first in order), with that earlier one
  // in `*earlier`; -1 when every name is defined once. Indexes the
  // definitions not indexed yet (a small table is scanned instead).
  int64_t FindDuplicate(int64_t* earlier) {
    if (indexed_ == 0 && size_ <= kScanned) {
      for (size_t i = 1; i < size_; ++i) {
        const int64_t e = FindFrom(0, name(i), i);
        if (e >= 0) {
          *earlier = e;
          return static_cast<int64_t>(i);
        }
      }
      return -1;
    }
    if (indexed_ < size_) IndexBefore(size_);
    *earlier = duplicate_earlier_;
    return duplicate_;
  }
  // True when a name defined here is also defined in `other`.
  bool SharesNameWith(const DefinitionTable& other) const;
  // Brings the index slot of a name about to be added or looked up into the
  // cache (a large computation's index is larger than the cache).
  void Prefetch(uint64_t hash) const { index_.Prefetch(hash); }
  // Sets found[i] to Find(names[i]) for i < n: a batch of names is hashed,
  // and its index slots and likely entries fetched, before any is compared,
  // so that the cache misses overlap (the join of a computation cut in two
  // looks up some 100,000 names the second part did not define).
  void FindEach(const absl::string_view* names, size_t n,
                int64_t* found) const {
    constexpr size_t kBatch = 32;
    uint64_t hashes[kBatch];
    for (size_t begin = 0; begin < n; begin += kBatch) {
      const size_t end = std::min(n, begin + kBatch);
      for (size_t i = begin; i < end; ++i) {
        hashes[i - begin] = NameHash(names[i]);
        Prefetch(hashes[i - begin]);
      }
      for (size_t i = begin; i < end; ++i) {
        const int64_t guess = index_.FirstWithTag(hashes[i - begin]);
        if (guess >= 0 && static_cast<size_t>(guess) < size_) {
          __builtin_prefetch(&At(static_cast<size_t>(guess)));
        }
      }
      for (size_t i = begin; i < end; ++i) {
        found[i] = Find(names[i], hashes[i - begin]);
      }
    }
  }

 private:
  struct Entry {
    const char* name;
    const Shape* shape;
    uint32_t name_size;    // kFar: name and shape text in far_
    uint32_t shape_size;   // or far_'s index
    int32_t shape_offset;  // from `name`
    uint32_t generation;   // kKept32 for kKept
  };
  static_assert(sizeof(Entry) == 32, "two entries to a cache line");
  struct Far {
    absl::string_view name;
    absl::string_view shape_text;
  };
  static constexpr uint32_t kFar = ~uint32_t{0};
  static constexpr uint32_t kKept32 = ~uint32_t{0};
  static constexpr size_t kBlockBits = 12;
  static constexpr size_t kBlockSize = size_t{1} << kBlockBits;
  static constexpr size_t kBlockMask = kBlockSize - 1;

  Entry& At(size_t i) { return blocks_[i >> kBlockBits][i & kBlockMask]; }
  const Entry& At(size_t i) const {
    return blocks_[i >> kBlockBits][i & kBlockMask];
  }
  // The latest definition of `name` from `begin` on, by a scan, or -1.
  int64_t FindFrom(size_t begin, absl::string_view name) const {
    return FindFrom(begin, name, size_);
  }
  // The same among the definitions before `end`.
  int64_t FindFrom(size_t begin, absl::string_view name, size_t end) const {
    const size_t n = name.size();
    for (size_t i = end; i-- > begin;) {
      const absl::string_view d = this->name(i);
      if (d.size() == n && n > 0 && d[0] == name[0] &&
          SameBytes(d.data(), name.data(), n)) {
        return static_cast<int64_t>(i);
      }
    }
    return -1;
  }
  // Indexes the definitions before `end` not indexed yet: the one before
  // the latest (its hash in latest_hash_), or all of them the first time.
  void IndexBefore(size_t end) {
    const auto name_of = [this](uint32_t i) {
      return i < size_ ? name(i) : absl::string_view();
    };
    if (indexed_ + 1 == end) {
      NoteDuplicate(index_.Add(name(indexed_), latest_hash_,
                               static_cast<uint32_t>(indexed_), name_of),
                    indexed_);
    } else {
      for (; indexed_ < end; ++indexed_) {
        NoteDuplicate(index_.Add(name(indexed_),
                                 static_cast<uint32_t>(indexed_), name_of),
                      indexed_);
      }
    }
    indexed_ = end;
  }
  void NoteDuplicate(int64_t earlier, size_t i) {
    if (earlier >= 0 && duplicate_ < 0) {
      duplicate_ = static_cast<int64_t>(i);
      duplicate_earlier_ = earlier;
    }
  }
  int64_t FindIndexed(absl::string_view name, uint64_t hash) const
      __attribute__((noinline)) {
    return index_.Find(name, hash, [this](uint32_t i) {
      return i < size_ ? this->name(i) : absl::string_view();
    });
  }

  void DropBlockPages() {
    for (const std::unique_ptr<Entry[]>& block : blocks_) {
      hlolayout::DropWholePages(block.get(), sizeof(Entry) * kBlockSize);
    }
  }

  std::vector<std::unique_ptr<Entry[]>> blocks_;
  size_t size_ = 0;
  // Definitions [0, indexed_) are in index_ (none while there are at most
  // kScanned); the rest are scanned.
  size_t indexed_ = 0;
  uint64_t latest_hash_ = 0;
  std::vector<Far> far_;
  NameIndex index_;
  // The first definition indexed whose name an earlier one has, and that
  // one; -1: none.
  int64_t duplicate_ = -1;
  int64_t duplicate_earlier_ = -1;
};

inline bool DefinitionTable::SharesNameWith(
    const DefinitionTable& other) const {
  // The smaller table's names looked up in the larger one.
  const DefinitionTable& small = size_ <= other.size_ ? *this : other;
  const DefinitionTable& large = size_ <= other.size_ ? other : *this;
  constexpr size_t kBatch = 32;
  absl::string_view names[kBatch];
  int64_t found[kBatch];
  for (size_t begin = 0; begin < small.size_; begin += kBatch) {
    const size_t n = std::min(kBatch, small.size_ - begin);
    for (size_t i = 0; i < n; ++i) names[i] = small.name(begin + i);
    large.FindEach(names, n, found);
    for (size_t i = 0; i < n; ++i) {
      if (found[i] >= 0) return true;
    }
  }
  return false;
}

// The computations of the module being read, by name: each one's name and
// the offset where it is defined, in text order. Shared, like
// DefinitionTable, with a part's HloPartLinks::Side, where JoinHloParts
// looks names up in it (no table of all names is built again for the join).
// The names are copies the table keeps, not views into the text: a dump's
// computations are spread over all of it, and a lookup that compared the
// text's bytes would keep every page of it in memory while the reader
// gives the pages it has passed back (HloReadOptions::passed).
class ComputationTable {
 public:
  void Clear() {
    names_.clear();
    index_.Clear();
    blocks_.clear();
    used_ = kBlock;  // a new block for the next name
  }
  size_t size() const { return names_.size(); }
  absl::string_view name(size_t i) const { return names_[i].first; }
  size_t offset(size_t i) const { return names_[i].second; }
  // Adds computation `name` (hash `hash`), defined at `offset`, as index
  // size(); a name added before stays the one found (the reader refuses a
  // second definition before adding it).
  // A copy of `name` that lives as long as the table (and is not one of
  // its computations): the names a part calls but does not define, which
  // JoinHloParts looks up after the part's pages were given back.
  absl::string_view KeepName(absl::string_view name) { return Keep(name); }
  void Add(absl::string_view name, uint64_t hash, size_t offset) {
    names_.emplace_back(Keep(name), offset);
    index_.Add(name, hash, static_cast<uint32_t>(names_.size() - 1), NameOf());
  }
  // The index of the computation named `name` (hash `hash`), or -1.
  int64_t Find(absl::string_view name, uint64_t hash) const {
    return index_.Find(name, hash, NameOf());
  }
  // For looking many names up at once (Reader::LookUpCallees): the index
  // slot of `hash` into the cache, and the most likely index Find returns.
  void Prefetch(uint64_t hash) const { index_.Prefetch(hash); }
  int64_t FirstWithTag(uint64_t hash) const {
    return index_.FirstWithTag(hash);
  }
  const std::pair<absl::string_view, size_t>* data() const {
    return names_.data();
  }
  // True when a computation of this table has a name of `other`'s (the
  // smaller table's slots are scanned; no name is hashed again).
  bool SharesNameWith(const ComputationTable& other) const {
    if (other.size() < size()) return other.SharesNameWith(*this);
    return index_.SharesNameWith(other.index_, NameOf(), other.NameOf());
  }
  // Removes from `names` those that name a computation of the table (the
  // order of the rest kept), looked up as FindEach does.
  void DropFound(std::vector<absl::string_view>* names) const {
    if (names->empty()) return;
    std::unique_ptr<bool[]> found(new bool[names->size()]);
    FindEach(names->data(), names->size(), found.get());
    size_t kept = 0;
    for (size_t i = 0; i < names->size(); ++i) {
      if (!found[i]) (*names)[kept++] = (*names)[i];
    }
    names->resize(kept);
  }
  // Sets found[i] to whether names[i] (i < n) names a computation of the
  // table. The names lie far apart in the text, like the table's: a batch
  // of them is brought into the cache, hashed, and its index slots and
  // likely entries prefetched before any is compared (as
  // Reader::LookUpCallees), so that the misses overlap.
  void FindEach(const absl::string_view* names, size_t n, bool* found) const {
    constexpr size_t kBatch = 64;
    uint64_t hashes[kBatch];
    for (size_t begin = 0; begin < n; begin += kBatch) {
      const size_t end = std::min(n, begin + kBatch);
      for (size_t i = begin; i < end; ++i) __builtin_prefetch(names[i].data());
      for (size_t i = begin; i < end; ++i) {
        hashes[i - begin] = NameHash(names[i]);
        Prefetch(hashes[i - begin]);
      }
      for (size_t i = begin; i < end; ++i) {
        const int64_t guess = FirstWithTag(hashes[i - begin]);
        if (guess >= 0 && static_cast<size_t>(guess) < names_.size()) {
          __builtin_prefetch(names_[guess].first.data());
        }
      }
      for (size_t i = begin; i < end; ++i) {
        found[i] = Find(names[i], hashes[i - begin]) >= 0;
      }
    }
  }

 private:
  struct NameOfEntry {
    const std::vector<std::pair<absl::string_view, size_t>>* names;
    absl::string_view operator()(uint32_t i) const {
      return i < names->size() ? (*names)[i].first : absl::string_view();
    }
  };
  NameOfEntry NameOf() const { return NameOfEntry{&names_}; }
  // A copy of `name` in blocks that never move.
  absl::string_view Keep(absl::string_view name) {
    if (name.size() > kBlock / 4) {
      blocks_.push_back(std::make_unique<char[]>(name.size()));
      std::memcpy(blocks_.back().get(), name.data(), name.size());
      return absl::string_view(blocks_.back().get(), name.size());
    }
    if (kBlock - used_ < name.size()) {
      blocks_.push_back(std::make_unique<char[]>(kBlock));
      block_ = blocks_.back().get();
      used_ = 0;
    }
    char* at = block_ + used_;
    if (!name.empty()) std::memcpy(at, name.data(), name.size());
    used_ += name.size();
    return absl::string_view(at, name.size());
  }

  static constexpr size_t kBlock = size_t{64} << 10;
  std::vector<std::pair<absl::string_view, size_t>> names_;
  NameIndex index_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_ = nullptr;
  size_t used_ = kBlock;
};

// A tail's first computation (ReadHloTail): the uses of names defined
// before the part that the part records for JoinHloParts, one per name and
// shape text written at the use, found by name. A later use of such a name
// with the same shape text has nothing new to record or check: the reader's
// fast path knows it by one lookup here (the name's hash is at hand).
class BeforePartUses {
 public:
  struct Entry {
    absl::string_view name;
    absl::string_view shape_text;  // written at the use ("" for none)
    // The use's Shape when the shape cache held it (at `generation`).
    const Shape* shape;
    uint64_t generation;
    int64_t previous;  // the entry before it of the same name, or -1
  };

  void Clear() {
    entries_.clear();
    index_.Clear();
  }
  bool empty() const { return entries_.empty(); }
  const Entry& operator[](size_t i) const { return entries_[i]; }
  // The entry of `name` (hash `hash`) whose shape text is `shape_text`, or
  // -1.
  int64_t Find(absl::string_view name, uint64_t hash,
               absl::string_view shape_text) const {
    if (entries_.empty()) return -1;
    for (int64_t i = index_.Find(name, hash, NameOf()); i >= 0;
         i = entries_[i].previous) {
      if (SameName(entries_[i].shape_text, shape_text)) return i;
    }
    return -1;
  }
  // Adds the use (name, shape_text) unless it is there (then its Shape is
  // refreshed); true when added.
  bool Add(absl::string_view name, uint64_t hash, absl::string_view shape_text,
           const Shape* shape, uint64_t generation) {
    const int64_t latest =
        entries_.empty() ? -1 : index_.Find(name, hash, NameOf());
    for (int64_t i = latest; i >= 0; i = entries_[i].previous) {
      if (SameName(entries_[i].shape_text, shape_text)) {
        if (shape != nullptr) {
          entries_[i].shape = shape;
          entries_[i].generation = generation;
        }
        return false;
      }
    }
    entries_.push_back(Entry{name, shape_text, shape, generation, latest});
    index_.Add(name, hash, static_cast<uint32_t>(entries_.size() - 1),
               NameOf());
    return true;
  }

 private:
  struct NameOfEntry {
    const std::vector<Entry>* entries;
    absl::string_view operator()(uint32_t i) const {
      return i < entries->size() ? (*entries)[i].name : absl::string_view();
    }
  };
  NameOfEntry NameOf() const { return NameOfEntry{&entries_}; }

  std::vector<Entry> entries_;
  NameIndex index_;
};

}  // namespace hlolayout::hlo_internal

#endif  // HLOLAYOUT_HLO_DEFINITIONS_H_
