"""nginx in front of Open WebUI, from Debian's package, as an organisation's authenticating proxy
runs it: HTTP basic authentication names the user, and nginx passes that name to Open WebUI in a
trusted header (WEBUI_AUTH_TRUSTED_EMAIL_HEADER). Open WebUI's page sends `Authorization: Bearer`
on its API calls, which nginx's basic authentication refuses: only the pages and the sign-in
request are behind it, and the header is blanked on every other path, so no client can forge it."""

import subprocess
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path

from .processes import Service
from .processes import debian_program

# Common to every location: a location with a proxy_set_header of its own inherits none.
PROXIED = """
    proxy_pass http://owui;
    proxy_http_version 1.1;
    proxy_set_header Host $host;
    proxy_set_header Authorization $upstream_authorization;
    proxy_buffering off;
    proxy_read_timeout 3600s;
"""

# `user root`: started by root, the workers would otherwise run as nobody, who cannot read the
# htpasswd file in a private temporary directory (ignored when not started by root).
CONFIG = """worker_processes 1;
user root;
pid %(dir)s/nginx.pid;
events { worker_connections 256; }
http {
  access_log %(dir)s/access.log;
  client_body_temp_path %(dir)s/tmp/body;
  proxy_temp_path %(dir)s/tmp/proxy;
  fastcgi_temp_path %(dir)s/tmp/fastcgi;
  uwsgi_temp_path %(dir)s/tmp/uwsgi;
  scgi_temp_path %(dir)s/tmp/scgi;
  client_max_body_size 50m;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  # The browser's Basic credentials stay here; the app's Bearer token goes on.
  map $http_authorization $upstream_authorization { ~*^Basic ""; default $http_authorization; }
  upstream owui { %(upstreams)s }
  server {
    listen 127.0.0.1:%(port)d;
    location / {
      auth_basic "Open WebUI"; auth_basic_user_file %(dir)s/htpasswd;
      include %(dir)s/proxied.conf;
      proxy_set_header %(header)s "";
    }
    location ~ ^/api/v1/auths/signin$ {
      auth_basic "Open WebUI"; auth_basic_user_file %(dir)s/htpasswd;
      include %(dir)s/proxied.conf;
      proxy_set_header %(header)s $remote_user;
    }
    location /api/ { include %(dir)s/proxied.conf; proxy_set_header %(header)s ""; }
    location /ws/ {
      include %(dir)s/proxied.conf;
      proxy_set_header %(header)s "";
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
    }
  }
}
"""


def htpasswd_line(user: str, password: str) -> str:
    """An Apache MD5 entry, which nginx reads (openssl, no apache2-utils needed)."""
    digest = subprocess.run(
        ["openssl", "passwd", "-apr1", "-stdin"], input=password, capture_output=True, text=True, check=True
    ).stdout.strip()
    return f"{user}:{digest}\n"


def authenticating_proxy(
    port: int, upstreams: Sequence[str], header: str, users: Mapping[str, str], directory: Path
) -> Service:
    """nginx on 127.0.0.1:``port``, round robin over ``upstreams`` (host:port), signing in ``users``
    (name → password) by HTTP basic authentication and naming them to Open WebUI in ``header``."""
    (directory / "tmp").mkdir(parents=True, exist_ok=True)
    (directory / "htpasswd").write_text("".join(htpasswd_line(user, password) for user, password in users.items()))
    (directory / "proxied.conf").write_text(PROXIED)
    servers = " ".join(f"server {upstream};" for upstream in upstreams)
    config = CONFIG % {"dir": directory, "port": port, "upstreams": servers, "header": header}
    (directory / "nginx.conf").write_text(config)
    command = [
        debian_program("nginx"),
        "-p",
        str(directory),
        "-c",
        str(directory / "nginx.conf"),
        "-e",
        str(directory / "error.log"),
    ]
    return Service("nginx", [*command, "-g", "daemon off;"], directory / "nginx.log")
