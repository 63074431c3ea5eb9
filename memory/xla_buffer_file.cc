// Reads XLA's *-buffer-assignment.txt (memory/xla_buffer_file.h). The
// grammar is the one BufferAllocation::ToString writes (and
// memory/buffer_assignment_text.cc writes for the model):
//
//   allocation N: size S[, color C][, page P][, parameter P, shape |T| at
//     ShapeIndex {i,...}][, output shape is |T|][, constant][, thread-local]
//     [, maybe-live-out][, preallocated-temp]:
//    value: <ID NAME[{i,...}][ (phi)] @C> (size=S,offset=O): SHAPE
#include "hlolayout/memory/xla_buffer_file.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace {

constexpr absl::string_view kHeader = "BufferAssignment:";

// One line being read: `at` is the next byte's offset in the whole text.
class LineReader {
 public:
  LineReader(const XlaBufferFile& file, size_t begin, size_t end)
      : file_(file), text_(file.text), at_(begin), end_(end) {}

  bool Done() const { return at_ >= end_; }
  size_t at() const { return at_; }
  absl::string_view Rest() const {
    return absl::string_view(text_).substr(at_, end_ - at_);
  }

  // Consumes `word` when the rest starts with it.
  bool Take(absl::string_view word) {
    if (!absl::StartsWith(Rest(), word)) return false;
    at_ += word.size();
    return true;
  }
  absl::Status Expect(absl::string_view word) {
    if (Take(word)) return absl::OkStatus();
    return Error(
        absl::StrCat("expected '", word, "', found ", DescribeToken(Token())));
  }
  // A decimal integer, >= 0 (or any sign when `signed_ok`).
  absl::Status Number(int64_t* out, bool signed_ok = false) {
    size_t n = 0;
    const absl::string_view rest = Rest();
    if (signed_ok && n < rest.size() && rest[n] == '-') ++n;
    while (n < rest.size() && absl::ascii_isdigit(rest[n])) ++n;
    if (n == 0 || (n == 1 && rest[0] == '-')) {
      return Error(
          absl::StrCat("expected a number, found ", DescribeToken(Token())));
    }
    if (!absl::SimpleAtoi(rest.substr(0, n), out)) {
      return Error("number out of range");
    }
    at_ += n;
    return absl::OkStatus();
  }
  // The text up to (not including) `stop`, which is consumed.
  absl::Status Until(char stop, absl::string_view* out) {
    const absl::string_view rest = Rest();
    const size_t k = rest.find(stop);
    if (k == absl::string_view::npos) {
      return Error(absl::StrCat("expected '", std::string(1, stop), "'"));
    }
    *out = rest.substr(0, k);
    at_ += k + 1;
    return absl::OkStatus();
  }
  // "{}" or "{i,j,...}".
  absl::Status Index(std::vector<int64_t>* index) {
    if (absl::Status s = Expect("{"); !s.ok()) return s;
    while (!Take("}")) {
      if (!index->empty()) {
        if (absl::Status s = Expect(","); !s.ok()) return s;
      }
      int64_t k = 0;
      if (absl::Status s = Number(&k); !s.ok()) return s;
      index->push_back(k);
    }
    return absl::OkStatus();
  }
  absl::Status Error(absl::string_view message, size_t at = SIZE_MAX) const {
    return ParseError(text_, at == SIZE_MAX ? at_ : at, message,
                      file_.file_name);
  }

 private:
  absl::string_view Token() const {
    const absl::string_view rest = Rest();
    size_t n = 0;
    while (n < rest.size() && rest[n] != ' ' && rest[n] != ',' && n < 24) ++n;
    return rest.substr(0, n == 0 && !rest.empty() ? 1 : n);
  }

  const XlaBufferFile& file_;
  const std::string& text_;
  size_t at_;
  size_t end_;
};

// Parses `text` (at `offset` of the file) as a shape kept by the file;
// errors are located in the file.
absl::StatusOr<const Shape*> KeepShape(XlaBufferFile& file,
                                       const LineReader& line,
                                       absl::string_view text, size_t offset) {
  Shape shape;
  size_t at = offset;
  if (absl::Status s = ParseShapeAt(file.text, &at, &shape); !s.ok()) {
    // Located in the file already; named like the reader's own errors.
    if (file.file_name.empty()) return s;
    return absl::InvalidArgumentError(
        absl::StrCat(file.file_name, ":", s.message()));
  }
  if (at != offset + text.size()) {
    return line.Error("unexpected text after the shape", at);
  }
  file.shapes.push_back(std::move(shape));
  return &file.shapes.back();
}

