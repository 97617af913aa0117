"""Every scenario through a real Open WebUI and Chromium, as a user sees it: numbered buttons,
preview, list and modal, streaming and not, and again after a reload from stored data."""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import native_source_strip
from devstack.owui import open_new_chat
from devstack.owui import open_webui_version
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import wait_for_citation_numbers
from devstack.owui import wait_until_stored
from devstack.processes import ROOT
from devstack.stack import Stack
from devstack.stack import pinned_open_webui
from mock_server.registry import producer_entries
from tests.e2e.limits import expect_gap_shown
from tests.e2e.limits import gap_for

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Seen:
    """What a user sees of a scenario's answer (its producer's seen.json says each field)."""

    buttons: list[int]
    sources: int
    title: str
    link: bool = True
    page: str | None = None
    score: str | None = None
    quote: str | None = None
    notVerbatim: int | None = None  # noqa: N815  (the JSON's name, shared with the TS tests)
    retrieved: int = 0
    hidden: str | None = None
    why: str = ""


EXPECTED = {model: Seen(**seen) for model, seen in producer_entries("seen.json").items()}


# One scenario per way its sources reach the page — a chunk's or body's fields, a message's field,
# annotations, Open WebUI's own source events, the Responses API, the LiteLLM proxy, the Ollama
# connection's text: where the delivery, the browser or the Open WebUI line, not the format, is under
# test (`-m per_route`: the browser extension, Firefox, the userscript, the oldest line). The other
# scenarios (`every_format`) are seen on Open WebUI's recorded markup in make test (RECORDED below),
# and end to end on every line in `make test-matrix`.
ONE_PER_ROUTE = {
    "perplexity",
    "azure-on-your-data",
    "openai-url-citation",
    "open-webui-upstream",
    "openai-responses",
    "claude-citations",
    "lightrag",
}


# Where the browser, not the mode, is under test (Firefox), each route is taken in one mode: this
# one. They alternate, so that each mode is seen there on several routes.
BROWSER_MODE = {
    "azure-on-your-data": True,
    "claude-citations": False,
    "lightrag": False,
    "open-webui-upstream": False,
    "openai-responses": True,
    "openai-url-citation": True,
    "perplexity": False,
}


def marks(model: str, stream: bool) -> list[pytest.MarkDecorator]:
    if model not in ONE_PER_ROUTE:
        return [pytest.mark.every_format]
    return [pytest.mark.per_route] + ([pytest.mark.other_mode] if BROWSER_MODE[model] != stream else [])


MODES = [
    pytest.param(m, s, marks=marks(m, s), id=f"{m}-{'streaming' if s else 'non-streaming'}")
    for m in sorted(EXPECTED)
    for s in (True, False)
]


def test_each_route_is_a_scenario_with_expectations() -> None:
    assert ONE_PER_ROUTE <= set(EXPECTED)
    assert set(BROWSER_MODE) == ONE_PER_ROUTE


RECORDED = ROOT / "extension" / "test-support" / "markup"


def test_the_pinned_line_is_recorded() -> None:
    assert (RECORDED / f"open-webui-{pinned_open_webui()}.json").exists()


@pytest.fixture
def page(module_context: BrowserContext) -> Iterator[Page]:
    """Each scenario in a page of its own, in the module's browser context (conftest.py)."""
    own = module_context.new_page()
    yield own
    own.close()


def check_answer(page: Page, message_id: str, seen: Seen, reloaded: bool = False) -> None:
    sources = page.locator(f'#message-{message_id} .owc-sources[data-owc-message-id="{message_id}"] button.owc-source')
    expect(sources).to_have_count(seen.sources, timeout=15_000)
    assert wait_for_citation_numbers(page, message_id, seen.buttons) == seen.buttons
    # The sources the text does not cite follow, collapsed.
    retrieved = page.locator(f'#message-{message_id} .owc-sources + .owc-retrieved[data-owc-message-id="{message_id}"]')
    expect(retrieved).to_have_count(1 if seen.retrieved else 0)
    if seen.retrieved:
        expect(retrieved).not_to_have_attribute("open", "")
        expect(retrieved.locator("summary")).to_have_text(f"{seen.retrieved} more retrieved, not cited")
    # Open WebUI's own source strip is not shown next to ours. Only after a reload is it sure to
    # have drawn one by then (live, not before our sources are stored).
    if reloaded:
        expect(native_source_strip(page, message_id)).to_have_count(0)


