// testing/triton_test_data.h: reading this package's test data
// (triton/testdata/, described in its README.md) in tests, and layouts a test
// knows are valid.
//
//   std::vector<JsonValue> rows =
//   ReadJsonLines("triton/testdata/ll_ops.jsonl");
//   LinearLayout l = TestLayout({{"in", {{1}, {2}}}}, {"out"});
#ifndef HLOLAYOUT_TESTING_TRITON_TEST_DATA_H_
#define HLOLAYOUT_TESTING_TRITON_TEST_DATA_H_

#include <string>
#include <vector>

#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::triton {

// One parsed value per non-empty line of the repository file `path`
// (CHECK-fails on a missing file or bad JSON: the data is ours).
std::vector<JsonValue> ReadJsonLines(const std::string& path);

// The whole repository file `path`.
std::string ReadTestFile(const std::string& path);

// The integers of a JSON array of integers.
std::vector<int64_t> Ints(const JsonValue& v);

// LinearLayout::CreateInferred(bases, outs) and LinearLayout::Create(bases,
// outs, surjective) for layouts a test writes out: CHECK-fails, with the
// reason, when the layout is invalid.
LinearLayout TestLayout(NamedBases bases, std::vector<std::string> outs);
LinearLayout TestLayout(NamedBases bases, NamedInts outs, bool surjective);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TESTING_TRITON_TEST_DATA_H_
