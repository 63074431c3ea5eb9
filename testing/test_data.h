// testing/test_data.h: where a test finds a data file of this repository,
// whichever build runs it.
//
//   std::string path = TestDataPath("examples/module_0001.txt");
//
// Under `bazel test` (from this workspace or from a workspace that depends on
// hlolayout as @hlolayout) the file is a runfile: the test target lists it in
// `data` and it is found under $TEST_SRCDIR/hlolayout/. Under CMake/ctest the
// build defines HLOLAYOUT_SOURCE_DIR (the repository's top folder). Otherwise
// the path is returned unchanged (relative to the current directory, which
// ctest sets to the repository's top folder).
#ifndef HLOLAYOUT_TESTING_TEST_DATA_H_
#define HLOLAYOUT_TESTING_TEST_DATA_H_

#include <cstdint>
#include <string>

namespace hlolayout {

// `repo_relative` is a path from the repository's top folder.
std::string TestDataPath(const std::string& repo_relative);

// The bytes of that file ("" when it cannot be read).
std::string ReadTestData(const std::string& repo_relative);

// A figure of XLA's memory_analysis() as differential/xla writes them into
// a test data folder's memory_analysis.json: the number after `"field": `
// in the object of dump `name` (its file name without ".txt"); -1 when the
// dump or the field is absent.
//   MemoryAnalysisFigure(json, "module_0002.jit_lstm...", "temp_size_in_bytes")
int64_t MemoryAnalysisFigure(const std::string& json, const std::string& name,
                             const std::string& field);

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_TEST_DATA_H_
