"""How the extension reaches the page in an end-to-end run, chosen by E2E_DELIVERY:

- ``loader`` (the default): installed into the pinned Open WebUI by its installer, as an admin does;
- ``webext``: the browser extension (its test build, which is granted http://127.0.0.1 at install,
  since a permission prompt cannot be clicked), against an Open WebUI serving its own loader.js;
  in Chromium, or in Firefox ESR with ``--browser firefox``;
- ``userscript``: the userscript, run as a userscript manager runs it (at document start, in the
  page's world), against the same stock Open WebUI."""

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import BrowserContext
from playwright.sync_api import BrowserType

from devstack.processes import ROOT
from devstack.processes import exclusive
from devstack.stack import OWUI_VENV
from devstack.stack import Stack

DELIVERY = os.environ.get("E2E_DELIVERY", "loader")
WEBEXT_TEST_BUILDS = {
    "chromium": ROOT / "extension" / "dist" / "webext-test",
    "firefox": ROOT / "extension" / "dist" / "webext-firefox-test",
}
USERSCRIPT = ROOT / "extension" / "dist" / "owui-citations.user.js"
REGISTERED_TIMEOUT_MS = 15_000
FIREFOX_EXTENSION_ID = "owui-citations@open-webui-citations"  # the gecko id of extension/build-webext.mjs


def console_script() -> str:
    """The installer as the wheel installed it into Open WebUI's environment (make install-extension)."""
    return str(OWUI_VENV / "bin" / "owui-citations")


def installer(stack: Stack, *args: str) -> str:
    """The installer's command `args` run against the stack's Open WebUI as its admin; what it printed."""
    env = {**os.environ, "OWUI_CITATIONS_TOKEN": stack.token}
    result = subprocess.run([console_script(), *args], cwd="/", env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def shared_frontend() -> AbstractContextManager[None]:
    """Open WebUI's own frontend held by one process at a time: the end-to-end tests' workers (pytest -n) each
    install into it and copy it, and a copy taken while the installer writes would meet its temporary files."""
    return exclusive(OWUI_VENV / ".owui-citations-frontend.lock")


def install_extension() -> None:
    """The installer, as an admin runs it: the console script of the wheel in Open WebUI's environment."""
    with shared_frontend():
        result = subprocess.run([console_script(), "install"], cwd="/", capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _frontend_copy(directory: Path, *installer_args: str) -> subprocess.CompletedProcess[str]:
    """A copy of the pinned Open WebUI's frontend (hard links: no space, and the shared one is not changed),
    then the installer run on it with ``installer_args``."""
    source = next(OWUI_VENV.glob("lib/python*/site-packages/open_webui/frontend"))
    with shared_frontend():
        shutil.copytree(source, directory, copy_function=os.link)
    result = subprocess.run(
        [console_script(), *installer_args, "--frontend-dir", str(directory)], cwd="/", capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result


def stock_frontend(directory: Path) -> Path:
    """The frontend with Open WebUI's own loader.js back in it, put back by the uninstaller: served through
    FRONTEND_BUILD_DIR."""
    _frontend_copy(directory, "uninstall")
    return directory


def declared_frontend(directory: Path, backends: Path) -> Path:
    """The frontend into which the admin installed the extension with a declarations file
    (`owui-citations install --backends`)."""
    installed = _frontend_copy(directory, "install", "--backends", str(backends))
    assert "Declared backends:" in installed.stdout, installed.stdout
    return directory


@contextmanager
def extension_context(
    browser_type: BrowserType, profile: Path, launch_args: dict, context_args: dict, origin: str
) -> Iterator[BrowserContext]:
    """The browser with the test build of the browser extension loaded, once its background has
    registered the content script for the granted origin (``origin``'s host)."""
    if browser_type.name == "firefox":
        # A "proxy file" named after the add-on's id: Firefox loads the folder it names at start.
        (profile / "extensions").mkdir(parents=True)
        (profile / "extensions" / FIREFOX_EXTENSION_ID).write_text(str(WEBEXT_TEST_BUILDS["firefox"]))
        context = browser_type.launch_persistent_context(profile, **launch_args, **context_args)
    else:
        build = WEBEXT_TEST_BUILDS["chromium"]
        args = [*launch_args.get("args", []), f"--disable-extensions-except={build}", f"--load-extension={build}"]
        context = browser_type.launch_persistent_context(
            profile, **{**launch_args, "args": args}, **context_args, ignore_default_args=["--disable-extensions"]
        )
    try:
        if browser_type.name == "firefox":
            wait_for_content_script(context, origin)
        else:
            wait_for_registration(context)
        yield context
    finally:
        context.close()


def wait_for_registration(context: BrowserContext) -> None:
    """Asks Chromium's background (a service worker Playwright reaches) for its registered scripts."""
    worker = context.service_workers[0] if context.service_workers else context.wait_for_event("serviceworker")
    worker.evaluate(
        """async (timeout) => {
        for (const end = Date.now() + timeout; Date.now() < end; await new Promise(r => setTimeout(r, 100)))
            if ((await chrome.scripting.getRegisteredContentScripts()).length) return;
        throw new Error('the extension registered no content script');
    }""",
        REGISTERED_TIMEOUT_MS,
    )


def wait_for_content_script(context: BrowserContext, origin: str) -> None:
    """Firefox's background is a page out of Playwright's reach: a blank page of ``origin`` is loaded
    until the bundle starts in it."""
    page, blank = context.new_page(), f"{origin}/owc-test-blank"
    page.route(blank, lambda route: route.fulfill(body="", content_type="text/html"))
    deadline = time.monotonic() + REGISTERED_TIMEOUT_MS / 1000
    while True:
        page.goto(blank)
        if page.evaluate("() => 'owuiCitations' in window"):
            break
        if time.monotonic() > deadline:
            raise AssertionError("the extension registered no content script")
        page.wait_for_timeout(200)
    page.close()
