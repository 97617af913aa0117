"""Fault isolation: `localStorage['owc:fault'] = '<module>'` makes that module of the extension
throw (guard.ts). Under each fault Open WebUI still sends, streams, shows the answer and shows
it again after a reload, as it does without the extension, and the extension logs exactly one
console warning per page load. A module that fails mid-session gives Open WebUI its own view back."""

import pytest
from playwright.sync_api import Page
from playwright.sync_api import WebSocket
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.owui import CONFIG
from devstack.owui import PROSE
from devstack.owui import Console
from devstack.owui import last_answer_id
from devstack.owui import native_source_strip
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_citation_events
from devstack.owui import wait_for_chat_input
from devstack.owui import wait_until
from devstack.stack import Stack

pytestmark = pytest.mark.e2e

FAULTS = ["boot", "capture", "persist", "ui"]
MODEL = "perplexity"  # Open WebUI shows its sources only once the extension has stored them
ANSWER_START = "La Voie lactée"


def count_answer_events(page: Page, events: list[str]) -> None:
    """Collects the socket frames that carry a piece of an answer, to see that it streamed."""

    def watch(socket: WebSocket) -> None:
        socket.on(
            "framereceived",
            lambda frame: events.append("x") if isinstance(frame, str) and "completion" in frame else None,
        )

    page.on("websocket", watch)


def test_each_faulty_module_leaves_open_webui_working(page: Page, stack: Stack, record_property) -> None:
    set_user_settings(stack, stream=True)
    console = Console().watch(page)
    events: list[str] = []
    count_answer_events(page, events)
    open_new_chat(page, stack, MODEL)
    answers: dict[str, str] = {}
    for fault in FAULTS:
        page.evaluate("fault => localStorage.setItem('owc:fault', fault)", fault)
        warned = len(console.problems)
        page.reload()
        wait_for_chat_input(page)
        for earlier in answers.values():  # the reload shows every answer so far, as Open WebUI does
            expect(Answer(page, earlier).prose).to_contain_text(ANSWER_START)
        streamed = len(events)
        send(page, f"Under a {fault} fault: how many stars?")
        answer = last_answer_id(page, count=len(answers) + 1)
        answers[fault] = answer
        expect(Answer(page, answer).prose).to_contain_text(ANSWER_START)
        assert len(events) - streamed >= 5, "the answer did not stream"

        def its_warning(before: int = warned) -> bool:
            return len(console.problems) > before

        wait_until(page, its_warning, timeout_s=15)
        assert len(console.problems) - warned == 1 and f"{fault} disabled" in console.problems[-1], console.problems[
            warned:
        ]
        has_extension = page.evaluate("() => 'owuiCitations' in window")
        shows_sources = Answer(page, answer).source_list.count() == 1
        assert (has_extension, shows_sources) == {
            "boot": (False, False),
            "capture": (True, False),
            "persist": (True, True),
            "ui": (True, False),
        }[fault]
        if fault in ("boot", "ui"):
            assert page.locator("[class*='owc-']").count() == 0

    # What the working modules did: under the ui fault capture and persist stored the sources,
    # and Open WebUI shows them itself; under the others, nothing was stored.
    page.wait_for_timeout(3_000)  # the stores the working modules make, and none the others would
    chat = page.url.rstrip("/").split("/c/")[-1]
    stored = stored_citation_events(stack, chat)
    assert {fault: stored.get(answer, 0) for fault, answer in answers.items()} == {
        "boot": 0,
        "capture": 0,
        "persist": 0,
        "ui": 1,
    }
    expect(native_source_strip(page, answers["ui"])).to_have_count(1)

    # A module failing mid-session: the UI, working after a reload, throws at the next hover
    # once another tab has thrown the switch (the extension reads it again on that change).
    page.evaluate("() => localStorage.removeItem('owc:fault')")
    page.reload()
    under_ui_fault = Answer(page, answers["ui"])
    sources = under_ui_fault.source_list
    expect(sources).to_have_count(1, timeout=15_000)
    expect(native_source_strip(page, answers["ui"])).to_have_count(0)  # ours stands in for it
    ours_on_the_clipboard = "() => Object.hasOwn(navigator.clipboard, 'writeText')"  # copy keeps the sources
    assert page.evaluate(ours_on_the_clipboard)
    warned = len(console.problems)
    other_tab = page.context.new_page()
    other_tab.goto(f"{stack.webui_url}/static/favicon.png")
    other_tab.evaluate("() => localStorage.setItem('owc:fault', 'ui')")
    under_ui_fault.buttons.first.hover()
    expect(sources).to_have_count(0)
    expect(native_source_strip(page, answers["ui"])).to_have_count(1)
    expect(under_ui_fault.buttons).to_have_count(0)
    expect(page.locator(under_ui_fault.selector(f"{PROSE} button:visible"))).not_to_have_count(0)  # Open WebUI's own
    assert len(console.problems) - warned == 1 and "ui disabled" in console.problems[-1]
    assert not page.evaluate(ours_on_the_clipboard)  # the page's own clipboard again

    # Capture, then the favicon substitution, failing mid-session: the globals they patched are
    # the page's own again (a module turned off leaves nothing of itself in the page's way).
    # Not `fetch`: Open WebUI wraps it after us, so ours stays in its chain, passing through.
    page.reload()
    wait_for_chat_input(page)
    patched = """() => [XMLHttpRequest.prototype.open, HTMLImageElement.prototype.setAttribute]
        .map(f => !/\\[native code\\]/.test(Function.prototype.toString.call(f)))
        .concat([window.WebSocket.name !== 'WebSocket'])"""
    assert page.evaluate(patched) == [True, True, True]
    # The page learns of the switch from its storage event, a moment after the other tab sets it: the module
    # is called until it has thrown and given its globals back.
    native = "f => /\\[native code\\]/.test(Function.prototype.toString.call(f))"
    other_tab.evaluate("() => localStorage.setItem('owc:fault', 'capture')")
    page.wait_for_function(f"path => {{ fetch(path); return ({native})(XMLHttpRequest.prototype.open); }}", arg=CONFIG)
    assert page.evaluate(patched) == [False, True, False]
    other_tab.evaluate("() => localStorage.setItem('owc:fault', 'favicons')")
    page.wait_for_function(
        f"() => {{ document.createElement('img').src = '/favicon.png';"
        f" return ({native})(HTMLImageElement.prototype.setAttribute); }}"
    )
    assert page.evaluate(patched) == [False, False, False]
    other_tab.evaluate("() => localStorage.removeItem('owc:fault')")
    record_property(
        "measured", {"faults_at_load": FAULTS, "faults_mid_session": ["ui"], "answers_under_fault": len(answers)}
    )
