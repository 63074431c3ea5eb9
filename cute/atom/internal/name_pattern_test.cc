// Tests of NamePattern (cute/atom/internal/name_pattern.h), the matcher every
// MMA and copy atom name goes through:
// - the pattern language itself: each domain kind, Match's bindings, Count,
//   Instances, LooseMatch, Substitute, CanonicalAtomName's located errors;
// - the tables: every name a row describes matches that row and no other;
// - near misses of every row's names are refused, naming the closest name or
//   the family whose parameters they miss;
// - the 51,824 SM100 UMMA names counted by the table's patterns equal an
//   enumeration written here from CuTe's own rules (the static_asserts of
//   include/cute/arch/mma_sm100_umma.hpp and atom/mma_traits_sm100.hpp), op
//   by op.
#include "hlolayout/cute/atom/internal/name_pattern.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/internal/copy_table.h"
#include "hlolayout/cute/atom/internal/mma_table.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/testing/sanitizer_scale.h"

namespace hlolayout::cute::atom_internal {
namespace {

using testing::ElementsAre;
using testing::HasSubstr;
using testing::Pair;

// --- The pattern language ---------------------------------------------------

TEST(NamePattern, ListRangeAndNamedDomains) {
  const NamePattern p = NamePattern::Compile(
      "SM90_64x{N}x16_F16F16F16_SS<{MA},{MB}{SC}>",
      "N=8..24/8; MA=@gmma_major; MB=K|MN; SC=@gmma_scale_tail");
  EXPECT_EQ(p.Head(), "SM90_64x");
  // 3 N x 2 MA x 2 MB x (1 + 2 + 4) scale tails.
  EXPECT_EQ(p.Count(), 3 * 2 * 2 * 7);
  EXPECT_EQ(p.Count(/*optional_forms=*/false), 3 * 2 * 2);
  absl::optional<Bindings> b =
      p.Match("SM90_64x16x16_F16F16F16_SS<GMMA::Major::MN,K>");
  ASSERT_TRUE(b.has_value());
  EXPECT_THAT(*b, ElementsAre(Pair("N", "16"), Pair("MA", "GMMA::Major::MN"),
                              Pair("MB", "K"), Pair("SC", "")));
  b = p.Match(
      "SM90_64x24x16_F16F16F16_SS<GMMA::Major::K,MN,GMMA::ScaleIn::Neg,"
      "GMMA::ScaleIn::One>");
  ASSERT_TRUE(b.has_value());
  EXPECT_THAT(b->back(), Pair("SC", ",GMMA::ScaleIn::Neg,GMMA::ScaleIn::One"));
  // Outside the domains, or a piece missing.
  EXPECT_FALSE(p.Match("SM90_64x12x16_F16F16F16_SS<GMMA::Major::K,K>"));
  EXPECT_FALSE(p.Match("SM90_64x32x16_F16F16F16_SS<GMMA::Major::K,K>"));
  EXPECT_FALSE(p.Match("SM90_64x16x16_F16F16F16_SS<GMMA::Major::K,T>"));
  EXPECT_FALSE(p.Match("SM90_64x16x16_F16F16F16_SS<GMMA::Major::K,K"));
  EXPECT_FALSE(p.Match("SM90_64x16x16_F16F16F16_SS<GMMA::Major::K,K>x"));
}

TEST(NamePattern, InstancesAreTheDomainInOrderAndAllMatch) {
  const NamePattern p =
      NamePattern::Compile("X<{A},{B}{T}>", "A=1|2; B=a|b|c; T=@umma_sat_tail");
  const std::vector<std::string> all = p.Instances(1000);
  ASSERT_EQ(static_cast<int64_t>(all.size()), p.Count());
  EXPECT_EQ(all.front(), "X<1,a>");
  EXPECT_EQ(all[1], "X<1,a,UMMA::Saturate::False>");
  EXPECT_EQ(all.back(), "X<2,c,UMMA::Saturate::True>");
  for (const std::string& name : all) EXPECT_TRUE(p.Match(name)) << name;
  EXPECT_THAT(
      p.Instances(1000, /*optional_forms=*/false),
      ElementsAre("X<1,a>", "X<1,b>", "X<1,c>", "X<2,a>", "X<2,b>", "X<2,c>"));
  EXPECT_THAT(p.Instances(2, false), ElementsAre("X<1,a>", "X<1,b>"));
}

TEST(NamePattern, AnyUnsignedInteger) {
  const NamePattern p = NamePattern::Compile("S<{M},{SC}>", "M=64; SC=#uint");
  EXPECT_EQ(p.Count(), 1);
  EXPECT_THAT(p.Instances(5), ElementsAre("S<64,1>"));
  ASSERT_TRUE(p.Match("S<64,1234567>"));
  EXPECT_THAT(p.Match("S<64,1234567>")->back(), Pair("SC", "1234567"));
  EXPECT_TRUE(p.Match("S<64,0>"));
  EXPECT_FALSE(p.Match("S<64,01>"));           // no leading zero
  EXPECT_FALSE(p.Match("S<64,-1>"));           // unsigned
  EXPECT_FALSE(p.Match("S<64,12345678901>"));  // at most ten digits
  EXPECT_FALSE(p.Match("S<64,>"));
}

TEST(NamePattern, ARepeatedParameterTakesOneValue) {
  const NamePattern p = NamePattern::Compile("T<{A},{A}>", "A=int8_t|uint8_t");
  EXPECT_EQ(p.Count(), 2);
  EXPECT_TRUE(p.Match("T<int8_t,int8_t>"));
  EXPECT_FALSE(p.Match("T<int8_t,uint8_t>"));
}

TEST(NamePattern, LooseMatchIsTheFamilyWhateverItsParameters) {
  const NamePattern p =
      NamePattern::Compile("SM90_64x{N}x16_F16<{MA}>", "N=8|16; MA=K|MN");
  EXPECT_TRUE(p.LooseMatch("SM90_64x12x16_F16<T>"));
  EXPECT_TRUE(p.LooseMatch("SM90_64x999x16_F16"));
  EXPECT_FALSE(p.LooseMatch("SM90_64x12x32_F16<K>"));
  EXPECT_FALSE(p.LooseMatch("SM80_64x8x16_F16<K>"));
  EXPECT_THAT(p.Display(), HasSubstr("SM90_64x{N}x16_F16<{MA}>"));
  EXPECT_THAT(p.Display(), HasSubstr("8|16"));
}

TEST(Substitute, IntegerArithmeticAndTypeWidths) {
  const Bindings b = {{"N", "24"}, {"T", "half_t"}, {"C", "complex<float>"}};
  EXPECT_EQ(*Substitute("(_{N},_{N/8}):(_{N*2},_1)", b), "(_24,_3):(_48,_1)");
  EXPECT_EQ(*Substitute("_{bits:T}/_{bits:C}", b), "_16/_64");
  EXPECT_FALSE(Substitute("{N/16}", b).ok());  // a remainder
  EXPECT_FALSE(Substitute("{Q}", b).ok());     // no such parameter
  EXPECT_FALSE(Substitute("{T*2}", b).ok());   // arithmetic on a type
}

TEST(TypeBits, CuteValueTypes) {
  EXPECT_EQ(TypeBits("half_t"), 16);
  EXPECT_EQ(TypeBits("uint128_t"), 128);
  EXPECT_EQ(TypeBits("float_e2m1_t"), 4);
  EXPECT_EQ(TypeBits("complex<double>"), 128);
  EXPECT_EQ(TypeBits("complex<complex<float>>"), 128);
  EXPECT_FALSE(TypeBits("float16"));
  EXPECT_FALSE(TypeBits("complex<"));
}

TEST(CanonicalAtomName, DropsQualifiersAndSpaces) {
  EXPECT_EQ(*CanonicalAtomName(" cute::SM90::GMMA_64x8x16 < half_t , "
                               "cutlass::float_e4m3_t > "),
            "GMMA_64x8x16<half_t,float_e4m3_t>");
  EXPECT_EQ(*CanonicalAtomName("SM100::SM100_MMA_F16BF16_SS<GMMA::Major::K>"),
            "SM100_MMA_F16BF16_SS<GMMA::Major::K>");
  EXPECT_EQ(*CanonicalAtomName("X<-1>"), "X<-1>");
}

TEST(CanonicalAtomName, ErrorsAreLocated) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"", "1:1: expected an atom name"},
           Case{"<a>", "1:1: '<' must follow a name"},
           Case{"A>", "1:2: unbalanced '>'"},
           Case{"A,B", "1:2: ',' outside template arguments"},
           Case{"A<B", "1:4: expected '>'"},
           Case{"A<B C>", "1:5: expected ',', '<' or '>' between names"},
           Case{"A:B", "1:2: expected '::'"},
           Case{"A<$>", "1:3: unexpected character '$' in an atom name"},
       }) {
    absl::StatusOr<std::string> got = CanonicalAtomName(c.text);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_THAT(std::string(got.status().message()), HasSubstr(c.message))
        << c.text;
  }
  EXPECT_FALSE(CanonicalAtomName(std::string(513, 'A')).ok());
  EXPECT_TRUE(CanonicalAtomName(std::string(512, 'A')).ok());
}

