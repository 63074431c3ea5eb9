// cute/atom/mma_table_universal.cc: UniversalFMA<D,A,B,C>, the one-thread
// scalar multiply-add atom (include/cute/atom/mma_traits.hpp), for every
// value type.
#include "hlolayout/cute/atom/internal/mma_table.h"

namespace hlolayout::cute::atom_internal {

namespace {

constexpr MmaRow kRows[] = {
    {"universal", "UniversalFMA<{D},{A},{B},{C}>",
     "D=@any_type; A=@any_type; B=@any_type; C=@any_type", "_1:_0",
     "(_1,_1,_1)", "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)"},
};

}  // namespace

absl::Span<const MmaRow> MmaRowsUniversal() { return kRows; }

}  // namespace hlolayout::cute::atom_internal
