"""The packages as their users meet them: the installer from the wheel in Open WebUI's environment
tells whether the running Open WebUI serves the extension; the browser extension and a loader the
server installed too do not show anything twice."""

import subprocess

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.delivery import DELIVERY
from devstack.delivery import console_script
from devstack.owui import Console
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import wait_until
from devstack.processes import ROOT
from devstack.stack import Stack
from tests.e2e.checks import EXPECTED
from tests.e2e.checks import check_answer

pytestmark = [pytest.mark.e2e, pytest.mark.per_route]
VERSION = (ROOT / "VERSION").read_text().strip()
# Counts the copies of the extension that start in the page: each sets window.owuiCitations.
# (Whichever runs first, this or the browser extension's content script, every start is counted.)
COUNT_STARTS = """(() => {
    let started = window.owuiCitations;
    window.owcStarts = started ? 1 : 0;
    Object.defineProperty(window, 'owuiCitations', {configurable: true, get: () => started,
                                                   set: (value) => { window.owcStarts++; started = value; }});
})();"""
# Each file a link downloads, by its name, as the link is clicked.
RECORD_DOWNLOADS = """() => {
    window.owcDownloads = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
        if (this.download) window.owcDownloads.push(this.download);
        return click.call(this);
    };
}"""


def test_status_tells_whether_the_running_open_webui_serves_the_extension(stack: Stack) -> None:
    result = subprocess.run(
        [console_script(), "status", "--url", stack.webui_url], cwd="/", capture_output=True, text=True, timeout=60
    )
    assert f"Extension: installed, version {VERSION}" in result.stdout, result.stdout + result.stderr
    if DELIVERY == "loader":
        assert result.returncode == 0 and f"Served by {stack.webui_url}: yes, version {VERSION}" in result.stdout
    else:  # this Open WebUI serves its own loader.js from a copy of its frontend
        assert result.returncode == 1 and f"Served by {stack.webui_url}: no" in result.stdout


@pytest.mark.skipif(DELIVERY != "webext", reason="the browser extension and the server's loader together")
def test_the_browser_extension_and_the_servers_loader_show_each_citation_once(page: Page, stack: Stack) -> None:
    bundle = (ROOT / "extension" / "dist" / "owui-citations.js").read_text()
    served: list[str] = []

    def serve_installed_loader(route: Route) -> None:  # what an Open WebUI with the extension installed sends
        served.append(route.request.url)
        route.fulfill(body=bundle, content_type="application/javascript")

    page.route("**/static/loader.js", serve_installed_loader)
    page.add_init_script(COUNT_STARTS)
    console = Console().watch(page)
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, "perplexity")
    assert served and page.evaluate("window.owuiCitations.version") == VERSION
    assert page.evaluate("window.owcStarts") == 1  # the server's copy stood down
    send(page)
    check_answer(page, last_answer_id(page), EXPECTED["perplexity"])  # counts exactly: nothing twice
    assert console.problems == []


@pytest.mark.skipif(DELIVERY != "webext", reason="the browser extension's options page")
@pytest.mark.skip_browser("firefox")  # its remote protocol never reports a moz-extension: page loaded
def test_the_options_page_adds_an_open_webui_address(page: Page, context: BrowserContext, stack: Stack) -> None:
    extension_id = context.service_workers[0].url.split("/")[2]
    page.goto(f"chrome-extension://{extension_id}/options.html")
    address, status = page.get_by_label("Open WebUI address"), page.get_by_role("status")
    address.fill("localhost:3000")  # no scheme: not an address the browser can match
    page.get_by_role("button", name="Add").click()
    expect(status).to_contain_text("starts with http:// or https://")
    address.fill(f"{stack.webui_url}/c/a-chat")  # the test build holds http://127.0.0.1 already: no prompt
    page.get_by_role("button", name="Add").click()
    expect(status).to_contain_text(f"Added {stack.webui_url}. Reload its Open WebUI tab.")
    expect(page.get_by_role("listitem")).to_contain_text(["http://127.0.0.1"])


def test_a_click_that_needs_the_second_part_acts_on_a_fresh_page(page: Page, stack: Stack) -> None:
    """The source window and export are a part of the bundle loaded on first use (in the userscript,
    in the one file): a fresh page loads it only once an answer has sources, and a click on a
    citation and on an export format act then."""
    parts: list[str] = []
    page.on("request", lambda request: parts.append(request.url) if "/owui-citations-parts/" in request.url else None)
    console = Console().watch(page)
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, "perplexity")
    assert parts == []  # nothing but the first part before an answer with sources
    send(page)
    answer = Answer(page, last_answer_id(page))
    answer.buttons.first.click()
    expect(answer.modal).to_be_visible()
    page.keyboard.press("Escape")
    # The file's link, as it is clicked (Firefox, with an extension loaded, reports no download to Playwright).
    page.evaluate(RECORD_DOWNLOADS)
    answer.export.locator("summary").click()
    answer.export.get_by_role("group", name="This answer").get_by_role("button", name="Markdown").click()
    page.wait_for_function("() => window.owcDownloads.length > 0")
    assert page.evaluate("window.owcDownloads").pop().endswith("-sources.md")
    # Beside loader.js; the browser extension's background runs it without a request; the userscript has it in.
    assert parts == ([f"{stack.webui_url}/static/owui-citations-parts/features.js"] if DELIVERY == "loader" else [])
    assert console.problems == []


@pytest.mark.skipif(DELIVERY != "loader", reason="loader.js's parts, fetched beside it")
def test_a_part_that_failed_to_load_warns_once_and_the_next_click_loads_it(page: Page, stack: Stack) -> None:
    """The part beside loader.js answers 404 once (a deployment mid-upgrade, a proxy's hiccup):
    one warning, Open WebUI goes on, and the next click that needs the part loads it and acts."""
    failed: list[str] = []

    def fail_once(route: Route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.fulfill(status=404, body="")

    page.route("**/owui-citations-parts/**", fail_once)
    console = Console().watch(page)
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, "perplexity")
    send(page)
    answer = Answer(page, last_answer_id(page))
    answer.source_list.hover()  # the pointer on our list: the part is fetched ahead of a click
    assert wait_until(page, lambda: any("could not be loaded" in problem for problem in console.problems), every_ms=50)
    answer.buttons.first.click()
    expect(answer.modal).to_be_visible()
    assert len(failed) == 1
    assert len(console.problems) == 1 and "features.js could not be loaded; tried again" in console.problems[0]
