"""The "Find sources in this response" flow in a real Open WebUI: an answer whose sources no reader finds
(tests/e2e/scenarios/declared-agent-gateway.yaml: two lists of titled links, which one holds the
sources a guess) offers the lists its response held; choosing one saves the declaration for the
model in this browser, shows the JSON for the admin, and the sources and buttons show at once
(streamed and not); they are stored as any answer's, and still shown after a reload."""

import json

import pytest
from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import model_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import wait_until_stored
from devstack.stack import Stack

pytestmark = pytest.mark.e2e

MODEL = "declared-agent-gateway"
TITLES = ["Rhine — Wikipedia", "Rhine river facts", "Rivers of Europe by length"]


def check_sources(answer: Locator) -> None:
    expect(answer.locator(".owc-sources .owc-source-title")).to_have_text(TITLES)
    expect(answer.locator(".owc-cite")).to_have_text(["1", "2", "3"])
    expect(answer.locator(".owc-find-sources")).to_have_count(0)


@pytest.mark.parametrize("stream", [True, False], ids=["streaming", "non-streaming"])
def test_an_answer_without_sources_is_taught_in_one_step(page: Page, stack: Stack, stream: bool) -> None:
    set_user_settings(stack, stream=stream)
    open_new_chat(page, stack, MODEL)
    send(page)
    answer_id = last_answer_id(page)
    answer = Answer(page, answer_id).element
    expect(answer.locator(".owc-find-sources")).to_have_text("Find sources in this response")
    expect(answer.locator(".owc-sources")).to_have_count(0)

    answer.locator(".owc-find-sources").click()
    candidates = answer.locator(".owc-find-candidate")
    expect(candidates.locator("> p")).to_have_text(["At web_results · 3 sources", "At related · 2 sources"])
    expect(candidates.first.locator("ol > li")).to_contain_text(TITLES)
    candidates.first.locator(".owc-find-pick").click()

    entry = {
        "models": [model_id(MODEL)],
        "sources": {"path": "web_results"},
        "fields": {"title": "title", "url": "url", "text": "snippet"},
        "numbering": 1,
        "markers": "brackets",
    }
    shown = answer.locator(".owc-find-json")
    expect(shown).to_have_attribute("readonly", "")
    assert json.loads(shown.input_value()) == {"backends": [entry]}
    saved = page.evaluate("() => localStorage.getItem('owui-citations:backends')")
    assert json.loads(saved) == {"backends": [entry]}
    check_sources(answer)

    wait_until_stored(page, stack, chat_id(page), [answer_id])
    page.reload()
    check_sources(Answer(page, answer_id).element)
