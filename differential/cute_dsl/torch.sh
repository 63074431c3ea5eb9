# shellcheck shell=bash
# differential/cute_dsl/torch.sh: PyTorch for the notebook harness, from
# Debian's python3-torch (1.13.1, a CPU build for Debian's python3.11 and
# NumPy 1.24.2). Source it, then:
#
#   reason=$(hlolayout_torch "$venv") || echo "torch cells skipped: $reason"
#
# Installs python3-torch (apt-get, as root or with sudo -n) when
# /usr/lib/python3/dist-packages/torch is missing; the twin's interpreter,
# Debian's python3, then imports it directly. The DSL's venv (pyenv's
# 3.11, the same cp311 ABI) gets a directory holding only a link to that
# `torch` package, named by a .pth file: the venv keeps its own NumPy and
# typing_extensions (torch's one other import), and nothing else of
# Debian's site-packages. PyPI's torch is not used: its Linux x86_64 wheel
# brings gigabytes of CUDA libraries.
#
# Exit status 0 when both interpreters import torch; otherwise 77 with the
# reason on stdout (a sentence: the torch cells are reported skipped with
# it, never passed).

HLOLAYOUT_DEBIAN_TORCH=/usr/lib/python3/dist-packages/torch

# Installs python3-torch when missing (0 when present or installed; 77
# with the reason on stdout otherwise). .ci/run calls it before the tests.
hlolayout_install_torch() {
  [ -f "$HLOLAYOUT_DEBIAN_TORCH/__init__.py" ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "python3-torch not installed, and not root (no sudo) to install it"
      return 77
    }
    sudo="sudo -n"
  fi
  echo "torch: installing Debian's python3-torch" >&2
  if ! { DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
      --no-install-recommends python3-torch </dev/null ||
    { DEBIAN_FRONTEND=noninteractive $sudo apt-get update -q </dev/null &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
        --no-install-recommends python3-torch </dev/null; }; } >&2; then
    echo "python3-torch not installable (apt-get install failed: no Debian" \
      "mirror reachable, or no such package in this release)"
    return 77
  fi
}

hlolayout_torch() {
  local venv="$1"
  hlolayout_install_torch || return 77
  if ! /usr/bin/python3 -c "import torch" >/dev/null 2>&1; then
    echo "python3-torch installed, but Debian's python3 cannot import it"
    return 77
  fi
  local site
  site=$("$venv/bin/python" -c \
    "import sysconfig; print(sysconfig.get_paths()['purelib'])") || {
    echo "the DSL's venv has no site-packages"
    return 77
  }
  mkdir -p "$venv/debian-torch"
  ln -sfn "$HLOLAYOUT_DEBIAN_TORCH" "$venv/debian-torch/torch"
  echo "$venv/debian-torch" >"$site/debian_torch.pth"
  local err
  if ! err=$("$venv/bin/python" -c "import torch; torch.randn(4)" 2>&1); then
    rm -f "$site/debian_torch.pth"
    echo "Debian's torch does not load in the DSL's venv ($("$venv/bin/python" \
      --version 2>&1)): $(echo "$err" | tail -n 1)"
    return 77
  fi
}
