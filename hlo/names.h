// hlo/names.h: instruction and computation names by hash, for the HLO
// module reader (internal).
//
//   NameIndex index;
//   index.Add("fusion.3", 7, name_of);   // name_of(7) == "fusion.3"
//   index.Find("fusion.3", name_of);     // 7
//
// The reader looks up every operand of every instruction, so a lookup must
// cost a few dozen instructions: the hash reads a name as at most a few
// 8-byte words (no call, no per-byte loop), the table keeps the hash's high
// bits beside each index so that a mismatch is told without reading the
// name, and names are compared by words (util/same_bytes.h). Not a public
// API: only the reader includes it.
#ifndef HLOLAYOUT_HLO_NAMES_H_
#define HLOLAYOUT_HLO_NAMES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/util/same_bytes.h"

namespace hlolayout::hlo_internal {

inline uint64_t LoadWord(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
inline uint64_t LoadHalf(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

// 64x64 -> 128-bit multiply, both halves folded.
inline uint64_t FoldedMultiply(uint64_t a, uint64_t b) {
  const unsigned __int128 m = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
}

// A hash of every byte of `name` that reads nothing outside it: the first
// and last 8 bytes (4 for shorter names, 3 single bytes under 4), and the
// words between them for names over 16 bytes.
inline uint64_t NameHash(const char* p, size_t n) {
  uint64_t a;
  uint64_t b;
  if (n >= 8) {
    a = LoadWord(p);
    b = LoadWord(p + n - 8);
    for (size_t i = 8; i + 8 < n; i += 8) {
      a = FoldedMultiply(a ^ 0xa0761d6478bd642fULL, LoadWord(p + i) ^ b);
    }
  } else if (n >= 4) {
    a = LoadHalf(p);
    b = LoadHalf(p + n - 4);
  } else if (n > 0) {
    a = (uint64_t{static_cast<uint8_t>(p[0])} << 16) |
        (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
        static_cast<uint8_t>(p[n - 1]);
    b = 0;
  } else {
    a = 0;
    b = 0;
  }
  return FoldedMultiply(
      a ^ 0xe7037ed1a0b428dbULL,
      b ^ (n * 0x8ebc6af09c88c6e3ULL) ^ 0x589965cc75374cc3ULL);
}
inline uint64_t NameHash(absl::string_view name) {
  return NameHash(name.data(), name.size());
}

inline bool SameName(absl::string_view a, absl::string_view b) {
  return a.size() == b.size() && SameBytes(a.data(), b.data(), a.size());
}

// Names -> index, an open-addressing table. Each slot: the hash's high 32
// bits (which also place it), then index + 1 (0: empty); growing reads no
// name again. `name_of(i)` gives the name of index i ("" for one no longer
// kept).
class NameIndex {
 public:
  void Clear() {
    if (count_ == 0) return;
    // A table grown for a large computation is not refilled for every
    // small one after it.
    if (slots_.size() > 4096) {
      slots_.assign(kInitial, 0);
    } else {
      std::fill(slots_.begin(), slots_.end(), uint64_t{0});
    }
    mask_ = slots_.size() - 1;
    limit_ = LimitOf(slots_.size());
    count_ = 0;
  }
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  // Adds index `i` for `name` (hash `h`), in place of an earlier one;
  // returns the earlier one's index, or -1.
  template <typename NameOf>
  int64_t Add(absl::string_view name, uint64_t h, uint32_t i,
              const NameOf& name_of) {
    if (count_ >= limit_) Grow();
    const uint64_t tag = h & 0xffffffff00000000ULL;
    uint64_t* const slots = slots_.data();
    size_t s = (h >> 32) & mask_;
    while (slots[s] != 0) {
      const uint32_t old = static_cast<uint32_t>(slots[s]) - 1;
      if ((slots[s] & 0xffffffff00000000ULL) == tag &&
          SameName(name_of(old), name)) {
        slots[s] = tag | (uint64_t{i} + 1);
        return old;
      }
      s = (s + 1) & mask_;
    }
    slots[s] = tag | (uint64_t{i} + 1);
    ++count_;
    return -1;
  }
  template <typename NameOf>
  int64_t Add(absl::string_view name, uint32_t i, const NameOf& name_of) {
    return Add(name, NameHash(name), i, name_of);
  }
  // Brings the slot where `h` starts its probe into the cache.
  void Prefetch(uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[(h >> 32) & mask_]);
  }
  // The first index stored with `h`'s tag, or -1: most likely the one Find
  // returns, for prefetching what Find will compare.
  int64_t FirstWithTag(uint64_t h) const {
    if (count_ == 0) return -1;
    const uint64_t tag = h & 0xffffffff00000000ULL;
    const uint64_t* const slots = slots_.data();
    for (size_t s = (h >> 32) & mask_; slots[s] != 0; s = (s + 1) & mask_) {
      if ((slots[s] & 0xffffffff00000000ULL) == tag) {
        return static_cast<uint32_t>(slots[s]) - 1;
      }
    }
    return -1;
  }
  // The index of `name` (hash `h`), or -1.
  template <typename NameOf>
  int64_t Find(absl::string_view name, uint64_t h,
               const NameOf& name_of) const {
    if (count_ == 0) return -1;
    const uint64_t tag = h & 0xffffffff00000000ULL;
    const uint64_t* const slots = slots_.data();
    for (size_t s = (h >> 32) & mask_; slots[s] != 0; s = (s + 1) & mask_) {
      if ((slots[s] & 0xffffffff00000000ULL) != tag) continue;
      const uint32_t i = static_cast<uint32_t>(slots[s]) - 1;
      if (SameName(name_of(i), name)) return i;
    }
    return -1;
  }
  template <typename NameOf>
  int64_t Find(absl::string_view name, const NameOf& name_of) const {
    return Find(name, NameHash(name), name_of);
  }
  // True when a name of this index is also one of `other`'s. A slot holds
  // its hash's high 32 bits, which place it in `other` too: no name is
  // hashed again, and names are read only where the tags match (a name in
  // both, or a rare collision). Its cost is this index's slots and one
  // probe of `other` each: call it on the smaller index.
  template <typename NameOf, typename OtherNameOf>
  bool SharesNameWith(const NameIndex& other, const NameOf& name_of,
                      const OtherNameOf& other_name_of) const {
    if (count_ == 0 || other.count_ == 0) return false;
    const uint64_t* const theirs = other.slots_.data();
    for (const uint64_t v : slots_) {
      if (v == 0) continue;
      const uint64_t tag = v & 0xffffffff00000000ULL;
      for (size_t s = (v >> 32) & other.mask_; theirs[s] != 0;
           s = (s + 1) & other.mask_) {
        if ((theirs[s] & 0xffffffff00000000ULL) == tag &&
            SameName(name_of(static_cast<uint32_t>(v) - 1),
                     other_name_of(static_cast<uint32_t>(theirs[s]) - 1))) {
          return true;
        }
      }
    }
    return false;
  }

 private:
  static constexpr size_t kInitial = 256;
  // Three quarters full at most (the tags keep probes short), twice as
  // large at a time: a large computation's table is the memory it touches
  // for the first time, dearer than a few more probes.
  static size_t LimitOf(size_t size) { return size / 4 * 3; }
  void Grow() __attribute__((noinline)) {
    std::vector<uint64_t> old;
    old.swap(slots_);
    const size_t size = old.empty() ? kInitial : old.size() * 2;
    slots_.assign(size, 0);
    mask_ = size - 1;
    limit_ = LimitOf(size);
    for (uint64_t v : old) {
      if (v == 0) continue;
      size_t s = (v >> 32) & mask_;
      while (slots_[s] != 0) s = (s + 1) & mask_;
      slots_[s] = v;
    }
  }

  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
  size_t limit_ = 0;  // count_ that makes it grow
  size_t count_ = 0;
};

}  // namespace hlolayout::hlo_internal

#endif  // HLOLAYOUT_HLO_NAMES_H_
