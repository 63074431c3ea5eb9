// The answers to names that are not atoms (issue 35): a name of a family
// with a parameter value outside its domain gets the family, the whole
// domain (never cut with "...") and the nearest valid names; any other name
// the nearest known names. For every table row of both kinds, a wrong value
// in a parameter (in each parameter of the copy rows).
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"

namespace hlolayout::cute {
namespace {

// The values a domain's text lists ("8|16", "8..256 step 8", "any unsigned
// integer" -> {"1"}), "(none)" as "".
std::vector<std::string> DomainValues(const std::string& domain) {
  if (domain == "any unsigned integer") return {"1"};
  const size_t dots = domain.find("..");
  if (dots != std::string::npos && domain.find('|') == std::string::npos) {
    int64_t lo = 0, hi = 0, step = 0;
    std::vector<std::string> parts = absl::StrSplit(domain, ' ');
    EXPECT_TRUE(absl::SimpleAtoi(domain.substr(0, dots), &lo)) << domain;
    EXPECT_TRUE(absl::SimpleAtoi(parts[0].substr(parts[0].find("..") + 2), &hi))
        << domain;
    EXPECT_TRUE(absl::SimpleAtoi(parts.back(), &step)) << domain;
    std::vector<std::string> out;
    for (int64_t v = lo; step > 0 && v <= hi; v += step) {
      out.push_back(absl::StrCat(v));
    }
    return out;
  }
  std::vector<std::string> out = absl::StrSplit(domain, '|');
  for (std::string& v : out) {
    if (v == "(none)") v.clear();
  }
  return out;
}

struct Row {
  std::string family, name_pattern;
  std::vector<std::pair<std::string, std::string>> domains;
};

// The row's first name with a parameter's value replaced by one outside
// every domain: every parameter of each row with `every`, else one per row
// (row i's parameter i mod n: each message costs an edit-distance search
// over every table row, about 0.1 s in a debug build).
void CheckWrongValues(
    const std::vector<Row>& rows, const char* kind,
    const std::function<absl::Status(const std::string&)>& find, bool every,
    int& checked) {
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    for (size_t bad = 0; bad < row.domains.size(); ++bad) {
      if (!every && bad != r % row.domains.size()) continue;
      const auto& [param, domain] = row.domains[bad];
      const std::vector<std::string> values = DomainValues(domain);
      if (domain == "any unsigned integer") continue;  // nothing is outside
      int64_t number = 0;
      const bool numbers = absl::SimpleAtoi(values[0], &number);
      const std::string wrong = numbers ? "999" : "Bogus";
      std::string name = row.name_pattern;
      for (size_t i = 0; i < row.domains.size(); ++i) {
        const std::string v =
            i == bad ? wrong : DomainValues(row.domains[i].second)[0];
        name = absl::StrReplaceAll(
            name, {{absl::StrCat("{", row.domains[i].first, "}"), v}});
      }
      const absl::Status s = find(name);
      SCOPED_TRACE(name);
      ASSERT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
      const std::string m(s.message());
      EXPECT_FALSE(absl::StrContains(m, "...")) << m;
      EXPECT_TRUE(FitsAnAtomFamily(s)) << m;
      EXPECT_TRUE(absl::StartsWith(
          m, absl::StrCat("unknown ", kind, " '", name, "' (family ")))
          << m;
      EXPECT_TRUE(absl::StrContains(m, row.family)) << m;
      EXPECT_TRUE(absl::StrContains(
          m, absl::StrCat(param, " = ", wrong, " is not one of ")))
          << m;
      for (const std::string& v : values) {
        EXPECT_TRUE(absl::StrContains(m, v.empty() ? "(none)" : v))
            << v << " left out of " << m;
      }
      // Suggestions follow; the first is a name the tables know (names
      // hold ", " inside their template arguments, so only the first is
      // cut out, by trying each prefix).
      const size_t at = m.find("; nearest: ");
      ASSERT_NE(at, std::string::npos) << m;
      const std::string rest = m.substr(at + 11);
      bool known = false;
      for (size_t end = 0; end != std::string::npos && !known;
           end = rest.find(", ", end + 1)) {
        const std::string first =
            rest.substr(0, end == 0 ? rest.find(", ") : end);
        const absl::Status f = find(first);
        known = f.code() != absl::StatusCode::kNotFound;
        if (end == 0 && rest.find(", ") == std::string::npos) break;
      }
      EXPECT_TRUE(known) << m;
      ++checked;
    }
  }
}

TEST(AtomErrorsTest, AWrongParameterValueOfEveryMmaFamily) {
  std::vector<Row> rows;
  for (const MmaFamilyInfo& f : MmaAtomFamilies()) {
    rows.push_back({f.family, f.name_pattern, f.domains});
  }
  int checked = 0;
  CheckWrongValues(
      rows, "MMA atom",
      [](const std::string& name) { return FindMmaAtom(name).status(); },
      /*every=*/false, checked);
  // 52, and 25 from the sparse GMMA/UMMA, complex TF32, SM103 and SM89
  // m16n8k16 rows (issue 37).
  EXPECT_EQ(checked, 77);
}

TEST(AtomErrorsTest, EveryWrongParameterValueOfEveryCopyFamily) {
  std::vector<Row> rows;
  for (const CopyFamilyInfo& f : CopyOpFamilies()) {
    rows.push_back({f.family, f.name_pattern, f.domains});
  }
  int checked = 0;
  CheckWrongValues(
      rows, "copy operation",
      [](const std::string& name) { return FindCopyOp(name).status(); },
      /*every=*/true, checked);
  EXPECT_EQ(checked, 65);
}

TEST(AtomErrorsTest, WorkedExamples) {
  // The example: N = 100 is in no SM90 family; the nearest names
  // are the nearest N's (written without its template arguments, the name
  // is nearest these with K-major operands).
  absl::Status s = FindMmaAtom("SM90_64x100x16_F16F16F16_SS").status();
  EXPECT_EQ(s.message(),
            "unknown MMA atom 'SM90_64x100x16_F16F16F16_SS' (family sm90_gmma "
            "or sm90_gmma_ext): N = 100 is not one of "
            "8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|"
            "160|168|176|184|192|200|208|216|224|232|240|248|256; nearest: "
            "SM90_64x96x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>, "
            "SM90_64x104x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>");
  // Written whole, the other parameters hold: only N is replaced.
  s = FindMmaAtom("SM90_64x100x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>")
          .status();
  EXPECT_TRUE(absl::EndsWith(
      s.message(),
      "; nearest: SM90_64x96x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>, "
      "SM90_64x104x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"))
      << s;
  // A wrong major is that parameter's, not the optional tail's.
  s = FindMmaAtom("SM90_64x96x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::N>")
          .status();
  EXPECT_TRUE(absl::StrContains(
      s.message(),
      "): MB = GMMA::Major::N is not one of GMMA::Major::K|GMMA::Major::MN; "
      "nearest: "))
      << s;
  s = FindCopyOp("SM100_TMEM_LOAD_16dp256b3x").status();
  EXPECT_TRUE(absl::StartsWith(
      s.message(),
      "unknown copy operation 'SM100_TMEM_LOAD_16dp256b3x' (family "
      "sm100_tmem): X = 3 is not one of 1|2|4|8|16|32; nearest: "
      "SM100_TMEM_LOAD_16dp256b2x, SM100_TMEM_LOAD_16dp256b4x, "))
      << s;
  // No family: the nearest names.
  s = FindMmaAtom("SM80_16x8x16_F32F16F16F32_NT").status();
  EXPECT_FALSE(FitsAnAtomFamily(s));
  EXPECT_TRUE(absl::StartsWith(s.message(),
                               "unknown MMA atom "
                               "'SM80_16x8x16_F32F16F16F32_NT'; nearest: "
                               "SM80_16x8x16_F32F16F16F32_TN, "))
      << s;
  // An unknown value type: the nearest and every known one.
  s = FindCopyAtom("Copy_Atom<SM75_U32x4_LDSM_N, halft>").status();
  EXPECT_TRUE(absl::StartsWith(s.message(),
                               "unknown value type 'halft'; nearest: half_t, "))
      << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "type_erased_dynamic_float4_t"));
  EXPECT_FALSE(absl::StrContains(s.message(), "..."));
}

}  // namespace
}  // namespace hlolayout::cute
