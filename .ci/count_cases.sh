#!/usr/bin/env bash
# .ci/count_cases.sh: the passed and failed test cases of one test.xml that
# Bazel keeps, printed as "PASSED FAILED" (.ci/run adds them up).
#
#   .ci/count_cases.sh bazel-testlogs/util/PagesTest/test.xml   # e.g. "9 0"
#   .ci/count_cases.sh --self-test
#
# Three writers: GoogleTest writes a case per line (`<testcase ... />`) or
# over several, its <failure> inside; pytest (python/tests/pytest_main.py)
# marks a skipped case with <skipped>; Bazel itself describes a test that
# writes no XML (an sh_test) as one case on one line,
# `<testcase ...></testcase>`, with an <error> inside when it failed. A case
# passed unless a <failure> or <error> comes before its end; skipped cases
# are not counted.
set -uo pipefail

count() {
  awk '
    /<testcase / {
      open = 1; bad = 0
      skipped = ($0 ~ /result="skipped"/)
      if ($0 ~ /\/>[[:space:]]*$/) { if (!skipped) pass++; open = 0; next }
    }
    open && /<(failure|error)[ >]/ { bad = 1 }
    open && /<skipped[ >\/]/ { skipped = 1 }
    open && /<\/testcase>/ {
      if (bad) fail++; else if (!skipped) pass++
      open = 0
    }
    END { printf "%d %d\n", pass, fail }' "$1"
}

self_test() {
  local dir failures=0
  dir=$(mktemp -d)
  expect() {  # expect NAME WANT (the XML on stdin)
    cat >"$dir/$1.xml"
    local got
    got=$(count "$dir/$1.xml")
    if [ "$got" != "$2" ]; then
      echo "count_cases: $1: got '$got', want '$2'"
      failures=$((failures + 1))
    fi
  }
  expect gtest "2 1" <<'EOF'
<testsuites tests="4">
  <testsuite name="PagesTest" tests="4">
    <testcase name="A" status="run" result="completed" time="0" classname="PagesTest" />
    <testcase name="B" status="run" result="completed" time="0" classname="PagesTest">
      <failure message="pages.cc:10&#x0A;Expected equality" type=""><![CDATA[boom]]></failure>
    </testcase>
    <testcase name="C" status="run" result="skipped" time="0" classname="PagesTest" />
    <testcase name="D" status="run" result="completed" time="0" classname="PagesTest">
    </testcase>
  </testsuite>
</testsuites>
EOF
  expect sh_test_passed "1 0" <<'EOF'
<testsuites>
  <testsuite name="differential/VenvTest" tests="1" failures="0" errors="0">
    <testcase name="differential/VenvTest" status="run" duration="3" time="3"></testcase>
      <system-out>venv.sh: ok</system-out>
  </testsuite>
</testsuites>
EOF
  expect sh_test_failed "0 1" <<'EOF'
<testsuites>
  <testsuite name="differential/VenvTest" tests="1" failures="0" errors="1">
    <testcase name="differential/VenvTest" status="run" duration="3" time="3"><error message="exited with error code 1"></error></testcase>
  </testsuite>
</testsuites>
EOF
  expect pytest "1 1" <<'EOF'
<testsuites>
  <testsuite name="pytest" tests="3">
    <testcase classname="test_a" name="test_ok" time="0.1">
    </testcase>
    <testcase classname="test_a" name="test_skip" time="0.0">
      <skipped message="no torch" />
    </testcase>
    <testcase classname="test_a" name="test_bad" time="0.1">
      <failure message="assert 1 == 2">trace</failure>
    </testcase>
  </testsuite>
</testsuites>
EOF
  rm -rf "$dir"
  if [ "$failures" -gt 0 ]; then
    return 1
  fi
  echo "count_cases: self-test ok"
}

case "${1:-}" in
  --self-test) self_test ;;
  "" | -h | --help)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    [ -n "${1:-}" ]
    ;;
  *) count "$1" ;;
esac
