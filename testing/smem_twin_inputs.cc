#include "hlolayout/testing/smem_twin_inputs.h"

#include "absl/status/statusor.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/util/check.h"

namespace hlolayout::triton {

cute::IntTuple StaticTupleOf(const std::string& text) {
  absl::StatusOr<cute::IntTuple> t = cute::ParseIntTuple(text);
  HLOLAYOUT_CHECK(t.ok()) << t.status();
  return cute::WithTags(*t, /*is_static=*/true);
}

NvmmaSharedLayout NvmmaOf(const std::string& text) {
  absl::StatusOr<Layout> l = ParseLayout(text);
  HLOLAYOUT_CHECK(l.ok()) << l.status();
  const NvmmaSharedLayout* nvmma = l->get<NvmmaSharedLayout>();
  HLOLAYOUT_CHECK(nvmma != nullptr) << text << " is not #ttg.nvmma_shared";
  return *nvmma;
}

}  // namespace hlolayout::triton
