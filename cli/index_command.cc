// `hlolayout index`, `hlolayout element`, `hlolayout tiling` and the batch
// ops index, element, size and bytes: the linear-index service (issue 3).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/indexing.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/batch_cache.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/indexing_text.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kIndexHelp =
    R"(usage: hlolayout index [--bytes] [--packing ORDER] [--json] SHAPE I,J,...

Prints where the element with logical index I,J,... lives in the buffer of
SHAPE, as an element offset, following every tile level, `*` combined
dims and L(n) (the seed formula of XLA's tiled layout document). With
--bytes also the byte (and, for E(n)-packed sub-byte types, the bit where
the element's least significant bit sits, counted from the byte's least
significant bit, and the packing order: low-first is today's XLA, the
default; high-first older XLA's PackIntN, as `hlolayout relayout`).

flags:
  --bytes   also print the byte and bit position
  --packing low-first (default) or high-first, for --bytes and --json
  --json    {"shape", "index", "offset", "byte", "bit", "bit_offset",
            "packing"}: "bit" counted from the least significant bit
  --help    this text

examples:
  hlolayout index 'f32[3,5]{1,0:T(2,2)}' 2,3             ->  17
  hlolayout index 'f32[8,8]{1,0:T(2,4)(2,1,1,1)}' 6,5    ->  51
  hlolayout index --bytes 's4[8]{0:E(4)}' 3    ->  3 (byte 1, bit 4, low-first)
)";

constexpr absl::string_view kElementHelp =
    R"(usage: hlolayout element [--json] SHAPE OFFSET

Prints the logical index I,J,... of the element at element OFFSET of the
buffer of SHAPE, or "tile padding" / "tail padding". Offsets at or past the
padded size are an error.

flags:
  --json    {"shape", "offset", "kind", "index"}
  --help    this text

examples:
  hlolayout element 'f32[3,5]{1,0:T(2,2)}' 17   ->  2,3
  hlolayout element 'f32[3,5]{1,0:T(2,2)}' 9    ->  tile padding
  hlolayout element 'f32[2]{0:T(4)L(8)}' 5      ->  tail padding
)";

constexpr absl::string_view kTilingHelp =
    R"(usage: hlolayout tiling [--json] SHAPE

Shows the tiled layout of SHAPE as pad-reshape-transpose steps, one per tile
level (XLA's tiled layout document): the physical shape, for each tile the
padded, reshaped and transposed shapes, the final shape, the sizes and why
each padded dimension is padded.

flags:
  --json    {"shape", "physical", "levels": [{"tile", "input", "combined",
            "padded", "reshape", "permutation", "output"}], "final",
            sizes..., "padding": [reasons]}
  --help    this text

example:
  hlolayout tiling 'f32[3,5]{1,0:T(2,2)}'
)";

absl::StatusOr<std::vector<int64_t>> ParseIndex(absl::string_view text) {
  std::vector<int64_t> index;
  text = absl::StripAsciiWhitespace(text);
  // "(2,3)" as the element command prints it; "()" or "" for a scalar.
  if (absl::ConsumePrefix(&text, "(") && !absl::ConsumeSuffix(&text, ")")) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad index '(", text, "': expected I,J,... integers"));
  }
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return index;  // a scalar
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int64_t v;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad index '", text, "': expected I,J,... integers"));
    }
    index.push_back(v);
  }
  return index;
}

absl::StatusOr<int64_t> ParseOffset(absl::string_view text) {
  int64_t v;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(text), &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad offset '", text, "': expected an integer"));
  }
  return v;
}

// Parsed shape and indexer per shape text, kept for the whole process (a
// batch stream asks many questions about a few shapes).
struct Entry {
  absl::StatusOr<Shape> shape;
  absl::StatusOr<TiledIndexer> indexer = absl::UnknownError("unset");
  absl::StatusOr<ArraySizes> sizes = absl::UnknownError("unset");
};

const Entry& Lookup(absl::string_view text) {
  static auto* cache =
      new absl::flat_hash_map<std::string, std::unique_ptr<Entry>>();
  auto it = cache->find(text);
  if (it != cache->end()) return *it->second;
  if (cache->size() >= 4096) cache->clear();
  auto entry = std::make_unique<Entry>();
  entry->shape = ParseShape(text);
  if (entry->shape.ok()) {
    entry->indexer = TiledIndexer::Create(*entry->shape);
    entry->sizes = ComputeArraySizes(*entry->shape);
  } else {
    entry->indexer = entry->shape.status();
    entry->sizes = entry->shape.status();
  }
  const Entry& ref = *entry;
  cache->emplace(std::string(text), std::move(entry));
  return ref;
}

int Fail(IoContext& io, absl::string_view command, const absl::Status& s) {
  io.err << "hlolayout " << command << ": " << s.message() << "\n";
  return 1;
}

int RunIndex(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"json", "bytes"}, {"packing"});
  if (!args.ok() || args->positional.size() != 2) {
    io.err << "hlolayout index: "
           << (args.ok() ? "expected SHAPE I,J,..." : args.status().message())
           << "\n";
    return 2;
  }
  const Entry& e = Lookup(args->positional[0]);
  if (!e.indexer.ok()) return Fail(io, "index", e.indexer.status());
  absl::StatusOr<std::vector<int64_t>> index = ParseIndex(args->positional[1]);
  if (!index.ok()) return Fail(io, "index", index.status());
  const absl::optional<PackingOrder> order =
      PackingOrderFromName(args->Value("packing", "low-first"));
  if (!order) {  // a bad index is said first
    absl::Status bad_index = e.indexer->TryOffsetInElements(*index).status();
    return Fail(io, "index",
                !bad_index.ok() ? bad_index
                                : absl::InvalidArgumentError(
                                      "--packing must be low-first or "
                                      "high-first"));
  }
  // The element offset needs no byte size; the byte position is asked for
  // only with --bytes or --json, and fails alone when it overflows.
  const bool with_bytes = args->Has("bytes");
  absl::StatusOr<IndexAnswer> answer = AnswerIndex(
      *e.shape, *e.indexer, *index, *order, args->Has("json") || with_bytes);
  if (!answer.ok()) return Fail(io, "index", answer.status());
  if (args->Has("json")) {
    io.out << AnswerJson(*answer) << "\n";
    return 0;
  }
  if (with_bytes && !answer->bits.ok()) {
    io.out << answer->offset << "\n";
    return Fail(io, "index", answer->bits.status());
  }
  io.out << IndexAnswerText(*answer, with_bytes);
  return 0;
}