// --- The tables -------------------------------------------------------------

struct Row {
  std::string kind;  // "mma" or "copy"
  std::string family;
  std::string pattern;
  NamePattern compiled;
};

std::vector<Row> AllRows() {
  std::vector<Row> rows;
  for (absl::Span<const MmaRow> table : MmaTables()) {
    for (const MmaRow& r : table) {
      rows.push_back({"mma", r.family, r.pattern,
                      NamePattern::Compile(r.pattern, r.params)});
    }
  }
  for (absl::Span<const CopyRow> table : CopyTables()) {
    for (const CopyRow& r : table) {
      rows.push_back({"copy", r.family, r.pattern,
                      NamePattern::Compile(r.pattern, r.params)});
    }
  }
  return rows;
}

// The rows of the same kind whose pattern matches `name`.
std::vector<size_t> MatchingRows(const std::vector<Row>& rows,
                                 const std::string& kind,
                                 const std::string& name) {
  std::vector<size_t> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].kind != kind) continue;
    if (!absl::StartsWith(name, rows[i].compiled.Head())) continue;
    if (rows[i].compiled.Match(name)) out.push_back(i);
  }
  return out;
}

// Every name of every row (all of them up to 5,000 a row, with the optional
// trailing arguments too: 51^4 UniversalFMA names are not all tried) is
// matched by its own row and by no other, so a name has one meaning.
TEST(AtomTables, EveryNameMatchesExactlyItsRow) {
  const std::vector<Row> rows = AllRows();
  ASSERT_GT(rows.size(), 150u);
  int64_t names = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (const std::string& name :
         rows[i].compiled.Instances(SanitizerScaled(5000, 16))) {
      ++names;
      const std::vector<size_t> found = MatchingRows(rows, rows[i].kind, name);
      ASSERT_THAT(found, ElementsAre(i))
          << name << " (row " << rows[i].pattern << ")";
    }
  }
  EXPECT_GT(names, SanitizerScaled(60000, 16));
}

