// hlolayout/version.h: the library's version, the one place it is written.
//
//   #include "hlolayout/version.h"
//   static_assert(HLOLAYOUT_VERSION_MAJOR == 0);
//   std::cout << HLOLAYOUT_VERSION_STRING;   // "0.3.0"
//
// The CMake build reads these lines for its package version and the
// pkg-config file, and `hlolayout --version` prints the string; the Python
// module's __version__ (python/hlolayout/_version.py) must say the same
// (.ci/check_build_sync.py checks it); CHANGELOG.md says what each version
// added. Bump all four macros together.
#ifndef HLOLAYOUT_VERSION_H_
#define HLOLAYOUT_VERSION_H_

#define HLOLAYOUT_VERSION_MAJOR 0
#define HLOLAYOUT_VERSION_MINOR 3
#define HLOLAYOUT_VERSION_PATCH 0
#define HLOLAYOUT_VERSION_STRING "0.3.0"

#endif  // HLOLAYOUT_VERSION_H_
