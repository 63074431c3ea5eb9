#include "hlolayout/cute/smem_atoms.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

std::string Tile(absl::string_view name, absl::string_view shape = "",
                 absl::string_view order = "") {
  absl::StatusOr<SmemAtom> atom = FindSmemAtom(name);
  if (!atom.ok()) return "error: " + std::string(atom.status().message());
  absl::optional<IntTuple> s, o;
  if (!shape.empty()) s = WithTags(*ParseIntTuple(shape), true);
  if (!order.empty()) o = WithTags(*ParseIntTuple(order), true);
  absl::StatusOr<SmemTile> t = TileSmemAtom(*atom, s, o);
  if (!t.ok()) return "error: " + std::string(t.status().message());
  return ToString(t->layout) + " | " + ToString(t->elements);
}

TEST(SmemAtoms, AsCutlassDefinesThem) {
  EXPECT_EQ(Tile("GMMA::Layout_K_SW128_Atom<half_t>"),
            "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1) | "
            "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(Tile("GMMA::Layout_MN_INTER_Atom<half_t>"),
            "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8) | "
            "(_8,_8):(_1,_8)");
  EXPECT_EQ(Tile("GMMA::Layout_MN_SW64_Atom_Bits"),
            "Sw<2,4,3> o smem_ptr[1b](unset) o (_512,_8):(_1,_512) | "
            "Sw<2,7,3> o _0 o (_512,_8):(_1,_512)");
  EXPECT_EQ(Tile("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>"),
            "Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32) | "
            "Sw<2,3,2> o _0 o (_32,_4):(_1,_32)");
  EXPECT_EQ(Tile("cute::SM90::GMMA::Layout_SW32_Atom<float, GMMA::Major::K>"),
            Tile("GMMA::Layout_K_SW32_Atom<float>"));
  EXPECT_EQ(Tile("GMMA::Layout_K_SW128_Atom<half_t>", "(128,64)"),
            "Sw<3,4,3> o smem_ptr[16b](unset) o "
            "((_8,_16),(_64,_1)):((_64,_512),(_1,_0)) | "
            "Sw<3,3,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))");
  EXPECT_EQ(Tile("GMMA::Layout_MN_SW128_Atom<half_t>", "(64,64,2)", "(2,1,3)"),
            "Sw<3,4,3> o smem_ptr[16b](unset) o "
            "((_64,_1),(_8,_8),(_1,_2)):((_1,_0),(_64,_512),(_0,_4096)) | "
            "Sw<3,3,3> o _0 o "
            "((_64,_1),(_8,_8),(_1,_2)):((_1,_0),(_64,_512),(_0,_4096))");
}

TEST(SmemAtoms, Errors) {
  EXPECT_EQ(Tile("GMMA::Layout_K_SW128_Atom<half>"),
            "error: unknown element type 'half' (known: bool, uint1_t, "
            "bin1_t, int2_t, uint2_t, int4_t, uint4_t, float_e2m1_t, "
            "float_e2m3_t, float_e3m2_t, uint6_t, int8_t, uint8_t, "
            "float_e4m3_t, float_e5m2_t, float_ue4m3_t, float_ue8m0_t, half_t, "
            "bfloat16_t, int16_t, uint16_t, float, tfloat32_t, int32_t, "
            "uint32_t, complex<half_t>, double, int64_t, uint64_t, "
            "complex<float>, uint128_t, complex<double>, or a number of bits)");
  EXPECT_EQ(
      Tile("GMMA::Layout_K_SW128_Atm<half_t>"),
      "error: unknown shared-memory atom 'GMMA::Layout_K_SW128_Atm<half_t>'"
      "; nearest known: GMMA::Layout_K_SW128_Atom<T>, "
      "UMMA::Layout_K_SW128_Atom<T>, GMMA::Layout_MN_SW128_Atom<T>");
  // UMMA's, not GMMA's.
  EXPECT_EQ(Tile("GMMA::Layout_MN_SW128_32B_Atom<half_t>")
                .find("error: unknown shared-memory atom "
                      "'GMMA::Layout_MN_SW128_32B_Atom<half_t>'"),
            0u);
  EXPECT_EQ(
      Tile("GMMA::Layout_K_SW128_Atom<half_t>", "(100,64)"),
      "error: tile_to_shape (_8,_64):(_64,_1) to (_100,_64) fails: mode 0 "
      "of the block has size 8, which does not divide the target's 100 "
      "(CuTe: block shape does not divide the target shape)");
}

}  // namespace
}  // namespace hlolayout::cute
