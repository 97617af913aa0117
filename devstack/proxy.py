"""nginx in front of Open WebUI, from Debian's package: round robin over its replicas, and, as an
organisation's authenticating proxy runs it, HTTP basic authentication that names the user, passed
to Open WebUI in a trusted header (WEBUI_AUTH_TRUSTED_EMAIL_HEADER). Open WebUI's page sends
`Authorization: Bearer` on its API calls, which nginx's basic authentication refuses: only the
pages and the sign-in request are behind it, and the header is blanked on every other path, so no
client can forge it."""

import subprocess
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
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
  # Round robin, not sticky: each request, and each socket, to the next replica.
  upstream owui { %(upstreams)s }
  server {
    listen 127.0.0.1:%(port)d;
    location / { %(password)s include %(dir)s/proxied.conf; %(no_one)s }
    location ~ ^/api/v1/auths/signin$ { %(password)s include %(dir)s/proxied.conf; %(signed_in)s }
    location /api/ { include %(dir)s/proxied.conf; %(no_one)s }
    location /ws/ {
      include %(dir)s/proxied.conf;
      %(no_one)s
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
    }
  }
}
"""


@dataclass(frozen=True)
class TrustedSignIn:
    """People the proxy signs in by HTTP basic authentication (name → password), named to Open
    WebUI in ``header`` (its WEBUI_AUTH_TRUSTED_EMAIL_HEADER)."""

    header: str
    users: Mapping[str, str]


def htpasswd_line(user: str, password: str) -> str:
    """An Apache MD5 entry, which nginx reads (openssl, no apache2-utils needed)."""
    digest = subprocess.run(
        ["openssl", "passwd", "-apr1", "-stdin"], input=password, capture_output=True, text=True, check=True
    ).stdout.strip()
    return f"{user}:{digest}\n"


def proxy(port: int, upstreams: Sequence[str], directory: Path, sign_in: TrustedSignIn | None = None) -> Service:
    """nginx on 127.0.0.1:``port``, round robin over ``upstreams`` (host:port); with ``sign_in``,
    an authenticating proxy."""
    (directory / "tmp").mkdir(parents=True, exist_ok=True)
    (directory / "proxied.conf").write_text(PROXIED)
    fill = {"password": "", "no_one": "", "signed_in": ""}
    if sign_in:
        lines = "".join(htpasswd_line(user, password) for user, password in sign_in.users.items())
        (directory / "htpasswd").write_text(lines)
        fill = {
            "password": f'auth_basic "Open WebUI"; auth_basic_user_file {directory}/htpasswd;',
            "no_one": f'proxy_set_header {sign_in.header} "";',  # "": not sent, whatever the client sent
            "signed_in": f"proxy_set_header {sign_in.header} $remote_user;",
        }
    servers = " ".join(f"server {upstream};" for upstream in upstreams)
    (directory / "nginx.conf").write_text(CONFIG % {"dir": directory, "port": port, "upstreams": servers, **fill})
    command = [debian_program("nginx"), "-p", str(directory), "-c", str(directory / "nginx.conf")]
    command += ["-e", str(directory / "error.log"), "-g", "daemon off;"]
    return Service("nginx", command, directory / "nginx.log")
