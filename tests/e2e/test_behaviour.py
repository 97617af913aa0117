"""What the extension does around the answers: exactly-once storage across tabs and
regenerations, nothing stored for temporary chats, phone width, dark theme, languages."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.owui import (Console, chat_id, last_answer_id, open_new_chat, send, set_streaming, set_user_settings,
                            stored_citation_events, wait_for_citation_numbers)
from devstack.stack import Stack

pytestmark = pytest.mark.e2e


def test_two_tabs_and_a_regenerate_store_each_answer_once(browser: Browser, stack: Stack) -> None:
    set_streaming(stack, True)
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    console = Console().watch(first)
    console.watch(second)
    open_new_chat(first, stack, "perplexity")
    send(first, "First question")
    last_answer_id(first)
    chat = chat_id(first)
    second.goto(f"{stack.webui_url}/c/{chat}")  # both tabs now receive the next answers
    second.wait_for_selector("#chat-input")
    send(first, "Second question")
    answer = last_answer_id(first)
    # Regenerate's visible button opens a menu; Open WebUI's own direct trigger is this one.
    first.locator(f"#message-{answer} .regenerate-response-button").dispatch_event("click")
    first.wait_for_function(f"[...document.querySelectorAll('[id^=message-]')].filter(e => e.querySelector('.chat-assistant')).at(-1).id !== 'message-{answer}'")
    regenerated = last_answer_id(first)
    assert regenerated != answer
    expect(first.locator(f"#message-{regenerated} .owc-sources button.owc-source")).to_have_count(3)
    first.wait_for_timeout(3_000)  # both tabs had time to store, and to retry
    stored = stored_citation_events(stack, chat)
    assert len(stored) == 3 and set(stored.values()) == {1}, stored

    first.reload()
    assert wait_for_citation_numbers(first, regenerated, [1, 2, 3, 2]) == [1, 2, 3, 2]
    assert console.problems == []
    context.close()


def test_a_temporary_chat_shows_sources_but_stores_nothing(page: Page, stack: Stack) -> None:
    set_streaming(stack, False)
    stores: list[str] = []
    page.on("request", lambda request: stores.append(request.url) if re.search(r"/messages/[^/]+/event$", request.url) else None)
    open_new_chat(page, stack, "azure-on-your-data", "&temporary-chat=true")
    send(page)
    answer = last_answer_id(page)
    assert wait_for_citation_numbers(page, answer, [1, 2, 1, 3]) == [1, 2, 1, 3]
    page.wait_for_timeout(2_000)
    assert stores == []


def test_phone_width_dark_theme_and_german(browser: Browser, stack: Stack, screenshots: Path) -> None:
    set_streaming(stack, True)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("localStorage.setItem('theme', 'dark'); localStorage.setItem('locale', 'de-DE');")
    page = context.new_page()
    open_new_chat(page, stack, "answer-spans")
    send(page, "Welche Aufbewahrungsfrist gilt?")
    answer = last_answer_id(page)
    sources = page.locator(f"#message-{answer} .owc-sources")
    expect(sources).to_contain_text("Quellen")
    expect(page.locator(f"#message-{answer} .owc-cite").first).to_have_attribute("aria-label", re.compile(r"^Quelle 1: "))
    page.locator(f"#message-{answer} button.owc-source[data-owc-index='3']").click()
    modal = page.locator(".owc-modal")
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
    direct = {"OPENAI_API_BASE_URLS": [f"{stack.mock_url}/v1"], "OPENAI_API_KEYS": ["mock"],
              "OPENAI_API_CONFIGS": {"0": {"enable": True, "prefix_id": "direct", "model_ids": ["perplexity"]}}}
    set_user_settings(stack, True, directConnections=direct)
    upstream_calls: list[str] = []
    page.on("request", lambda request: upstream_calls.append(request.url) if request.url.startswith(stack.mock_url + "/v1/chat") else None)
    try:
        open_new_chat(page, stack, "direct.perplexity")
        send(page)
        answer = last_answer_id(page)
        assert upstream_calls, "the page did not call the upstream itself"
        assert wait_for_citation_numbers(page, answer, [1, 2, 3, 2]) == [1, 2, 3, 2]
        expect(page.locator(f"#message-{answer} .owc-sources button.owc-source")).to_have_count(3)
    finally:
        set_streaming(stack, True)  # and no direct connection for the other tests
