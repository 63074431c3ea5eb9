// cute/atom/mma_table_sm120.cc: the SM120 (consumer Blackwell) warp MMA
// atoms (include/cute/atom/mma_traits_sm120.hpp): SM120_16x8x32_TN for every
// pair of FP8/FP6/FP4 operand types CuTe specialises, and the block-scaled
// SM120::BLOCKSCALED::SM120_16x8x32_TN_VS / SM120_16x8x64_TN_VS atoms.
#include "hlolayout/cute/atom/internal/mma_table.h"

namespace hlolayout::cute::atom_internal {

namespace {

constexpr MmaRow kRows[] = {
    {"sm120", "SM120_16x8x32_TN<{A},{B},{C}>",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t", "_32:_1", "(_16,_8,_32)",
     "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
     "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
     "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
    {"sm120_blockscaled",
     "SM120_16x8x32_TN_VS<{A},{B},float,float_ue8m0_t,{VS}>",
     "A=@f8f6f4; B=@f8f6f4; VS=#uint", "_32:_1", "(_16,_8,_32)",
     "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
     "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
     "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
    {"sm120_blockscaled",
     "SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,{SF},{VS}>",
     "SF=float_ue8m0_t|float_ue4m3_t; VS=#uint", "_32:_1", "(_16,_8,_64)",
     "((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))",
     "((_4,_8),(_8,_2)):((_64,_1),(_8,_256))",
     "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"},
};

}  // namespace

absl::Span<const MmaRow> MmaRowsSm120() { return kRows; }

}  // namespace hlolayout::cute::atom_internal
