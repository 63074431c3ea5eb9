// `hlolayout explain`: a shape and its layout in words.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/answers/explain.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/views/explain_text.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kExplainHelp =
    R"(usage: hlolayout explain [--json] [SHAPE... | - | --file=PATH]

Explains each shape: element type and width, logical dimensions, the
physical dimension order (major to minor), every layout attribute in words,
the memory space, the logical element count and byte size. Tuples are
explained element by element. With no SHAPE, or with '-', reads one shape
per line from standard input (or --file).

flags:
  --json   one JSON document per shape (keys: shape, kind, element_type,
           bit_width, byte_width, dimensions, dynamic_dimensions,
           major_to_minor, attributes, memory_space, memory_space_name,
           elements, bytes; tuples have kind "tuple" and "elements_shapes")
  --file=PATH  read one shape per line from PATH
  --help   this text

example:
  hlolayout explain 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}'
)";

// The first padding section of `e` (or of its parts) that could not be
// computed, as "shape: message"; "" when every one was.
std::string FirstSizeError(const ShapeExplanation& e) {
  if (e.kind == ShapeExplanation::Kind::kArray && !e.padding.ok() &&
      !e.HasUnboundedDimension()) {
    return absl::StrCat(e.shape, ": ", e.padding.status().message());
  }
  for (const ShapeExplanation& part : e.parts) {
    std::string error = FirstSizeError(part);
    if (!error.empty()) return error;
  }
  return "";
}

int RunExplain(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"json"}, {"file"});
  if (!args.ok()) {
    io.err << "hlolayout explain: " << args.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::vector<std::string>> texts =
      ShapeArguments(args->positional, args->Value("file", ""), io);
  if (!texts.ok()) {
    io.err << "hlolayout explain: " << texts.status().message() << "\n";
    return texts.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  if (texts->empty()) {
    // Nothing to explain is not an answer: an empty file or input.
    const std::string file = args->Value("file", "");
    io.err << "hlolayout explain: no shape in "
           << (file.empty() ? std::string("standard input")
                            : absl::StrCat("'", file, "'"))
           << "\n";
    return 1;
  }
  int status = 0;
  bool first = true;
  for (const std::string& text : *texts) {
    absl::StatusOr<answers::ShapeExplanation> answer =
        answers::AnswerExplain(text);
    if (!answer.ok()) {
      io.err << "hlolayout explain: " << answer.status().message() << "\n";
      status = 1;
      continue;
    }
    // A section that could not be computed (it prints its error in place)
    // makes the exit status 1, as a shape that does not parse does.
    const answers::ShapeExplanation& explanation = *answer;
    if (args->Has("json")) {
      io.out << ExplanationJson(explanation) << "\n";
    } else {
      io.out << (first ? "" : "\n") << ExplanationText(explanation);
    }
    if (!explanation.ok()) {
      // The reason is in the answer; stderr says why the status is 1.
      io.err << "hlolayout explain: cannot size " << FirstSizeError(explanation)
             << "\n";
      status = 1;
    }
    first = false;
  }
  return status;
}

}  // namespace

extern const Command kExplainCommand;
const Command kExplainCommand = {
    "explain",
    "explain a shape and its layout in words (--json for machines)",
    kExplainHelp,
    RunExplain,
};

}  // namespace hlolayout::cli
