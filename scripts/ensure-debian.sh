#!/usr/bin/env bash
# Finds a program from Debian's packages that the tests need, and prints its path: a browser
# (chromium, firefox-esr) or a server (nginx, redis-server, postgresql). $CHROMIUM, $FIREFOX,
# $NGINX, $REDIS_SERVER or $POSTGRES if set, else the package's own path, installed with apt-get
# when missing and running as root.
set -euo pipefail
package="${1:-chromium}"
case "$package" in
  chromium) override="${CHROMIUM:-}" variable=CHROMIUM path=/usr/bin/chromium ;;
  firefox-esr) override="${FIREFOX:-}" variable=FIREFOX path=/usr/bin/firefox-esr ;;
  nginx) override="${NGINX:-}" variable=NGINX path=/usr/sbin/nginx ;;
  redis-server) override="${REDIS_SERVER:-}" variable=REDIS_SERVER path=/usr/bin/redis-server ;;
  # Debian 12's PostgreSQL: the server binary, beside initdb and createdb.
  postgresql) override="${POSTGRES:-}" variable=POSTGRES path=/usr/lib/postgresql/15/bin/postgres ;;
  *) echo "usage: $0 [chromium|firefox-esr|nginx|redis-server|postgresql]" >&2; exit 2 ;;
esac
if [ -n "$override" ]; then
  [ -x "$override" ] || { echo "$variable=$override is not an executable file." >&2; exit 1; }
  echo "$override"; exit 0
fi
if [ ! -x "$path" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's $package (apt-get)…" >&2
    apt-get update -qq >&2
    # No service is started: the tests start their own, on ports of their own.
    RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >&2
  else
    echo "No $package found. Install Debian's '$package' package, or set $variable=/path/to/it." >&2
    exit 1
  fi
fi
echo "$path"
