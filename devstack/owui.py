"""Driving Open WebUI in a browser as a user does, for the tests, the benchmarks and the markup recorder:
every version difference is absorbed here, not in its callers. What Open WebUI is, on the Python side:
its DOM (the selectors below), its routes and its API (`Stack.api()`, devstack/stack.py). What the
extension draws in its page is devstack/answer.py's."""

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import ConsoleMessage
from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from devstack.stack import Stack
from mock_server.registry import HOSTILE
from mock_server.registry import MALFORMED
from mock_server.registry import load_scenarios

ANSWER_TIMEOUT_MS = 30_000
CHAT_INPUT = "#chat-input"
ASSISTANT = ".chat-assistant"  # in a message's element: the message is an answer
PROSE = ".markdown-prose"  # one per output item of an answer
COPY_BUTTON = ".copy-response-button"
REGENERATE_BUTTON = ".regenerate-response-button"  # hidden: the direct trigger, without a menu
# Scenarios served on the Ollama connection, whose model names carry Ollama's tag (LightRAG's).
OLLAMA_MODELS = {name for name, s in load_scenarios([HOSTILE, MALFORMED]).items() if s.speaks_ollama}


def model_id(model: str) -> str:
    """The id Open WebUI gives a scenario's model."""
    return f"{model}:latest" if model in OLLAMA_MODELS else model


@dataclass
class Console:
    """What the page logged that mentions the extension, and uncaught errors."""

    problems: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> "Console":
        def on_message(message: ConsoleMessage) -> None:
            if message.type in ("error", "warning") and "owui-citations" in message.text:
                self.problems.append(f"{message.type}: {message.text}")

        page.on("console", on_message)
        page.on("pageerror", lambda error: self.problems.append(f"pageerror: {error}"))
        return self


def set_user_settings(stack: Stack, stream: bool, **ui: object) -> None:
    """Replaces the user's interface settings; marking this version's changelog as seen."""
    with stack.api() as api:
        version = api.get(CONFIG).json()["version"]
        settings = {"version": version, "params": {"stream_response": stream}, **ui}
        api.post(USER_SETTINGS, json={"ui": settings}).raise_for_status()


def installed_version(venv: Path) -> tuple[int, ...]:
    """The open-webui version installed in a venv, from its package metadata; () if none is."""
    found = sorted(venv.glob("lib/python*/site-packages/open_webui-*.dist-info"))
    name = found[-1].name.removeprefix("open_webui-").removesuffix(".dist-info") if found else ""
    return tuple(int(part) for part in name.split(".")) if name else ()


@cache
def open_webui_version(stack: Stack) -> tuple[int, ...]:
    """The running Open WebUI's version, for expectations that differ by release line."""
    with stack.api() as api:
        return tuple(int(part) for part in api.get(CONFIG).json()["version"].split("."))


def message_selector(message_id: str) -> str:
    """The element of a message, a question or an answer."""
    return f"#message-{message_id}"


def message_element(page: Page, message_id: str) -> Locator:
    return page.locator(message_selector(message_id))


def wait_for_chat_input(page: Page, timeout_ms: float = 60_000) -> None:
    """Once the chat's input is there: the app has drawn a chat, a new or a stored one."""
    page.wait_for_selector(CHAT_INPUT, timeout=timeout_ms)


def native_source_strip(page: Page, message_id: str) -> Locator:
    """Open WebUI's own "N Sources" toggle under an answer, when visible (0.6: no aria attributes)."""
    return page.locator(
        f"{message_selector(message_id)} button:visible:not(.owc-source)",
        has_text=re.compile(r"^\s*\d+ Sources?\s*$"),
    )


def open_new_chat(page: Page, stack: Stack, model: str, query: str = "") -> None:
    page.goto(f"{stack.webui_url}/?model={model_id(model)}{query}")
    wait_for_chat_input(page)


