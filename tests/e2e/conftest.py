from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import BrowserType

from devstack.browser import chromium_launch_args
from devstack.browser import firefox_launch_args
from devstack.delivery import DELIVERY
from devstack.delivery import USERSCRIPT
from devstack.delivery import extension_context
from devstack.processes import ROOT
from devstack.stack import Stack
from mock_server.registry import DECLARED
from mock_server.registry import HOSTILE
from mock_server.registry import MALFORMED
from tests.e2e.egress import EGRESS
from tests.e2e.egress import Egress
from tests.e2e.results import pytest_runtest_makereport  # noqa: F401  (hooks: the results file)
from tests.e2e.results import pytest_sessionfinish  # noqa: F401  (hooks: the results file)
from tests.e2e.stacks import running_stack

# Script-injection and malformed sources, for the hardening tests (test_hostile, test_malformed).
HARDENING_SCENARIOS = [HOSTILE, MALFORMED]
# Scenarios only tests ask for (an answer that differs on each attempt: test_export).
TEST_SCENARIOS = Path(__file__).parent / "scenarios"
# The admin's declarations file of the shared stack: a backend no reader of the core reads.
DECLARED_BACKENDS = Path(__file__).parent / "declared-backends.json"


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The one most tests share; the admin's declared backend installed too (test_declared.py)."""
    scenarios = [*HARDENING_SCENARIOS, TEST_SCENARIOS, DECLARED]
    with running_stack(tmp_path_factory, scenario_dirs=scenarios, backends=DECLARED_BACKENDS) as running:
        yield running


@pytest.fixture(scope="session", autouse=True)
def egress(browser: Browser) -> Iterator[Egress]:
    """Every request the browser makes in the session (egress.py): none may leave unexpectedly."""
    EGRESS.watch(browser)
    yield EGRESS
    assert EGRESS.unexpected == [], f"requests to hosts other than Open WebUI and the mock server: {EGRESS.unexpected}"


@pytest.fixture(autouse=True)
def _name_the_test_in_egress(request: pytest.FixtureRequest) -> None:
    EGRESS.current_test = request.node.nodeid


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_name: str) -> dict:
    return firefox_launch_args() if browser_name == "firefox" else chromium_launch_args()


@contextmanager
def delivered_context(
    browser: Browser,
    browser_type: BrowserType,
    launch_args: dict,
    context_args: dict,
    profile: Path,
    stack: Stack,
) -> Iterator[BrowserContext]:
    """A browser context the extension reaches the page in, as E2E_DELIVERY says (devstack/delivery.py)."""
    if DELIVERY == "webext":
        with extension_context(browser_type, profile, launch_args, context_args, stack.webui_url) as extended:
            EGRESS.watch_context(extended)
            yield extended
        return
    context = browser.new_context(**context_args)
    if DELIVERY == "userscript":
        context.add_init_script(path=USERSCRIPT)
    try:
        yield context
    finally:
        context.close()


if DELIVERY != "loader":  # the loader's is pytest-playwright's own, which keeps a failed test's screenshot

    @pytest.fixture
    def context(
        browser: Browser,
        browser_type: BrowserType,
        browser_type_launch_args: dict,
        browser_context_args: dict,
        tmp_path: Path,
        stack: Stack,
    ) -> Iterator[BrowserContext]:
        with delivered_context(
            browser, browser_type, browser_type_launch_args, browser_context_args, tmp_path / "profile", stack
        ) as delivered:
            yield delivered


@pytest.fixture(scope="module")
def module_context(
    browser: Browser,
    browser_type: BrowserType,
    browser_type_launch_args: dict,
    browser_context_args: dict,
    tmp_path_factory: pytest.TempPathFactory,
    stack: Stack,
) -> Iterator[BrowserContext]:
    """One context for a module's tests, each in a page of its own: Open WebUI's scripts come from
    its cache after the first page (a page load 1.5 s sooner), and the browser extension's browser
    starts once, not for every test."""
    with delivered_context(
        browser, browser_type, browser_type_launch_args, browser_context_args, tmp_path_factory.mktemp("profile"), stack
    ) as delivered:
        yield delivered


@pytest.fixture(scope="session")
def screenshots() -> Path:
    path = ROOT / "test-results" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
