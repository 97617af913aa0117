"""Requests to the Open WebUI the admin names with --url (standard library only).

The admin's token can create Functions, that is run code on that server: it goes to the host the
admin named and to no other. So no redirect is followed (Open WebUI's API never answers one; an
SSO proxy in front of it does, to its login page on another host), and plain http is refused for
a host that is not this machine unless the admin asks for it. And what the server sends is shown
escaped: it never reaches the terminal as control characters."""

import ipaddress
import urllib.error
import urllib.parse
import urllib.request
from http.client import HTTPResponse

# The option that lets plain http reach another machine.
INSECURE_HTTP_OPTION = "--insecure-http"
SHOWN_CHARS = 200  # of a text the server sent: a version, a host; longer is cut


class Refused(Exception):
    """A URL or an answer refused before anything was sent on, or changed; with the reason."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: object,
        code: int,
        msg: str,
        headers: object,
        newurl: str,
    ) -> None:
        return None  # not followed: urllib raises the 3xx as an HTTPError, which `open_url` refuses


_OPENER = urllib.request.build_opener(_NoRedirect)


def printable(text: str) -> str:
    """Text a server sent, as it may reach a terminal: every character that is not printable (a
    control, an escape sequence's ESC, a carriage return, a bidirectional override) written as
    its escape, as `repr` does, so that it cannot set the title, erase or hide a line; capped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:SHOWN_CHARS])


def is_loopback(host: str) -> bool:
    """Named, not resolved: no lookup is made, and a name that only resolves to this machine is not taken for it."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def checked_base_url(url: str, insecure_http: bool = False) -> str:
    """The base URL of an Open WebUI, once it is one the token may be sent to; refused otherwise
    (before any connection)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(f"{printable(url)} is not an http:// or https:// address of an Open WebUI.")
    if parts.scheme == "http" and not is_loopback(parts.hostname) and not insecure_http:
        raise Refused(
            f"{printable(url)}: plain http to another machine would send the admin's token readable to anyone "
            f"on the way. Give its https:// address, or add {INSECURE_HTTP_OPTION} if the network is trusted."
        )
    return url.rstrip("/")


def open_url(request: urllib.request.Request | str, timeout_s: float) -> HTTPResponse:
    """The answer of the one server the request names. A redirect is refused (Refused), other HTTP
    errors raised as urllib does (urllib.error.HTTPError, URLError, OSError)."""
    url = request.full_url if isinstance(request, urllib.request.Request) else request
    try:
        return _OPENER.open(request, timeout=timeout_s)
    except urllib.error.HTTPError as error:
        if 300 <= error.code < 400:
            error.close()
            target = urllib.parse.urljoin(url, error.headers.get("Location") or "")
            raise Refused(
                f"{printable(url)} answered with a redirect ({error.code}) to "
                f"{printable(urllib.parse.urlsplit(target).netloc)}: not followed, the admin's token goes to the "
                "address given only. Give Open WebUI's final URL (one that an SSO proxy does not redirect)."
            ) from error
        raise
