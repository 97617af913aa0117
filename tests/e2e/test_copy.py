"""Copying an answer keeps its sources, through Chromium's real clipboard: Open WebUI's own copy
button gives the text followed by the sources it cites (as markdown, and as HTML when the user
copies formatted); "copy all sources" gives every source, retrieved ones included."""

import html
import re
import time

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_answer_text
from devstack.stack import Stack

pytestmark = pytest.mark.e2e

MODEL = "azure-on-your-data"  # cites sources 1 to 3 of the 4 it returns


def clipboard_text(page: Page, contains: str, timeout_s: float = 10) -> str:
    """The clipboard's text once it holds ``contains`` (a write is asynchronous)."""
    deadline = time.monotonic() + timeout_s
    while True:
        text = page.evaluate("navigator.clipboard.readText()")
        if contains in text or time.monotonic() > deadline:
            return text
        page.wait_for_timeout(100)


def markdown_text(title: str) -> str:
    """A title as markdown text: its own markdown characters escaped."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", title)


def source_lines(copied: str) -> dict[int, str]:
    return {int(m[1]): m[0] for m in re.finditer(r"^- \[(\d+)\] .*$", copied, re.M)}


def listed(sources: Locator) -> dict[int, str]:
    """The sources a list shows: number → title."""
    return dict(
        sources.evaluate_all(
            "bs => bs.map(b => [Number(b.dataset.owcIndex), b.querySelector('.owc-source-title').textContent])"
        )
    )


def check_copy(page: Page, stack: Stack, message_id: str) -> None:
    answer = Answer(page, message_id)
    cited = listed(answer.sources)
    answer.retrieved.locator("summary").click()
    expect(answer.retrieved_sources).to_have_count(1)
    retrieved = listed(answer.retrieved_sources)
    assert cited and retrieved
    text = stored_answer_text(stack, chat_id(page), message_id)
    page.evaluate("navigator.clipboard.writeText('')")
    answer.copy_button.click()
    copied = clipboard_text(page, "**Sources**")
    assert copied.startswith(f"{text}\n\n**Sources**\n\n"), copied
    lines = source_lines(copied)
    assert sorted(lines) == sorted(cited)  # only the cited ones
    for number, title in cited.items():
        assert re.fullmatch(
            rf"- \[{number}\] \[{re.escape(markdown_text(title))}\]\(http://127\.0\.0\.1:\d+/\S+\)", lines[number]
        ), lines[number]

    copy_all = answer.copy_all
    copy_all.click()
    expect(copy_all).to_have_text("Copied")
    every = clipboard_text(page, f"- [{max(retrieved)}]")
    assert every.startswith("**Sources**\n\n")
    assert sorted(source_lines(every)) == sorted(cited | retrieved)


# Streamed only: copying reads the drawn answer and its sources, the same however they arrived (test_citations
# and the UI's tests on recorded markup see both modes draw the same).
@pytest.mark.oldest_line
def test_copy_keeps_the_cited_sources_and_copy_all_keeps_every_one(
    page: Page, context: BrowserContext, stack: Stack
) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    send(page)
    message_id = last_answer_id(page)
    expect(Answer(page, message_id).retrieved).to_have_count(1, timeout=15_000)
    check_copy(page, stack, message_id)
    page.reload()
    expect(Answer(page, message_id).retrieved).to_have_count(1, timeout=15_000)
    check_copy(page, stack, message_id)


def test_formatted_copy_keeps_the_sources_as_links(page: Page, context: BrowserContext, stack: Stack) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    set_user_settings(stack, False, copyFormatted=True)  # Open WebUI writes text/html beside text/plain
    try:
        open_new_chat(page, stack, MODEL)
        send(page)
        answer = Answer(page, last_answer_id(page))
        cited = listed(answer.sources)
        expect(answer.retrieved).to_have_count(1, timeout=15_000)
        answer.copy_button.click()
        clipboard_text(page, "**Sources**")
        formatted = page.evaluate("""async () => {
            const [item] = await navigator.clipboard.read();
            return await (await item.getType('text/html')).text(); }""")
        for number, title in cited.items():
            assert re.search(
                rf'<li>\[{number}\] <a href="http://127\.0\.0\.1:\d+/[^"]*">'
                rf"{re.escape(html.escape(title, quote=False))}</a>",
                formatted,
            ), formatted
        assert f"[{len(cited) + 1}]" not in formatted.split("<strong>Sources</strong>")[-1]
    finally:
        set_user_settings(stack, True)


def test_copy_keeps_the_sources_where_the_page_has_no_clipboard_api(page: Page, stack: Stack) -> None:
    """Open WebUI served over plain http from a LAN address is no secure context: there is no
    navigator.clipboard, and Open WebUI copies a selection with execCommand('copy')."""
    page.add_init_script("""Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
        addEventListener('copy', (event) => { window.__copied = event.clipboardData.getData('text/plain'); });""")
    set_user_settings(stack, stream=False)
    open_new_chat(page, stack, MODEL)
    send(page)
    message_id = last_answer_id(page)
    answer = Answer(page, message_id)
    cited = listed(answer.sources)
    expect(answer.retrieved).to_have_count(1, timeout=15_000)
    text = stored_answer_text(stack, chat_id(page), message_id)
    answer.copy_button.click()
    page.wait_for_function("() => window.__copied !== undefined")
    copied = page.evaluate("window.__copied")
    assert copied.startswith(f"{text}\n\n**Sources**\n\n"), copied
    assert sorted(source_lines(copied)) == sorted(cited)
