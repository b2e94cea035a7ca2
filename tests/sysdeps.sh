#!/usr/bin/env bash
# System packages the test suite needs (a real browser, a real mail server ...), installed with the
# system's package manager on a fresh machine; `make test` runs this first. Already installed: nothing done.
# One package per line in PACKAGES, with the test that needs it.
set -euo pipefail
PACKAGES=(
  chromium  # tests/pages: the HTML pages in a real headless browser (driven by Playwright)
  dovecot-imapd  # tests/mail: a real IMAP server (TLS) for `pbem mail fetch`, started unprivileged on loopback
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "tests/sysdeps.sh: missing system packages (${missing[*]}) and no apt-get to install them" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing system packages for the tests: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
