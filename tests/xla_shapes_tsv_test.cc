// The parser, printer and proto conversion against today's XLA (the one in
// jaxlib 0.11.2). tests/data/shapes_jaxlib_0.11.2.tsv holds 1,000 shape
// texts with that XLA's verdict: columns source, input, status (OK: its
// parser accepted the text; ERROR: it refused it), xla (its printed form,
// or its error) and proto_hex (its serialized ShapeProto, for OK rows).
//
// Every OK row must print as `xla` and serialize to `proto_hex`, unless
// ParseShape refuses it under a rule of XLA's own validators
// (LayoutUtil::ValidateLayoutForShape; layout/layout_validation.h names
// each). With validation off, every OK row must match. Every ERROR row is
// refused either way.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/proto/xla_data.pb.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape_proto.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

struct Row {
  std::string input;
  bool ok = false;
  std::string xla;
  std::string proto_hex;
};

std::vector<Row> LoadRows() {
  std::ifstream file(TestDataPath("tests/data/shapes_jaxlib_0.11.2.tsv"));
  std::vector<Row> rows;
  std::string line;
  bool header = true;
  while (std::getline(file, line)) {
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> cells = absl::StrSplit(line, '\t');
    if (cells.size() != 5) {
      ADD_FAILURE() << "row with " << cells.size() << " cells: " << line;
      continue;
    }
    rows.push_back(Row{cells[1], cells[2] == "OK", cells[3], cells[4]});
  }
  return rows;
}

// A refusal under a rule XLA's validators also apply: the split-config rule
// of LayoutUtil::ValidateLayoutForShape (indices strictly increasing inside
// (0, dimension size); an unbounded dimension has no size).
bool IsXlaValidatorRule(absl::string_view message) {
  return absl::StrContains(message, "split indices must increase strictly") ||
         absl::StrContains(message, "which is unbounded");
}

TEST(JaxlibShapes, FileHasTheRowsItPromises) {
  const std::vector<Row> rows = LoadRows();
  ASSERT_EQ(rows.size(), 1000u);
  int ok = 0;
  for (const Row& row : rows) ok += row.ok;
  EXPECT_EQ(ok, 947);
}

TEST(JaxlibShapes,
     AcceptedShapesPrintAndSerializeAsXlaUnlessItsValidatorsRefuse) {
  int matched = 0;
  int refused = 0;
  for (const Row& row : LoadRows()) {
    if (!row.ok) continue;
    absl::StatusOr<Shape> shape = ParseShape(row.input);
    if (!shape.ok()) {
      EXPECT_TRUE(IsXlaValidatorRule(shape.status().message()))
          << row.input << ": " << shape.status();
      ++refused;
      continue;
    }
    EXPECT_EQ(HumanStringWithLayout(*shape), row.xla) << row.input;
    EXPECT_EQ(absl::BytesToHexString(ShapeToProtoBytes(*shape)), row.proto_hex)
        << row.input;
    absl::StatusOr<Shape> from_xla =
        ShapeFromProtoBytes(absl::HexStringToBytes(row.proto_hex));
    ASSERT_TRUE(from_xla.ok()) << row.input << ": " << from_xla.status();
    EXPECT_EQ(*from_xla, *shape) << row.input;
    EXPECT_EQ(HumanStringWithLayout(*from_xla), row.xla) << row.input;
    ++matched;
  }
  // 929 match byte for byte; 18 split configs out of range are refused.
  EXPECT_EQ(matched, 929);
  EXPECT_EQ(refused, 18);
}

TEST(JaxlibShapes, WithoutValidationEveryAcceptedShapeMatchesXla) {
  ShapeParseOptions options;
  options.validate = false;
  for (const Row& row : LoadRows()) {
    if (!row.ok) continue;
    absl::StatusOr<Shape> shape = ParseShape(row.input, options);
    ASSERT_TRUE(shape.ok()) << row.input << ": " << shape.status();
    EXPECT_EQ(HumanStringWithLayout(*shape), row.xla) << row.input;
    EXPECT_EQ(absl::BytesToHexString(ShapeToProtoBytes(*shape)), row.proto_hex)
        << row.input;
  }
}

