// testing/triton_given_layouts.h: two Triton layouts of a 64x64 tensor that
// the tests of the Triton answers and their texts convert between, read as
// the commands read a layout given on their command line.
//
//   GivenLayout src = GivenLayout64x64(kTestMmaLayout);   // #ttg.nvidia_mma
//   GivenLayout dst = GivenLayout64x64(kTestColumnsLayout);  // #ttg.blocked
#ifndef HLOLAYOUT_TESTING_TRITON_GIVEN_LAYOUTS_H_
#define HLOLAYOUT_TESTING_TRITON_GIVEN_LAYOUTS_H_

#include "hlolayout/triton/layout_explain.h"

namespace hlolayout::triton {

// A Hopper MMA layout (version 3.0, four warps along M, 16x64x16).
inline constexpr char kTestMmaLayout[] =
    "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, "
    "1], instrShape = [16, 64, 16]}>";
// A blocked layout whose threads hold eight rows of one column.
inline constexpr char kTestColumnsLayout[] =
    "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], "
    "warpsPerCTA = [1, 4], order = [0, 1]}>";

// `text` read for the shape 64x64 (CHECK-fails when it does not read: the
// text is the test's).
GivenLayout GivenLayout64x64(const char* text);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TESTING_TRITON_GIVEN_LAYOUTS_H_
