#!/bin/sh
# Debian's Chromium for the browser tests (tests/browser, Playwright driving /usr/bin/chromium).
# Installed with apt-get when it is missing and this user may (root, apt-get present); otherwise
# says why and leaves it: those tests then skip with that reason. Never downloads a browser
# build of its own (`playwright install` is not used).
set -u
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"  # where the tests look for it (tests/browser/conftest.py)
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-browser: $CHROMIUM is missing and apt-get cannot be run here (not root, or no apt-get):" \
       "the browser tests will be skipped" >&2
  exit 0
fi
echo "install-browser: installing Debian's chromium for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
  || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends chromium >/dev/null; } \
  || echo "install-browser: apt-get could not install chromium: the browser tests will be skipped" >&2
exit 0
