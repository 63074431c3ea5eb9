#!/usr/bin/env bash
# Checks differential/verdict.sh: how .ci/run judges a harness step's exit
# status, with the package index reachable or not.
set -u
# shellcheck source=verdict.sh
source "$1"
failures=0
expect() {  # expect RC REACHABLE WANT
  local got
  got=$(harness_verdict "$1" "$2")
  if [ "$got" != "$3" ]; then
    echo "harness_verdict $1 $2: got '$got', want '$3'"
    failures=$((failures + 1))
  fi
}
expect 0 yes passed
expect 0 no passed
expect 77 no skipped
expect 77 yes failed   # a skip where pip answers is a failure
expect 1 yes failed
expect 1 no failed
expect 2 no failed
expect 124 yes failed  # over its time limit

for want in yes no; do
  got=$(HLOLAYOUT_INDEX_REACHABLE=$want package_index_reachable)
  if [ "$got" != "$want" ]; then
    echo "package_index_reachable with override $want: got '$got'"
    failures=$((failures + 1))
  fi
done
for want in yes no; do
  got=$(HLOLAYOUT_GITHUB_REACHABLE=$want github_reachable)
  if [ "$got" != "$want" ]; then
    echo "github_reachable with override $want: got '$got'"
    failures=$((failures + 1))
  fi
done
got=$(HLOLAYOUT_GITHUB_REACHABLE=maybe PATH=/nonexistent github_reachable 2>/dev/null)
if [ "$got" != no ]; then
  echo "github_reachable with no tools on PATH: got '$got', want 'no'"
  failures=$((failures + 1))
fi
got=$(HLOLAYOUT_INDEX_REACHABLE=maybe PATH=/nonexistent package_index_reachable 2>/dev/null)
if [ "$got" != no ]; then
  echo "package_index_reachable with no tools on PATH: got '$got', want 'no'"
  failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
  echo "FAILED: $failures"
  exit 1
fi
echo "ok"