// ", parameter P, shape |T| at ShapeIndex {...}" after ", parameter ".
absl::Status ReadParameter(XlaBufferFile& file, LineReader& line,
                           BufferAllocation& a) {
  a.is_parameter = true;
  if (absl::Status s = line.Number(&a.parameter_number); !s.ok()) return s;
  if (absl::Status s = line.Expect(", shape |"); !s.ok()) return s;
  const size_t shape_at = line.at();
  absl::string_view shape;
  if (absl::Status s = line.Until('|', &shape); !s.ok()) return s;
  if (shape != "<unknown shape>") {
    absl::StatusOr<const Shape*> kept = KeepShape(file, line, shape, shape_at);
    if (!kept.ok()) return kept.status();
    a.parameter_shape = *kept;
  }
  if (absl::Status s = line.Expect(" at ShapeIndex "); !s.ok()) return s;
  return line.Index(&a.parameter_index);
}

// The allocation line after "allocation ".
absl::Status ReadAllocation(XlaBufferFile& file, LineReader& line,
                            BufferAllocation& a) {
  const size_t index_at = line.at();
  if (absl::Status s = line.Number(&a.index); !s.ok()) return s;
  const int64_t expected =
      static_cast<int64_t>(file.assignment.allocations.size());
  if (a.index != expected) {
    return line.Error(absl::StrCat("expected allocation ", expected,
                                   " (allocations are numbered in order)"),
                      index_at);
  }
  if (absl::Status s = line.Expect(": size "); !s.ok()) return s;
  if (absl::Status s = line.Number(&a.size); !s.ok()) return s;
  int64_t page = 0;
  while (!line.Take(":")) {
    absl::Status s;
    if (line.Take(", color ")) {
      s = line.Number(&a.color);
    } else if (line.Take(", page ")) {
      s = line.Number(&page);
    } else if (line.Take(", parameter ")) {
      s = ReadParameter(file, line, a);
    } else if (line.Take(", output shape is |")) {
      const size_t shape_at = line.at();
      absl::string_view shape;
      s = line.Until('|', &shape);
      if (s.ok()) {
        absl::StatusOr<const Shape*> kept =
            KeepShape(file, line, shape, shape_at);
        if (!kept.ok()) return kept.status();
        a.output_shape = *kept;
      }
    } else if (line.Take(", constant")) {
      a.is_constant = true;
    } else if (line.Take(", thread-local")) {
      a.is_thread_local = true;
    } else if (line.Take(", maybe-live-out")) {
      a.maybe_live_out = true;
    } else if (line.Take(", preallocated-temp")) {
      // Follows from the others (BufferAllocation::is_temp).
    } else if (line.Take(", tuple")) {
      a.is_tuple = true;
    } else {
      s = line.Error(
          "expected an allocation attribute (', color', "
          "', parameter', ', maybe-live-out', ...) or ':'");
    }
    if (!s.ok()) return s;
  }
  if (!line.Done()) return line.Error("unexpected text after ':'");
  a.parameter_aliased = a.is_parameter && a.maybe_live_out;
  return absl::OkStatus();
}

// The value line after " value: <".
absl::Status ReadValue(XlaBufferFile& file, LineReader& line,
                       BufferAllocation& a) {
  AssignedValue v;
  if (absl::Status s = line.Number(&v.id); !s.ok()) return s;
  if (absl::Status s = line.Expect(" "); !s.ok()) return s;
  const absl::string_view rest = line.Rest();
  size_t n = 0;
  while (n < rest.size() && rest[n] != '{' && rest[n] != ' ') ++n;
  if (n == 0) return line.Error("expected the value's instruction name");
  v.name = rest.substr(0, n);
  line.Take(v.name);
  if (line.Rest().substr(0, 1) == "{") {
    v.index_printed = true;
    if (absl::Status s = line.Index(&v.index); !s.ok()) return s;
  }
  v.is_phi = line.Take(" (phi)");
  if (absl::Status s = line.Expect(" @"); !s.ok()) return s;
  const size_t color_at = line.at();
  int64_t color = 0;
  if (absl::Status s = line.Number(&color); !s.ok()) return s;
  if (color != a.color) {
    return line.Error(absl::StrCat("the value's color ", color,
                                   " is not its allocation's (", a.color, ")"),
                      color_at);
  }
  if (absl::Status s = line.Expect("> (size="); !s.ok()) return s;
  if (absl::Status s = line.Number(&v.size); !s.ok()) return s;
  if (absl::Status s = line.Expect(",offset="); !s.ok()) return s;
  const size_t offset_at = line.at();
  if (absl::Status s = line.Number(&v.offset); !s.ok()) return s;
  if (v.offset > a.size || v.size > a.size - v.offset) {
    return line.Error(
        absl::StrCat("the value (size ", v.size, " at offset ", v.offset,
                     ") lies past its allocation's ", a.size, " bytes"),
        offset_at);
  }
  if (absl::Status s = line.Expect("): "); !s.ok()) return s;
  const size_t shape_at = line.at();
  const absl::string_view shape = line.Rest();
  absl::StatusOr<const Shape*> kept = KeepShape(file, line, shape, shape_at);
  if (!kept.ok()) return kept.status();
  v.shape = *kept;
  v.bytes = v.size;
  if (absl::StrContains(shape, ":T(")) file.tiled = true;
  if (absl::StrContains(shape, "S(3)")) file.uses_s3 = true;
  a.values.push_back(std::move(v));
  ++file.values;
  return absl::OkStatus();
}

