#include "hlolayout/hlo/backend_config.h"

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

// cuBLASLt's beta read by the JSON reader, at any depth, only when written
// `0`.
TEST(HloBackendConfig, BetaIsZeroOnlyWhenWrittenZero) {
  EXPECT_TRUE(HloConfigBetaIsZero(
      "{\"gemm_backend_config\":{\"alpha_real\":1,\"beta\" :\n 0 }}"));
  EXPECT_TRUE(HloConfigBetaIsZero("{\"a\":[{\"beta\":1},{\"beta\":0}]}"));
  EXPECT_FALSE(HloConfigBetaIsZero("{\"beta\":1}"));
  EXPECT_FALSE(HloConfigBetaIsZero("{\"beta\":0.0}"));
  EXPECT_FALSE(HloConfigBetaIsZero("{\"beta\":-0}"));
  EXPECT_FALSE(HloConfigBetaIsZero("{\"beta\":\"0\"}"));
  EXPECT_FALSE(HloConfigBetaIsZero("{\"x\":\"beta\",\"y\":0}"));
  EXPECT_FALSE(HloConfigBetaIsZero("\"{\\\"beta\\\":0}\""));  // quoted
  EXPECT_FALSE(HloConfigBetaIsZero("{\"beta\":0"));           // not JSON
  EXPECT_FALSE(HloConfigBetaIsZero("{\"beta\":0,\"beta\":0}"));
  EXPECT_FALSE(HloConfigBetaIsZero(""));
}

}  // namespace
}  // namespace hlolayout
