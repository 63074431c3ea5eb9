// cute/atom/copy_table_generic.cc: the copy operations CuTe defines for any
// value type: UniversalCopy<S[,D]>, AutoVectorizingCopyWithAssumedAlignment
// and its names DefaultCopy and AutoVectorizingCopy
// (include/cute/atom/copy_traits.hpp), and the SM80 cp.async operations with
// and without ZFILL (copy_traits_sm80.hpp).
//
// One thread copies one value: ThrID _1:_0, Src (_1,bits(S)):(_0,_1), Dst
// (_1,bits(D)):(_0,_1), Ref = Src. The auto-vectorizing copies leave the
// width to the partitioning: all three layouts are (_1,_1):(_0,_0). The
// domains are the operations' static_asserts: UniversalCopy takes types of
// at least 8 bits, cp.async 4-, 8- or 16-byte types of equal size, the
// alignment 8, 16, 32, 64 or 128 bits.
#include "hlolayout/cute/atom/internal/copy_table.h"

namespace hlolayout::cute::atom_internal {

absl::Span<const CopyRow> CopyRowsGeneric() {
#define HL_CP_ASYNC(OP)                                                 \
  {"sm80_cp_async",          OP "<{S}>",                                \
   "S=@cp_async_type",       "_1:_0",                                   \
   "(_1,_{bits:S}):(_0,_1)", "(_1,_{bits:S}):(_0,_1)",                  \
   "(_1,_{bits:S}):(_0,_1)"},                                           \
      {"sm80_cp_async",          OP "<{S},{D}>",                        \
       "S=@bits32; D=@bits32",   "_1:_0",                               \
       "(_1,_{bits:S}):(_0,_1)", "(_1,_{bits:D}):(_0,_1)",              \
       "(_1,_{bits:S}):(_0,_1)"},                                       \
      {"sm80_cp_async",          OP "<{S},{D}>",                        \
       "S=@bits64; D=@bits64",   "_1:_0",                               \
       "(_1,_{bits:S}):(_0,_1)", "(_1,_{bits:D}):(_0,_1)",              \
       "(_1,_{bits:S}):(_0,_1)"},                                       \
  {                                                                     \
    "sm80_cp_async", OP "<{S},{D}>", "S=@bits128; D=@bits128", "_1:_0", \
        "(_1,_{bits:S}):(_0,_1)", "(_1,_{bits:D}):(_0,_1)",             \
        "(_1,_{bits:S}):(_0,_1)"                                        \
  }
  static const CopyRow kRows[] = {
      {"universal", "UniversalCopy<{S}>", "S=@copy_type", "_1:_0",
       "(_1,_{bits:S}):(_0,_1)", "(_1,_{bits:S}):(_0,_1)",
       "(_1,_{bits:S}):(_0,_1)"},
      {"universal", "UniversalCopy<{S},{D}>", "S=@copy_type; D=@copy_type",
       "_1:_0", "(_1,_{bits:S}):(_0,_1)", "(_1,_{bits:D}):(_0,_1)",
       "(_1,_{bits:S}):(_0,_1)"},
      {"universal", "DefaultCopy", "", "_1:_0", "(_1,_1):(_0,_0)",
       "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)"},
      {"universal", "AutoVectorizingCopy", "", "_1:_0", "(_1,_1):(_0,_0)",
       "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)"},
      {"universal", "AutoVectorizingCopyWithAssumedAlignment<{N}>",
       "N=8|16|32|64|128", "_1:_0", "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)",
       "(_1,_1):(_0,_0)"},
      HL_CP_ASYNC("SM80_CP_ASYNC_CACHEALWAYS"),
      HL_CP_ASYNC("SM80_CP_ASYNC_CACHEGLOBAL"),
      HL_CP_ASYNC("SM80_CP_ASYNC_CACHEALWAYS_ZFILL"),
      HL_CP_ASYNC("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL"),
  };
#undef HL_CP_ASYNC
  return kRows;
}

}  // namespace hlolayout::cute::atom_internal