// A copy of `name` one edit away from it: the character at `at` of its
// identifier (before any '<') deleted.
std::string DeleteAt(const std::string& name, size_t at) {
  return name.substr(0, at) + name.substr(at + 1);
}

absl::Status Lookup(const std::string& kind, const std::string& name) {
  return kind == "mma" ? FindMmaAtom(name).status() : FindCopyOp(name).status();
}

// One edit away from a real name is not a name: each row's first names, with
// a character of the identifier deleted, are refused with NotFound, and the
// message gives back either the name itself among the nearest, or the family
// whose parameters the near miss does not fit.
TEST(AtomTables, NearMissesAreRefusedWithTheClosestName) {
  const std::vector<Row> rows = AllRows();
  // Every row under a normal build; every 16th under the sanitizers.
  const size_t stride = rows.size() / SanitizerScaled(rows.size(), 16);
  int tried = 0;
  for (size_t r = 0; r < rows.size(); r += stride) {
    const Row& row = rows[r];
    for (const std::string& name : row.compiled.Instances(1, false)) {
      const size_t identifier =
          name.find('<') == std::string::npos ? name.size() : name.find('<');
      for (size_t at : {identifier / 2, identifier - 1}) {
        const std::string miss = DeleteAt(name, at);
        if (!MatchingRows(rows, row.kind, miss).empty()) continue;
        ++tried;
        const absl::Status status = Lookup(row.kind, miss);
        ASSERT_EQ(status.code(), absl::StatusCode::kNotFound) << miss;
        const std::string message(status.message());
        // The nearest names: the original among them (ties with other
        // names one edit away are listed in table order).
        const size_t nearest = message.find("; nearest: ");
        ASSERT_NE(nearest, std::string::npos) << message;
        const std::vector<std::string> listed =
            absl::StrSplit(message.substr(nearest + 11), ", ");
        EXPECT_THAT(listed, testing::Contains(name)) << message;
      }
    }
  }
  EXPECT_GT(tried, static_cast<int>(SanitizerScaled(300, 16)));
}

