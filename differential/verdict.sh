# differential/verdict.sh: how .ci/run judges a differential harness step.
# Source it, then:
#
#   reachable=$(package_index_reachable)      # "yes" or "no", asked once
#   verdict=$(harness_verdict "$rc" "$reachable")   # passed|skipped|failed
#
# A harness exits 0 when it agrees with its reference system, 77 when the
# system could not be installed (differential/venv.sh) and anything else on
# a difference or a crash. Exit 77 is a skip only where the package index
# cannot be reached: on a machine whose pip answers, a harness that could
# not install its system has failed (a broken pin, a wheel that vanished, a
# venv script that went wrong), and CI must say so rather than pass quietly.

# Prints "yes" when pip can look a package up in its configured index, "no"
# otherwise (no network, no pip). HLOLAYOUT_INDEX_REACHABLE=yes|no overrides
# the probe (tests, or a machine whose operator knows).
package_index_reachable() {
  case "${HLOLAYOUT_INDEX_REACHABLE:-}" in
    yes | no)
      echo "$HLOLAYOUT_INDEX_REACHABLE"
      return 0
      ;;
  esac
  local python
  for python in python3 /usr/bin/python3; do
    if timeout 60 "$python" -m pip index versions pip \
        --disable-pip-version-check >/dev/null 2>&1 </dev/null; then
      echo yes
      return 0
    fi
  done
  echo no
}

# Prints "yes" when GitHub's raw files answer (the CuTe DSL notebooks'
# source, differential/cute_dsl/notebook_sources.py), "no" otherwise.
# HLOLAYOUT_GITHUB_REACHABLE=yes|no overrides the probe.
github_reachable() {
  case "${HLOLAYOUT_GITHUB_REACHABLE:-}" in
    yes | no)
      echo "$HLOLAYOUT_GITHUB_REACHABLE"
      return 0
      ;;
  esac
  local python
  for python in python3 /usr/bin/python3; do
    if timeout 40 "$python" -c 'import urllib.request
urllib.request.urlopen("https://raw.githubusercontent.com/NVIDIA/cutlass/main/README.md", timeout=30).read(1)' \
        >/dev/null 2>&1 </dev/null; then
      echo yes
      return 0
    fi
  done
  echo no
}

# harness_verdict RC REACHABLE: prints passed, skipped or failed. REACHABLE
# is whether the step's system can be fetched here ("yes" or "no"): the
# package index for most steps; the index and GitHub for one that needs both.
harness_verdict() {
  local rc="$1" reachable="$2"
  if [ "$rc" -eq 0 ]; then
    echo passed
  elif [ "$rc" -eq 77 ] && [ "$reachable" != yes ]; then
    echo skipped
  else
    echo failed
  fi
}
