"""What the extension does around the answers: exactly-once storage across tabs and
regenerations, nothing stored for temporary chats, nothing lost to a quick reload, phone width, dark theme,
languages."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.owui import ANSWERS
from devstack.owui import CHAT_INPUT
from devstack.owui import EVENT_REQUESTS
from devstack.owui import REGENERATE_BUTTON
from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import chat_path
from devstack.owui import last_answer_id
from devstack.owui import message_selector
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_citation_events
from devstack.owui import wait_until_stored
from devstack.stack import Stack

pytestmark = pytest.mark.e2e


# More answers than Open WebUI renders of a long chat (8 to 20 messages), two of them regenerated.
TURNS = 10
REGENERATE_EVERY = 4


def regenerate(page: Page, answer: str) -> str:
    """Open WebUI's own direct trigger (the visible button opens a menu); the new answer's id."""
    page.locator(f"{message_selector(answer)} {REGENERATE_BUTTON}").dispatch_event("click")
    page.wait_for_function(f"{ANSWERS}.at(-1).id !== 'message-{answer}'")
    return last_answer_id(page)


def test_two_tabs_and_regenerations_store_every_answer_once_over_10_turns(
    browser: Browser, stack: Stack, record_property
) -> None:
    """Both tabs of the user receive every answer and race to store it; a regenerated answer
    is a new message. Each must hold exactly one source event, and all read back after a reload."""
    set_user_settings(stack, stream=True)
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    console = Console().watch(first)
    console.watch(second)
    open_new_chat(first, stack, "perplexity")
    send(first, "Question 1")
    last = last_answer_id(first)
    chat = chat_id(first)
    second.goto(f"{stack.webui_url}{chat_path(chat)}")  # both tabs now receive the next answers
    second.wait_for_selector(CHAT_INPUT)
    answers = [last]
    for turn in range(2, TURNS + 1):
        send(first, f"Question {turn}", paste=True)
        last = last_answer_id(first, count=turn, timeout_ms=60_000)
        answers.append(last)
        if turn % REGENERATE_EVERY == 0:
            last = regenerate(first, last)
            assert last not in answers
            answers.append(last)
    expect(Answer(first, last).sources).to_have_count(3)

    wait_until_stored(first, stack, chat, answers, timeout_s=60)  # once each answer's chat is written back
    stored = stored_citation_events(stack, chat)
    assert sorted(stored) == sorted(answers) and set(stored.values()) == {1}, {
        k: v for k, v in stored.items() if v != 1
    }

    first.reload()
    assert wait_for_citation_numbers(first, last, [1, 2, 3, 2]) == [1, 2, 3, 2]
    counts = first.evaluate("ids => ids.map((id) => window.owuiCitations.citations(id).length)", answers)
    assert counts == [3] * len(answers)
    assert console.problems == []
    record_property(
        "measured",
        {
            "turns": TURNS,
            "regenerations": len(answers) - TURNS,
            "answers_stored_exactly_once": len(answers),
            "read_back_after_reload": len(counts),
        },
    )
    context.close()


def test_a_temporary_chat_shows_sources_but_stores_nothing(page: Page, stack: Stack) -> None:
    set_user_settings(stack, stream=False)
    stores: list[str] = []
    page.on(
        "request",
        lambda request: stores.append(request.url) if re.search(r"/messages/[^/]+/event$", request.url) else None,
    )
    open_new_chat(page, stack, "azure-on-your-data", "&temporary-chat=true")
    send(page)
    answer = last_answer_id(page)
    assert wait_for_citation_numbers(page, answer, [1, 2, 1, 3]) == [1, 2, 1, 3]
    page.wait_for_timeout(2_000)  # an absence: a store would have begun within a second
    assert stores == []


def test_a_reload_before_the_sources_are_stored_loses_none(page: Page, stack: Stack) -> None:
    """Sources are stored once the chat's writes settle, a second or more after the answer ends. A page
    that goes away before its store went through leaves them in its outbox, and the page that opens
    next stores them: here the first page's every attempt fails (the network refuses it), so only
    the outbox can bring them to the stored chat."""
    set_user_settings(stack, stream=True)
    attempts = {"first page": 0}
    first_page = True

    def store(route: Route) -> None:
        if first_page:
            attempts["first page"] += 1
            route.abort()
        else:
            route.continue_()

    page.route(EVENT_REQUESTS, store)
    open_new_chat(page, stack, "perplexity")
    send(page)
    answer = last_answer_id(page)
    expect(Answer(page, answer).sources).to_have_count(3)
    chat = chat_id(page)
    for _ in range(30):
        if attempts["first page"]:
            break
        page.wait_for_timeout(500)
    assert attempts["first page"], "the first page never tried to store"

    def next_page(_: object) -> None:
        nonlocal first_page
        first_page = False  # the first page is gone: nothing it sends can come after this

    page.once("domcontentloaded", next_page)
    page.reload()
    assert wait_for_citation_numbers(page, answer, [1, 2, 3, 2]) == [1, 2, 3, 2]
    expect(Answer(page, answer).sources).to_have_count(3)
    assert wait_until_stored(page, stack, chat, [answer]) == {answer: 1}
    assert stored_citation_events(stack, chat) == {answer: 1}


def test_phone_width_dark_theme_and_german(browser: Browser, stack: Stack, screenshots: Path) -> None:
    set_user_settings(stack, stream=True)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("localStorage.setItem('theme', 'dark'); localStorage.setItem('locale', 'de-DE');")
    page = context.new_page()
    open_new_chat(page, stack, "answer-spans")
    send(page, "Welche Aufbewahrungsfrist gilt?")
    answer = last_answer_id(page)
    shown = Answer(page, answer)
    sources = shown.source_list
    expect(sources).to_contain_text("Quellen")
    expect(shown.buttons.first).to_have_attribute("aria-label", re.compile(r"^Zitat 1 von \d+: Quelle 1, "))
    shown.source(3).click()
    modal = shown.modal
    for _ in range(6):  # focus stays in the modal while it is open
        page.keyboard.press("Tab")
        assert modal.evaluate("m => m.contains(document.activeElement)")
    expect(modal.locator(".owc-not-verbatim")).to_contain_text("Nicht wörtlich")
    box = modal.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert "dark" in (page.get_attribute("html", "class") or "")
    background = modal.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(17, 24, 39)"  # the dark panel, not the light one
    page.screenshot(path=screenshots / "phone-dark-de.png")
    context.close()


def test_a_direct_connection_answer_is_read_from_the_page_own_fetch(page: Page, stack: Stack) -> None:
    """With a user's direct connection the browser calls the upstream itself."""
    direct = {
        "OPENAI_API_BASE_URLS": [f"{stack.mock_url}/v1"],
        "OPENAI_API_KEYS": ["mock"],
        "OPENAI_API_CONFIGS": {"0": {"enable": True, "prefix_id": "direct", "model_ids": ["perplexity"]}},
    }
    set_user_settings(stack, True, directConnections=direct)
    upstream_calls: list[str] = []
    page.on(
        "request",
        lambda request: (
            upstream_calls.append(request.url) if request.url.startswith(stack.mock_url + "/v1/chat") else None
        ),
    )
    try:
        open_new_chat(page, stack, "direct.perplexity")
        send(page)
        answer = last_answer_id(page)
        assert upstream_calls, "the page did not call the upstream itself"
        assert wait_for_citation_numbers(page, answer, [1, 2, 3, 2]) == [1, 2, 3, 2]
        expect(Answer(page, answer).sources).to_have_count(3)
    finally:
        set_user_settings(stack, stream=True)  # and no direct connection for the other tests
