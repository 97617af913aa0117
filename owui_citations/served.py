"""What a running Open WebUI serves: its version and its /static/loader.js (standard library only)."""

import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from .installer import bundle_version

TIMEOUT_S = 10


class Unreachable(Exception):
    """The address did not answer like an Open WebUI."""


@dataclass(frozen=True)
class Served:
    open_webui: str  # the version it reports
    extension: str | None  # the version of the extension its loader.js holds, None if not ours


def _get(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
            return response.read(4096)
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise Unreachable(f"{url}: {getattr(error, 'reason', error)}") from error


def served(base_url: str) -> Served:
    base = base_url.rstrip("/")
    try:
        version = json.loads(_get(f"{base}/api/version"))["version"]
    except (ValueError, KeyError, TypeError) as error:
        raise Unreachable(f"{base}/api/version does not answer like an Open WebUI") from error
    return Served(str(version), bundle_version(_get(f"{base}/static/loader.js")))
