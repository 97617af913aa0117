#!/usr/bin/env bash
# Finds a Chromium for the browser tests: $CHROMIUM if set, else Debian's /usr/bin/chromium,
# installed with apt-get when missing and running as root. Prints the path.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ]; then
  [ -x "$CHROMIUM" ] || { echo "CHROMIUM=$CHROMIUM is not an executable file." >&2; exit 1; }
  echo "$CHROMIUM"; exit 0
fi
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium (apt-get)…" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  else
    echo "No Chromium found. Install Debian's 'chromium' package, or set CHROMIUM=/path/to/chromium." >&2
    exit 1
  fi
fi
echo /usr/bin/chromium
