// cute/atom/mma_table_sm100_sparse.cc: the SM100 tcgen05 atoms beyond the
// dense ones of mma_table_sm100.cc (include/cute/arch/mma_sm100_umma.hpp,
// include/cute/atom/mma_traits_sm100.hpp): the structured-sparse atoms
// (_SS_SPARSE, A compressed 2:4, K doubled: 512 bits of A), the complex TF32
// interleaved atoms (complex<tfloat32_t> A from tensor memory, K = 4) and
// SM103's MXF4 ULTRA atoms (K = 96). Their layouts follow the dense rule:
//   1SM   A (_1,(_M,_K)):(_0,(_1,_M))      B (_1,(_N,_K)):(_0,(_1,_N))
//         C (_1,(_M,_N)):(_0,(_1,_M))
//   2x1SM A (_2,(_M/2,_K)):(_M/2,(_1,_M))  B (_2,(_N/2,_K)):(_N/2,(_1,_N))
//         C (_2,(_M/2,_N)):(_M/2,(_1,_M))
// The domains of M and N are the static_asserts of CuTe's operations. Not
// here: the block-scaled sparse atoms (MXF8F6F4 and MXF4NVF4 _SS_SPARSE).
#include "hlolayout/cute/atom/internal/mma_table.h"

namespace hlolayout::cute::atom_internal {

#define HL_1SM(K)                                                   \
  "_1:_0", "(_{M},_{N}," K ")", "(_1,(_{M}," K ")):(_0,(_1,_{M}))", \
      "(_1,(_{N}," K ")):(_0,(_1,_{N}))", "(_1,(_{M},_{N})):(_0,(_1,_{M}))"
#define HL_2SM(K)                                                         \
  "_2:_1", "(_{M},_{N}," K ")", "(_2,(_{M/2}," K ")):(_{M/2},(_1,_{M}))", \
      "(_2,(_{N/2}," K ")):(_{N/2},(_1,_{N}))",                           \
      "(_2,(_{M/2},_{N})):(_{M/2},(_1,_{M}))"

namespace {

constexpr MmaRow kRows[] = {
    {"sm100_umma_sparse",
     "SM100_MMA_TF32_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=tfloat32_t; B=tfloat32_t; C=float; M=64|128; N=8..256/8; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_1SM("_16")},
    {"sm100_umma_sparse",
     "SM100_MMA_TF32_2x1SM_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=tfloat32_t; B=tfloat32_t; C=float; M=128|256; N=16..256/16; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_2SM("_16")},
    {"sm100_umma_sparse",
     "SM100_MMA_F16BF16_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=@f16; B=@f16; C=float|half_t; M=64|128; N=8..256/8; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_1SM("_32")},
    {"sm100_umma_sparse",
     "SM100_MMA_F16BF16_2x1SM_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=@f16; B=@f16; C=float|half_t; M=128|256; N=16..256/16; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_2SM("_32")},
    {"sm100_umma_sparse",
     "SM100_MMA_S8_SS_SPARSE<{A},{B},int32_t,{M},{N},{MA},{MB}{SAT}>",
     "A=@i8; B=@i8; M=64|128; "
     "N=8|16|32|48|64|80|96|112|128|144|160|176|192|208|224|240|256; "
     "MA=@umma_major; MB=@umma_major; SAT=@umma_sat_tail",
     HL_1SM("_64")},
    {"sm100_umma_sparse",
     "SM100_MMA_S8_2x1SM_SS_SPARSE<{A},{B},int32_t,{M},{N},{MA},{MB}{SAT}>",
     "A=@i8; B=@i8; M=128|256; N=32..256/32; MA=@umma_major; "
     "MB=@umma_major; SAT=@umma_sat_tail",
     HL_2SM("_64")},
    {"sm100_umma_sparse",
     "SM100_MMA_F8F6F4_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "M=64; A=@f8f6f4; B=@f8f6f4; C=float|half_t; N=8..256/8; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_1SM("_64")},
    {"sm100_umma_sparse",
     "SM100_MMA_F8F6F4_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "M=128; A=@f8f6f4; B=@f8f6f4; C=float|half_t; N=16..256/16; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_1SM("_64")},
    {"sm100_umma_sparse",
     "SM100_MMA_F8F6F4_2x1SM_SS_SPARSE<{A},{B},{C},{M},{N},{MA},{MB}{NEG}>",
     "A=@f8f6f4; B=@f8f6f4; C=float|half_t; M=128|256; N=32..256/32; "
     "MA=@umma_major; MB=@umma_major; NEG=@umma_neg_tail",
     HL_2SM("_64")},
    {"sm100_umma_complex",
     "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<{M},{N},UMMA::"
     "Major::K,UMMA::Major::K{TAIL}>",
     "M=64; N=8..256/8; TAIL=@umma_neg_sat_tail", HL_1SM("_4")},
    {"sm100_umma_complex",
     "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<{M},{N},UMMA::"
     "Major::K,UMMA::Major::K{TAIL}>",
     "M=128; N=16..256/16; TAIL=@umma_neg_sat_tail", HL_1SM("_4")},
    {"sm100_umma_complex",
     "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<{M},{N},"
     "UMMA::Major::K,UMMA::Major::K{TAIL}>",
     "M=128|256; N=32..256/32; TAIL=@umma_neg_sat_tail", HL_2SM("_4")},
    // SM103: VS = 32 only with ue8m0 scale factors (CuTe's static_assert).
    {"sm103_umma",
     "SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},{N},{VS},"
     "UMMA::Major::K,UMMA::Major::K{NEG}>",
     "C=float|half_t; SF=float_ue8m0_t|float_ue4m3_t; M=128; N=16..256/16; "
     "VS=16; NEG=@umma_neg_tail",
     HL_1SM("_96")},
    {"sm103_umma",
     "SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},{N},{VS},"
     "UMMA::Major::K,UMMA::Major::K{NEG}>",
     "C=float|half_t; SF=float_ue8m0_t; M=128; N=16..256/16; VS=32; "
     "NEG=@umma_neg_tail",
     HL_1SM("_96")},
    {"sm103_umma",
     "SM103_MXF4_ULTRA_2x1SM_SS_VS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},"
     "{N},{VS},UMMA::Major::K,UMMA::Major::K{NEG}>",
     "C=float|half_t; SF=float_ue8m0_t|float_ue4m3_t; M=128|256; "
     "N=16..256/16; VS=16; NEG=@umma_neg_tail",
     HL_2SM("_96")},
    {"sm103_umma",
     "SM103_MXF4_ULTRA_2x1SM_SS_VS<float_e2m1_t,float_e2m1_t,{C},{SF},{M},"
     "{N},{VS},UMMA::Major::K,UMMA::Major::K{NEG}>",
     "C=float|half_t; SF=float_ue8m0_t; M=128|256; N=16..256/16; VS=32; "
     "NEG=@umma_neg_tail",
     HL_2SM("_96")},
};

}  // namespace

absl::Span<const MmaRow> MmaRowsSm100Sparse() { return kRows; }

#undef HL_1SM
#undef HL_2SM

}  // namespace hlolayout::cute::atom_internal
