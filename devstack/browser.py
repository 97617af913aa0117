"""The browsers of the end-to-end tests and the benchmark: Debian's Chromium, kept from calling
home, and Debian's Firefox ESR, driven over WebDriver BiDi."""

from .processes import debian_program

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
    """Playwright's launch options for Chromium."""
    return {"executable_path": debian_program("chromium"), "args": CHROMIUM_ARGS}


def firefox_launch_args() -> dict:
    """Playwright's launch options for Firefox ESR: its own channel over WebDriver BiDi (Playwright's
    patched Firefox is not needed), unsigned add-ons allowed (the test build is not signed)."""
    prefs = {"xpinstall.signatures.required": False}
    return {"channel": "moz-firefox", "executable_path": debian_program("firefox-esr"), "firefox_user_prefs": prefs}
