"""Figure 11: streamed answers on a busy machine. CPU hogs beside Open WebUI and the browser, the
page's CPU throttled (DevTools' `Emulation.setCPUThrottlingRate`), answers streamed one after the
other in new chats of one page: how many showed fewer sources than they have, and how many were
not stored. Loopback only; the hogs stop by themselves after a deadline and are killed when the
figure ends, however it ends (and at exit)."""

import atexit
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bench.browser import open_tab
from bench.report import Row
from bench.report import row
from devstack.answer import CITED_SOURCES
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import message_selector
from devstack.owui import open_new_chat
from devstack.owui import open_new_chat_in_app
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_citation_events
from devstack.stack import Stack
from mock_server.registry import producer_entries

# Streamed producers whose sources reach the page three ways: a chunk without text (Perplexity's
# search results), a chunk's `extra` (OpenRAG), the first chunk's `delta.context` (Azure).
SCENARIOS = ("perplexity", "openrag", "azure-on-your-data")
HOGS = 3  # busy processes beside the server and the browser, on a machine of two cores
THROTTLING = 4  # the page runs this many times slower (DevTools' CPU throttling)
ANSWER_TIMEOUT_MS = 120_000
SHOWN_TIMEOUT_MS = 30_000  # from the answer's finish to its list
STORED_TIMEOUT_S = 60  # from the last answer's finish to every answer stored
SOURCE_BUTTONS = "sources => document.querySelectorAll(sources).length"
# What the extension's hub holds of an answer (its debug hook), without the citations themselves.
HELD = """id => { const v = window.owuiCitations.view(id); return v
    ? { citations: v.citations.length, done: v.done, live: v.live, text: v.text.length,
        unreadable: v.unreadable, interrupted: v.interrupted } : { known: false }; }"""
EXPECTED = {model: producer_entries("seen.json")[model]["sources"] for model in SCENARIOS}


@dataclass
class Answer:
    model: str
    chat: str
    message: str
    shown: int


HOG = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"


@contextmanager
def cpu_hogs(count: int, seconds: float) -> Iterator[None]:
    """``count`` processes spinning on the CPU, each ending by itself after ``seconds``."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG.format(seconds=seconds)]) for _ in range(count)]

    def stop() -> None:
        for hog in hogs:
            hog.kill()
            hog.wait()

    atexit.register(stop)
    try:
        yield
    finally:
        stop()
        atexit.unregister(stop)


def shown_sources(page: Page, message: str, expected: int) -> int:
    """The answer's listed sources, once they are all there, or what is listed at the timeout."""
    sources = f"{message_selector(message)} {CITED_SOURCES}"
    try:
        page.wait_for_function(
            f"([sources, n]) => ({SOURCE_BUTTONS})(sources) >= n", arg=[sources, expected], timeout=SHOWN_TIMEOUT_MS
        )
    except PlaywrightTimeoutError:
        pass
    return page.evaluate(SOURCE_BUTTONS, sources)


def stream_answers(
    stack: Stack, browser: Browser, answers: int
) -> tuple[list[Answer], dict[str, dict[str, Any]], list[Answer], int]:
    """The answers, what the extension held of each one that showed fewer sources than it has,
    the answers not stored (the page stays open meanwhile: it stores them), and the sockets the
    page opened."""
    done: list[Answer] = []
    held: dict[str, dict[str, Any]] = {}
    with open_tab(browser, "with") as tab:
        tab.cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLING})
        open_new_chat(tab.page, stack, SCENARIOS[0])
        for turn in range(answers):
            model = SCENARIOS[turn % len(SCENARIOS)]
            if turn:
                open_new_chat_in_app(tab.page, model)
            send(tab.page, f"Question {turn + 1}", paste=True)
            message = last_answer_id(tab.page, timeout_ms=ANSWER_TIMEOUT_MS)
            shown = shown_sources(tab.page, message, EXPECTED[model])
            done.append(Answer(model, chat_id(tab.page), message, shown))
            if shown < EXPECTED[model]:
                held[message] = {"model": model, "shown": shown, **tab.page.evaluate(HELD, message)}
        return done, held, not_stored(stack, tab.page, done), tab.probe("sockets")


def not_stored(stack: Stack, page: Page, answers: list[Answer]) -> list[Answer]:
    deadline = time.monotonic() + STORED_TIMEOUT_S
    missing = answers
    while True:
        missing = [a for a in missing if stored_citation_events(stack, a.chat).get(a.message, 0) == 0]
        if not missing or time.monotonic() > deadline:
            return missing
        page.wait_for_timeout(1000)  # not time.sleep: the page goes on meanwhile


def busy_machine(stack: Stack, browser: Browser, answers: int) -> list[Row]:
    set_user_settings(stack, stream=True)
    # Bounded: the longest the answers may take, then the check of what was stored.
    with cpu_hogs(HOGS, answers * (ANSWER_TIMEOUT_MS + SHOWN_TIMEOUT_MS) / 1000):
        done, held, missing, sockets = stream_answers(stack, browser, answers)
    label = f"11. busy machine ({HOGS} CPU hogs, page throttled ×{THROTTLING}), {answers} streamed answers"
    shown = row(f"{label}: answers without all their sources", "count", [len(held)], judged="median", limit=0)
    # A socket opened again means the page lost its connection: what was sent meanwhile never came.
    shown.detail = {"sockets the page opened": sockets, **({"what the extension held of them": held} if held else {})}
    stored = row(f"{label}: answers not stored", "count", [len(missing)], judged="median", limit=0)
    if missing:
        stored.detail = {"not stored": [f"{a.model} {a.message}" for a in missing]}
    return [shown, stored]
