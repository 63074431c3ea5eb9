#include "hlolayout/shape/program_shape.h"

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

Shape WithLayout(Shape shape, std::initializer_list<int64_t> minor_to_major) {
  shape.set_layout(Layout(minor_to_major));
  return shape;
}

ProgramShape TwoParameters() {
  ProgramShape program;
  program.parameters = {WithLayout(Shape::MakeArray(F32, {2}), {0}),
                        WithLayout(Shape::MakeArray(S32, {}), {})};
  program.parameter_names = {"p0"};
  program.result = WithLayout(Shape::MakeArray(F32, {}), {});
  return program;
}

TEST(ProgramShapeTest, PrintsUnknownForMissingNames) {
  EXPECT_EQ(TwoParameters().ToString(/*print_layout=*/true),
            "(p0: f32[2]{0}, (unknown): s32[]) -> f32[]");
}

TEST(ProgramShapeTest, PrintsWithoutLayoutsByDefault) {
  EXPECT_EQ(TwoParameters().ToString(),
            "(p0: f32[2], (unknown): s32[]) -> f32[]");
}

TEST(ProgramShapeTest, NoParameters) {
  ProgramShape program;
  program.result = Shape::MakeTuple({});
  EXPECT_EQ(program.ToString(), "() -> ()");
}

TEST(ProgramShapeTest, NoIndexCommentsBetweenParameters) {
  ProgramShape program;
  for (int i = 0; i < 6; ++i) {
    program.parameters.push_back(Shape::MakeArray(PRED, {}));
    program.parameter_names.push_back("a" + std::to_string(i));
  }
  program.result = Shape::MakeTuple(
      {Shape::MakeArray(F32, {3, 5}), Shape::MakeToken(),
       Shape::MakeDynamicArray(S8, {4, Shape::kUnboundedSize}, {true, true})});
  EXPECT_EQ(program.ToString(),
            "(a0: pred[], a1: pred[], a2: pred[], a3: pred[], a4: pred[], "
            "a5: pred[]) -> (f32[3,5], token[], s8[<=4,?])");
}

TEST(ProgramShapeTest, TiledLayoutsAndScalarAttributes) {
  ProgramShape program;
  Shape tiled = Shape::MakeArray(BF16, {8, 128});
  Layout layout({1, 0});
  layout.add_tile(Tile({8, 128})).set_memory_space(1);
  tiled.set_layout(layout);
  program.parameters = {tiled};
  program.parameter_names = {"x"};
  Shape scalar = Shape::MakeArray(U32, {});
  scalar.set_layout(Layout().set_memory_space(2));
  program.result = scalar;
  EXPECT_EQ(program.ToString(/*print_layout=*/true),
            "(x: bf16[8,128]{1,0:T(8,128)S(1)}) -> u32[]{:S(2)}");
}

TEST(ProgramShapeTest, Equality) {
  EXPECT_EQ(TwoParameters(), TwoParameters());
  ProgramShape renamed = TwoParameters();
  renamed.parameter_names[0] = "q0";
  EXPECT_NE(renamed, TwoParameters());
  ProgramShape relaid = TwoParameters();
  relaid.parameters[0].clear_layout();
  EXPECT_NE(relaid, TwoParameters());
  ProgramShape named = TwoParameters();
  named.parameter_names.push_back("p1");
  EXPECT_NE(named, TwoParameters());
}

}  // namespace
}  // namespace hlolayout
