// cute/atom/copy_tables.cc: the list of copy operation tables.
#include <vector>

#include "hlolayout/cute/atom/internal/copy_table.h"

namespace hlolayout::cute::atom_internal {

std::vector<absl::Span<const CopyRow>> CopyTables() {
  return {CopyRowsGeneric(), CopyRowsFixed(), CopyRowsTmem()};
}

}  // namespace hlolayout::cute::atom_internal