// --- The SM100 UMMA names, counted from CuTe's rules ------------------------

enum class Kind { kTf32, kF16Bf16, kS8, kF8F6F4, kMxF8F6F4, kMxF4 };

struct UmmaOp {
  const char* name;  // CuTe's struct name
  Kind kind;
  bool two_sm;       // _2x1SM_: M 128 or 256
  bool a_from_tmem;  // _TS: A's major is K
};

// The ops with MMA_Traits in mma_traits_sm100.hpp (sparse, complex and
// interleaved ones aside).
const UmmaOp kUmmaOps[] = {
    {"SM100_MMA_TF32_SS", Kind::kTf32, false, false},
    {"SM100_MMA_TF32_TS", Kind::kTf32, false, true},
    {"SM100_MMA_TF32_TS_SCALED", Kind::kTf32, false, true},
    {"SM100_MMA_TF32_2x1SM_SS", Kind::kTf32, true, false},
    {"SM100_MMA_TF32_2x1SM_TS", Kind::kTf32, true, true},
    {"SM100_MMA_TF32_2x1SM_TS_SCALED", Kind::kTf32, true, true},
    {"SM100_MMA_F16BF16_SS", Kind::kF16Bf16, false, false},
    {"SM100_MMA_F16BF16_SS_SCALED", Kind::kF16Bf16, false, false},
    {"SM100_MMA_F16BF16_TS", Kind::kF16Bf16, false, true},
    {"SM100_MMA_F16BF16_TS_SCALED", Kind::kF16Bf16, false, true},
    {"SM100_MMA_F16BF16_2x1SM_SS", Kind::kF16Bf16, true, false},
    {"SM100_MMA_F16BF16_2x1SM_SS_SCALED", Kind::kF16Bf16, true, false},
    {"SM100_MMA_F16BF16_2x1SM_TS", Kind::kF16Bf16, true, true},
    {"SM100_MMA_F16BF16_2x1SM_TS_SCALED", Kind::kF16Bf16, true, true},
    {"SM100_MMA_S8_SS", Kind::kS8, false, false},
    {"SM100_MMA_S8_TS", Kind::kS8, false, true},
    {"SM100_MMA_S8_2x1SM_SS", Kind::kS8, true, false},
    {"SM100_MMA_S8_2x1SM_TS", Kind::kS8, true, true},
    {"SM100_MMA_F8F6F4_SS", Kind::kF8F6F4, false, false},
    {"SM100_MMA_F8F6F4_TS", Kind::kF8F6F4, false, true},
    {"SM100_MMA_F8F6F4_2x1SM_SS", Kind::kF8F6F4, true, false},
    {"SM100_MMA_F8F6F4_2x1SM_TS", Kind::kF8F6F4, true, true},
    {"SM100_MMA_MXF8F6F4_SS", Kind::kMxF8F6F4, false, false},
    {"SM100_MMA_MXF8F6F4_2x1SM_SS", Kind::kMxF8F6F4, true, false},
    {"SM100_MMA_MXF4_SS", Kind::kMxF4, false, false},
    {"SM100_MMA_MXF4_2x1SM_SS", Kind::kMxF4, true, false},
};

bool MultipleIn(int n, int step, int lo) {
  return n % step == 0 && lo <= n && n <= 256;
}

