// cute/atom/mma_table_sm100.cc: the SM100 (datacenter Blackwell) tcgen05
// UMMA atoms and the FFMA2 atoms (include/cute/atom/mma_traits_sm100.hpp,
// include/cute/arch/mma_sm100_umma.hpp).
//
// One CTA (1SM) or a pair of CTAs (2x1SM) issues the instruction, so ThrID is
// _1:_0 or _2:_1 and the layouts depend only on M, N and K:
//   1SM   A (_1,(_M,_K)):(_0,(_1,_M))      B (_1,(_N,_K)):(_0,(_1,_N))
//         C (_1,(_M,_N)):(_0,(_1,_M))
//   2x1SM A (_2,(_M/2,_K)):(_M/2,(_1,_M))  B (_2,(_N/2,_K)):(_N/2,(_1,_N))
//         C (_2,(_M/2,_N)):(_M/2,(_1,_M))
// K is 256 bits of A (8 TF32, 16 F16/BF16, 32 for 8-bit and narrower kinds,
// 64 for MXF4). The domains of M and N are the static_asserts of CuTe's
// SM100 MMA operations and traits; A from tensor memory (TS) is K-major.
// The sparse, complex TF32 interleaved and SM103 MXF4 ULTRA atoms are in
// mma_table_sm100_sparse.cc. Not here (docs/cute.md): the complex F16
// SCALED specialisations.
#include "hlolayout/cute/atom/internal/mma_table.h"

