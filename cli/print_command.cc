// `hlolayout print`: the canonical XLA text of shapes, and batch op `print`.
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/batch_cache.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kPrintHelp =
    R"(usage: hlolayout print [--no-layout] [SHAPE... | - | --file=PATH]

Prints each shape in XLA's canonical text, byte-identical to XLA's
ShapeUtil::HumanStringWithLayout (or HumanString with --no-layout): default
layouts filled in, no spaces inside brackets, attributes in XLA's order,
/*index=N*/ before every fifth tuple element. With no SHAPE, or with '-',
reads one shape per line from standard input.

flags:
  --no-layout   print without layouts (ShapeUtil::HumanString)
  --file=PATH   read one shape per line from PATH
  --help        this text

examples:
  hlolayout print 'f32[1024, 16]'            ->  f32[1024,16]{1,0}
  hlolayout print 'bf16[8,128]<1,0:T(8,128)(2,1)>'
                                             ->  bf16[8,128]{1,0:T(8,128)(2,1)}
  hlolayout print --no-layout 'f32[3,5]{0,1}' ->  f32[3,5]
)";

int RunPrint(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"no-layout"}, {"file"});
  if (!args.ok()) {
    io.err << "hlolayout print: " << args.status().message() << "\n";
    return 2;
  }
  const bool layout = !args->Has("no-layout");
  absl::StatusOr<std::vector<std::string>> shapes =
      ShapeArguments(args->positional, args->Value("file", ""), io);
  if (!shapes.ok()) {
    io.err << "hlolayout print: " << shapes.status().message() << "\n";
    return shapes.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  int status = 0;
  for (const std::string& text : *shapes) {
    absl::StatusOr<Shape> shape = ParseShape(text);
    if (!shape.ok()) {
      io.err << "hlolayout print: " << shape.status().message() << "\n";
      status = 1;
      continue;
    }
    io.out << (layout ? HumanStringWithLayout(*shape) : HumanString(*shape))
           << "\n";
  }
  return status;
}

absl::StatusOr<std::string> BatchPrint(absl::Span<const absl::string_view> args,
                                       BatchCache& cache) {
  const absl::StatusOr<Shape>& shape = cache.GetShape(args[0]);
  if (!shape.ok()) return shape.status();
  return HumanStringWithLayout(*shape);
}

}  // namespace

extern const Command kPrintCommand;
const Command kPrintCommand = {
    "print",
    "print shapes in XLA's canonical text (--no-layout for HumanString)",
    kPrintHelp,
    RunPrint,
};

extern const BatchOp kPrintBatchOp;
const BatchOp kPrintBatchOp = {
    "print", 1, 1, "print<TAB>SHAPE              -> the canonical form",
    BatchPrint};

}  // namespace hlolayout::cli
