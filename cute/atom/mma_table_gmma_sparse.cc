// cute/atom/mma_table_gmma_sparse.cc: the SM90 structured-sparse warpgroup
// MMAs (include/cute/arch/mma_sm90_gmma_sparse.hpp,
// include/cute/atom/mma_traits_sm90_gmma_sparse.hpp),
// SM90::GMMA::SPARSE::GMMA_64xNxK_..._SS/_RS: A is compressed 2:4, so K is
// twice the dense K of the types (32 for 16-bit, 16 for TF32, 64 for 8-bit).
// The layouts follow the dense rule with that K:
//   ThrID      _128:_1
//   LayoutA_TV (_128,(_64,_K)):(_0,(_1,_64))     SS
//              ALayout_64xK                       RS (K-major)
//   LayoutB_TV (_128,(_N,_K)):(_0,(_1,_N))
//   LayoutC_TV ((_4,_8,_4),(_2,_2,_N/8)):((_128,_1,_16),(_64,_8,_512))
// Names take the majors and the optional GMMA::ScaleIn arguments; the
// sparsity selector (GMMA::SparseSel) is left at its default.
#include "hlolayout/cute/atom/internal/mma_table.h"

namespace hlolayout::cute::atom_internal {

#define HL_N "N=8|16|32|64|96|128|192|256; "
#define HL_C "((_4,_8,_4),(_2,_2,_{N/8})):((_128,_1,_16),(_64,_8,_512))"
#define HL_SS(K)                                                     \
  "_128:_1", "(_64,_{N}," K ")", "(_128,(_64," K ")):(_0,(_1,_64))", \
      "(_128,(_{N}," K ")):(_0,(_1,_{N}))", HL_C
#define HL_RS(K, A) \
  "_128:_1", "(_64,_{N}," K ")", A, "(_128,(_{N}," K ")):(_0,(_1,_{N}))", HL_C

namespace {

constexpr MmaRow kRows[] = {
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x32_{T}_SS<{MA},{MB}{SC}>",
     HL_N "T=F16F16F16|F32F16F16|F32BF16BF16; MA=@gmma_major; MB=@gmma_major; "
          "SC=@gmma_scale_tail",
     HL_SS("_32")},
    {"sm90_gmma_sparse",
     "GMMA::SPARSE::GMMA_64x{N}x32_{T}_RS<GMMA::Major::K,{MB}{SC}>",
     HL_N "T=F16F16F16|F32F16F16|F32BF16BF16; MB=@gmma_major; "
          "SC=@gmma_scale_tail",
     HL_RS("_32", "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))")},
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x16_F32TF32TF32_SS_TN<{SL}>",
     HL_N "SL=@gmma_scale_list", HL_SS("_16")},
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x16_F32TF32TF32_RS_TN<{SL}>",
     HL_N "SL=@gmma_scale_list",
     HL_RS("_16", "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))")},
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x64_{D}{A}{B}_SS_TN<{SL}>",
     HL_N "D=F32|F16; A=E4M3|E5M2; B=E4M3|E5M2; SL=@gmma_scale_list",
     HL_SS("_64")},
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x64_{D}{A}{B}_RS_TN<{SL}>",
     HL_N "D=F32|F16; A=E4M3|E5M2; B=E4M3|E5M2; SL=@gmma_scale_list",
     HL_RS("_64", "((_4,_8,_4),(_8,_2,_2)):((_512,_1,_16),(_64,_8,_2048))")},
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x64_S32{A}{B}_SS_TN{SAT}",
     HL_N "A=S8|U8; B=S8|U8; SAT=|_SATURATE", HL_SS("_64")},
    {"sm90_gmma_sparse", "GMMA::SPARSE::GMMA_64x{N}x64_S32{A}{B}_RS_TN{SAT}",
     HL_N "A=S8|U8; B=S8|U8; SAT=|_SATURATE",
     HL_RS("_64", "((_4,_8,_4),(_8,_2,_2)):((_512,_1,_16),(_64,_8,_2048))")},
};

}  // namespace

absl::Span<const MmaRow> MmaRowsGmmaSparse() { return kRows; }

#undef HL_N
#undef HL_C
#undef HL_SS
#undef HL_RS

}  // namespace hlolayout::cute::atom_internal