namespace hlolayout::cute::atom_internal {

namespace {

constexpr MmaRow kRows[] = {
    {"sm100_umma", "SM100_MMA_TF32_SS<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=tfloat32_t; B=tfloat32_t; C=float; M=64|128; N=8..256/8; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_8)", "(_1,(_{M},_8)):(_0,(_1,_{M}))",
     "(_1,(_{N},_8)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "M=64; A=tfloat32_t; B=tfloat32_t; C=float; N=8..256/8; MB=@umma_major; "
     "TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_8)", "(_1,(_{M},_8)):(_0,(_1,_{M}))",
     "(_1,(_{N},_8)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_TS_SCALED<{A},{B},{C},{M},{N},UMMA::Major::K,{MB},{SC}{"
     "TAIL}>",
     "M=64; A=tfloat32_t; B=tfloat32_t; C=float; N=8..256/8; MB=@umma_major; "
     "SC=#uint; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_8)", "(_1,(_{M},_8)):(_0,(_1,_{M}))",
     "(_1,(_{N},_8)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "M=128; A=tfloat32_t; B=tfloat32_t; C=float; N=16..256/16; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_8)", "(_1,(_{M},_8)):(_0,(_1,_{M}))",
     "(_1,(_{N},_8)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_TS_SCALED<{A},{B},{C},{M},{N},UMMA::Major::K,{MB},{SC}{"
     "TAIL}>",
     "M=128; A=tfloat32_t; B=tfloat32_t; C=float; N=16..256/16; "
     "MB=@umma_major; SC=#uint; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_8)", "(_1,(_{M},_8)):(_0,(_1,_{M}))",
     "(_1,(_{N},_8)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_2x1SM_SS<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=tfloat32_t; B=tfloat32_t; C=float; M=128|256; N=16..256/16; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_8)", "(_2,(_{M/2},_8)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_8)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_2x1SM_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "A=tfloat32_t; B=tfloat32_t; C=float; M=128|256; N=32..256/32; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_2:_1", "(_{M},_{N},_8)", "(_2,(_{M/2},_8)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_8)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_TF32_2x1SM_TS_SCALED<{A},{B},{C},{M},{N},UMMA::Major::K,{MB},"
     "{SC}{TAIL}>",
     "A=tfloat32_t; B=tfloat32_t; C=float; M=128|256; N=32..256/32; "
     "MB=@umma_major; SC=#uint; TAIL=@umma_neg_sat_tail",
     "_2:_1", "(_{M},_{N},_8)", "(_2,(_{M/2},_8)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_8)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma", "SM100_MMA_F16BF16_SS<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=@f16; B=@f16; C=float|half_t; M=64|128; N=8..256/8; MA=@umma_major; "
     "MB=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_16)", "(_1,(_{M},_16)):(_0,(_1,_{M}))",
     "(_1,(_{N},_16)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "M=64; A=@f16; B=@f16; C=float|half_t; N=8..256/8; MB=@umma_major; "
     "TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_16)", "(_1,(_{M},_16)):(_0,(_1,_{M}))",
     "(_1,(_{N},_16)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_TS_SCALED<{A},{B},{C},{M},{N},UMMA::Major::K,{MB},{"
     "SC}{TAIL}>",
     "M=64; A=@f16; B=@f16; C=float|half_t; N=8..256/8; MB=@umma_major; "
     "SC=#uint; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_16)", "(_1,(_{M},_16)):(_0,(_1,_{M}))",
     "(_1,(_{N},_16)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "M=128; A=@f16; B=@f16; C=float|half_t; N=16..256/16; MB=@umma_major; "
     "TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_16)", "(_1,(_{M},_16)):(_0,(_1,_{M}))",
     "(_1,(_{N},_16)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_TS_SCALED<{A},{B},{C},{M},{N},UMMA::Major::K,{MB},{"
     "SC}{TAIL}>",
     "M=128; A=@f16; B=@f16; C=float|half_t; N=16..256/16; MB=@umma_major; "
     "SC=#uint; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_16)", "(_1,(_{M},_16)):(_0,(_1,_{M}))",
     "(_1,(_{N},_16)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_2x1SM_SS<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=@f16; B=@f16; C=float|half_t; M=128|256; N=16..256/16; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_16)", "(_2,(_{M/2},_16)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_16)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_2x1SM_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{"
     "TAIL}>",
     "A=@f16; B=@f16; C=float|half_t; M=128|256; N=32..256/32; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_2:_1", "(_{M},_{N},_16)", "(_2,(_{M/2},_16)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_16)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_2x1SM_TS_SCALED<{A},{B},{C},{M},{N},UMMA::Major::K,{"
     "MB},{SC}{TAIL}>",
     "A=@f16; B=@f16; C=float|half_t; M=128|256; N=32..256/32; "
     "MB=@umma_major; SC=#uint; TAIL=@umma_neg_sat_tail",
     "_2:_1", "(_{M},_{N},_16)", "(_2,(_{M/2},_16)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_16)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_SS_SCALED<{A},{B},{C},{M},{N},{MA},{MB},{SC}{NEG}>",
     "A=@f16; B=@f16; C=float|half_t; M=64|128; N=8..256/8; MA=@umma_major; "
     "MB=@umma_major; SC=#uint; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_16)", "(_1,(_{M},_16)):(_0,(_1,_{M}))",
     "(_1,(_{N},_16)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F16BF16_2x1SM_SS_SCALED<{A},{B},{C},{M},{N},{MA},{MB},{SC}{"
     "NEG}>",
     "A=@f16; B=@f16; C=float|half_t; M=128|256; N=16..256/16; "
     "MA=@umma_major; MB=@umma_major; SC=#uint; NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_16)", "(_2,(_{M/2},_16)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_16)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma", "SM100_MMA_S8_SS<{A},{B},int32_t,{M},{N},{MA},{MB}{SAT}>",
     "A=@i8; B=@i8; M=64|128; "
     "N=8|16|32|48|64|80|96|112|128|144|160|176|192|208|224|240|256; "
     "MA=@umma_major; MB=@umma_major; SAT=@umma_sat_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_S8_TS<{A},{B},int32_t,{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "A=@i8; B=@i8; M=64|128; "
     "N=8|16|32|48|64|80|96|112|128|144|160|176|192|208|224|240|256; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_S8_2x1SM_SS<{A},{B},int32_t,{M},{N},{MA},{MB}{SAT}>",
     "A=@i8; B=@i8; M=128|256; N=32..256/32; MA=@umma_major; MB=@umma_major; "
     "SAT=@umma_sat_tail",
     "_2:_1", "(_{M},_{N},_32)", "(_2,(_{M/2},_32)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_32)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_S8_2x1SM_TS<{A},{B},int32_t,{M},{N},UMMA::Major::K,{MB}{TAIL}"
     ">",
     "A=@i8; B=@i8; M=128|256; N=32..256/32; MB=@umma_major; "
     "TAIL=@umma_neg_sat_tail",
     "_2:_1", "(_{M},_{N},_32)", "(_2,(_{M/2},_32)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_32)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_SS<{A},{B},{C},{M},{N},{MA},UMMA::Major::K{NEG}>",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t; M=64|128; N=8..256/8; "
     "MA=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_SS<{A},{B},{C},{M},{N},{MA},UMMA::Major::MN{NEG}>",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t; M=64|128; N=16..256/16; "
     "MA=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "M=64; A=@f8f6f4; B=@f8f6f4; C=float|half_t; N=8..256/8; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}>",
     "M=128; A=@f8f6f4; B=@f8f6f4; C=float|half_t; N=16..256/16; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_2x1SM_SS<{A},{B},{C},{M},{N},{MA},UMMA::Major::K{NEG}"
     ">",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t; M=128|256; N=16..256/16; "
     "MA=@umma_major; NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_32)", "(_2,(_{M/2},_32)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_32)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_2x1SM_SS<{A},{B},{C},{M},{N},{MA},UMMA::Major::MN{NEG}"
     ">",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t; M=128|256; N=32..256/32; "
     "MA=@umma_major; NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_32)", "(_2,(_{M/2},_32)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_32)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_F8F6F4_2x1SM_TS<{A},{B},{C},{M},{N},UMMA::Major::K,{MB}{TAIL}"
     ">",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t; M=128|256; N=32..256/32; "
     "MB=@umma_major; TAIL=@umma_neg_sat_tail",
     "_2:_1", "(_{M},_{N},_32)", "(_2,(_{M/2},_32)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_32)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_MXF8F6F4_SS<{A},{B},{C},{SF},{M},{N},{MA},{MB}{NEG}>",
     "M=128; A=@f8f6f4; B=@f8f6f4; C=float|half_t; "
     "SF=float_ue8m0_t|float_ue4m3_t; N=8..256/8; MA=@umma_major; "
     "MB=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_32)", "(_1,(_{M},_32)):(_0,(_1,_{M}))",
     "(_1,(_{N},_32)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_MXF8F6F4_2x1SM_SS<{A},{B},{C},{SF},{M},{N},{MA},{MB}{NEG}>",
     "M=256; A=@f8f6f4; B=@f8f6f4; C=float|half_t; "
     "SF=float_ue8m0_t|float_ue4m3_t; N=16..256/16; MA=@umma_major; "
     "MB=@umma_major; NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_32)", "(_2,(_{M/2},_32)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_32)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},{N},{VS},{MA},"
     "{MB}{NEG}>",
     "M=128; C=float|half_t; SF=float_ue8m0_t|float_ue4m3_t; N=8..256/8; "
     "VS=16; MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_64)", "(_1,(_{M},_64)):(_0,(_1,_{M}))",
     "(_1,(_{N},_64)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    // The 2x vector mode (VS=32) takes only ue8m0 scale factors (a
    // static_assert of CuTe's traits); the 2x1SM variant has no such rule.
    {"sm100_umma",
     "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},{N},{VS},{MA},"
     "{MB}{NEG}>",
     "M=128; C=float|half_t; SF=float_ue8m0_t; N=8..256/8; "
     "VS=32; MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     "_1:_0", "(_{M},_{N},_64)", "(_1,(_{M},_64)):(_0,(_1,_{M}))",
     "(_1,(_{N},_64)):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"},
    {"sm100_umma",
     "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},{N},{VS}"
     ",{MA},{MB}{NEG}>",
     "C=float|half_t; SF=float_ue8m0_t|float_ue4m3_t; M=128|256; "
     "N=16..256/16; VS=16|32; MA=@umma_major; MB=@umma_major; "
     "NEG=@umma_neg_tail",
     "_2:_1", "(_{M},_{N},_64)", "(_2,(_{M/2},_64)):(_{M/2},(_1,_{M}))",
     "(_2,(_{N/2},_64)):(_{N/2},(_1,_{N}))",
     "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"},
    {"sm100_ffma2", "SM100_2x1x1_F32F32F32F32", "", "_1:_0", "(_2,_1,_1)",
     "(_1,_2):(_0,_1)", "(_1,_1):(_0,_0)", "(_1,_2):(_0,_1)"},
    {"sm100_ffma2", "SM100_1x2x1_F32F32F32F32", "", "_1:_0", "(_1,_2,_1)",
     "(_1,_1):(_0,_0)", "(_1,_2):(_0,_1)", "(_1,_2):(_0,_1)"},
};

}  // namespace

absl::Span<const MmaRow> MmaRowsSm100() { return kRows; }

}  // namespace hlolayout::cute::atom_internal
