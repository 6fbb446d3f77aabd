#!/usr/bin/env bash
# Installs a pinned requirements file into a venv: with uv (requirements-setup.txt pins it; pip installs it into
# the venv once), which downloads, installs and byte-compiles in parallel; with pip where uv cannot be installed
# or cannot install the file (no wheel of uv for this platform, an index only pip's configuration names).
# Usage: scripts/venv-install.sh VENV REQUIREMENTS
set -euo pipefail

[ $# -eq 2 ] || {
  echo "usage: $0 VENV REQUIREMENTS (e.g. $0 .venv requirements.txt)" >&2
  exit 2
}
venv=$1
requirements=$2
python=$venv/bin/python
uv=$venv/bin/uv
setup="$(cd "$(dirname "$0")/.." && pwd)/requirements-setup.txt"
[ -x "$python" ] || {
  echo "error: $python is not a Python: create the venv first (python3 -m venv $venv)" >&2
  exit 1
}
[ -f "$requirements" ] || {
  echo "error: no requirements file $requirements" >&2
  exit 1
}

with_pip() {
  "$python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
}

# uv reads its own variables, not pip's: an index or wheel directory set for pip is passed on. pip separates
# several by spaces, uv by commas. (An index set only in pip.conf is not: uv then installs from PyPI, or fails
# and pip installs.)
[ -z "${PIP_INDEX_URL:-}" ] || export UV_INDEX_URL="${UV_INDEX_URL:-$PIP_INDEX_URL}"
commas() { printf '%s' "$1" | tr -s ' \t\n' ','; }
[ -z "${PIP_EXTRA_INDEX_URL:-}" ] || export UV_EXTRA_INDEX_URL="${UV_EXTRA_INDEX_URL:-$PIP_EXTRA_INDEX_URL}"
[ -z "${PIP_FIND_LINKS:-}" ] || export UV_FIND_LINKS="${UV_FIND_LINKS:-$(commas "$PIP_FIND_LINKS")}"

# Every time, not only when uv is missing: a changed pin replaces the uv installed before (pip leaves a
# satisfied pin alone).
pinned=0
"$python" -m pip install --quiet --disable-pip-version-check -r "$setup" >&2 || pinned=$?
if [ ! -x "$uv" ]; then
  echo "note: uv could not be installed ($setup): pip installs $requirements, more slowly" >&2
  with_pip
  exit 0
fi
[ "$pinned" -eq 0 ] || echo "note: uv could not be brought to its pin ($setup): the uv installed before installs" >&2
if ! "$uv" pip install --quiet --compile-bytecode --python "$python" -r "$requirements"; then
  echo "note: uv could not install $requirements (above): pip installs it" >&2
  with_pip
fi
