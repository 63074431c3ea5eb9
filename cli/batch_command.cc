// `hlolayout batch`: one answer line per input line, over a pipe.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/batch_cache.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {
namespace {

// Messages may span lines (source line and caret); an answer is one line.
std::string OneLine(absl::string_view message) {
  return absl::StrReplaceAll(message, {{"\n", " | "}, {"\r", ""}});
}

std::string Answer(absl::string_view line, BatchCache& cache) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
  const absl::string_view op = fields[0];
  for (const BatchOp* batch_op : AllBatchOps()) {
    if (batch_op->name != op) continue;
    const int args = static_cast<int>(fields.size()) - 1;
    if (args < batch_op->min_args || args > batch_op->max_args) {
      return absl::StrCat(
          "error: ", op, " takes ",
          batch_op->min_args == batch_op->max_args
              ? absl::StrCat(batch_op->min_args)
              : absl::StrCat(batch_op->min_args, " to ", batch_op->max_args),
          " tab-separated argument", batch_op->max_args == 1 ? "" : "s",
          ", got ", args);
    }
    absl::StatusOr<std::string> answer =
        batch_op->run(absl::MakeConstSpan(fields).subspan(1), cache);
    if (!answer.ok()) {
      return absl::StrCat("error: ", OneLine(answer.status().message()));
    }
    return *std::move(answer);
  }
  if (op.empty()) return "error: empty line";
  return absl::StrCat("error: unknown op '", OneLine(op),
                      "' (hlolayout batch --help lists the ops)");
}

int RunBatch(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {}, {});
  if (!args.ok() || !args->positional.empty()) {
    io.err << "hlolayout batch: "
           << (args.ok() ? "takes no arguments; it reads standard input"
                         : args.status().message())
           << "\n";
    return 2;
  }
  BatchCache cache;
  std::string line;
  std::string out;
  // std::cin is tied to std::cout: every getline would flush the answers
  // (one write per line). We flush ourselves when input runs dry, so untie
  // for the loop.
  std::ostream* const tied = io.in.tie(nullptr);
  while (std::getline(io.in, line)) {
    out = Answer(line, cache);
    out.push_back('\n');
    io.out.write(out.data(), static_cast<std::streamsize>(out.size()));
    // Flush when no more input is buffered, so that a program talking to
    // us line by line over a pipe gets each answer at once.
    if (io.in.rdbuf()->in_avail() <= 0) io.out.flush();
  }
  io.out.flush();
  io.in.tie(tied);
  return 0;
}

std::string BatchHelp() {
  std::string help =
      "usage: hlolayout batch < requests.tsv\n"
      "\n"
      "Reads lines OP<TAB>ARG... from standard input and writes exactly one\n"
      "answer line per input line, in order. A line that cannot be answered\n"
      "gets 'error: <message>' and processing continues. Shapes are parsed\n"
      "once and cached.\n"
      "\n"
      "ops:\n";
  for (const BatchOp* op : AllBatchOps()) {
    absl::StrAppend(&help, "  ", op->usage, "\n");
  }
  absl::StrAppend(&help,
                  "\nexample:\n"
                  "  printf 'print\\tf32[2,3]\\n' | hlolayout batch\n"
                  "  f32[2,3]{1,0}\n");
  return help;
}

}  // namespace

// The help text lists the registered ops, so it is built when asked for.
extern const Command kBatchCommand;
const Command kBatchCommand = {
    "batch",
    "answer OP<TAB>ARG lines from stdin, one line each (a pipe service)",
    "",
    RunBatch,
    BatchHelp,
};

}  // namespace hlolayout::cli
