#include "hlolayout/shape/primitive_type.h"

#include <cstddef>
#include <cstdint>

#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

enum Category : uint8_t {
  kNone,
  kPred,
  kSigned,
  kUnsigned,
  kFloat,
  kComplex,
};

struct TypeInfo {
  PrimitiveType type;
  absl::string_view name;
  int bits;
  Category category;
};

// Enum order; the lexer looks names up here.
constexpr TypeInfo kTypes[] = {
    {PRED, "pred", 1, kPred},
    {S8, "s8", 8, kSigned},
    {S16, "s16", 16, kSigned},
    {S32, "s32", 32, kSigned},
    {S64, "s64", 64, kSigned},
    {U8, "u8", 8, kUnsigned},
    {U16, "u16", 16, kUnsigned},
    {U32, "u32", 32, kUnsigned},
    {U64, "u64", 64, kUnsigned},
    {F16, "f16", 16, kFloat},
    {F32, "f32", 32, kFloat},
    {F64, "f64", 64, kFloat},
    {TUPLE, "tuple", 0, kNone},
    {OPAQUE_TYPE, "opaque", 0, kNone},
    {C64, "c64", 64, kComplex},
    {BF16, "bf16", 16, kFloat},
    {TOKEN, "token", 0, kNone},
    {C128, "c128", 128, kComplex},
    {F8E5M2, "f8e5m2", 8, kFloat},
    {F8E4M3FN, "f8e4m3fn", 8, kFloat},
    {S4, "s4", 4, kSigned},
    {U4, "u4", 4, kUnsigned},
    {F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8, kFloat},
    {F8E5M2FNUZ, "f8e5m2fnuz", 8, kFloat},
    {F8E4M3FNUZ, "f8e4m3fnuz", 8, kFloat},
    {S2, "s2", 2, kSigned},
    {U2, "u2", 2, kUnsigned},
    {F8E4M3, "f8e4m3", 8, kFloat},
    {F8E3M4, "f8e3m4", 8, kFloat},
    {S1, "s1", 1, kSigned},
    {U1, "u1", 1, kUnsigned},
    {F4E2M1FN, "f4e2m1fn", 4, kFloat},
    {F8E8M0FNU, "f8e8m0fnu", 8, kFloat},
    {BUFFER, "buffer", 0, kNone},
    {F6E3M2FN, "f6e3m2fn", 8, kFloat},
    {F6E2M3FN, "f6e2m3fn", 8, kFloat},
};

constexpr int kMaxTypeNumber = 36;

// Index into kTypes by enum number, -1 for unknown numbers.
struct TypeIndex {
  int8_t index[kMaxTypeNumber + 1];
  constexpr TypeIndex() : index() {
    for (int i = 0; i <= kMaxTypeNumber; ++i) index[i] = -1;
    for (int i = 0; i < static_cast<int>(sizeof(kTypes) / sizeof(kTypes[0]));
         ++i) {
      index[kTypes[i].type] = static_cast<int8_t>(i);
    }
  }
};
constexpr TypeIndex kTypeIndex;

const TypeInfo* Find(PrimitiveType type) {
  if (type < 0 || type > kMaxTypeNumber) return nullptr;
  const int i = kTypeIndex.index[type];
  return i < 0 ? nullptr : &kTypes[i];
}

Category CategoryOf(PrimitiveType type) {
  const TypeInfo* info = Find(type);
  return info == nullptr ? kNone : info->category;
}

struct AllTypes {
  PrimitiveType types[sizeof(kTypes) / sizeof(kTypes[0])];
  constexpr AllTypes() : types() {
    int n = 0;
    for (int number = 1; number <= kMaxTypeNumber; ++number) {
      for (const TypeInfo& info : kTypes) {
        if (info.type == number) types[n++] = info.type;
      }
    }
  }
};
constexpr AllTypes kAllTypes;

// PrimitiveTypeFromName runs for every shape parsed, so names are found
// with a perfect hash instead of comparing against every name: the key packs
// the first 8 bytes and the size into a uint64, and a multiplier (found by a
// search, checked below at compile time) maps the keys of all names to
// distinct slots of a 64-entry table.
constexpr size_t kMaxNameSize = 13;  // "f8e4m3b11fnuz"
constexpr uint64_t kNameHashMultiplier = 0x2862dffa4d0af7efULL;

