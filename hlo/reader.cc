// The HLO module reader's entry points (hlo/reader.h): ReadHlo,
// ReadHloHead, ReadHloTail and SplitHloModuleTexts (ReadHloModules:
// reader_collect.cc). The
// reader itself is the class in reader_internal.h; its stages live in
// reader_module.cc (modules), reader_computation.cc (computations),
// reader_fast.cc and reader_instruction.cc (instructions),
// reader_attributes.cc, reader_shapes.cc, reader_tokens.cc, reader_checks.cc
// (XLA's rules), reader_inline.cc (computations written inline) and
// reader_parts.cc (reading in parts on several threads).
#include "hlolayout/hlo/reader.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/node_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace hlo_internal {

// Texts the reader makes up (the names of instructions written inline as
// operands, the printed form of inferred shapes) must outlive the reading,
// like the views into the input: they are kept once each for the life of
// the process. Only text without names or shapes of its own produces them
// (hand-written modules, XLA's tests), so the set stays small.
absl::string_view Intern(std::string text) {
  static absl::Mutex* mutex = new absl::Mutex;
  static auto* texts = new absl::node_hash_set<std::string>;
  absl::MutexLock lock(mutex);
  return *texts->insert(std::move(text)).first;
}

}  // namespace hlo_internal

namespace {

using hlo_internal::Is;
using hlo_internal::IsDashLine;
using hlo_internal::kHorizontalSpace;
using hlo_internal::ModuleStartProbe;
using hlo_internal::Reader;
using hlo_internal::SkipTriviaAt;
using hlo_internal::StartsWord;

}  // namespace

std::vector<std::pair<size_t, size_t>> SplitHloModuleTexts(
    absl::string_view text) {
  std::vector<std::pair<size_t, size_t>> ranges;
  const size_t n = text.size();
  ModuleStartProbe probe(text);
  size_t begin = 0;
  // Whether the current range starts with `HloModule`: unknown until its
  // first line that is neither blank nor a `//` comment.
  enum { kUnknown, kHeader, kHeaderless } header = kUnknown;
  // The last such line starts with '}' (a computation just closed).
  bool after_close = false;
  auto add = [&](size_t end) {
    // Ranges of only whitespace and comments are dropped; npos (an
    // unterminated comment) is kept, to fail when read.
    if (SkipTriviaAt(text.substr(0, end), begin) != end) {
      ranges.emplace_back(begin, end);
    }
  };
  for (size_t line = 0; line < n;) {
    const void* nl = std::memchr(text.data() + line, '\n', n - line);
    const size_t eol =
        nl == nullptr ? n : static_cast<const char*>(nl) - text.data();
    size_t p = line;
    while (p < eol && Is(text[p], kHorizontalSpace)) ++p;
    if (IsDashLine(text, line)) {
      if (probe.HloModuleFollows(line) ||
          (header == kHeaderless && after_close)) {
        add(line);
        begin = line;
        header = kUnknown;
        after_close = false;
      }
    } else if (p < eol && text[p] != '\r' && text.substr(p, 2) != "//") {
      if (header == kUnknown) {
        header = StartsWord(text, p, "HloModule") ? kHeader : kHeaderless;
      }
      after_close = text[p] == '}';
    }
    line = eol + 1;
  }
  add(n);
  return ranges;
}

absl::Status ReadHlo(absl::string_view text, const HloReadOptions& options,
                     HloVisitor* visitor) {
  if (absl::Status side = XlaSideFileError(text, options.file_name);
      !side.ok()) {
    // As any error: with keep_going the visitor hears of it too.
    if (options.keep_going) visitor->Error(side);
    return side;
  }
  return Reader(text, options, visitor).ReadAll();
}

absl::Status ReadHloHead(absl::string_view text, const HloReadOptions& options,
                         size_t stop, const std::function<bool()>& at_stop,
                         HloVisitor* visitor, bool* stopped,
                         HloPartLinks* links) {
  Reader reader(text, options, visitor);
  reader.SetStop(stop, &at_stop, nullptr);
  reader.SetLinks(links);
  absl::Status status = reader.ReadAll();
  *stopped = reader.stopped();
  return *stopped ? absl::OkStatus() : status;
}

absl::Status ReadHloTail(absl::string_view text, const HloReadOptions& options,
                         size_t begin, size_t stop,
                         const std::atomic<bool>* cancel, HloVisitor* visitor,
                         bool* stopped, HloPartLinks* links) {
  HloReadOptions tail = options;
  tail.keep_going = false;
  Reader reader(text, tail, visitor);
  reader.SetStop(stop, nullptr, cancel);
  reader.SetLinks(links);
  *stopped = false;
  if (begin >= text.size()) return absl::InvalidArgumentError("empty tail");
  absl::Status status = reader.ReadTail(begin);
  *stopped = reader.stopped();
  return *stopped ? absl::OkStatus() : status;
}

}  // namespace hlolayout
