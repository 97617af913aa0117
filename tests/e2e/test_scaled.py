"""Scaled out: two Open WebUI replicas sharing PostgreSQL, Redis and their data folder behind a
round-robin nginx (no sticky sessions), all from Debian's packages (devstack/stack.py, replicas).
An answer's request and the page's socket may meet different replicas: sources in the answer's
chunks (streamed and not) and in Open WebUI's own shape are shown, and three tabs answering at
once each store their answer's sources exactly once, none lost after a reload."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Page

from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_citation_events
from devstack.owui import wait_until_stored
from devstack.stack import Stack
from tests.e2e.checks import EXPECTED
from tests.e2e.checks import check_answer
from tests.e2e.checks import check_asked_live_and_after_reload
from tests.e2e.stacks import running_stack

pytestmark = pytest.mark.e2e

TABS = 3
# Sources in the answer's own chunks, and in Open WebUI's own shape: across replicas, both travel
# from the replica that answers to the one that holds the page's socket. (Open WebUI's own shape
# streamed never reaches a page, scaled out or not: devstack/limits.py, OWN_SHAPE_WITHOUT_CHOICES.)
ROUTES = [("perplexity", True), ("perplexity", False), ("open-webui-upstream", False)]


@pytest.fixture(scope="module")
def scaled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory, replicas=2) as stack:
        yield stack


@pytest.mark.parametrize(
    ("model", "stream"),
    ROUTES,
    ids=[f"{model}-{'streaming' if stream else 'non-streaming'}" for model, stream in ROUTES],
)
def test_each_route_shows_its_sources_across_replicas(page: Page, scaled: Stack, model: str, stream: bool) -> None:
    check_asked_live_and_after_reload(page, scaled, model, stream)


def test_three_tabs_answering_at_once_store_each_answer_once(browser: Browser, scaled: Stack) -> None:
    set_user_settings(scaled, stream=True)
    context = browser.new_context()
    pages = [context.new_page() for _ in range(TABS)]
    for page in pages:
        open_new_chat(page, scaled, "perplexity")
    for number, page in enumerate(pages, 1):
        send(page, f"Question {number} of {TABS}", paste=True)
    answers = [(page, chat_id(page), last_answer_id(page, timeout_ms=60_000)) for page in pages]
    for page, chat, answer in answers:
        assert wait_until_stored(page, scaled, chat, [answer], timeout_s=60) == {answer: 1}
    pages[0].wait_for_timeout(3_000)  # nothing stored twice by a late retry
    for page, chat, answer in answers:
        assert stored_citation_events(scaled, chat) == {answer: 1}
        page.reload()
        check_answer(page, answer, EXPECTED["perplexity"])
    context.close()
