// testing/record_specs_seen.h: a RecordSink (util/record.h) that keeps the
// spec of every record emitted to it and drops the values, for tests that
// check an answer emits only records its room lists.
//
//   RecordSpecsSeen sink;
//   EmitShapeExplanation(ExplainShape(shape), sink);
//   for (const RecordSpec* spec : sink.seen) { /* in ShapeExplanationSpecs */ }
#ifndef HLOLAYOUT_TESTING_RECORD_SPECS_SEEN_H_
#define HLOLAYOUT_TESTING_RECORD_SPECS_SEEN_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/util/record.h"

namespace hlolayout {

class RecordSpecsSeen : public RecordSink {
 public:
  std::vector<const RecordSpec*> seen;  // in the order emitted

  void BeginRecord(const RecordSpec& spec) override { seen.push_back(&spec); }
  void EndRecord() override {}
  void BeginList() override {}
  void EndList() override {}
  void None() override {}
  void Bool(bool) override {}
  void Int(int64_t) override {}
  void Double(double) override {}
  void String(absl::string_view) override {}
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_RECORD_SPECS_SEEN_H_
