"""The releases this project is pinned to (versions.env, the one place for each), and the cache the
Makefile installs them into (its OWUI_CACHE)."""

import os
from pathlib import Path

from .processes import ROOT

OWUI_CACHE = Path(os.environ.get("OWUI_CACHE", Path.home() / ".cache" / "owui-citations"))


def pinned(name: str) -> str:
    lines = (ROOT / "versions.env").read_text().splitlines()
    pins = dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    return pins[name].strip()
