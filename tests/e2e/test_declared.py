"""A declared backend, the admin's way: a backend no reader of the core reads (its sources at
`retrieval.hits`, mock_server/scenarios/declared/), a declarations file installed beside the bundle
with `owui-citations install --backends FILE` (the shared stack's, conftest.py), and a real Open
WebUI serving it: the page shows the sources and their buttons, streaming and not, and after a reload."""

import pytest
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.delivery import DELIVERY
from devstack.owui import Console
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(DELIVERY != "loader", reason="the admin's file is served beside Open WebUI's loader.js"),
]

MODEL = "declared-kb"
TITLES = ["Green roofs and summer heat", "Rainwater kept on the roof"]


def check_sources(page: Page, message_id: str) -> None:
    sources = Answer(page, message_id).sources
    expect(sources).to_have_count(2, timeout=15_000)
    for source, title in zip(sources.all(), TITLES, strict=True):
        expect(source).to_contain_text(title)
    assert wait_for_citation_numbers(page, message_id, [1, 2]) == [1, 2]


@pytest.mark.parametrize("stream", [True, False], ids=["streaming", "non-streaming"])
def test_a_declared_backend_shows_its_sources_live_and_after_reload(page: Page, stack: Stack, stream: bool) -> None:
    console = Console().watch(page)
    set_user_settings(stack, stream=stream)
    open_new_chat(page, stack, MODEL)
    send(page)
    message_id = last_answer_id(page)
    check_sources(page, message_id)
    page.reload()
    check_sources(page, message_id)
    assert console.problems == []
