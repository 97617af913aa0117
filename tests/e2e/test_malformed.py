"""Malformed and oversized sources (producers/*/malformed*.yaml) through a real Open WebUI, one
answer a delivery mode (SAMPLE): the answer still shows, the source event stored stays bounded,
and the console says what the file predicts. What the core makes of every variant (sources listed,
warnings: at most one an answer, however many chunks carried the bad data) is
extension/src/capture/malformed.test.ts's, on the mock's answers (LiteLLM's recorded ones for the
variants it relays). How long the extension's share of a frame is on the same answers is a figure of
`make bench` (figure 12, bench/figures.py `malformed_frames`), not a test: a timing budget."""

import json
import re

import pytest
from playwright.sync_api import Page

from devstack.answer import Answer
from devstack.limits import gap_for
from devstack.limits import gaps_named
from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import open_new_chat_in_app
from devstack.owui import open_webui_version
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_chat
from devstack.owui import wait_until_stored
from devstack.stack import Stack
from mock_server.registry import MALFORMED
from mock_server.registry import load_scenarios
from mock_server.rendering import RequestFacts
from mock_server.rendering import render_answer
from tests.e2e.checks import expect_gap_shown

pytestmark = pytest.mark.e2e

SCENARIOS = load_scenarios([MALFORMED])
# scenario: (console warnings, sources listed), from its file (`malformed:`)
EXPECTED = {name: (s.malformed.warnings, s.malformed.listed) for name, s in SCENARIOS.items() if s.malformed}
# Streamed, the largest (10 MB of sources, in every chunk); asked for whole, last (the page reads its settings
# when it loads): Perplexity, which sends the whole answer so far in every chunk, which Open WebUI renders each
# time streamed (measured: up to 280 ms a frame with the extension's UI off).
STREAMED = ["malformed-openrag-10-mb"]
NOT_STREAMED = ["malformed-perplexity-backtracking"]
SAMPLE = STREAMED + NOT_STREAMED
# What one answer may add to its chat (persist/shape.ts MAX_EVENT_CHARS), stored for good.
MAX_STORED_EVENT_CHARS = 512 * 1024


def stored_event_chars(stack: Stack, chat: str, answer: str) -> int:
    """The size of the source event the extension stored on an answer, as JSON."""
    message = stored_chat(stack, chat)["history"]["messages"][answer]
    ours = [s for s in message.get("sources") or [] if any("owc" in (m or {}) for m in s.get("metadata") or [])]
    assert len(ours) == 1, len(ours)
    return len(json.dumps(ours[0], ensure_ascii=False, separators=(",", ":")))


def first_words(model: str) -> str:
    """The answer's first words before any marker (which becomes a button), as the mock renders them
    (an answer may be made of variables; a Chinese one has no spaces)."""
    answer = render_answer(SCENARIOS[model], RequestFacts(model, "http://127.0.0.1/", 1))
    return " ".join(re.split(r"[\[【^]", answer, maxsplit=1)[0].split()[:4])


def ask(page: Page, stack: Stack, console: Console, model: str, stores: bool) -> tuple[str, list[str]]:
    """One answer of ``model``: its id and the warnings it caused, once the extension's work is done."""
    open_new_chat_in_app(page, model)
    before = len(console.problems)
    send(page)
    answer = last_answer_id(page, timeout_ms=120_000)
    if stores:  # the extension's whole work: until its one source event is stored
        wait_until_stored(page, stack, chat_id(page), [answer])
    return answer, console.problems[before:]


def test_malformed_sources_leave_the_answer_and_the_page_alone(page: Page, stack: Stack, record_property) -> None:
    console = Console().watch(page)
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, "perplexity")
    gaps: dict[str, str] = {}
    stored_sizes: dict[str, int] = {}  # characters of the source event stored on each answer
    streamed = True
    for model in SAMPLE:
        warnings, listed = EXPECTED[model]
        if streamed and model in NOT_STREAMED:
            streamed = False
            set_user_settings(stack, stream=False)
            page.reload()  # the page reads its settings when it loads
        gap = gap_for(model, streamed, open_webui_version(stack))
        if gap:  # Open WebUI's error instead of the sources
            gaps[model] = gap.reason
            warnings, listed = 0, 0
        answer, problems = ask(page, stack, console, model, listed > 0)
        assert first_words(model) in Answer(page, answer).prose.inner_text(), model
        if gap:
            expect_gap_shown(page, answer, gap)
        assert len(problems) == warnings and all(answer in problem for problem in problems), (model, problems)
        sources = Answer(page, answer).source_list
        if listed:
            groups = Answer(page, answer).groups  # cited, not cited
            assert groups.evaluate_all("gs => gs.reduce((n, g) => n + Number(g.dataset.owcCount), 0)") == listed, model
            stored = stored_event_chars(stack, chat_id(page), answer)
            assert stored <= MAX_STORED_EVENT_CHARS, (model, stored)
            stored_sizes[model] = stored
        else:
            assert sources.count() == 0, model
    if gaps:
        record_property("gap", gaps_named(gaps))
    record_property(
        "measured",
        {
            "inputs": len(SAMPLE),
            "stored_event_chars": stored_sizes,
        },
    )
