#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing. Needs root when any is missing.
#
# With no variables set: Debian 12's PHP 8.2 and everything `make report` and `make test` need, as
# always. Two variables change that (CI legs, other PHP versions):
#   PHPCB_PHP_PROVIDED=1  PHP comes from elsewhere (shivammathur/setup-php, a PPA, a build): no php8.2-*
#                         or phpunit packages; instead `php` on PATH must be PHP 8.1 or newer with
#                         ext-openssl and ext-sodium (ext-mcrypt optional: a run records it missing).
#   PHPCB_INSTALL=bench   only what `make bench` needs: no phpunit, chromium or python3-venv.
#   PHPCB_INSTALL=report  what `make report` needs: `bench` and python3-venv (for the site), no phpunit or chromium.
#                         (PHPCB_INSTALL=all, the default: everything, for `make test`.)
# With PHPCB_PHP_PROVIDED=1 and no root, apt-get runs through `sudo -n` when that works (CI runners).
# Without dpkg-query (not Debian or Ubuntu) nothing is installed: the commands are looked for on PATH
# and the missing ones named; that needs PHPCB_PHP_PROVIDED=1.
set -euo pipefail

php_provided=${PHPCB_PHP_PROVIDED:-0}
mode=${PHPCB_INSTALL:-all}

fail() {
  echo "error: $*" >&2
  exit 1
}

case "$php_provided" in
  0 | '') php_provided=0 ;;
  1) ;;
  *) fail "PHPCB_PHP_PROVIDED must be 1 (PHP comes from elsewhere) or unset, not '$php_provided'" ;;
esac
case "$mode" in
  all | report | bench) ;;
  *) fail "PHPCB_INSTALL must be 'all', 'report' or 'bench', not '$mode'" ;;
esac

# PHP 8.1 to 8.4 are supported (runners/src/Environment/PhpFeatures.php holds what differs between them).
check_provided_php() {
  command -v php >/dev/null 2>&1 || fail "PHPCB_PHP_PROVIDED=1 but there is no php on PATH ($PATH)"
  local facts version_id version extensions
  # shellcheck disable=SC2016 # PHP code, not shell
  facts=$(php -r 'echo PHP_VERSION_ID, " ", PHP_VERSION, " ", strtolower(implode(",", get_loaded_extensions())), "\n";' 2>/dev/null) ||
    fail "could not run $(command -v php)"
  read -r version_id version extensions <<<"$facts"
  [[ "$version_id" =~ ^[0-9]+$ ]] || fail "could not read the PHP version from $(command -v php) (got '$facts')"
  if ((version_id < 80100)); then
    fail "$(command -v php) is PHP $version; the runner needs PHP 8.1 or newer (8.1 to 8.4 are supported)"
  fi
  local missing=() extension
  for extension in openssl sodium; do
    [[ ",$extensions," == *",$extension,"* ]] || missing+=("ext-$extension")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    fail "PHP $version ($(command -v php)) lacks ${missing[*]}, which the runner needs (setup-php: extensions: openssl, sodium)"
  fi
  if ((version_id >= 80500)); then
    echo "note: PHP $version is newer than 8.4, the newest version the runner is checked against" >&2
  fi
  if [[ ",$extensions," != *",mcrypt,"* ]]; then
    echo "note: PHP $version has no ext-mcrypt: the symmetric experiment runs without its mcrypt half and the run records mcrypt as missing" >&2
  fi
  if [ "$mode" = all ] && ! command -v phpunit >/dev/null 2>&1; then
    echo "note: no phpunit on PATH: make test needs PHPUnit 9 (setup-php: tools: phpunit:9)" >&2
  fi
}

packages=()
if [ "$php_provided" = 1 ]; then
  check_provided_php
else
  packages+=(php8.2-cli php8.2-mcrypt)
fi
packages+=(argon2)
if [ "$mode" = all ]; then
  [ "$php_provided" = 1 ] || packages+=(phpunit)
  packages+=(chromium)
fi
[ "$mode" = bench ] || packages+=(python3-venv)
packages+=(git make openssl)

# Without dpkg: whether each package's command is there (python3-venv: the venv module).
provided_without_dpkg() {
  case "$1" in
    python3-venv) command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip, venv' >/dev/null 2>&1 ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

if ! command -v dpkg-query >/dev/null 2>&1; then
  [ "$php_provided" = 1 ] || fail "no dpkg-query: not Debian or Ubuntu; install PHP 8.1+ yourself and set PHPCB_PHP_PROVIDED=1"
  missing=()
  for package in "${packages[@]}"; do
    provided_without_dpkg "$package" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    fail "missing: ${missing[*]}; not Debian or Ubuntu, so install them with this system's package manager"
  fi
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

# The OpenSSL library PHP loads is part of what a run measures. A boot whose image carries an older libssl3
# than the one Debian built PHP against measures another library: on one boot of one machine, PHP 8.2 on
# OpenSSL 3.0.19 ran the AEAD classes 4-17 % slower than on 3.0.22, so runs of two boots differed by the
# image, not the machine. Debian's current libssl3 is installed whenever the loaded library is older than
# PHP's header.
openssl_version_of() { # $1 Header or Library: "OpenSSL Library Version => OpenSSL 3.0.19 27 Jan 2026" -> 3.0.19
  local line pattern="^OpenSSL $1 Version => OpenSSL ([0-9][0-9a-z.]*)"
  while IFS= read -r line; do
    if [[ "$line" =~ $pattern ]]; then
      echo "${BASH_REMATCH[1]}"
      return
    fi
  done < <(php -i 2>/dev/null)
}
# Where PHP itself is still to come, there is no library to read yet, and the image's may be the older one: the
# first `make report` of a fresh machine measured OpenSSL 3.0.19 and the `make test` after it, which found PHP,
# upgraded to 3.0.22, so one boot's runs straddled two libraries. PHP comes with Debian's current libssl3.
if [ "$php_provided" = 0 ] && [[ " ${missing[*]} " == *" php8.2-cli "* ]]; then
  missing+=(libssl3)
  [[ " ${missing[*]} " == *" openssl "* ]] || missing+=(openssl)
elif [ "$php_provided" = 0 ] && command -v php >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
  header=$(openssl_version_of Header)
  library=$(openssl_version_of Library)
  if [ -n "$header" ] && [ -n "$library" ] && dpkg --compare-versions "$library" lt "$header"; then
    echo "note: PHP loads OpenSSL $library but was built against $header: installing Debian's current libssl3 and openssl" >&2
    missing+=(libssl3 openssl)
  fi
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  # A CI runner with PHP from setup-php is no root but has password-less sudo; Debian's default asks for root.
  if [ "$php_provided" = 1 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n env DEBIAN_FRONTEND=noninteractive)
  else
    echo "error: missing Debian packages: ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

echo "installing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
${as_root[@]+"${as_root[@]}"} apt-get update -qq
${as_root[@]+"${as_root[@]}"} apt-get install -y -qq "${missing[@]}" >&2
