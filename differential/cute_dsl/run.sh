#!/usr/bin/env bash
# differential/cute_dsl/run.sh: the CuTe DSL harness from a checkout.
#
#   differential/cute_dsl/run.sh                  # 3200 layout-op cases, 800
#                                                 # crd2idx/cosize cases on
#                                                 # scaled-basis strides and
#                                                 # every atom case on sm_80,
#                                                 # sm_90a, sm_100a, sm_120a
#   differential/cute_dsl/run.sh --seed 12345 --by-op
#   differential/cute_dsl/run.sh --notebooks      # the DSL's notebooks and
#                                                 # docs (notebooks.py)
#
# Makes the DSL's venv (differential/venv.sh, from requirements.txt), builds
# the twin (//python/hlolayout: the package's sources with the extension
# Bazel builds) and runs compare.py with the arguments given. Exit status:
# compare.py's (0: no undocumented difference, 1: some), 77 when the DSL
# cannot be installed here, 2 when the twin does not build.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=../venv.sh
source differential/venv.sh
venv=$(hlolayout_venv cute_dsl differential/cute_dsl/requirements.txt) || exit $?
# Only the venv (differential/prepare_venvs.sh).
[ -n "${HLOLAYOUT_VENV_ONLY:-}" ] && exit 0

# The default configuration, which `./bazelw test //...` (CI's first step)
# has already built.
if ! ./bazelw build //python/hlolayout >&2 </dev/null; then
  echo "cute_dsl harness: //python/hlolayout does not build" >&2
  exit 2
fi
bin=$(./bazelw info bazel-bin 2>/dev/null </dev/null)
twin=$(mktemp -d)
trap 'rm -rf "$twin"' EXIT
mkdir "$twin/hlolayout"
for f in python/hlolayout/*; do
  ln -s "$PWD/$f" "$twin/hlolayout/"
done
rm -f "$twin/hlolayout/_hlolayout.so"
ln -s "$bin/python/hlolayout/_hlolayout.so" "$twin/hlolayout/_hlolayout.so"

# The twin runs in the interpreter the extension is built for (Debian's,
# bazel/python.bzl); the DSL in its venv.
script=differential/cute_dsl/compare.py
extra=()
if [ "${1:-}" = "--notebooks" ]; then
  script=differential/cute_dsl/notebooks.py
  shift
  # The notebooks' PyTorch cells: Debian's python3-torch on both sides
  # (torch.sh), installed when missing; else they are skipped, with why.
  # shellcheck source=torch.sh
  source differential/cute_dsl/torch.sh
  if ! why=$(hlolayout_torch "$venv"); then
    echo "cute_dsl notebooks: torch cells skipped: $why" >&2
    extra=(--torch-missing "$why")
  fi
fi
PYTHONPATH="$twin" "${HLOLAYOUT_TWIN_PYTHON:-/usr/bin/python3}" \
  "$script" --dsl-python "$venv/bin/python" "${extra[@]}" "$@"
