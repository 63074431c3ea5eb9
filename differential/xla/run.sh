#!/usr/bin/env bash
# XLA as the oracle (docs/memory-xla-checks.md, "Checked against XLA"):
# makes the venv of requirements.txt, builds hlolayout, compiles the whole
# zoo with XLA:CPU (modules compiled before are reused from the cache),
# compares every module and every case of tests/data/xla_parser_cases.txt,
# prints one table.
#
#   differential/xla/run.sh                     the whole zoo
#   differential/xla/run.sh --programs mlp_sgd  some programs
#   differential/xla/run.sh --zoo DIR           another set of programs
#   differential/xla/run.sh --target h100       with XLA:GPU for an H100 (also
#                                               a100, b200; no GPU needed: the
#                                               venv of requirements-gpu.txt)
#   differential/xla/run.sh --target gpu        H100, A100 and B200 in turn,
#                                               one table each
#   differential/xla/run.sh --target v5e        with XLA:TPU for a v5e slice
#                                               (also v4, v5p, v6e; no TPU
#                                               needed: the venv of
#                                               requirements-tpu.txt)
#   differential/xla/run.sh --target tpu        v4, v5e, v5p and v6e in turn
#
# The cache of XLA's dumps: $HLOLAYOUT_XLA_CACHE (default
# ~/.cache/hlolayout/xla-oracle), outside the repository. Exit status: 0 when
# every difference is documented, 1 when one is not, 2 when a module does not
# compile, 77 when jax/jaxlib cannot be installed here.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/differential/venv.sh"
# Another set of programs (--zoo DIR) may need more packages: DIR's own
# requirements.txt then makes the venv.
requirements="$here/requirements.txt"
target=cpu
previous=""
for arg in "$@"; do
  if [ "$previous" = "--zoo" ] && [ -f "$arg/requirements.txt" ]; then
    requirements="$arg/requirements.txt"
  fi
  if [ "$previous" = "--target" ]; then
    target="$arg"
  fi
  previous="$arg"
done
# XLA:GPU's and XLA:TPU's venvs hold the held-out set's libraries too.
name=xla
case "$target" in
  cpu) ;;
  tpu|v4|v5e|v5p|v6e) requirements="$here/requirements-tpu.txt"; name=xla-tpu ;;
  *) requirements="$here/requirements-gpu.txt" ;;
esac
venv=$(hlolayout_venv "$name" "$requirements") || exit $?
# Only the venv (differential/prepare_venvs.sh).
[ -n "${HLOLAYOUT_VENV_ONLY:-}" ] && exit 0
cd "$root"
if [ -z "${HLOLAYOUT_BIN:-}" ]; then
  ./bazelw build //:hlolayout </dev/null >&2 || exit 2
  HLOLAYOUT_BIN="$root/.build/bin/cli/hlolayout"
fi
exec "$venv/bin/python" "$here/oracle.py" --hlolayout "$HLOLAYOUT_BIN" \
  --cache "${HLOLAYOUT_XLA_CACHE:-$HOME/.cache/hlolayout/xla-oracle}" "$@"
