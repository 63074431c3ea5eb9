// fuzz/hlo_reader_fuzzer.cc: ReadHlo (streaming, a visitor that touches
// everything it is given) and ReadHloModules, with keep_going on and off
// and the shape cache on and off (the first byte's low bits choose).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/parser/hlo_module.h"
#include "hlolayout/parser/hlo_reader.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout::fuzz {
namespace {

// Reads every view and shape it is given, so ASan sees dangling ones.
class TouchingVisitor : public HloVisitor {
 public:
  void BeginModule(const HloModuleHeader& header) override {
    sum_ += header.name.size();
    for (const HloAttribute& a : header.attributes) Touch(a.value);
    for (const Shape& s : header.entry_parameter_shapes) Touch(s);
    for (const HloStackTable& t : header.stack_tables) {
      for (const auto& e : t.entries) Touch(e.value);
    }
  }
  void BeginComputation(const HloComputationHeader& header) override {
    Touch(header.name);
    for (const HloParameter& p : header.parameters) Touch(p.shape);
  }
  void VisitInstruction(const HloInstruction& instruction) override {
    Touch(instruction.name);
    Touch(instruction.opcode);
    Touch(instruction.literal);
    if (instruction.shape != nullptr) Touch(*instruction.shape);
    for (const HloOperand& o : instruction.operands) {
      Touch(o.name);
      if (o.shape != nullptr) Touch(*o.shape);
    }
    for (const HloAttribute& a : instruction.attributes) Touch(a.value);
  }
  void Error(const absl::Status& error) override {
    if (error.ok() || error.message().empty()) Fail("empty error", "");
    ++errors_;
  }
  int errors_ = 0;

 private:
  void Touch(absl::string_view v) {
    for (char c : v) sum_ += static_cast<unsigned char>(c);
  }
  void Touch(const Shape& s) { sum_ += HumanStringWithLayout(s).size(); }
  size_t sum_ = 0;
};

}  // namespace
}  // namespace hlolayout::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size < 1 || size > kMaxInputSize) return 0;
  // A copy of exactly the text, so reads past its end are caught.
  std::string owned(reinterpret_cast<const char*>(data) + 1, size - 1);
  absl::string_view text = owned;
  HloReadOptions options;
  options.share_shapes = (data[0] & 1) != 0;
  options.file_name = (data[0] & 2) != 0 ? "f.hlo" : "";

  for (bool keep_going : {false, true}) {
    options.keep_going = keep_going;
    TouchingVisitor visitor;
    absl::Status status = ReadHlo(text, options, &visitor);
    CheckError(status, text);
    if (!keep_going && visitor.errors_ != 0) {
      Fail("Error() called without keep_going", text);
    }
    if (keep_going && status.ok() != (visitor.errors_ == 0)) {
      Fail("keep_going status and Error() calls disagree", text);
    }

    std::vector<absl::Status> errors;
    absl::StatusOr<std::vector<HloModule>> modules =
        ReadHloModules(text, options, keep_going ? &errors : nullptr);
    CheckError(modules.status(), text);
    if (modules.ok()) {
      for (const HloModule& m : *modules) {
        for (const HloComputation& c : m.computations) {
          for (const HloInstruction& i : c.instructions) {
            if (i.shape != nullptr) (void)HumanStringWithLayout(*i.shape);
            for (const HloOperand& o : i.operands) {
              if (o.shape != nullptr) (void)HumanStringWithLayout(*o.shape);
            }
          }
          if (c.root_index < -1 ||
              c.root_index >= static_cast<int64_t>(c.instructions.size())) {
            Fail("root_index out of range", text);
          }
        }
      }
    }
    if (keep_going) {
      for (const absl::Status& e : errors) CheckError(e, text);
    }
    // Streaming and in-memory reading agree on success.
    if (!keep_going && status.ok() != modules.ok()) {
      Fail("ReadHlo and ReadHloModules disagree", text,
           status.ok() ? modules.status().message() : status.message());
    }
  }
  (void)SplitHloModuleTexts(text);
  return 0;
}
