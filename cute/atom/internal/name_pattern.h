// cute/atom/internal/name_pattern.h: CuTe atom names as data.
//
// The atom tables (mma_tables_*.cc, copy_tables.cc) describe each family of
// CuTe atoms by a name pattern with parameters and layout templates, the way
// CuTe's headers generate them (GMMA over N and the majors, UMMA over types,
// M, N and majors, ...):
//
//   pattern  "SM90_64x{N}x16_F16F16F16_SS<{MA},{MB}{SC}>"
//   params   "N=8|16|32|64|96|128|192|256; MA=@gmma_major; MB=@gmma_major;
//             SC=@gmma_scale_tail"
//   C layout "((_4,_8,_4),(_2,_2,_{N/8})):((_128,_1,_16),(_64,_8,_512))"
//
// A parameter's domain is a list `a|b|c` (an empty alternative allowed), an
// integer range `lo..hi/step`, `#uint` (any unsigned integer), or a named set
// `@name` (types, majors, scale arguments; see name_pattern.cc). A template
// refers to `{P}`, `{P/k}`,
// `{P*k}` (integer parameters) and `{bits:P}` (the width of a type
// parameter). Names are compared in canonical form (CanonicalAtomName).
#ifndef HLOLAYOUT_CUTE_ATOM_INTERNAL_NAME_PATTERN_H_
#define HLOLAYOUT_CUTE_ATOM_INTERNAL_NAME_PATTERN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace hlolayout::cute::atom_internal {

// Bindings
//
// Parameter name -> the text it matched.
using Bindings = std::vector<std::pair<std::string, std::string>>;

class NamePattern {
 public:
  // Compile
  //
  // Precondition: `pattern` and `params` are well formed (the tables are
  // ours; CHECK-fails otherwise, caught by the table tests).
  static NamePattern Compile(absl::string_view pattern,
                             absl::string_view params);

  // Match
  //
  // The parameter values when `canonical` is an instance of the pattern.
  absl::optional<Bindings> Match(absl::string_view canonical) const;

  // Instances
  //
  // Every name the pattern describes, up to `limit` of them (in domain
  // order, first parameter slowest). With `optional_forms` false, a named
  // set of optional trailing template arguments (@gmma_scale_tail, ...)
  // takes only its empty value. Used by the tests and suggestions.
  std::vector<std::string> Instances(int64_t limit,
                                     bool optional_forms = true) const;

  // Count
  //
  // How many names Instances(inf, optional_forms) gives.
  int64_t Count(bool optional_forms = true) const;

  // LooseMatch
  //
  // True when the part of `canonical` before its first '<' fits the
  // pattern's with every parameter matching any run of name characters:
  // the name belongs to this family even if its parameters do not.
  bool LooseMatch(absl::string_view canonical) const;

  // Display
  //
  // The pattern followed by each parameter's whole domain, for listings:
  // "SM90_64x{N}x16_F16F16F16_SS<{MA},{MB}> with N in 8|16|32|64|96|128|
  // 192|256, MA in GMMA::Major::K|GMMA::Major::MN, ...".
  std::string Display() const;

  // Domains
  //
  // Each parameter's name and whole domain as Display shows it: the values
  // joined by '|' ("(none)" for an empty one), a range "8..256 step 8", or
  // "any unsigned integer".
  std::vector<std::pair<std::string, std::string>> Domains() const;

  // LooseBindings
  //
  // The text each parameter took, with its offset in `canonical`, in order,
  // when `canonical` fits the pattern with every parameter matching any run
  // of the characters its values are made of (letters, digits, '_' and ':'
  // at least), whatever its domain: over the whole name with `whole`, else
  // over the part before the first '<' (LooseMatch). Linear in the name
  // times the pattern's pieces.
  struct LooseValue {
    std::string param;
    std::string text;
    size_t offset = 0;
  };
  absl::optional<std::vector<LooseValue>> LooseBindings(
      absl::string_view canonical, bool whole = false) const;

  // Accepts
  //
  // Whether `text` is in the domain of parameter `param` (false for a name
  // the pattern has not).
  bool Accepts(absl::string_view param, absl::string_view text) const;

  // Values
  //
  // The values of parameter `param` (empty for `#uint` and unknown names).
  std::vector<std::string> Values(absl::string_view param) const;

  // Head
  //
  // The literal text before the first parameter or '<'.
  absl::string_view Head() const;

  const std::string& pattern() const { return pattern_; }

 private:
  struct Param {
    std::string name;
    std::vector<std::string> values;             // every value, as text
    std::string display;                         // the domain as written
    bool any_uint = false;                       // `#uint`: any decimal integer
    bool optional = false;                       // optional template arguments
    std::string chars;                           // what its values are made of
    absl::flat_hash_set<std::string> value_set;  // `values`, for Accepts
  };
  struct Piece {
    bool is_param = false;
    std::string literal;
    int param = -1;
  };

  const Param* FindParam(absl::string_view name) const;
  bool MatchFrom(absl::string_view s, size_t piece,
                 std::vector<const std::string*>& chosen,
                 std::vector<std::string>& uint_text) const;

  std::string pattern_;
  std::vector<Param> params_;
  std::vector<Piece> pieces_;
};

// CanonicalAtomName
//
// Removes white space, drops the `cute::`, `cutlass::`, `std::` and `SM90::`
// qualifiers and a `SM100::`/`SM120::BLOCKSCALED::`/`SM103::` namespace
// before an atom, and checks the text is a C++ type name (identifiers,
// integers, `::`, `<`, `>`, `,`, balanced). Errors point into `text` with a
// caret. At most 512 characters.
absl::StatusOr<std::string> CanonicalAtomName(absl::string_view text);

// TypeBits
//
// The width in bits of a CuTe/CUTLASS value type named canonically
// (`half_t` 16, `uint128_t` 128, `complex<float>` 64, `float_e2m1_t` 4).
absl::optional<int> TypeBits(absl::string_view canonical_type);

// Substitute
//
// The template with every `{...}` replaced from `bindings`. Error for an
// unknown parameter, a non-integer where arithmetic is asked, or a division
// with a remainder.
absl::StatusOr<std::string> Substitute(absl::string_view templ,
                                       const Bindings& bindings);

// KnownTypeNames
//
// The value types TypeBits knows by name, in table order (complex<T> of
// each aside).
std::vector<std::string> KnownTypeNames();

}  // namespace hlolayout::cute::atom_internal

#endif  // HLOLAYOUT_CUTE_ATOM_INTERNAL_NAME_PATTERN_H_
