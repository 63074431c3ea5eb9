# differential/venv.sh: the venv of a differential harness, made from its
# pinned requirements file. Source it, then:
#
#   venv=$(hlolayout_venv xla differential/xla/requirements.txt) || exit $?
#   "$venv/bin/python" differential/xla/compare.py ...
#
# The venv lives outside the repository, under $HLOLAYOUT_VENV_DIR (default
# ~/.cache/hlolayout/venvs), one folder per requirements file content, so a
# changed pin makes a new venv and an unchanged one is reused. The library's
# own build never uses it.
#
# Exit status: 0 with the venv's path on stdout; 77 when the packages cannot
# be installed (no network, no wheel for this machine), with the reason on
# stderr: a harness passes 77 on, and CI prints the step as skipped.

hlolayout_venv() {
  local name="$1" requirements="$2"
  local python="${HLOLAYOUT_PYTHON:-python3}"
  local root="${HLOLAYOUT_VENV_DIR:-$HOME/.cache/hlolayout/venvs}"
  if [ ! -f "$requirements" ]; then
    echo "venv: no requirements file $requirements" >&2
    return 2
  fi
  local key
  key=$( { "$python" --version 2>&1; cat "$requirements"; } | sha256sum | cut -c1-12)
  local dir="$root/$name-$key"
  mkdir -p "$root"
  # One maker at a time: CI makes the venvs in the background while it
  # builds (differential/prepare_venvs.sh), and a harness that asks for one
  # meanwhile waits here, then takes what was made.
  if command -v flock >/dev/null 2>&1; then
    local lock_fd rc
    exec {lock_fd}>"$dir.lock"
    flock "$lock_fd"
    hlolayout_venv_make "$dir" "$python" "$requirements"
    rc=$?
    exec {lock_fd}>&-
    return "$rc"
  fi
  hlolayout_venv_make "$dir" "$python" "$requirements"
}

# hlolayout_venv's maker: DIR made with PYTHON from REQUIREMENTS, unless a
# complete one is there; prints DIR. Exit status as hlolayout_venv's.
hlolayout_venv_make() {
  local dir="$1" python="$2" requirements="$3"
  if [ -x "$dir/bin/python" ] && [ -f "$dir/.complete" ]; then
    echo "$dir"
    return 0
  fi
  rm -rf "$dir"
  if ! "$python" -m venv "$dir" >&2; then
    echo "venv: '$python -m venv' failed" >&2
    return 77
  fi
  local log="$dir/pip.log"
  if ! timeout "${HLOLAYOUT_PIP_TIMEOUT:-900}" "$dir/bin/pip" install \
      --disable-pip-version-check -q -r "$requirements" >"$log" 2>&1; then
    echo "venv: cannot install $requirements (no network or no wheel for this machine):" >&2
    tail -n 3 "$log" | sed 's/^/venv:   /' >&2
    rm -rf "$dir"
    return 77
  fi
  touch "$dir/.complete"
  echo "$dir"
}
