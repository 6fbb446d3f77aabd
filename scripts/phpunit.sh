#!/usr/bin/env bash
# PHPUnit on the runner's tests with the configuration its version reads: runners/phpunit.xml for PHPUnit 9
# (Debian 12), runners/phpunit-10.xml for PHPUnit 10 and newer (Debian 13's 11.5). The same suite, as strict.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v phpunit >/dev/null 2>&1 || { echo "error: no phpunit on PATH (Debian: apt-get install phpunit; make setup-dev installs it)" >&2; exit 1; }
version=$(phpunit --version | sed -n 's/^PHPUnit \([0-9]*\)\..*/\1/p' | head -n 1)
[[ "$version" =~ ^[0-9]+$ ]] || { echo "error: could not read PHPUnit's version from 'phpunit --version'" >&2; exit 1; }
if ((version < 9)); then
  echo "error: PHPUnit $version is too old: the runner's tests need PHPUnit 9, 10 or 11" >&2
  exit 1
fi
config=runners/phpunit.xml
((version < 10)) || config=runners/phpunit-10.xml
exec phpunit -c "$config" "$@"
