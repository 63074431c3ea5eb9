#include "hlolayout/testing/triton_given_layouts.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/util/check.h"

namespace hlolayout::triton {

GivenLayout GivenLayout64x64(const char* text) {
  absl::StatusOr<GivenLayout> g =
      ReadGivenLayout(text, std::vector<int64_t>{64, 64}, nullptr);
  HLOLAYOUT_CHECK(g.ok()) << g.status();
  return *std::move(g);
}

}  // namespace hlolayout::triton
