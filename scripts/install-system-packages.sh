#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing. Needs root when any is missing.
set -euo pipefail

packages=(php8.2-cli php8.2-mcrypt argon2 phpunit chromium python3-venv git make openssl)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "error: missing Debian packages: ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "installing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >&2
