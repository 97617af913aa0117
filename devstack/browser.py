"""Chromium for the end-to-end tests and the benchmark: Debian's, kept from calling home."""

import subprocess

from .stack import ROOT

# Without the background-networking flags Chromium tries Google's hosts at every start.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_launch_args() -> dict:
    """Playwright's launch options: the path that scripts/ensure-browser.sh finds (or installs)."""
    path = subprocess.run(
        [str(ROOT / "scripts" / "ensure-browser.sh")], capture_output=True, text=True, check=True
    ).stdout.strip()
    return {"executable_path": path, "args": CHROMIUM_ARGS}
