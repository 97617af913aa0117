"""Every scenario through a real Open WebUI and Chromium, as a user sees it: numbered buttons,
preview, list and modal, streaming and not, and again after a reload from stored data."""

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import CITE
from devstack.answer import MODAL
from devstack.answer import PREVIEW
from devstack.answer import RETRIEVED
from devstack.answer import SOURCE
from devstack.answer import SOURCE_LIST
from devstack.answer import Answer
from devstack.limits import gap_for
from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import open_webui_version
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import wait_until_stored
from devstack.processes import ROOT
from devstack.stack import Stack
from devstack.stack import pinned_open_webui
from tests.e2e.checks import EXPECTED
from tests.e2e.checks import ONE_PER_ROUTE
from tests.e2e.checks import Seen
from tests.e2e.checks import check_answer
from tests.e2e.checks import expect_gap_shown

pytestmark = pytest.mark.e2e


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


def check_preview_and_modal(page: Page, message_id: str, seen: Seen) -> None:
    answer = Answer(page, message_id)
    if seen.buttons:
        button = page.locator(answer.selector(f"{CITE}:visible")).first
        expect(button).to_have_attribute("aria-label", re.compile(re.escape(seen.title)))
        button.hover()
        expect(page.locator(f'[role="tooltip"]{PREVIEW}')).to_contain_text(seen.title)
    opener = answer.source(1)
    opener.click()
    modal = page.locator(f'[role="dialog"][aria-modal="true"]{MODAL}')
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
        retrieved = answer.retrieved
        retrieved.locator("summary").click()
        expect(retrieved.locator(SOURCE)).to_have_count(seen.retrieved)
        numbers = "buttons => buttons.map(b => Number(b.dataset.owcIndex))"
        cited = answer.sources.evaluate_all(numbers)
        assert set(cited).isdisjoint(retrieved.locator(SOURCE).evaluate_all(numbers))
        first = retrieved.locator(SOURCE).first
        first.click()
        expect(modal).to_have_attribute("data-owc-index", first.get_attribute("data-owc-index") or "")
        page.keyboard.press("Escape")
        expect(first).to_be_focused()
        retrieved.locator("summary").click()  # collapsed again, as after a reload
    if seen.notVerbatim:
        answer.source(seen.notVerbatim).click()
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
        own = page.locator(
            Answer(page, message_id).selector(f":is(h1, h2, h3, h4, li):not({SOURCE_LIST} *, {RETRIEVED} *)")
        )
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
