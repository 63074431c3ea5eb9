#!/usr/bin/env bash
# Checks differential/venv.sh with a stand-in Python whose pip counts its
# installs: two harnesses asking for one venv at once (CI's background
# maker and a harness, differential/prepare_venvs.sh) install it once and
# both get it; a made venv is reused; a failed install is not kept and its
# lock does not hold the next maker up.
set -u
# shellcheck source=venv.sh
source "$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The stand-in: `python --version`, `python -m venv DIR`, and DIR/bin/pip,
# which sleeps a moment (long enough for a second maker to come in), counts
# its run in $PIP_COUNT and fails when $PIP_FAILS exists.
cat >"$work/python" <<'EOF'
#!/usr/bin/env bash
if [ "$1" = --version ]; then echo "Python 3.99.0"; exit 0; fi
if [ "$1" = -m ] && [ "$2" = venv ]; then
  mkdir -p "$3/bin"
  printf '#!/bin/sh\nexit 0\n' >"$3/bin/python"
  printf '#!/bin/sh\nsleep 1\necho run >>"$PIP_COUNT"\n[ -e "$PIP_FAILS" ] && exit 1\nexit 0\n' >"$3/bin/pip"
  chmod +x "$3/bin/python" "$3/bin/pip"
  exit 0
fi
exit 2
EOF
chmod +x "$work/python"
echo "some-package==1.0" >"$work/requirements.txt"
export HLOLAYOUT_PYTHON="$work/python" HLOLAYOUT_VENV_DIR="$work/venvs"
export PIP_COUNT="$work/count" PIP_FAILS="$work/fails"
count() { [ -f "$PIP_COUNT" ] && wc -l <"$PIP_COUNT" | tr -d ' ' || echo 0; }

# Two at once: one install, the same venv for both.
(hlolayout_venv demo "$work/requirements.txt" >"$work/a") &
first=$!
sleep 0.2
(hlolayout_venv demo "$work/requirements.txt" >"$work/b") &
second=$!
wait "$first" || fail "the first maker exited $?"
wait "$second" || fail "the second maker exited $?"
[ "$(count)" = 1 ] || fail "two makers at once ran pip $(count) times, want 1"
[ -s "$work/a" ] && [ "$(cat "$work/a")" = "$(cat "$work/b")" ] ||
  fail "the two makers got '$(cat "$work/a")' and '$(cat "$work/b")'"
dir=$(cat "$work/a")
[ -f "$dir/.complete" ] || fail "no .complete in $dir"

# Made: reused without pip.
again=$(hlolayout_venv demo "$work/requirements.txt") || fail "reuse exited $?"
[ "$again" = "$dir" ] || fail "reuse gave '$again', want '$dir'"
[ "$(count)" = 1 ] || fail "reuse ran pip"

# Another requirements file whose install fails: 77, nothing kept, and
# the next maker is not held up by the lock (it runs pip again).
echo "other-package==2.0" >"$work/other.txt"
touch "$PIP_FAILS"
hlolayout_venv demo "$work/other.txt" >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 77 ] || fail "a failed install exited $rc, want 77"
grep -q "cannot install" "$work/err" || fail "no reason printed: $(cat "$work/err")"
rm -f "$PIP_FAILS"
made=$(timeout 20 bash -c "source '$1'; hlolayout_venv demo '$work/other.txt'")
rc=$?
[ "$rc" = 0 ] && [ -f "$made/.complete" ] ||
  fail "after a failure the next maker exited $rc (a lock left held?)"
[ "$(count)" = 3 ] || fail "pip ran $(count) times in all, want 3"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "venv.sh: ok"
