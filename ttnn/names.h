// ttnn/names.h: the names of TTNN's enums as a user writes them, and the
// message for a name that is none of them, with the nearest ones: the CLI's
// flags, a spec's JSON and Python's constructors refuse alike.
//
//   CheckName(NameKind::kDataType, "bfloat8")
//   -> InvalidArgument "unknown dtype 'bfloat8'; did you mean 'bfloat8_b'?
//      (bfloat16, float32, uint32, bfloat8_b, ...)"
//
// A name is known when the enum's FromName function reads it (case and the
// `ttnn.` / `DataType.` prefixes as those functions allow).
#ifndef HLOLAYOUT_TTNN_NAMES_H_
#define HLOLAYOUT_TTNN_NAMES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace hlolayout::ttnn {

enum class NameKind {
  kDataType,      // bfloat16, ...
  kLayout,        // ROW_MAJOR, TILE
  kMemoryLayout,  // INTERLEAVED, HEIGHT_SHARDED, ...
  kBufferType,    // DRAM, L1
  kOrientation,   // ROW_MAJOR, COL_MAJOR
  kDistribution,  // ROUND_ROBIN_1D, GRID_2D
};

// What the kind is called in messages: "dtype", "layout", "memory layout",
// "buffer type", "shard orientation", "shard distribution strategy".
absl::string_view NameKindWords(NameKind kind);

// The names of `kind`, as the output spells them, in the enum's order.
std::vector<std::string> KnownNames(NameKind kind);

// OK when `name` is one of them; else the error above: the nearest names
// (at most two, each a likely misspelling) and the list.
absl::Status CheckName(NameKind kind, absl::string_view name);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_NAMES_H_