def navigate_in_app(page: Page, path: str) -> None:
    """Goes to ``path`` as a click on a link does: the app routes it without loading the page
    again (seconds faster), so the page's state, the extension's included, carries on."""
    page.evaluate(
        """path => { const link = Object.assign(document.createElement('a'), { href: path });
                               document.body.append(link); link.click(); link.remove(); }""",
        path,
    )
    page.wait_for_url(f"**{path}")
    wait_for_chat_input(page)


def open_new_chat_in_app(page: Page, model: str) -> None:
    """A new chat with ``model`` in the page already open (see navigate_in_app)."""
    navigate_in_app(page, f"/?model={model_id(model)}")
    page.wait_for_function(f"() => {ANSWERS}.length === 0")


ANSWERS = f"""[...document.querySelectorAll('[id^="message-"]')].filter(e => e.querySelector('{ASSISTANT}'))"""
# A finished answer has its Regenerate button; a failed one, up to 0.11, only a red error box.
FINISHED = """button[aria-label="Regenerate"], .regenerate-response-button, [class~="border-red-600/10"]"""


def _expect_newer_answer(page: Page) -> None:
    """The next `last_answer_id` waits for an answer newer than the one last drawn now."""
    page.evaluate(f"() => {{ window.__owcAnsweredBefore = {ANSWERS}.at(-1)?.id ?? ''; }}")


def send(page: Page, text: str = "Which sources support this?", paste: bool = False) -> None:
    _expect_newer_answer(page)
    page.click(CHAT_INPUT)
    if paste:  # one input event rather than one per character: for long runs of turns
        page.keyboard.insert_text(text)
    else:
        page.keyboard.type(text)
    page.keyboard.press("Enter")


def last_answer_id(page: Page, count: int = 1, timeout_ms: int = ANSWER_TIMEOUT_MS, finished: bool = True) -> str:
    """The id of the newest assistant message, once it is finished (``finished=False``: once it is
    there, for an answer Open WebUI never finishes) and, after a `send` (or `regenerate`,
    `edit_question`), newer than the answer before it; without one on the page, once the chat shows
    at least ``count`` answers. (Open WebUI renders only the last 8 to 20 messages of a long chat, so
    after a `send` answers are not counted.)"""
    page.wait_for_function(
        f"""([count, finished]) => {{ const m = {ANSWERS}, before = window.__owcAnsweredBefore;
                   const newer = before === undefined ? m.length >= count : m.length > 0 && m.at(-1).id !== before;
                   return newer && (!finished || m.at(-1).querySelector('{FINISHED}')); }}""",
        arg=[count, finished],
        timeout=timeout_ms,
    )
    return page.evaluate(f"() => {ANSWERS}.at(-1).id.slice(8)")


def regenerate(page: Page, answer_id: str) -> None:
    """Regenerates an answer as a user does: its Regenerate button, then, where Open WebUI opens a
    menu there (its `regenerateMenu` setting, on by default), "Try Again"."""
    _expect_newer_answer(page)
    message = message_element(page, answer_id)
    message.hover()
    message.locator('[aria-label="Regenerate"]:visible').click()  # 0.6: the menu's is a labelled div
    try_again = page.get_by_text("Try Again", exact=True)
    try:
        try_again.wait_for(timeout=2_000)
    except PlaywrightTimeoutError:
        return  # regenerated at once: no menu
    try_again.click()


def edit_question(page: Page, question_id: str, text: str) -> None:
    """Edits a question as a user does (its Edit button, the text, Send): Open WebUI keeps both
    versions, each with its own answer."""
    _expect_newer_answer(page)
    message = message_element(page, question_id)
    message.hover()
    message.locator("button.edit-user-message-button").click()
    page.locator(f"#message-edit-{question_id}").fill(text)
    page.locator("#confirm-edit-message-button").click()


# "<" of the versions' "< 2/2 >": up to 0.6, a question's has no label.
PREVIOUS_VERSION = 'button[aria-label="Previous message"], .self-center[dir="ltr"] > button:first-child'


def show_previous_version(page: Page, message_id: str) -> None:
    """Open WebUI's "<" under a message with versions (a regenerated answer, an edited question):
    the chat shows the version before it, and the branch under that one."""
    message = message_element(page, message_id)
    message.hover()
    message.locator(PREVIOUS_VERSION).first.click()
    message.wait_for(state="detached")


