#!/usr/bin/env bash
# Checks the house rules between packages (issue 38), with Bazel's own
# dependency graph:
#   - no library or program depends on //testing (the test tooling): only
#     tests, fuzzers and benchmarks (//bench) may;
#   - //parser (shape text) does not depend on //hlo (the module reader);
#   - no library, program or binding depends on //cli (the command line),
#     outside //cli itself, the test tooling (//testing) and the C++
#     benchmarks of the CLI (//bench): the Python module binds the library,
#     never the CLI (issue 45 item 2). Tests may run the CLI;
#   - no early-return macro outside util/status_macros.h (issue 85).
# Prints the offending targets and exits 1 when a rule is broken.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0

query() { ./bazelw query --noshow_progress "$1" 2>/dev/null </dev/null; }

bad=$(query 'kind("cc_library|cc_binary|py_library|py_binary|sh_binary|genrule|filegroup", rdeps(//..., //testing/...)) except //testing/... except //bench/...')
if [ -n "$bad" ]; then
  echo "check_rooms: these targets depend on //testing (test tooling) but are not tests or benchmarks:"
  echo "$bad" | sed 's/^/  /'
  status=1
fi

bad=$(query 'deps(//parser/...) intersect //hlo/...')
if [ -n "$bad" ]; then
  echo "check_rooms: //parser (shape text) depends on the HLO reader:"
  echo "$bad" | sed 's/^/  /'
  status=1
fi

bad=$(query 'kind("cc_library|cc_binary|py_library|py_binary|sh_binary|genrule|filegroup", rdeps(//..., //cli/...)) except //cli/... except //testing/... except //bench/...')
if [ -n "$bad" ]; then
  echo "check_rooms: these libraries, programs or bindings depend on //cli (the command line); call or bind the library instead:"
  echo "$bad" | sed 's/^/  /'
  status=1
fi

# One status-macro header (issue 85): no room defines its own early-return
# macro beside util/status_macros.h.
bad=$(git grep -nE '^#define [A-Z0-9_]*(TRY|RETURN_IF|ASSIGN_OR)[A-Z0-9_]*\(' -- '*.cc' '*.h' ':!util/status_macros.h' 2>/dev/null)
if [ -n "$bad" ]; then
  echo "check_rooms: local status macros; use util/status_macros.h:"
  echo "$bad" | sed 's/^/  /'
  status=1
fi

[ "$status" -eq 0 ] && echo "check_rooms: ok"
exit "$status"
