"""What several end-to-end modules check or ask alike: what a user sees of each scenario's answer, the
checks of it, the extension's requests that store sources, and an answer a gap keeps the sources
from. Here, not in one test module the others import: a test module imports none."""

from dataclasses import dataclass

from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.limits import Gap
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import native_source_strip
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack
from mock_server.registry import producer_entries


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
# scenarios (`every_format`) are seen on Open WebUI's recorded markup in make test (test_citations.py's
# RECORDED), and end to end on every line in `make test-matrix`.
ONE_PER_ROUTE = {
    "perplexity",
    "azure-on-your-data",
    "openai-url-citation",
    "open-webui-upstream",
    "openai-responses",
    "claude-citations",
    "lightrag",
}


def check_answer(page: Page, message_id: str, seen: Seen, reloaded: bool = False) -> None:
    answer = Answer(page, message_id)
    sources = answer.own_sources
    expect(sources).to_have_count(seen.sources, timeout=15_000)
    assert wait_for_citation_numbers(page, message_id, seen.buttons) == seen.buttons
    # The sources the text does not cite follow, collapsed.
    retrieved = answer.own_retrieved
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


def expect_gap_shown(page: Page, answer: str, gap: Gap) -> None:
    """An answer a gap keeps the sources from, shown as Open WebUI shows it: its error if it shows one,
    and no button of ours; only Open WebUI's own sources listed, if it makes any (after a moment,
    for what would come late)."""
    shown = Answer(page, answer)
    expect(shown.content).not_to_be_empty()
    if gap.shows:
        expect(shown.element).to_contain_text(gap.shows)
    page.wait_for_timeout(2_000)
    expect(shown.sources).to_have_count(gap.sources)
    expect(shown.buttons).to_have_count(0)


def from_open_webui(route: Route) -> bool:
    """Open WebUI's own requests ask for JSON (`Accept`); the extension's take the browser's default."""
    return route.request.headers.get("accept") == "application/json"


ASKED_MODEL = "perplexity"  # Open WebUI does not store these sources itself: only the extension does
ASKED_BUTTONS = [1, 2, 3, 2]


def answered_by(page: Page, stack: Stack) -> tuple[str, str]:
    """The signed-in page asks in a new chat: the chat's id and the answer's, once its buttons are shown."""
    open_new_chat(page, stack, ASKED_MODEL)
    send(page, "How many stars are in the Milky Way?")
    answer = last_answer_id(page)
    assert wait_for_citation_numbers(page, answer, ASKED_BUTTONS) == ASKED_BUTTONS
    return chat_id(page), answer
