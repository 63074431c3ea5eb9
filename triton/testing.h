// triton/testing.h: reading this package's test data (triton/testdata/,
// described in its README.md) in tests.
//
//   std::vector<JsonValue> rows =
//   ReadJsonLines("triton/testdata/ll_ops.jsonl");
#ifndef HLOLAYOUT_TRITON_TESTING_H_
#define HLOLAYOUT_TRITON_TESTING_H_

#include <string>
#include <vector>

#include "hlolayout/triton/json.h"

namespace hlolayout::triton {

// One parsed value per non-empty line of the repository file `path`
// (CHECK-fails on a missing file or bad JSON: the data is ours).
std::vector<JsonValue> ReadJsonLines(const std::string& path);

// The whole repository file `path`.
std::string ReadTestFile(const std::string& path);

// The integers of a JSON array of integers.
std::vector<int64_t> Ints(const JsonValue& v);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_TESTING_H_
