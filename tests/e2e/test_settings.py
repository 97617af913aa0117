"""The settings under a source list: how many sources show before "show all", whether the sources
retrieved but not cited show, whether Open WebUI's own source strip stays; each applied at once to
every answer on the page, and kept by the browser (after a reload)."""

import pytest
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import SETTINGS
from devstack.answer import SETTINGS_TOGGLE
from devstack.answer import Answer
from devstack.owui import last_answer_id
from devstack.owui import native_source_strip
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack

pytestmark = pytest.mark.e2e

MODEL = "azure-on-your-data"  # cites sources 1 to 3 of the 4 it returns


def check_applied(page: Page, answers: list[str], shown: int, more: bool, retrieved: int, strip: int) -> None:
    for message_id in answers:
        answer = Answer(page, message_id)
        expect(answer.sources).to_have_count(shown, timeout=15_000)
        expect(answer.source_list.locator(".owc-more")).to_have_count(1 if more else 0)
        expect(answer.retrieved.locator("summary")).to_have_text(
            [f"{retrieved} more retrieved, not cited"] if retrieved else []
        )
        expect(native_source_strip(page, message_id)).to_have_count(strip)


# Streamed only: the settings redraw answers already drawn, the same however they arrived.
@pytest.mark.oldest_line
def test_settings_apply_at_once_to_every_answer_and_stay_after_reload(page: Page, stack: Stack) -> None:
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    answers = []
    for _ in range(2):
        send(page)
        answers.append(last_answer_id(page))
    check_applied(page, answers, shown=3, more=False, retrieved=1, strip=0)  # the defaults

    first = Answer(page, answers[0]).source_list
    toggle = first.locator(SETTINGS_TOGGLE)
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    panel = first.locator(SETTINGS)
    expect(panel).to_be_visible()
    panel.get_by_label("Show sources retrieved but not cited").uncheck()
    check_applied(page, answers, shown=3, more=False, retrieved=0, strip=0)
    panel.get_by_label("Keep Open WebUI’s own source list").check()
    check_applied(page, answers, shown=3, more=False, retrieved=0, strip=1)
    panel.get_by_label("Sources shown before “Show all”").select_option("2")
    check_applied(page, answers, shown=2, more=True, retrieved=0, strip=1)
    expect(panel).to_be_visible()  # the list was redrawn around the open settings

    page.reload()
    check_applied(page, answers, shown=2, more=True, retrieved=0, strip=1)
    Answer(page, answers[1]).settings_toggle.click()
    panel = Answer(page, answers[1]).settings
    expect(panel.get_by_label("Sources shown before “Show all”")).to_have_value("2")
    panel.get_by_label("Show sources retrieved but not cited").check()
    check_applied(page, answers, shown=2, more=True, retrieved=1, strip=1)
    Answer(page, answers[0]).more.click()  # "show all" still works
    expect(Answer(page, answers[0]).sources).to_have_count(3)
