"""A chat is data its writer chose: a share link cloned, a file imported, or, for an admin, any
user's chat. Opened in a real Open WebUI, a chat whose message ids are paths out of the event
endpoint makes the extension send nothing but the requests it needs (persist/openwebui.ts), and
opening a chat writes nothing into it: only answers the page saw being answered are stored."""

import re
import time
import uuid

import pytest
from playwright.sync_api import Page

from devstack.answer import wait_for_citation_numbers
from devstack.owui import NEW_CHAT
from devstack.owui import Console
from devstack.owui import chat_path
from devstack.owui import stored_citation_events
from devstack.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.oldest_line]

# Message ids a crafted chat can hold, each a way out of `/api/v1/chats/<id>/messages/<id>/event`
# (extension/test-support/hostile-ids.ts has the whole list, for the unit tests).
CRAFTED_IDS = [
    "../../../retrieval/reset/db?",
    "../../auths/api_key#",
    "%2e%2e%2f%2e%2e%2f%2e%2e%2fretrieval%2freset%2fuploads",
    "..\\..\\..\\chats\\archive\\all?",
    "\uff0e\uff0e",
]
# Requests none of which the extension may cause: what the crafted ids point at, and any write of a source.
FORBIDDEN = re.compile(r"/retrieval/reset|/auths/api_key|/chats/archive|/event\b")


def crafted_chat(stack: Stack) -> tuple[str, str]:
    """A chat as an attacker writes it (Open WebUI keeps a chat's history as given): its shown answer
    and every crafted one cite a source with a Jina-style footnote, which the extension reads from the
    text alone. Returns the chat's id and the shown answer's."""
    question, shown = str(uuid.uuid4()), str(uuid.uuid4())
    now = int(time.time())
    link = f"{stack.mock_url}/static/web/nasa-milky-way-stars.html"
    content = f"Between 100 and 400 billion stars [^1].\n\n[^1]: a quote [NASA]({link})"
    answer = {"role": "assistant", "content": content, "model": "perplexity", "done": True, "timestamp": now}
    messages = {
        question: {
            "id": question,
            "parentId": None,
            "childrenIds": [shown, *CRAFTED_IDS],
            "role": "user",
            "content": "How many stars?",
            "timestamp": now,
        },
        shown: {**answer, "id": shown, "parentId": question, "childrenIds": []},
        # the newest key last: the extension once posted to the chat's newest message too
        **{key: {**answer, "id": key, "parentId": question, "childrenIds": []} for key in CRAFTED_IDS},
    }
    chat = {
        "title": "Crafted",
        "models": ["perplexity"],
        "history": {"messages": messages, "currentId": shown},
        "messages": [messages[question], messages[shown]],
    }
    with stack.api() as api:
        created = api.post(NEW_CHAT, json={"chat": chat})
        created.raise_for_status()
    return created.json()["id"], shown


def test_an_admin_opening_a_crafted_chat_sees_its_sources_and_the_extension_sends_nothing_else(
    page: Page, stack: Stack, record_property
) -> None:
    chat, shown = crafted_chat(stack)
    console = Console().watch(page)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(f"{request.method} {request.url}"))
    page.goto(f"{stack.webui_url}{chat_path(chat)}")  # the test's user is Open WebUI's admin
    assert wait_for_citation_numbers(page, shown, [1]) == [1]
    page.wait_for_timeout(5_000)  # a store would have begun within a second of the chat's arrival
    forbidden = [request for request in requests if FORBIDDEN.search(request)]
    assert forbidden == []
    assert set(stored_citation_events(stack, chat).values()) == {0}, "opening a chat wrote into it"
    assert console.problems == []
    record_property("measured", {"requests_seen": len(requests), "crafted_ids": len(CRAFTED_IDS)})