constexpr uint64_t NameKey(absl::string_view name) {
  uint64_t key = 0;
  for (size_t i = 0; i < name.size() && i < 8; ++i) {
    key |= uint64_t{static_cast<unsigned char>(name[i])} << (8 * i);
  }
  return key ^ name.size();
}
constexpr int NameSlotOf(uint64_t key) {
  return static_cast<int>((key * kNameHashMultiplier) >> 58);
}

struct NameSlot {
  uint64_t key = 0;
  int index = -1;  // into kTypes
};
struct NameTable {
  NameSlot slots[64];
  bool collision_free = true;
  constexpr NameTable() : slots() {
    for (int i = 0; i < static_cast<int>(sizeof(kTypes) / sizeof(kTypes[0]));
         ++i) {
      // TUPLE and BUFFER have names for printing but are not parsed as types.
      if (kTypes[i].type == TUPLE || kTypes[i].type == BUFFER) continue;
      const uint64_t key = NameKey(kTypes[i].name);
      NameSlot& slot = slots[NameSlotOf(key)];
      if (slot.index >= 0) collision_free = false;
      slot.key = key;
      slot.index = i;
    }
  }
};
constexpr NameTable kNameTable;
static_assert(kNameTable.collision_free,
              "pick a new kNameHashMultiplier: two type names share a slot");

}  // namespace

absl::Span<const PrimitiveType> AllPrimitiveTypes() { return kAllTypes.types; }

bool IsKnownPrimitiveType(int64_t value) {
  return value == PRIMITIVE_TYPE_INVALID ||
         (value > 0 && value <= kMaxTypeNumber && kTypeIndex.index[value] >= 0);
}

absl::string_view PrimitiveTypeName(PrimitiveType type) {
  const TypeInfo* info = Find(type);
  return info == nullptr ? "invalid" : info->name;
}

absl::optional<PrimitiveType> PrimitiveTypeFromName(absl::string_view name) {
  if (name.empty() || name.size() > kMaxNameSize) return absl::nullopt;
  const uint64_t key = NameKey(name);
  const NameSlot& slot = kNameTable.slots[NameSlotOf(key)];
  // The key holds the size and the first 8 bytes; only f8 names with
  // suffixes ("f8e4m3fnuz") are longer.
  if (slot.key != key || slot.index < 0) return absl::nullopt;
  const TypeInfo& info = kTypes[slot.index];
  if (name.size() > 8 && info.name.substr(8) != name.substr(8)) {
    return absl::nullopt;
  }
  return info.type;
}

int BitWidth(PrimitiveType type) {
  const TypeInfo* info = Find(type);
  return info == nullptr ? 0 : info->bits;
}

int ByteWidth(PrimitiveType type) { return (BitWidth(type) + 7) / 8; }

bool IsArrayType(PrimitiveType type) { return CategoryOf(type) != kNone; }

bool IsIntegralType(PrimitiveType type) {
  const Category c = CategoryOf(type);
  return c == kSigned || c == kUnsigned;
}

bool IsSignedIntegralType(PrimitiveType type) {
  return CategoryOf(type) == kSigned;
}

bool IsUnsignedIntegralType(PrimitiveType type) {
  return CategoryOf(type) == kUnsigned;
}

bool IsFloatingPointType(PrimitiveType type) {
  return CategoryOf(type) == kFloat;
}

bool IsF8Type(PrimitiveType type) {
  return IsFloatingPointType(type) && BitWidth(type) == 8 &&
         PrimitiveTypeName(type).substr(0, 2) == "f8";
}

bool IsComplexType(PrimitiveType type) { return CategoryOf(type) == kComplex; }

bool IsSignedType(PrimitiveType type) {
  const Category c = CategoryOf(type);
  return c == kSigned || c == kFloat || c == kComplex;
}

bool IsSubByteType(PrimitiveType type) {
  return type != PRED && IsArrayType(type) && BitWidth(type) < 8;
}

PrimitiveType ComplexComponentType(PrimitiveType type) {
  HLOLAYOUT_CHECK(IsComplexType(type)) << PrimitiveTypeName(type);
  return type == C64 ? F32 : F64;
}

}  // namespace hlolayout
