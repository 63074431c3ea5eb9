// hlo/shape_cache.h: decoded shapes by their text, for the HLO
// module reader (internal).
//
//   f32[8,128]{1,0:T(8,128)} appears thousands of times in a dump; it is
//   decoded once and every instruction gets the same `const Shape*`.
//
// Not a public API: only the reader (reader_*.cc) includes it.
#ifndef HLOLAYOUT_HLO_SHAPE_CACHE_H_
#define HLOLAYOUT_HLO_SHAPE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/shape/shape.h"
#include "hlolayout/util/same_bytes.h"

namespace hlolayout::hlo_internal {

// Per-position multipliers for HashShapeText (splitmix64 of the index).
struct HashKeys {
  static constexpr int kWords = 32;
  uint64_t k[kWords] = {};
  constexpr HashKeys() {
    uint64_t state = 0x2545f4914f6cdd1dULL;
    for (int i = 0; i < kWords; ++i) {
      uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      k[i] = (z ^ (z >> 31)) | 1;
    }
  }
};
inline constexpr HashKeys kHashKeys;

// Hashes every byte of a shape text. Texts of up to 64 bytes: a
// multilinear sum of their eight 8-byte words, zero-padded, times
// per-position keys (independent multiplies, so they pipeline), then a final
// mix; HashShapeTextInPlace computes the same from the bytes in place,
// without copying (the reader's guessed extents, with the text's 64-byte
// window readable). Longer texts: the first words times keys, the rest
// folded in serially, the last word overlapping.
inline uint64_t Load64(const char* data) {
  uint64_t w;
  std::memcpy(&w, data, 8);
  return w;
}
inline uint64_t MixShapeHash(uint64_t h) {
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ULL;
  h ^= h >> 29;
  return h | 1;  // 0 marks an empty slot
}
inline constexpr size_t kPaddedHashBytes = 64;
// Precondition: size <= 64 and 64 bytes readable at `data`.
inline uint64_t HashShapeTextInPlace(const char* data, size_t size) {
  uint64_t h = size * 0x9e3779b97f4a7c15ULL;
  // Words past the text are zero and add nothing: most texts need four.
  const size_t words = size <= 32 ? 4 : kPaddedHashBytes / 8;
  for (size_t i = 0; i < words; ++i) {
    // The bytes of word i that belong to the text: min(max(size - 8i, 0), 8).
    const size_t bytes =
        size > 8 * i ? (size - 8 * i < 8 ? size - 8 * i : 8) : 0;
    const uint64_t mask =
        bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
    h += (Load64(data + 8 * i) & mask) * kHashKeys.k[i];
  }
  return MixShapeHash(h);
}
inline uint64_t HashShapeText(const char* data, size_t size) {
  if (size <= kPaddedHashBytes) {
    char padded[kPaddedHashBytes] = {};
    std::memcpy(padded, data, size);
    return HashShapeTextInPlace(padded, size);
  }
  uint64_t h = size * 0x9e3779b97f4a7c15ULL;
  const size_t words = (size - 1) / 8;  // full words before the last one
  size_t i = 0;
  for (; i < words && i < static_cast<size_t>(HashKeys::kWords) - 1; ++i) {
    h += Load64(data + 8 * i) * kHashKeys.k[i];
  }
  for (; i < words; ++i) {
    h = (h ^ Load64(data + 8 * i)) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
  }
  h += Load64(data + size - 8) * kHashKeys.k[HashKeys::kWords - 1];
  return MixShapeHash(h);
}

// Decoded shapes by their exact text: dumps repeat a few thousand shape
// texts over and over, and each is decoded once. Linear probing over
// one-cache-line slots (hash, a plain `const Shape*`: no reference count per
// use, the first 40 bytes of the text), so most lookups touch one line, which
// the reader prefetches once it has the hash; longer texts compare their tail
// against an arena copy. `owners_` keeps the shapes alive. Bounded: once
// it is full, the reader empties it between instructions, or, when a module
// it collects keeps every shape anyway, lets it grow (Grow) up to kMaxSlots
// first: emptied, it decoded each text seen again into a second Shape that
// the module kept too.
class ShapeCache {
 public:
  static constexpr size_t kSlots = 1 << 14;     // to begin with
  static constexpr size_t kMaxSlots = 1 << 17;  // grown to at most
  // Longer texts are not kept. Long ones are: an operand's tuple shape
  // written at every use decoded to a Shape per use (about 340 bytes an
  // element: 34 times its text), and a 450 MB module of a 6,400-element
  // loop state read by 6,400 get-tuple-elements asked for 22 GB.
  static constexpr size_t kMaxText = size_t{1} << 30;
  static constexpr size_t kInline = 40;

