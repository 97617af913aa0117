"""What a running Open WebUI serves: its version, its /static/loader.js and the parts beside it
(standard library only)."""

import json
import urllib.error
from dataclasses import dataclass

from .open_webui_api import open_url
from .open_webui_api import printable

TIMEOUT_S = 10
VERSION_BYTES = 4096


class Unreachable(Exception):
    """The address did not answer like an Open WebUI."""


@dataclass(frozen=True)
class Served:
    open_webui: str  # the version it reports, printable
    loader: bytes  # the start of its loader.js, as many bytes as asked for


def _get(url: str, limit: int) -> bytes:
    try:
        with open_url(url, TIMEOUT_S) as response:
            parts, remaining = [], limit
            while remaining > 0 and (part := response.read(remaining)):  # a read may return less
                parts.append(part)
                remaining -= len(part)
            return b"".join(parts)
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise Unreachable(f"{url}: {printable(str(getattr(error, 'reason', error)))}") from error


def served_part(base_url: str, path: str, part_bytes: int) -> bytes | None:
    """The start of a file beside loader.js (``path`` under /static/), None if it is not served."""
    try:
        return _get(f"{base_url.rstrip('/')}/static/{path}", part_bytes)
    except Unreachable:
        return None


def served(base_url: str, loader_bytes: int) -> Served:
    """``loader_bytes``: as much of loader.js as it takes to tell whether it is the installed one
    (one byte more than that file: code appended to it is then seen)."""
    base = base_url.rstrip("/")
    try:
        version = json.loads(_get(f"{base}/api/version", VERSION_BYTES))["version"]
    except (ValueError, KeyError, TypeError) as error:
        raise Unreachable(f"{base}/api/version does not answer like an Open WebUI") from error
    return Served(printable(str(version)), _get(f"{base}/static/loader.js", loader_bytes))