# Open WebUI's API, as the tests, the bench and the scripts call or watch it.
CONFIG = "/api/config"
MODELS = "/api/models"
COMPLETIONS = "/api/chat/completions"
SIGN_IN = "/api/v1/auths/signin"
SESSION = "/api/v1/auths/"
ADD_USER = "/api/v1/auths/add"
NEW_CHAT = "/api/v1/chats/new"
USER_SETTINGS = "/api/v1/users/user/settings/update"
FILES = "/api/v1/files/"
# Every request that writes or reads a stored chat.
CHAT_REQUESTS = re.compile(r"/api/v1/chats/")
# A message's event: how the extension stores an answer's sources.
EVENT_REQUESTS = re.compile(r"/api/v1/chats/[^/]+/messages/[^/]+/event$")


def stored_chat_api(chat: str) -> str:
    return f"/api/v1/chats/{chat}"


def share_api(chat: str) -> str:
    return f"/api/v1/chats/{chat}/share"


def share_access_api(chat: str) -> str:
    return f"/api/v1/chats/shared/{chat}/access/update"


def file_content(file_id: str) -> str:
    return f"/api/v1/files/{file_id}/content"


# The extension's requests that store an answer's sources (persist/): the chat, or a message's event.
STORE_REQUESTS = re.compile(r"/api/v1/chats/[0-9a-f-]{36}(/messages/[^/]+/event)?$")


def chat_path(chat: str) -> str:
    """Where the app shows a stored chat."""
    return f"/c/{chat}"


def chat_id(page: Page) -> str:
    page.wait_for_url("**/c/*", timeout=ANSWER_TIMEOUT_MS)
    return page.url.rstrip("/").split("/c/")[-1].split("?")[0]


def stored_chat(stack: Stack, chat: str) -> dict[str, Any]:
    """A chat as Open WebUI stored it: its title, its history of messages."""
    with stack.api() as api:
        return api.get(stored_chat_api(chat)).json()["chat"]


def stored_citation_events(stack: Stack, chat: str) -> dict[str, int]:
    """For each assistant message of a stored chat: how many source events hold our citations."""
    messages = stored_chat(stack, chat)["history"]["messages"]
    return {
        message_id: sum(
            1
            for source in message.get("sources") or []
            if any("owc" in (m or {}) for m in source.get("metadata") or [])
        )
        for message_id, message in messages.items()
        if message.get("role") == "assistant"
    }


def wait_until(page: Page, condition: Callable[[], bool], timeout_s: float = 30, every_ms: int = 500) -> bool:
    """Whether ``condition`` held before the timeout, asked again every ``every_ms`` (a condition of
    what the page's events left: a request seen, a console message, a stored chat)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(every_ms)  # not time.sleep: Playwright answers routed requests only inside its calls
    return True


def wait_until_stored(page: Page, stack: Stack, chat: str, answers: list[str], timeout_s: float = 30) -> dict[str, int]:
    """How many source events of ours each answer's stored message holds, once each holds one (or at the
    timeout: the caller's assertion says what was stored instead)."""
    stored: dict[str, int] = {}

    def each_holds_one() -> bool:
        stored.update(stored_citation_events(stack, chat))
        return all(stored.get(answer, 0) >= 1 for answer in answers)

    wait_until(page, each_holds_one, timeout_s)
    return {answer: stored.get(answer, 0) for answer in answers}


def stored_answer_text(stack: Stack, chat: str, message_id: str) -> str:
    """An answer's text as Open WebUI stored it: in `content`, except in 0.10, which stores a
    finished answer with an empty `content` and its text in `output` items."""
    message = stored_chat(stack, chat)["history"]["messages"][message_id]
    if message.get("content"):
        return message["content"]
    parts = [part for item in message.get("output") or [] for part in item.get("content") or []]
    return "".join(part.get("text", "") for part in parts if isinstance(part, dict))
