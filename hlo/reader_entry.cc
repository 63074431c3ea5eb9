// The reader's last check of a module (reader_internal.h): where no
// computation says ENTRY, the one taken as the entry (the last) matches the
// header's entry_computation_layout. A dump cut before its ENTRY
// computation otherwise makes its last fusion body the entry, and every
// analysis after it answers for the wrong computation. A computation
// marked ENTRY is taken as written.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {
namespace {

// Element type and dimensions (bounds and dynamic marks) agree, tuples
// element by element; layouts are not compared (a signature prints none).
bool SameIgnoringLayout(const Shape& a, const Shape& b) {
  if (a.IsTuple() != b.IsTuple()) return false;
  if (a.IsTuple()) {
    if (a.tuple_shapes().size() != b.tuple_shapes().size()) return false;
    for (size_t i = 0; i < a.tuple_shapes().size(); ++i) {
      if (!SameIgnoringLayout(a.tuple_shapes()[i], b.tuple_shapes()[i])) {
        return false;
      }
    }
    return true;
  }
  return a.element_type() == b.element_type() &&
         a.dimensions() == b.dimensions() &&
         a.dynamic_dimensions() == b.dynamic_dimensions();
}

// What differs between the entry and the layout, in words; "" when nothing.
std::string EntryMismatch(const HloModule& module) {
  const HloModuleHeader& header = module.header;
  const HloComputation& entry = module.computations[module.entry_index];
  const std::vector<Shape>& want = header.entry_parameter_shapes;
  std::vector<const Shape*> params(want.size(), nullptr);
  int64_t count = 0;
  for (const HloInstruction& in : entry.instructions) {
    if (!in.parameter_number.has_value()) continue;
    ++count;
    const int64_t n = *in.parameter_number;
    if (n >= 0 && n < static_cast<int64_t>(params.size())) params[n] = in.shape;
  }
  if (count != static_cast<int64_t>(want.size())) {
    return absl::StrCat(
        "takes ", count, count == 1 ? " parameter" : " parameters",
        " where the module's entry_computation_layout has ", want.size());
  }
  for (size_t n = 0; n < want.size(); ++n) {
    if (params[n] != nullptr && !SameIgnoringLayout(*params[n], want[n])) {
      return absl::StrCat("takes ", params[n]->ToString(false),
                          " as parameter ", n,
                          " where the module's entry_computation_layout has ",
                          want[n].ToString(false));
    }
  }
  if (entry.root_index >= 0) {
    const Shape* root = entry.instructions[entry.root_index].shape;
    if (root != nullptr &&
        !SameIgnoringLayout(*root, header.entry_result_shape)) {
      return absl::StrCat("returns ", root->ToString(false),
                          " where the module's entry_computation_layout has ",
                          header.entry_result_shape.ToString(false));
    }
  }
  return "";
}

// Decodes the shape written in `text` into `*shape`; false when it cannot.
bool DecodeShapeText(absl::string_view text, Shape* shape) {
  size_t at = 0;
  return !text.empty() && ParseShapeAt(text, &at, shape).ok();
}

}  // namespace

std::string EntryTextMismatch(const HloModuleHeader& header,
                              const std::vector<int64_t>& numbers,
                              const std::vector<absl::string_view>& texts,
                              absl::string_view root_text) {
  const std::vector<Shape>& want = header.entry_parameter_shapes;
  const int64_t count = static_cast<int64_t>(numbers.size());
  if (count != static_cast<int64_t>(want.size())) {
    return absl::StrCat(
        "takes ", count, count == 1 ? " parameter" : " parameters",
        " where the module's entry_computation_layout has ", want.size());
  }
  // Each number once and below the count (the reader checked): one text
  // per layout parameter.
  std::vector<absl::string_view> by_number(want.size());
  for (size_t i = 0; i < numbers.size() && i < texts.size(); ++i) {
    if (numbers[i] >= 0 && numbers[i] < count) by_number[numbers[i]] = texts[i];
  }
  Shape shape;
  for (size_t n = 0; n < want.size(); ++n) {
    if (DecodeShapeText(by_number[n], &shape) &&
        !SameIgnoringLayout(shape, want[n])) {
      return absl::StrCat("takes ", shape.ToString(false), " as parameter ", n,
                          " where the module's entry_computation_layout has ",
                          want[n].ToString(false));
    }
  }
  if (DecodeShapeText(root_text, &shape) &&
      !SameIgnoringLayout(shape, header.entry_result_shape)) {
    return absl::StrCat("returns ", shape.ToString(false),
                        " where the module's entry_computation_layout has ",
                        header.entry_result_shape.ToString(false));
  }
  return "";
}

std::string EntryMismatchMessage(absl::string_view name,
                                 absl::string_view mismatch) {
  return absl::StrCat("the entry computation '", name, "' ", mismatch,
                      " (no computation says ENTRY, so the last one was taken: "
                      "is the text cut before its ENTRY computation?)");
}

absl::Status CheckEntryLayout(absl::string_view text,
                              const HloReadOptions& options,
                              const HloModule& module) {
  if (!module.header.has_entry_computation_layout || module.entry_index < 0 ||
      module.entry_index >= static_cast<int64_t>(module.computations.size()) ||
      module.computations[module.entry_index].header.entry_marker) {
    return absl::OkStatus();
  }
  const std::string mismatch = EntryMismatch(module);
  if (mismatch.empty()) return absl::OkStatus();
  const HloComputation& entry = module.computations[module.entry_index];
  return ParseError(text, entry.header.offset,
                    EntryMismatchMessage(entry.header.name, mismatch),
                    options.file_name);
}

}  // namespace hlo_internal
}  // namespace hlolayout
