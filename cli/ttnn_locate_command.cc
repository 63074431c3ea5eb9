// `hlolayout ttnn locate`: where an element of a TTNN tensor lives.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/ttnn_commands.h"
#include "hlolayout/cli/ttnn_input.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::cli {
namespace {

constexpr char kLocateHelp[] =
    R"(usage: hlolayout ttnn locate [--json] --shape SHAPE [FLAGS] INDEX...
       hlolayout ttnn locate [--json] --spec FILE|- INDEX...
       hlolayout ttnn locate [--json] SPEC|- INDEX...

Where each element INDEX (I,J,... in the logical shape) of a TTNN tensor
lives: its host page and the (row, col) and byte in that page (tiles are
stored face by face; block floats keep their exponents before the
mantissas), then for an interleaved tensor the bank (page mod banks) and
the page in that bank, for a sharded one the shard, the core and the
device page on it; and the byte offset from the buffer's base in that bank
or core (pages aligned to the page alignment). SPEC is one JSON object,
inline or in a file.

flags:
  --json                   {"index", "host_page", "in_page", "byte_in_page",
                           "exponent_byte_in_page" (block floats), "bank",
                           "page_in_bank" | "shard", "core", "device_page",
                           "offset", "aligned_page_size"}
)";

std::string Place(const ttnn::TensorSpec& s, const ttnn::ElementPlace& p) {
  std::string out = absl::StrCat(
      "element [", absl::StrJoin(p.index, ", "), "]: host page ", p.host_page,
      ", row ", p.in_page[0], " col ", p.in_page[1], " of the page, byte ",
      p.byte_in_page, " of ", s.page_size_bytes());
  if (p.exponent_byte_in_page) {
    absl::StrAppend(
        &out, " (its exponent: byte ", *p.exponent_byte_in_page,
        s.dtype() == ttnn::DataType::kBfloat4B
            ? (p.low_nibble ? "; the low nibble" : "; the high nibble")
            : "",
        ")");
  }
  absl::StrAppend(&out, "\n  ");
  if (p.bank) {
    absl::StrAppend(&out, ttnn::BufferTypeName(s.buffer_type()), " bank ",
                    *p.bank, ", page ", *p.page_in_bank,
                    " of that bank: offset ", p.offset,
                    " from the buffer's base in the bank\n");
  } else {
    absl::StrAppend(
        &out, "shard ", *p.shard, " on core ", ttnn::CoreName(*p.core),
        ", device page ", *p.device_page, ": offset ", p.offset,
        " from the buffer's base on that ",
        s.buffer_type() == ttnn::BufferType::kDram ? "DRAM bank" : "core",
        "\n");
  }
  return out;
}

}  // namespace

std::string TtnnLocateHelp() {
  return absl::StrCat(kLocateHelp, kTtnnSpecFlagsHelp);
}

int RunTtnnLocate(const std::vector<std::string>& raw, IoContext& io) {
  std::vector<absl::string_view> valued(TtnnSpecFlags().begin(),
                                        TtnnSpecFlags().end());
  absl::StatusOr<Args> args = ParseArgs(raw, {"json", "help"}, valued);
  if (!args.ok()) {
    io.err << "hlolayout ttnn locate: " << args.status().message() << "\n";
    return 2;
  }
  const bool from_flags = args->Has("spec") || args->Has("shape");
  const size_t first_index = from_flags ? 0 : 1;
  if (args->positional.size() <= first_index) {
    io.err << "hlolayout ttnn locate: expects "
           << (from_flags ? "" : "a SPEC and ") << "at least one INDEX\n";
    return 2;
  }
  const std::string* spec_arg = from_flags ? nullptr : &args->positional[0];
  absl::StatusOr<TtnnInputs> inputs = ReadTtnnInputs(*args, spec_arg, io);
  if (!inputs.ok()) {
    io.err << "hlolayout ttnn locate: " << inputs.status().message() << "\n";
    return 2;
  }
  if (inputs->specs.size() != 1) {
    io.err << "hlolayout ttnn locate: expects one spec, got "
           << inputs->specs.size() << "\n";
    return 2;
  }
  absl::StatusOr<ttnn::CheckedSpec> checked =
      ttnn::CheckSpec(inputs->specs[0], inputs->device);
  if (!checked.ok()) {
    const absl::Status& refusal = checked.status();
    if (args->Has("json"))
      io.out << AnswerJson(ttnn::AnswerRefusal(refusal)) << "\n";
    io.err << "hlolayout ttnn locate: " << ttnn::SpecSummary(inputs->specs[0])
           << ": " << refusal.message() << "\n";
    return 1;
  }
  for (const std::string& w : checked->warnings) {
    io.err << "hlolayout ttnn locate: warning: " << w << "\n";
  }
  const ttnn::TensorSpec* spec = &checked->spec;
  int status = 0;
  for (size_t i = first_index; i < args->positional.size(); ++i) {
    absl::StatusOr<std::vector<int64_t>> index =
        ParseDims(args->positional[i], "INDEX");
    absl::StatusOr<ttnn::ElementPlace> place =
        index.ok() ? ttnn::Locate(*spec, *index)
                   : absl::StatusOr<ttnn::ElementPlace>(index.status());
    if (!place.ok()) {
      io.err << "hlolayout ttnn locate: " << place.status().message() << "\n";
      status = 1;
      continue;
    }
    io.out << (args->Has("json")
                   ? AnswerJson(ttnn::AnswerPlace(*spec, *place)) + "\n"
                   : Place(*spec, *place));
  }
  return status;
}

}  // namespace hlolayout::cli