def check_asked_live_and_after_reload(page: Page, stack: Stack, model: str, stream: bool) -> None:
    """A question to ``model`` in a new chat: its answer's sources shown as it finishes, and after a reload."""
    set_user_settings(stack, stream=stream)
    open_new_chat(page, stack, model)
    send(page)
    message_id = last_answer_id(page)
    check_answer(page, message_id, EXPECTED[model])
    page.reload()
    check_answer(page, message_id, EXPECTED[model], reloaded=True)


def check_preview_and_modal(page: Page, message_id: str, seen: Seen) -> None:
    if seen.buttons:
        button = page.locator(f"#message-{message_id} .owc-cite:visible").first
        expect(button).to_have_attribute("aria-label", re.compile(re.escape(seen.title)))
        button.hover()
        expect(page.locator('[role="tooltip"].owc-preview')).to_contain_text(seen.title)
    opener = page.locator(f'#message-{message_id} button.owc-source[data-owc-index="1"]')
    opener.click()
    modal = page.locator('[role="dialog"][aria-modal="true"].owc-modal')
    expect(modal.locator(".owc-title")).to_contain_text(seen.title)
    link = modal.locator("a.owc-link")
    if seen.link:
        expect(link).to_have_attribute("href", re.compile(r"^http://127\.0\.0\.1:\d+/"))
        if seen.quote:  # the page opens at the quote: a text fragment
            expect(link).to_have_attribute("href", re.compile(re.escape("#:~:text=" + quote(seen.quote))))
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", "noopener noreferrer")
    else:
        expect(link).to_have_count(0)
    for selector, text in [(".owc-page", seen.page), (".owc-score", seen.score), ("mark.owc-quote", seen.quote)]:
        if text:
            expect(modal.locator(selector)).to_contain_text(text)
    page.keyboard.press("Escape")
    expect(modal).to_have_count(0)
    expect(opener).to_be_focused()
    if seen.retrieved:  # opened: the sources retrieved, not cited, numbered as returned, open the same modal
        retrieved = page.locator(f"#message-{message_id} .owc-retrieved")
        retrieved.locator("summary").click()
        expect(retrieved.locator("button.owc-source")).to_have_count(seen.retrieved)
        numbers = "buttons => buttons.map(b => Number(b.dataset.owcIndex))"
        cited = page.locator(f"#message-{message_id} .owc-sources button.owc-source").evaluate_all(numbers)
        assert set(cited).isdisjoint(retrieved.locator("button.owc-source").evaluate_all(numbers))
        first = retrieved.locator("button.owc-source").first
        first.click()
        expect(modal).to_have_attribute("data-owc-index", first.get_attribute("data-owc-index") or "")
        page.keyboard.press("Escape")
        expect(first).to_be_focused()
        retrieved.locator("summary").click()  # collapsed again, as after a reload
    if seen.notVerbatim:
        page.locator(f'#message-{message_id} button.owc-source[data-owc-index="{seen.notVerbatim}"]').click()
        expect(modal.locator(".owc-not-verbatim")).to_be_visible()
        page.keyboard.press("Escape")


@pytest.mark.parametrize(("model", "stream"), MODES)
def test_scenario_shows_its_sources_and_keeps_them_after_reload(
    page: Page, stack: Stack, screenshots: Path, record_property, model: str, stream: bool
) -> None:
    console = Console().watch(page)
    set_user_settings(stack, stream=stream)
    seen = EXPECTED[model]
    open_new_chat(page, stack, model)
    send(page)
    gap = gap_for(model, stream, open_webui_version(stack))
    message_id = last_answer_id(page, finished=gap is None or gap.finishes)
    if gap:  # shown as Open WebUI shows it, without sources
        record_property("gap", gap.reason)
        expect_gap_shown(page, message_id, gap)
        return
    check_answer(page, message_id, seen)
    # Storing the sources makes Open WebUI redraw the answer, which can swallow a click made
    # meanwhile (a busy machine once lost the one below): the modal is tried once they are stored.
    wait_until_stored(page, stack, chat_id(page), [message_id])
    check_preview_and_modal(page, message_id, seen)
    if seen.hidden:  # the producer's own source list gives way to ours
        own = page.locator(f"#message-{message_id} :is(h1, h2, h3, h4, li):not(.owc-sources *, .owc-retrieved *)")
        lines = own.filter(has_text=seen.hidden)
        expect(lines.first).to_be_attached()
        for line in lines.all():
            expect(line).to_be_hidden()
    page.screenshot(path=screenshots / f"{model}-{'streaming' if stream else 'non-streaming'}.png")

    record_property("phase", "reload")
    page.reload()
    check_answer(page, message_id, seen, reloaded=True)
    check_preview_and_modal(page, message_id, seen)
    assert console.problems == []
