// `hlolayout verify`: HLO modules checked as XLA's verifier checks them after
// its parser (hlo/verifier.h), beside what the reader itself refuses.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlolayout/answers/verify.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kVerifyHelp =
    R"(usage: hlolayout verify [--all] [--mixed-precision] [FILE... | -]
  --help             this text
  --all              every instruction that breaks a rule (default: the
                     first of each file)
  --mixed-precision  floating-point types may differ between an elementwise
                     instruction and its operands (XLA's
                     allow_mixed_precision)

Reads each file (standard input without one) as `hlolayout report` does,
then checks what only shapes say, as XLA's HloVerifier does after its
parser (docs/hlo-text.md, "The verifier"): elementwise instructions have
their operands' dimensions and the element type the opcode gives, a tuple
is the tuple of its operands' shapes, a get-tuple-element is an element of
its tuple, a parameter is its signature's. Layouts are not compared.
Prints "FILE: N modules verified" and exits 0, or each error with its line,
column and caret on stderr and exits 1.

examples:
  hlolayout verify module_0001.jit_step.sm_9.0a_gpu_after_optimizations.txt
  printf 'HloModule m\nENTRY %%e (p: f32[2]) -> f32[3] {\n  %%p = f32[2]{0} parameter(0)\n  ROOT %%n = f32[3]{0} negate(%%p)\n}\n' | hlolayout verify
)";

// Verifies the modules of one input: 0, or 1 after its errors printed.
int VerifyInput(const std::string& path, bool all, bool mixed, IoContext& io) {
  absl::StatusOr<std::unique_ptr<InputText>> input = OpenInput(path, io);
  if (!input.ok()) {
    io.err << "hlolayout verify: " << input.status().message() << "\n";
    return 1;
  }
  answers::VerifyRequest request;
  request.file_name = path == "-" ? "<stdin>" : path;
  request.all = all;
  request.mixed_precision = mixed;
  absl::StatusOr<answers::VerifyAnswer> answer =
      answers::AnswerVerify((*input)->view(), request);
  if (!answer.ok()) {
    io.err << "hlolayout verify: " << answer.status().message() << "\n";
    return 1;
  }
  for (const absl::Status& s : answer->errors) {
    io.err << "hlolayout verify: " << s.message() << "\n";
  }
  if (!answer->errors.empty()) return 1;
  io.out << request.file_name << ": " << answer->modules
         << (answer->modules == 1 ? " module" : " modules") << " verified\n";
  return 0;
}

int RunVerify(const std::vector<std::string>& raw_args, IoContext& io) {
  const std::vector<absl::string_view> switches = {"all", "mixed-precision"};
  absl::StatusOr<Args> args = ParseArgs(raw_args, switches, {});
  if (!args.ok()) {
    io.err << "hlolayout verify: " << args.status().message() << "\n";
    return 2;
  }
  std::vector<std::string> paths = args->positional;
  if (paths.empty()) paths.push_back("-");
  int status = 0;
  for (const std::string& path : paths) {
    if (VerifyInput(path, args->Has("all"), args->Has("mixed-precision"), io) !=
        0) {
      status = 1;
    }
  }
  return status;
}

}  // namespace

extern const Command kVerifyCommand;
const Command kVerifyCommand = {
    "verify",
    "check HLO modules as XLA's verifier does after its parser (each "
    "instruction's shape against its operands')",
    kVerifyHelp,
    RunVerify,
};

}  // namespace hlolayout::cli
