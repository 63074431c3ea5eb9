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
#   - no early-return macro outside util/status_macros.h (issue 85);
#   - the faces (issue 85 item 6): the libraries and programs of //cli and
#     //python use only //answers, //views and //util and what those bring
#     (transitively); anything else a face reaches is a hole in the floors;
#   - the vendor models stand side by side (issue 85 item 2): no library of
#     //cute, //triton, //ttnn, //ttmlir or //memory depends on //views or on
#     another of them.
# The edges there today are listed in .ci/rooms_known.txt (each one to be
# taken out); an edge not listed fails.
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

# The faces: //cli and //python stand on //answers, //views and //util
# (code only: data files a face ships or reads are not floors).
known() { grep -qxF "$1" .ci/rooms_known.txt; }
CODE='"cc_library|cc_binary|py_library|py_binary|sh_binary|genrule|proto_library"'
# Their tests too (issue 85 item 6 names the rooms, not only their
# libraries): a test of a face reaches what the face does, and the test
# tooling (//testing, which runs the CLI).
FACES="kind($CODE, //cli/... + //python/...) + kind(\".*_test\", //cli/... + //python/...)"
FLOORS="deps(kind($CODE, //answers/... + //views/... + //util/...))"
reached=$(query "kind($CODE, deps($FACES)) except $FLOORS except //cli/... except //python/... except //testing/... except //:version" | grep -v '^@')
bad=$(for t in $reached; do known "face $t" || echo "$t"; done)
if [ -n "$bad" ]; then
  echo "check_rooms: //cli or //python reach these targets, which //answers, //views and //util do not bring; make them an answer or a view:"
  echo "$bad" | sed 's/^/  /'
  status=1
fi

# The vendor models: none on //views, none on another (but the known
# bridges).
vendors="cute triton ttnn ttmlir memory"
for v in $vendors; do
  others="//views/..."
  for o in $vendors; do [ "$o" != "$v" ] && others="$others + //$o/..."; done
  edges=$(query "kind(cc_library, //$v/...) intersect rdeps(//$v/..., $others)")
  for t in $edges; do
    reached=$(query "deps($t) intersect ($others)" | sed -E 's#^//([a-z_]+)[:/].*#\1#' | sort -u)
    for r in $reached; do
      if ! known "bridge $t $r"; then
        echo "check_rooms: $t (vendor model //$v) depends on //$r; the vendor models and the views stand apart"
        status=1
      fi
    done
  done
done

[ "$status" -eq 0 ] && echo "check_rooms: ok"
exit "$status"
