// cute/atom/internal/copy_table.h: the rows of the copy operation tables.
//
// One row per copy operation, or per family CuTe generates by a rule (see
// internal/name_pattern.h for the syntax). Layouts are Copy_Traits' bit
// layouts, (thread, bit) -> bit, as CuTe prints them.
#ifndef HLOLAYOUT_CUTE_ATOM_INTERNAL_COPY_TABLE_H_
#define HLOLAYOUT_CUTE_ATOM_INTERNAL_COPY_TABLE_H_

#include <vector>

#include "absl/types/span.h"

namespace hlolayout::cute::atom_internal {

struct CopyRow {
  const char* family;
  const char* pattern;  // the operation's C++ name, with {P} parameters
  const char* params;
  const char* thr_id;  // ThrID
  const char* src;     // SrcLayout
  const char* dst;     // DstLayout
  const char* ref;     // RefLayout
};

absl::Span<const CopyRow> CopyRowsGeneric();
absl::Span<const CopyRow> CopyRowsFixed();
absl::Span<const CopyRow> CopyRowsTmem();

std::vector<absl::Span<const CopyRow>> CopyTables();

}  // namespace hlolayout::cute::atom_internal

#endif  // HLOLAYOUT_CUTE_ATOM_INTERNAL_COPY_TABLE_H_
