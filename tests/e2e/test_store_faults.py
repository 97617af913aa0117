"""Storing survives the network (persist/delivery.ts): the extension's requests that store an
answer's sources fail — the network until the page has reloaded and failed twice more, then a
proxy's HTML error pages, the browser offline, the session expired — and every answer's sources
are stored all the same, once, and shown after a reload. The faults are Playwright's routing and
offline switch in front of the real Open WebUI; only the extension's own requests meet them, not
the app's. How long the retries wait, and that they wait longer each time, is
extension/src/persist/delivery.test.ts's, on a fake clock (network errors for 20 s, the same pages)."""

import time
from collections import Counter

import pytest
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.answer import pending_answers
from devstack.owui import COMPLETIONS
from devstack.owui import SIGN_IN
from devstack.owui import STORE_REQUESTS
from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import chat_path
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_citation_events
from devstack.owui import wait_for_chat_input
from devstack.owui import wait_until
from devstack.owui import wait_until_stored
from devstack.stack import Stack
from tests.e2e.checks import from_open_webui

pytestmark = pytest.mark.e2e

MODEL = "perplexity"  # Open WebUI does not store these sources itself: only the extension does
BAD_GATEWAY = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"


def shown_after_reload(page: Page, answers: list[str]) -> None:
    page.reload()
    for answer in answers:
        expect(Answer(page, answer).source_list).to_have_count(1, timeout=20_000)


def test_store_requests_failing_over_a_reload_then_502_and_html_pages_store_every_answer_once(
    page: Page, stack: Stack, record_property
) -> None:
    set_user_settings(stack, stream=True)
    console = Console().watch(page)
    open_new_chat(page, stack, MODEL)
    met: Counter[str] = Counter()
    started = time.monotonic()
    then = ["html-502", "html-200"]
    reloaded = False

    def fail(route: Route) -> None:
        if from_open_webui(route):
            return route.continue_()
        if not reloaded or met["network after the reload"] < 2:
            met["network after the reload" if reloaded else "network"] += 1
            return route.abort("connectionreset")
        if then:
            kind = then.pop(0)
            met[kind] += 1
            return route.fulfill(status=502 if kind == "html-502" else 200, content_type="text/html", body=BAD_GATEWAY)
        met["through"] += 1
        return route.continue_()

    page.route(STORE_REQUESTS, fail)
    send(page, "How many stars are in the Milky Way?")
    first = last_answer_id(page)
    chat = chat_id(page)
    send(page, "And how old is it?")
    second = last_answer_id(page)
    # The page reloaded while storing fails: the outbox carries the answers to the next page. (Whether
    # anything went through is asked before the reload: after it, the retries may already be through.)
    assert wait_until(page, lambda: met["network"] >= 1, timeout_s=15), "no store attempt met the fault"
    assert stored_citation_events(stack, chat).get(first, 0) == 0, "stored through the fault"
    reloaded = True
    page.reload()
    wait_for_chat_input(page)

    stored = wait_until_stored(page, stack, chat, [first, second], timeout_s=90)
    took = time.monotonic() - started
    assert stored == {first: 1, second: 1}, (met, console.problems)
    assert met["network"] >= 1 and met["network after the reload"] == 2, met
    assert met["html-502"] == 1 and met["html-200"] == 1, met
    # Nothing stored twice by a late retry: once the outbox is empty, none is left to come.
    assert wait_until(page, lambda: not pending_answers(page), timeout_s=15), pending_answers(page)
    assert stored_citation_events(stack, chat) == {first: 1, second: 1}
    shown_after_reload(page, [first, second])
    record_property("measured", {"stored_after_s": round(took, 1), "requests_met": dict(met)})


def test_offline_while_an_answer_finishes_stores_it_when_back_online(page: Page, stack: Stack, record_property) -> None:
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    send(page, "How many stars are in the Milky Way?")
    answer = last_answer_id(page)
    page.context.set_offline(True)
    chat = chat_id(page)
    # The store met the network down, and waits in the outbox for the browser to be back online.
    assert wait_until(page, lambda: answer in pending_answers(page), timeout_s=15), "no store was attempted"
    assert stored_citation_events(stack, chat).get(answer, 0) == 0, "stored while offline?"
    expect(Answer(page, answer).source_list).to_have_count(1)  # shown all along
    page.context.set_offline(False)
    back = time.monotonic()
    assert wait_until_stored(page, stack, chat, [answer], timeout_s=30) == {answer: 1}
    record_property("measured", {"stored_after_back_online_s": round(time.monotonic() - back, 1)})
    shown_after_reload(page, [answer])
    assert stored_citation_events(stack, chat) == {answer: 1}


def test_signed_out_mid_answer_stores_it_once_signed_in_again(page: Page, stack: Stack) -> None:
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    # Without authentication (this stack) Open WebUI signs a page whose session ended in again by
    # itself at once: here that fails, as it would for a person who must type their password.
    page.route(f"**{SIGN_IN}", lambda route: route.fulfill(status=503, body="{}"))
    # The session ends as the answer streams: once Open WebUI has asked for it (an answer asked
    # for with an ended session is an error, not an answer).
    with page.expect_request(lambda request: request.url.endswith(COMPLETIONS)) as asked:
        send(page, "How many stars are in the Milky Way?")
    page.evaluate("() => { localStorage.token = 'expired'; }")
    # Open WebUI names a new chat in its answer to the request, the answer's message in the request.
    response, request = asked.value.response(), asked.value.post_data_json
    assert response and request
    chat, answer = response.json()["chat_id"], request["id"]
    # The answer finished, its store met the ended session and waits in the outbox for a sign-in.
    assert wait_until(page, lambda: answer in pending_answers(page), timeout_s=15), "no store was attempted"
    assert stored_citation_events(stack, chat).get(answer, 0) == 0
    page.unroute(f"**{SIGN_IN}")
    # Signing in again, as Open WebUI's sign-in page does: its request, then the new token kept.
    page.evaluate(
        """async (path) => {
        const response = await fetch(path, {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
                                                                  body: JSON.stringify({ email: '', password: '' }) });
        localStorage.token = (await response.json()).token;
    }""",
        SIGN_IN,
    )
    assert wait_until_stored(page, stack, chat, [answer], timeout_s=30) == {answer: 1}
    page.goto(f"{stack.webui_url}{chat_path(chat)}")
    expect(Answer(page, answer).source_list).to_have_count(1, timeout=20_000)
    assert stored_citation_events(stack, chat) == {answer: 1}