// CuTe's static_asserts on M and N (b_k_major: B's major is K).
bool ValidMn(const UmmaOp& op, int m, int n, bool b_k_major) {
  switch (op.kind) {
    case Kind::kS8:
      if (op.two_sm) return (m == 128 || m == 256) && MultipleIn(n, 32, 32);
      return (m == 64 || m == 128) && (n == 8 || MultipleIn(n, 16, 16));
    case Kind::kMxF8F6F4:
      return op.two_sm ? m == 256 && MultipleIn(n, 16, 16)
                       : m == 128 && MultipleIn(n, 8, 8);
    case Kind::kMxF4:
      return op.two_sm ? (m == 128 || m == 256) && MultipleIn(n, 16, 16)
                       : m == 128 && MultipleIn(n, 8, 8);
    case Kind::kF8F6F4:
      if (!op.a_from_tmem) {
        // B's major decides N's step (SS only).
        if (op.two_sm) {
          return (m == 128 || m == 256) &&
                 (b_k_major ? MultipleIn(n, 16, 16) : MultipleIn(n, 32, 32));
        }
        return (m == 64 || m == 128) &&
               (b_k_major ? MultipleIn(n, 8, 8) : MultipleIn(n, 16, 16));
      }
      [[fallthrough]];
    case Kind::kTf32:
    case Kind::kF16Bf16:
      if (op.two_sm) {
        return (m == 128 || m == 256) &&
               (op.a_from_tmem ? MultipleIn(n, 32, 32) : MultipleIn(n, 16, 16));
      }
      if (op.a_from_tmem) {
        return (m == 64 && MultipleIn(n, 8, 8)) ||
               (m == 128 && MultipleIn(n, 16, 16));
      }
      return (m == 64 || m == 128) && MultipleIn(n, 8, 8);
  }
  return false;
}

// Value types: A x B x C x scale-factor type x vector size.
int64_t TypeChoices(const UmmaOp& op, int vector_size_32_allowed_sf) {
  switch (op.kind) {
    case Kind::kTf32:
      return 1;  // tfloat32_t, tfloat32_t, float
    case Kind::kF16Bf16:
      return 2 * 2 * 2;  // {half_t, bfloat16_t}^2 x {float, half_t}
    case Kind::kS8:
      return 2 * 2;  // {int8_t, uint8_t}^2, int32_t
    case Kind::kF8F6F4:
      return 5 * 5 * 2;  // {e4m3, e5m2, e3m2, e2m3, e2m1}^2 x C
    case Kind::kMxF8F6F4:
      return 5 * 5 * 2 * 2;  // ... x {ue8m0, ue4m3}
    case Kind::kMxF4:
      // e2m1 x e2m1 x C x (SF, VS): VS 16 with either SF, VS 32 with the
      // scale-factor types it allows.
      return 2 * (2 + vector_size_32_allowed_sf);
  }
  return 0;
}

int64_t CountFromCuteRules(const UmmaOp& op) {
  int64_t shapes = 0;
  for (int m : {64, 128, 256}) {
    for (int n = 1; n <= 256; ++n) {
      for (bool a_k : {true, false}) {
        if (op.a_from_tmem && !a_k) continue;  // A from TMEM is K-major
        for (bool b_k : {true, false}) shapes += ValidMn(op, m, n, b_k);
      }
    }
  }
  // MXF4 with VS 32: 1SM only with float_ue8m0_t scale factors (its
  // traits' static_assert); the 2x1SM op has no such rule.
  const int vs32_sf = op.kind == Kind::kMxF4 && !op.two_sm ? 1 : 2;
  // A _SCALED op's scale argument is any integer: one name counts it once,
  // as the table's #uint does.
  return shapes * TypeChoices(op, vs32_sf);
}

TEST(UmmaNames, TheTablesCountIsCutesRuleOpByOp) {
  std::map<std::string, int64_t> table;  // op name -> table's count
  for (absl::Span<const MmaRow> rows : MmaTables()) {
    for (const MmaRow& r : rows) {
      const std::string pattern = r.pattern;
      const std::string op = pattern.substr(0, pattern.find('<'));
      table[op] += NamePattern::Compile(r.pattern, r.params)
                       .Count(/*optional_forms=*/false);
    }
  }
  int64_t total = 0;
  for (const UmmaOp& op : kUmmaOps) {
    const int64_t want = CountFromCuteRules(op);
    EXPECT_EQ(table[op.name], want) << op.name;
    total += want;
  }
  // The figure docs/cute.md gives for the SM100 UMMA family.
  EXPECT_EQ(total, 51824);
}

}  // namespace
}  // namespace hlolayout::cute::atom_internal