// The sums of compiled.memory_analysis() the allocations make (XLA's
// PopulateBufferStatsFromAllocations; host memory is S(5)).
void SumStats(BufferAssignment& b) {
  XlaMemoryStats& s = b.stats;
  for (const BufferAllocation& a : b.allocations) {
    const bool host = a.color == XlaMemoryStats::kHostMemorySpace;
    if (a.is_parameter) {
      (host ? s.host_argument_size_in_bytes : s.argument_size_in_bytes) +=
          a.size;
    }
    if (a.parameter_aliased) {
      (host ? s.host_alias_size_in_bytes : s.alias_size_in_bytes) += a.size;
    }
    if (a.maybe_live_out) {
      (host ? s.host_output_size_in_bytes : s.output_size_in_bytes) += a.size;
    }
    if (a.is_temp()) {
      (host ? s.host_temp_size_in_bytes : s.temp_size_in_bytes) += a.size;
    }
  }
}

// Sections some XLA versions write after the allocations.
bool IsLaterSection(absl::string_view line) {
  for (absl::string_view s :
       {"Total bytes used", "Used values", "BufferLiveRange", "Live ranges",
        "HloLiveRange"}) {
    if (absl::StartsWith(line, s)) return true;
  }
  return false;
}

absl::Status ReadLines(XlaBufferFile& file) {
  const std::string& text = file.text;
  size_t begin = 0;
  bool header = false;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    size_t stop = end;
    if (stop > begin && text[stop - 1] == '\r') --stop;
    LineReader line(file, begin, stop);
    const size_t next = end + 1;
    std::vector<BufferAllocation>& allocations = file.assignment.allocations;
    absl::Status s;
    if (line.Done()) {
      // Blank lines are allowed anywhere.
    } else if (!header) {
      if (line.Rest() != kHeader) {
        return line.Error(
            "expected 'BufferAssignment:' (the first line of XLA's "
            "*-buffer-assignment.txt)");
      }
      header = true;
    } else if (line.Take("allocation ")) {
      BufferAllocation a;
      s = ReadAllocation(file, line, a);
      if (s.ok()) allocations.push_back(std::move(a));
    } else if (line.Take(" value: <")) {
      if (allocations.empty()) {
        return line.Error("a value before any allocation", begin);
      }
      s = ReadValue(file, line, allocations.back());
    } else if (IsLaterSection(line.Rest())) {
      break;
    } else {
      return line.Error(
          "expected 'allocation N: ...' or ' value: <...>' (XLA's "
          "*-buffer-assignment.txt)");
    }
    if (!s.ok()) return s;
    begin = next;
  }
  if (!header) {
    return ParseError(text, 0, "empty: no 'BufferAssignment:' line",
                      file.file_name);
  }
  return absl::OkStatus();
}

}  // namespace

bool IsXlaBufferAssignmentText(absl::string_view text) {
  size_t k = 0;
  while (k < text.size() && (text[k] == '\n' || text[k] == '\r')) ++k;
  return absl::StartsWith(text.substr(k), kHeader);
}

absl::StatusOr<std::unique_ptr<const XlaBufferFile>> ReadXlaBufferAssignment(
    std::string text, absl::string_view file_name) {
  auto file = std::make_unique<XlaBufferFile>();
  file->file_name = std::string(file_name);
  file->text = std::move(text);
  if (absl::Status s = ReadLines(*file); !s.ok()) return s;
  BufferAssignment& b = file->assignment;
  b.platform = file->tiled ? XlaPlatform::kTpu : XlaPlatform::kGpu;
  b.alignment = 0;  // not said by the file
  SumStats(b);
  return std::unique_ptr<const XlaBufferFile>(std::move(file));
}

}  // namespace hlolayout