// XLA's parser builds tuples with ShapeUtil::MakeValidatedTupleShape, which
// runs its validators on every element: a split config out of range passes
// in an array parameter but not inside a tuple. With validation off, ours
// refuses what XLA's parser refuses by itself (48 rows, all with `[]{}`,
// which is not a layout) and accepts those 5 tuples.
TEST(JaxlibShapes, RefusedShapesAreRefused) {
  ShapeParseOptions unvalidated;
  unvalidated.validate = false;
  int refused = 0;
  int refused_by_validator = 0;
  for (const Row& row : LoadRows()) {
    if (row.ok) continue;
    absl::StatusOr<Shape> shape = ParseShape(row.input);
    EXPECT_FALSE(shape.ok()) << row.input;
    ++refused;
    if (!ParseShape(row.input, unvalidated).ok()) continue;
    EXPECT_EQ(row.input[0], '(') << row.input;
    EXPECT_TRUE(IsXlaValidatorRule(shape.status().message()))
        << row.input << ": " << shape.status();
    ++refused_by_validator;
  }
  EXPECT_EQ(refused, 53);
  EXPECT_EQ(refused_by_validator, 5);
}

// D(...) is parsed and dropped, in text and in protos, as today's XLA does.
TEST(DimLevelsDropped, TextPrintsWithoutD) {
  absl::StatusOr<Shape> shape = ParseShape("f32[2,3]{1,0:D(D,C)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), "f32[2,3]{1,0}");
  EXPECT_TRUE(shape->layout().dim_levels().empty());
  EXPECT_EQ(ShapeToProto(*shape).layout().dim_level_types_size(), 0);
  absl::StatusOr<Shape> plain = ParseShape("f32[2,3]{1,0}");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(ShapeToProtoBytes(*shape), ShapeToProtoBytes(*plain));
}

TEST(DimLevelsDropped, ProtoReadsWithoutD) {
  proto::ShapeProto proto = ShapeToProto(*ParseShape("f32[2,3]{1,0}"));
  proto.mutable_layout()->add_dim_level_types(proto::DIM_DENSE);
  proto.mutable_layout()->add_dim_level_types(proto::DIM_COMPRESSED);
  absl::StatusOr<Shape> shape = ShapeFromProto(proto);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), "f32[2,3]{1,0}");

  ProtoReadOptions keep;
  keep.keep_dim_levels = true;
  absl::StatusOr<Shape> kept = ShapeFromProto(proto, keep);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(HumanStringWithLayout(*kept), "f32[2,3]{1,0:D(D,C)}");
  // Enum values are still checked when dropped.
  proto.mutable_layout()->set_dim_level_types(1, proto::DimLevelType(77));
  EXPECT_FALSE(ShapeFromProto(proto).ok());
}

TEST(DimLevelsDropped, KeptOnRequestAsIn2024) {
  ShapeParseOptions options;
  options.keep_dim_levels = true;
  absl::StatusOr<Shape> shape =
      ParseShape("f32[10,10]{1,0:D(D,C)#(u32)*(u32)}", options);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape),
            "f32[10,10]{1,0:D(D,C)#(u32)*(u32)}");
  EXPECT_EQ(ShapeToProto(*shape).layout().dim_level_types_size(), 2);
  // Dropped by default, the array is dense and #(t) is refused, as by
  // XLA's LayoutUtil::ValidateLayoutForShape.
  EXPECT_FALSE(ParseShape("f32[10,10]{1,0:D(D,C)#(u32)*(u32)}").ok());
  // Syntax errors inside D(...) are still errors.
  EXPECT_FALSE(ParseShape("f32[2,3]{1,0:D(D,X)}").ok());
}

// Rules that are ours only were relaxed; XLA's validators' rules stay.
TEST(RelaxedValidation, AcceptsWhatXlaValidatorsAccept) {
  for (const char* text :
       {"f32[8]{0:T(2,*)}", "f32[8]{0:T(-2)}", "f32[8]{0:M(-4)}"}) {
    absl::StatusOr<Shape> shape = ParseShape(text);
    EXPECT_TRUE(shape.ok()) << text << ": " << shape.status();
  }
  absl::StatusOr<Shape> m = ParseShape("f32[8]{0:M(-4)}");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(HumanStringWithLayout(*m), "f32[8]{0}");  // M printed when > 0
}

TEST(RelaxedValidation, KeepsXlaValidatorRules) {
  for (const char* text :
       {"f32[2,3]{0,0}", "f32[2,3]{1,0:T(2,0)}", "f32[2,3]{1,0:T()}",
        "f32[2,3]{1,0:E(-1)}", "f32[2,3]{1,0:L(0)}", "f32[2,3]{1,0:#(u32)}",
        "f32[2,3]{1,0:*(u16)}", "f32[2,3]{1,0:SC(0:5)}",
        "f32[9,3]{1,0:SC(0:4,2)}", "f32[?,3]{1,0:SC(0:1)}"}) {
    EXPECT_FALSE(ParseShape(text).ok()) << text;
  }
}

}  // namespace
}  // namespace hlolayout
