// cute/atom/internal/mma_table.h: the rows of the MMA atom tables.
//
// One row per atom, or per family of atoms CuTe generates by a rule (see
// internal/name_pattern.h for the pattern and template syntax). Layouts
// are written as CuTe prints them. The tables live in mma_table_*.cc, one
// file per architecture.
#ifndef HLOLAYOUT_CUTE_ATOM_INTERNAL_MMA_TABLE_H_
#define HLOLAYOUT_CUTE_ATOM_INTERNAL_MMA_TABLE_H_

#include <vector>

#include "absl/types/span.h"

namespace hlolayout::cute::atom_internal {

struct MmaRow {
  const char* family;
  const char* pattern;    // the C++ name, with {P} parameters
  const char* params;     // "P=domain; Q=domain"
  const char* thr_id;     // ThrID
  const char* shape_mnk;  // Shape_MNK
  const char* a;          // LayoutA_TV
  const char* b;          // LayoutB_TV
  const char* c;          // LayoutC_TV
  // Non-empty for an atom CuTe defines but cannot use: the reason.
  const char* broken = "";
};

absl::Span<const MmaRow> MmaRowsUniversal();
absl::Span<const MmaRow> MmaRowsSm6x7x();
absl::Span<const MmaRow> MmaRowsSm80();
absl::Span<const MmaRow> MmaRowsSm89Sm90();
absl::Span<const MmaRow> MmaRowsGmma();
absl::Span<const MmaRow> MmaRowsGmmaSparse();
absl::Span<const MmaRow> MmaRowsSm100();
absl::Span<const MmaRow> MmaRowsSm100Sparse();
absl::Span<const MmaRow> MmaRowsSm120();

// All tables, in order.
std::vector<absl::Span<const MmaRow>> MmaTables();

}  // namespace hlolayout::cute::atom_internal

#endif  // HLOLAYOUT_CUTE_ATOM_INTERNAL_MMA_TABLE_H_
