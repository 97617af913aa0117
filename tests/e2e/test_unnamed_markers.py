"""A marker naming a source the backend did not send is shown as a muted number that says so, never
as a raw "[4]" nor as nothing (Open WebUI draws nothing for it once the answer has sources): as the
answer arrives, once its sources are stored, and after a reload."""

import pytest
from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import wait_until_stored
from devstack.stack import Stack

pytestmark = pytest.mark.e2e

MODEL = "malformed-perplexity-unnamed-markers"  # cites [1], [4], [2, 9] of three results, and "[2024]"


def check_markers(answer: Locator) -> None:
    expect(answer.locator(".owc-cite")).to_have_text(["1", "2"])
    unnamed = answer.locator(".owc-unnamed")
    expect(unnamed).to_have_text(["4", "9"])  # not 2024: a year (which Open WebUI drops once the answer has sources)
    expect(unnamed.first).to_have_attribute("title", "Source 4: the backend sent no such source")
    assert unnamed.evaluate_all("marks => marks.every((m) => m.tagName === 'SPAN' && m.tabIndex < 0)")
    text = answer.locator(".markdown-prose").inner_text()
    assert "[4]" not in text and "9]" not in text and "undefined" not in text, text
    # In the order written: the mark for [4] after "diamètre", before the button of [2, 9].
    order = answer.locator(".owc-cite, .owc-unnamed").evaluate_all("nodes => nodes.map((n) => n.textContent)")
    assert order == ["1", "4", "2", "9"], order


def test_a_marker_naming_no_source_reads_as_a_muted_number(page: Page, stack: Stack) -> None:
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    send(page)
    answer_id = last_answer_id(page)
    answer = Answer(page, answer_id).element
    check_markers(answer)
    answer.locator(".owc-unnamed").first.click()
    expect(page.locator(".owc-modal")).to_have_count(0)  # nothing to open
    wait_until_stored(page, stack, chat_id(page), [answer_id])  # Open WebUI draws it again, with its own buttons
    check_markers(answer)
    page.reload()
    check_markers(Answer(page, answer_id).element)
