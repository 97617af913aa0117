#!/usr/bin/env bash
# Finds a browser for the browser tests and prints its path: `chromium` (the default) or
# `firefox-esr`. $CHROMIUM or $FIREFOX if set, else Debian's package of that name, installed with
# apt-get when missing and running as root.
set -euo pipefail
package="${1:-chromium}"
case "$package" in
  chromium) override="${CHROMIUM:-}" variable=CHROMIUM ;;
  firefox-esr) override="${FIREFOX:-}" variable=FIREFOX ;;
  *) echo "usage: $0 [chromium|firefox-esr]" >&2; exit 2 ;;
esac
if [ -n "$override" ]; then
  [ -x "$override" ] || { echo "$variable=$override is not an executable file." >&2; exit 1; }
  echo "$override"; exit 0
fi
if [ ! -x "/usr/bin/$package" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's $package (apt-get)…" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >&2
  else
    echo "No $package found. Install Debian's '$package' package, or set $variable=/path/to/it." >&2
    exit 1
  fi
fi
echo "/usr/bin/$package"