int RunElement(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"json"}, {});
  if (!args.ok() || args->positional.size() != 2) {
    io.err << "hlolayout element: "
           << (args.ok() ? "expected SHAPE OFFSET" : args.status().message())
           << "\n";
    return 2;
  }
  const Entry& e = Lookup(args->positional[0]);
  if (!e.indexer.ok()) return Fail(io, "element", e.indexer.status());
  absl::StatusOr<int64_t> offset = ParseOffset(args->positional[1]);
  if (!offset.ok()) return Fail(io, "element", offset.status());
  absl::StatusOr<ElementAnswer> answer =
      AnswerElement(*e.shape, *e.indexer, *offset);
  if (!answer.ok()) return Fail(io, "element", answer.status());
  io.out << (args->Has("json") ? AnswerJson(*answer) + "\n"
                               : ElementAnswerText(*answer));
  return 0;
}

int RunTiling(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"json"}, {});
  if (!args.ok() || args->positional.size() != 1) {
    io.err << "hlolayout tiling: "
           << (args.ok() ? "expected SHAPE" : args.status().message()) << "\n";
    return 2;
  }
  const Entry& e = Lookup(args->positional[0]);
  if (!e.shape.ok()) return Fail(io, "tiling", e.shape.status());
  absl::StatusOr<TilingAnswer> answer = AnswerTiling(*e.shape);
  if (!answer.ok()) return Fail(io, "tiling", answer.status());
  io.out << (args->Has("json") ? AnswerJson(*answer) + "\n"
                               : TilingAnswerText(*answer));
  return 0;
}

absl::StatusOr<std::string> BatchIndex(absl::Span<const absl::string_view> a,
                                       BatchCache&) {
  const Entry& e = Lookup(a[0]);
  if (!e.indexer.ok()) return e.indexer.status();
  absl::StatusOr<std::vector<int64_t>> index = ParseIndex(a[1]);
  if (!index.ok()) return index.status();
  absl::StatusOr<int64_t> offset = e.indexer->TryOffsetInElements(*index);
  if (!offset.ok()) return offset.status();
  return absl::StrCat(*offset);
}

absl::StatusOr<std::string> BatchElement(absl::Span<const absl::string_view> a,
                                         BatchCache&) {
  const Entry& e = Lookup(a[0]);
  if (!e.indexer.ok()) return e.indexer.status();
  absl::StatusOr<int64_t> offset = ParseOffset(a[1]);
  if (!offset.ok()) return offset.status();
  int64_t buffer[TiledIndexer::kMaxRegisters];
  absl::StatusOr<OffsetKind> kind = e.indexer->TryElementAtOffsetInElements(
      *offset, absl::MakeSpan(buffer, e.indexer->rank()));
  if (!kind.ok()) return kind.status();
  if (*kind != OffsetKind::kElement) return std::string("padding");
  return IndexText(absl::MakeSpan(buffer, e.indexer->rank()));
}

absl::StatusOr<std::string> BatchSize(absl::Span<const absl::string_view> a,
                                      BatchCache&) {
  const Entry& e = Lookup(a[0]);
  if (!e.sizes.ok()) return e.sizes.status();
  return absl::StrCat(e.sizes->padded_elements);
}

absl::StatusOr<std::string> BatchBytes(absl::Span<const absl::string_view> a,
                                       BatchCache&) {
  const Entry& e = Lookup(a[0]);
  if (!e.sizes.ok()) return e.sizes.status();
  return absl::StrCat(e.sizes->padded_bytes);
}

}  // namespace

extern const Command kIndexCommand;
const Command kIndexCommand = {
    "index", "element offset (and byte/bit) of a logical index in a shape",
    kIndexHelp, RunIndex};

extern const Command kElementCommand;
const Command kElementCommand = {
    "element", "logical index (or padding) at an element offset of a shape",
    kElementHelp, RunElement};

extern const Command kTilingCommand;
const Command kTilingCommand = {
    "tiling", "a tiled layout as pad-reshape-transpose steps, with sizes",
    kTilingHelp, RunTiling};

extern const BatchOp kIndexBatchOp;
const BatchOp kIndexBatchOp = {"index", 2, 2,
                               "index<TAB>SHAPE<TAB>I,J,...  -> element offset",
                               BatchIndex};
extern const BatchOp kElementBatchOp;
const BatchOp kElementBatchOp = {
    "element", 2, 2, "element<TAB>SHAPE<TAB>OFFSET -> I,J,... or padding",
    BatchElement};
extern const BatchOp kSizeBatchOp;
const BatchOp kSizeBatchOp = {
    "size", 1, 1, "size<TAB>SHAPE              -> padded element count",
    BatchSize};
extern const BatchOp kBytesBatchOp;
const BatchOp kBytesBatchOp = {"bytes", 1, 1,
                               "bytes<TAB>SHAPE             -> exact byte size",
                               BatchBytes};

}  // namespace hlolayout::cli