  struct alignas(64) Slot {
    uint64_t hash = 0;  // 0: empty
    const Shape* shape = nullptr;
    uint32_t offset = 0;  // of the text in the arena
    uint32_t length = 0;
    char prefix[kInline];
  };

  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_]);
  }

  Slot* Find(const char* text, size_t size, uint64_t hash) {
    if (slots_.empty()) return nullptr;
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.hash == hash && slot.length == size &&
          SameBytes(slot.prefix, text, size < kInline ? size : kInline) &&
          (size <= kInline || SameBytes(arena_.data() + slot.offset + kInline,
                                        text + kInline, size - kInline))) {
        return &slot;
      }
      if (slot.hash == 0) return nullptr;
    }
  }

  // Full: three quarters of the slots used, for the reader to empty it or
  // let it grow between instructions; until then, shapes new to the
  // instruction being read still go in while it has room (seven eighths).
  bool full() const { return entries_ >= full_at_; }
  bool has_room() const { return entries_ < (mask_ + 1) / 8 * 7; }
  bool can_grow() const { return mask_ + 1 < kMaxSlots; }
  // Whether a text of `size` bytes can go in (Insert's precondition with
  // has_room()): at most kMaxText, and the arena's offsets stay 32-bit.
  bool can_keep(size_t size) const {
    return size <= kMaxText && arena_.size() + size <= UINT32_MAX;
  }

  // Twice the slots, every entry kept (slots move: no Slot* stays valid).
  // Precondition: can_grow().
  void Grow() {
    const size_t slots = 2 * (mask_ + 1);
    std::vector<Slot> old_slots(slots);
    std::vector<std::shared_ptr<const Shape>> old_owners(slots);
    std::vector<uint32_t> old_stamps(slots);
    swap(old_slots, slots_);
    swap(old_owners, owners_);
    swap(old_stamps, stamps_);
    mask_ = slots - 1;
    full_at_ = slots / 4 * 3;
    for (size_t k = 0; k < old_slots.size(); ++k) {
      if (old_slots[k].hash == 0) continue;
      size_t i = old_slots[k].hash & mask_;
      while (slots_[i].hash != 0) i = (i + 1) & mask_;
      slots_[i] = old_slots[k];
      owners_[i] = std::move(old_owners[k]);
      stamps_[i] = old_stamps[k];
    }
  }

  void Clear() {
    for (Slot& slot : slots_) slot = Slot();
    for (auto& owner : owners_) owner.reset();
    arena_.clear();
    entries_ = 0;
  }

  // Precondition: has_room(), can_keep(size), the text is not in the cache.
  Slot* Insert(const char* text, size_t size, uint64_t hash,
               std::shared_ptr<const Shape> shape) {
    if (slots_.empty()) {  // allocated on first use: small texts are common
      slots_.resize(mask_ + 1);
      owners_.resize(mask_ + 1);
      stamps_.resize(mask_ + 1);
    }
    size_t i = hash & mask_;
    while (slots_[i].hash != 0) i = (i + 1) & mask_;
    Slot& slot = slots_[i];
    slot.hash = hash;
    slot.shape = shape.get();
    slot.length = static_cast<uint32_t>(size);
    std::memcpy(slot.prefix, text, size < kInline ? size : kInline);
    if (size > kInline) {
      slot.offset = static_cast<uint32_t>(arena_.size());
      arena_.append(text, size);
    }
    owners_[i] = std::move(shape);
    stamps_[i] = 0;
    ++entries_;
    return &slot;
  }

  const std::shared_ptr<const Shape>& owner(const Slot& slot) const {
    return owners_[&slot - slots_.data()];
  }
  // The last module that took a reference to the slot's shape
  // (ReadHloModules).
  uint32_t& stamp(const Slot& slot) { return stamps_[&slot - slots_.data()]; }

 private:
  std::vector<Slot> slots_;
  std::vector<std::shared_ptr<const Shape>> owners_;  // by slot
  std::vector<uint32_t> stamps_;                      // by slot
  std::string arena_;
  size_t entries_ = 0;
  size_t mask_ = kSlots - 1;         // the slots' count - 1
  size_t full_at_ = kSlots / 4 * 3;  // entries
};

}  // namespace hlolayout::hlo_internal

#endif  // HLOLAYOUT_HLO_SHAPE_CACHE_H_
