#!/usr/bin/env bash
# Installs everything the test suite needs (Debian packages when run as root, then the Python package with its
# test extras) and runs the whole suite. This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev pkg-config chromium)
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    missing=()
    for p in "${DEBIAN_PACKAGES[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "== installing Debian packages: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
fi

echo "== installing the companion with its test extras"
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'

echo "== running the test suite"
python3 -m pytest -n 2 -q "$@"
