// fuzz/hlo_reader_fuzzer.cc: ReadHlo (streaming, a visitor that touches
// everything it is given) and ReadHloModules, with keep_going on and off
// and the shape cache on and off (the first byte's low bits choose). A text
// read whole is read again without operands (read_operands false, as the
// report does): it must succeed with the same instructions, operand text
// and attributes. Every metadata's source line is looked up
// (HloSourceLocations). The report read in parts on several threads
// (ReportOptions::threads, every instruction line a possible cut) must equal
// the report read in one piece: same status, errors and rendered totals; so
// must the full report (modules read whole, memory analyses, padding
// wasters), which must render without a crash; and the modules read in parts
// (ReadHloModules of a large text) must equal the modules read whole.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/source_location.h"
#include "hlolayout/report/report.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout::fuzz {
namespace {

// Reads every view and shape it is given, so ASan sees dangling ones.
class TouchingVisitor : public HloVisitor {
 public:
  void BeginModule(const HloModuleHeader& header) override {
    sum_ += header.name.size();
    for (const HloAttribute& a : header.attributes) Touch(a.value());
    for (const Shape& s : header.entry_parameter_shapes) Touch(s);
    for (const HloStackTable& t : header.stack_tables) {
      for (const auto& e : t.entries) Touch(e.value);
    }
  }
  void BeginComputation(const HloComputationHeader& header) override {
    Touch(header.name);
    for (const HloParameter& p : header.parameters) {
      if (p.shape != nullptr) Touch(*p.shape);
    }
  }
  void VisitInstruction(const HloInstruction& instruction) override {
    ++instructions_;
    skeleton_ += instruction.name().size() + instruction.opcode_name().size() +
                 instruction.shape_text().size() +
                 instruction.operand_text().size() + 31 * instruction.offset;
    for (const HloAttribute& a : instruction.attributes()) {
      skeleton_ += a.name().size() * 7 + a.value().size() * 13;
    }
    Touch(instruction.name());
    Touch(instruction.opcode_name());
    Touch(instruction.literal());
    if (instruction.shape != nullptr) Touch(*instruction.shape);
    for (const HloOperand& o : instruction.operands()) {
      Touch(o.name);
      if (o.shape != nullptr) Touch(*o.shape);
    }
    for (const HloAttribute& a : instruction.attributes()) Touch(a.value());
  }
  void Error(const absl::Status& error) override {
    if (error.ok() || error.message().empty()) Fail("empty error", "");
    ++errors_;
  }
  int errors_ = 0;
  int64_t instructions_ = 0;
  // Everything but the operands, summed.
  size_t skeleton_ = 0;

 private:
  void Touch(absl::string_view v) {
    for (char c : v) sum_ += static_cast<unsigned char>(c);
  }
  void Touch(const Shape& s) { sum_ += HumanStringWithLayout(s).size(); }
  size_t sum_ = 0;
};

// Everything ReadHloModules gives, as one string: the status, or every
// module, computation and instruction (shapes printed).
std::string ModulesOf(const absl::StatusOr<std::vector<HloModule>>& modules) {
  if (!modules.ok()) return std::string(modules.status().message());
  std::ostringstream out;
  for (const HloModule& m : modules.value()) {
    out << "module " << m.header.name << " " << m.entry_index << "\n";
    for (const HloComputation& c : m.computations) {
      out << c.header.name << " " << c.header.offset << " " << c.root_index
          << " " << c.execution_thread << "\n";
      for (const HloInstruction& i : c.instructions) {
        out << i.offset << " " << i.name() << " " << i.opcode_name() << " "
            << (i.shape == nullptr ? "-" : HumanStringWithLayout(*i.shape));
        for (const HloOperand& o : i.operands()) {
          out << " " << o.name << "#" << o.output_index << " "
              << (o.shape == nullptr ? "-" : HumanStringWithLayout(*o.shape));
        }
        for (const HloAttribute& a : i.attributes()) {
          out << " " << a.name() << "=" << a.value();
        }
        out << "\n";
      }
    }
  }
  return out.str();
}

// The report of `text` with `threads`, as one string: status, errors and
// the rendered totals. `full`: the full report (the modules read whole, the
// memory analyses and padding wasters), rendered as its summary so that it
// compares with the streaming summary (keep_rows false, read in parts).
std::string ReportOf(absl::string_view text, int64_t threads, bool keep_going,
                     bool full = false) {
  ReportOptions options;
  options.threads = threads;
  options.min_bytes_per_thread = 1;
  options.read.keep_going = keep_going;
  options.keep_rows = full;
  absl::StatusOr<Report> report = BuildReport(text, options);
  if (!report.ok()) return std::string(report.status().message());
  std::ostringstream out;
  RenderOptions render;
  render.summary = true;
  render.lead = false;
  RenderReportText(*report, render, out);
  if (full) {  // the wasters and lead render without a crash
    std::ostringstream rows;
    RenderReportText(*report, RenderOptions(), rows);
  }
  for (const std::string& e : report->errors) out << e << "\n";
  return out.str();
}

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
    if (status.ok() && !keep_going) {
      HloReadOptions skip = options;
      skip.read_operands = false;
      TouchingVisitor skipping;
      const absl::Status skipped = ReadHlo(text, skip, &skipping);
      if (!skipped.ok() || skipping.instructions_ != visitor.instructions_ ||
          skipping.skeleton_ != visitor.skeleton_) {
        Fail("reading without operands differs", text, skipped.message());
      }
    }
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
        // Source lines from metadata and the stack tables
        // (hlo/source_location.h): never a crash.
        const HloSourceLocations locations(m.header);
        for (const HloComputation& c : m.computations) {
          for (const HloInstruction& i : c.instructions) {
            for (const HloAttribute& a : i.attributes()) {
              if (a.name() == "metadata") (void)locations.Of(a.value());
            }
            if (i.shape != nullptr) (void)HumanStringWithLayout(*i.shape);
            for (const HloOperand& o : i.operands()) {
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
    // Read in parts on two threads (ReadHloModules of a large text), cut
    // where HloCutPoints cuts: the same modules, or the same error.
    if (!keep_going) {
      bool joined = false;
      const absl::StatusOr<std::vector<HloModule>> parts =
          hlo_internal::ReadModulesInParts(
              text, options, nullptr,
              HloCutPoints(text, 2 + (data[0] >> 4) % 3), 2, &joined);
      if (ModulesOf(parts) != ModulesOf(modules)) {
        Fail("ReadHloModules in parts differs", text);
      }
    }
  }
  (void)SplitHloModuleTexts(text);
  const bool keep_going = (data[0] & 4) != 0;
  const std::string whole = ReportOf(text, 1, keep_going);
  const int64_t threads = 2 + (data[0] >> 4) % 6;
  if (ReportOf(text, threads, keep_going) != whole) {
    Fail("the report read in parts differs", text);
  }
  // The full report (modules read whole, then replayed) has the summary's
  // totals and the same status.
  if (ReportOf(text, 1, keep_going, /*full=*/true) != whole) {
    Fail("the full report and the streaming summary differ", text);
  }
  return 0;
}
