"""Malformed and oversized sources (producers/*/malformed*.yaml) through a real Open WebUI, one
answer a delivery mode (SAMPLE): the answer still shows, the page stays responsive, the source event
stored stays bounded, and the console says what the file predicts. What the core makes of every
variant (sources listed, warnings: at most one an answer, however many chunks carried the bad data)
is extension/src/capture/malformed.test.ts's, on the mock's answers (LiteLLM's recorded ones for the
variants it relays).

Responsiveness is measured with the Long Animation Frames API: every frame over 50 ms lists
the scripts that ran in it, each with its source URL. The extension's own callbacks (its socket
listener, the timer that reads the queued packets, the idle-time UI pass, its fetch
continuations and event handlers) all come from /static/loader.js, so their time is told apart
from Open WebUI's own work on the same 10 MB; the extension's share of any one frame must stay
under 200 ms. Time inside the extension's wrappers that the app calls synchronously (fetch,
WebSocket) counts as the app's: those wrappers only clone or queue."""

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
LONG_FRAME_BUDGET_MS = 200

LONG_FRAMES = """(() => {
  window.__owcFrames = [];
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      // The socket's message handler is Open WebUI's, run inside our wrapper (which only hands it the packet
      // and queues the packet for a later task: capture/socket.test.ts): its time is Open WebUI's rendering.
      const ours = frame.scripts.filter((s) => s.sourceURL.includes('/static/loader.js')
                                               && s.invoker !== 'DOMWebSocket.onmessage');
      window.__owcFrames.push({ total: frame.duration, extension: ours.reduce((sum, s) => sum + s.duration, 0),
                                what: ours.map((s) => `${s.invoker} ${Math.round(s.duration)} ms`) });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
})();"""


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


def send_and_measure(
    page: Page, stack: Stack, console: Console, model: str, stores: bool
) -> tuple[str, dict, list[str]]:
    """One answer of ``model``: its id, the worst frame for the extension, the warnings it caused."""
    open_new_chat_in_app(page, model)
    page.evaluate("() => { window.__owcFrames.length = 0; }")
    before = len(console.problems)
    send(page)
    answer = last_answer_id(page, timeout_ms=120_000)
    if stores:  # the extension's whole work: until its one source event is stored
        wait_until_stored(page, stack, chat_id(page), [answer])
    page.wait_for_timeout(1_500)  # the frames of the last redraws, counted below
    frames = page.evaluate("() => window.__owcFrames")
    worst = max(frames, key=lambda frame: frame["extension"], default={"extension": 0, "total": 0, "what": []})
    return answer, worst, console.problems[before:]


def test_malformed_sources_leave_the_answer_and_the_page_alone(page: Page, stack: Stack, record_property) -> None:
    assert page.evaluate("() => PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')")
    page.context.add_init_script(LONG_FRAMES)
    console = Console().watch(page)
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, "perplexity")
    gaps: dict[str, str] = {}
    worst_frames: dict[str, int] = {}  # ms of the extension's own scripts in its worst frame
    stored_sizes: dict[str, int] = {}  # characters of the source event stored on each answer
    retried: dict[str, int] = {}  # ms of the worst frame of a first attempt over the budget, asked again
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
        answer, worst, problems = send_and_measure(page, stack, console, model, listed > 0)
        if worst["extension"] >= LONG_FRAME_BUDGET_MS:  # a stall of the shared machine does not repeat; ours would
            retried[model] = round(worst["extension"])  # recorded, not hidden
            answer, worst, problems = send_and_measure(page, stack, console, model, listed > 0)
        assert worst["extension"] < LONG_FRAME_BUDGET_MS, (model, worst)
        worst_frames[model] = round(worst["extension"])
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
            "worst_extension_frame_ms": worst_frames,
            "first_attempt_over_budget_ms": retried,
            "stored_event_chars": stored_sizes,
        },
    )
