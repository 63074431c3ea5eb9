#!/usr/bin/env bash
# Checks differential/cute_dsl/ci.sh's verdict from its two parts (the
# layout-op and atom cases, then the notebooks), with a stand-in for run.sh
# that exits as told: the step passes only when both parts pass (issue 89
# item 7: a notebook part that exited 77 used to pass the whole step).
set -u
ci="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/run.sh" <<'STUB'
#!/usr/bin/env bash
if [ "${1:-}" = "--notebooks" ]; then
  echo notebooks >>"$STUB_LOG"
  exit "$STUB_NOTEBOOKS"
fi
echo cases >>"$STUB_LOG"
exit "$STUB_CASES"
STUB
chmod +x "$tmp/run.sh"
failures=0
expect() {  # expect CASES_RC NOTEBOOKS_RC WANT_RC WANT_PARTS [PART]
  local got parts
  : >"$tmp/log"
  STUB_LOG="$tmp/log" STUB_CASES="$1" STUB_NOTEBOOKS="$2" \
    HLOLAYOUT_CUTE_DSL_RUN="$tmp/run.sh" HLOLAYOUT_CUTE_DSL_SEED=5 \
    "$ci" ${5:+"$5"} >/dev/null 2>&1
  got=$?
  parts=$(paste -sd, "$tmp/log")
  if [ "$got" != "$3" ] || [ "$parts" != "$4" ]; then
    echo "${5:-both}: cases $1, notebooks $2: exit $got after '$parts', want $3 after '$4'"
    failures=$((failures + 1))
  fi
}
expect 0 0 0 cases,notebooks
expect 0 77 77 cases,notebooks   # notebooks unreadable: not a pass
expect 0 1 1 cases,notebooks
expect 0 124 124 cases,notebooks
expect 1 0 1 cases               # a difference: the notebooks are not run
expect 77 0 77 cases             # no DSL: skipped (or failed, verdict.sh)
# Each part alone, as .ci/run's two steps run them.
expect 0 77 0 cases cases        # the cases' step never runs the notebooks
expect 1 0 1 cases cases
expect 0 77 77 notebooks notebooks   # judged by verdict.sh (GitHub)
expect 1 0 0 notebooks notebooks     # the notebooks' step runs no cases
expect 0 0 2 "" bogus                # an unknown part is a usage error
if [ "$failures" -ne 0 ]; then
  echo "FAILED: $failures"
  exit 1
fi
echo "PASSED"
