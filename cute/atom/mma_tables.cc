// cute/atom/mma_tables.cc: the list of MMA atom tables.
#include <vector>

#include "hlolayout/cute/atom/internal/mma_table.h"

namespace hlolayout::cute::atom_internal {

std::vector<absl::Span<const MmaRow>> MmaTables() {
  return {MmaRowsUniversal(), MmaRowsSm6x7x(),      MmaRowsSm80(),
          MmaRowsSm89Sm90(),  MmaRowsGmma(),        MmaRowsGmmaSparse(),
          MmaRowsSm100(),     MmaRowsSm100Sparse(), MmaRowsSm120()};
}

}  // namespace hlolayout::cute::atom_internal
