"""The benchmark's figures, one function each (numbered as docs/performance.md lists them). Every figure alternates
with and without the extension in one run, in a fresh browser context per repetition."""

import gzip
import json
import re
import subprocess
import uuid
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bench.browser import BUNDLE
from bench.browser import EXTENSION_URL
from bench.browser import PARTS
from bench.browser import PARTS_URL
from bench.browser import Mode
from bench.browser import Tab
from bench.browser import open_tab
from bench.busy import busy_machine
from bench.frames import forget_frames
from bench.frames import watch_long_frames
from bench.frames import worst_extension_frame
from bench.heap import retained_through_script
from bench.heap import take_snapshot
from bench.relay import relay_rows
from bench.report import Row
from bench.report import row
from devstack.answer import CITE
from devstack.owui import ANSWERS
from devstack.owui import ASSISTANT
from devstack.owui import NEW_CHAT
from devstack.owui import chat_id
from devstack.owui import chat_path
from devstack.owui import last_answer_id
from devstack.owui import message_selector
from devstack.owui import open_new_chat
from devstack.owui import open_new_chat_in_app
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_chat
from devstack.owui import stored_citation_events
from devstack.owui import wait_until_stored
from devstack.processes import ROOT
from devstack.stack import Stack

HOT = "extension's hottest functions in the last run, ms (source file and line as benchmarked, name)"
LONGEST = "9. the extension's longest task"
SETTLE_MS = 1000  # after the last visible change: idle callbacks, storage requests


@dataclass(frozen=True)
class Sizes:
    reps: int = 10  # repetitions of each side
    heap_reps: int = 2
    heap_turns: int = 100
    reload_answers: int = 200
    leak_answers: int = 300
    stream_timeout_ms: int = 120_000
    warm_turn: int = 10  # the answer of a page whose code is warm: its tenth
    busy_answers: int = 100
    latency_answers: int = 40


def alternating(reps: int) -> Iterator[Mode]:
    """with, without, without, with, …: neither side always runs first or on a warmer machine."""
    for rep in range(reps):
        yield from (("with", "without") if rep % 2 == 0 else ("without", "with"))


def wait_for_buttons(tab: Tab, message_id: str, count: int, timeout_ms: int = 60_000) -> None:
    buttons = f"{message_selector(message_id)} {CITE}"
    try:
        tab.page.wait_for_function(
            "([buttons, count]) => document.querySelectorAll(buttons).length >= count",
            arg=[buttons, count],
            timeout=timeout_ms,
        )
    except PlaywrightTimeoutError:
        # What the page showed instead: the figure's failure says it in one line.
        shown = tab.page.evaluate(
            """([message, buttons, id]) => ({
                buttons: document.querySelectorAll(buttons).length,
                answers: document.querySelectorAll(message).length,
                text: document.querySelector(message)?.textContent?.length ?? null,
                counts: (window.__owcBench?.citeChanges?.[id] ?? []).map((change) => change.count).slice(-8),
            })""",
            [message_selector(message_id), buttons, message_id],
        )
        raise RuntimeError(f"{count} buttons awaited in {message_id} for {timeout_ms} ms; the page: {shown}") from None


def buttons_latency_ms(tab: Tab, message_id: str) -> float | None:
    """From Open WebUI's last render of the finished message (its last change after the `done`
    frame, or that frame) to when its citation buttons first reach their final number (0 when
    they already had it): the wait that is the extension's alone. Later redraws, when Open
    WebUI shows the stored sources again, do not count: the buttons were usable before."""
    done = tab.probe(f"doneAt[{message_id!r}]")
    changes = tab.probe(f"citeChanges[{message_id!r}]")
    if done is None or not changes:
        return None
    final = changes[-1]["count"]
    reached = next(change["at"] for change in changes if change["count"] == final)
    rendered = max([done, *(at for at in tab.probe(f"renders[{message_id!r}]") if at <= reached)])
    return max(0.0, reached - rendered)


# What the bundle's bytes buy, by part of the extension (the first prefix a file matches).
BUNDLE_PARTS = {
    "wire formats": ("extension/src/core/formats/", "producers/"),
    "export (core and ui)": ("extension/src/core/export", "extension/src/ui/export.ts", "extension/src/ui/chat-"),
    "core": "extension/src/core/",
    "capture": "extension/src/capture/",
    "persist": "extension/src/persist/",
    "ui: translations": "extension/src/ui/i18n.ts",
    "ui: styles": "extension/src/ui/styles.ts",
    "ui: linkers": "extension/src/ui/linkers/",
    "ui: modal, places, preview": tuple(f"extension/src/ui/{name}.ts" for name in ("modal", "places", "preview")),
    "ui": "extension/src/ui/",
    "boot, guard": "extension/src/",
}
BUNDLE_END = b"} catch (error) {"  # the footer extension/build.mjs puts after esbuild's output


def bundle_parts(data: bytes) -> dict[str, dict[str, float]]:
    """Minified KB of each part, from esbuild's metafile (extension/build.mjs writes it), and
    each part's gzip KB when compressed alone. esbuild writes each source file's code in one
    piece, in the metafile's order, so the pieces are cut from the bundle by their lengths."""
    outputs = json.loads(BUNDLE.with_suffix(".meta.json").read_text())["outputs"]
    inputs = next(output["inputs"] for name, output in outputs.items() if name.endswith("owui-citations.js"))
    pieces: dict[str, bytes] = dict.fromkeys(BUNDLE_PARTS, b"")
    offset = data.rindex(BUNDLE_END) - sum(used["bytesInOutput"] for used in inputs.values())
    for path, used in inputs.items():
        part = next((name for name, prefix in BUNDLE_PARTS.items() if path.startswith(prefix)), "boot, guard")
        pieces[part] += data[offset : offset + used["bytesInOutput"]]
        offset += used["bytesInOutput"]
    return {
        "minified KB by part of the extension": {name: round(len(piece) / 1024, 1) for name, piece in pieces.items()},
        "gzip KB by part, each compressed alone": {
            name: round(len(gzip.compress(piece, 9)) / 1024, 1) for name, piece in pieces.items()
        },
    }


def gzip_kb(data: bytes) -> float:
    return len(gzip.compress(data, 9)) / 1024


def other_parts() -> dict[str, dict[str, float]]:
    """Each part loaded on first use (the modal and export, each language), minified and gzipped;
    what esbuild put in each is in extension/dist/owui-citations-parts.meta.json."""
    parts = {path.stem: path.read_bytes() for path in sorted(PARTS.glob("*.js"))}
    return {
        "minified KB of each part": {name: round(len(data) / 1024, 1) for name, data in parts.items()},
        "gzip KB of each part": {name: round(gzip_kb(data), 1) for name, data in parts.items()},
    }


def bundle_size(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """The first part, which every page parses (the target), and apart from it the parts loaded
    on first use, each gzipped alone (a page loads the features part and its language's at most)."""
    data = BUNDLE.read_bytes()
    gzipped = row(
        "1. bundle owui-citations.js (first part), minified + gzip",
        "KB",
        [gzip_kb(data)],
        judged="median",
        limit=20,
    )
    gzipped.detail = bundle_parts(data)
    parts = [path.read_bytes() for path in sorted(PARTS.glob("*.js"))]
    rest = row("1. bundle, parts loaded on first use, each minified + gzip, summed", "KB", [sum(map(gzip_kb, parts))])
    rest.detail = other_parts()
    return [
        row("1. bundle owui-citations.js (first part), minified", "KB", [len(data) / 1024]),
        gzipped,
        row("1. bundle, parts loaded on first use, minified, summed", "KB", [sum(map(len, parts)) / 1024]),
        rest,
    ]


def non_streaming_400(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    set_user_settings(stack, stream=False)
    to_buttons: list[float] = []
    whole_turn: list[float] = []
    busy: dict[Mode, list[float]] = {"with": [], "without": []}
    latency: list[float] = []
    longest: list[dict[str, Any]] = []
    hot: dict[str, float] = {}
    for mode in alternating(sizes.reps):
        with open_tab(browser, mode) as tab:
            open_new_chat(tab.page, stack, "bench-sources")
            # Two profiles: until the buttons are in place, then the rest of the turn
            # (storing the sources, and Open WebUI drawing the stored sources again).
            first: dict[str, Any] = {}
            rest: dict[str, Any] = {}
            with tab.profiled(first):
                send(tab.page)
                answer = last_answer_id(tab.page)
                if mode == "with":
                    wait_for_buttons(tab, answer, 400)
            with tab.profiled(rest):
                tab.page.wait_for_timeout(SETTLE_MS)
            busy[mode].append(first["busy_ms"] + rest["busy_ms"])
            if mode == "with":
                to_buttons.append(first["extension_ms"])
                longest.append(max(first, rest, key=lambda m: m["longest_task_ms"]))
                hot = first["extension_functions"]
                whole_turn.append(first["extension_ms"] + rest["extension_ms"])
                latency.append(buttons_latency_ms(tab, answer) or 0.0)
    until_buttons = row(
        "2. 400 sources, non-streaming: extension's main-thread time until the buttons, cold (a fresh page)",
        "ms",
        to_buttons,
    )
    until_buttons.detail = {HOT: hot}
    return [
        until_buttons,
        row("2. 400 sources, non-streaming: extension's main-thread time, whole turn", "ms", whole_turn),
        row("2. 400 sources, non-streaming: Open WebUI's last render → 400 buttons", "ms", latency),
        row("2. 400 sources, non-streaming: main-thread busy, whole turn", "ms", busy["with"], busy["without"]),
        longest_task("400 sources, non-streaming, cold", longest),
        *warm_answers(stack, browser, sizes, "bench-sources", 400, report_cold=False),
        *warm_answers(stack, browser, sizes, "bench-20-sources", 20),
        *native_strip_400(stack, browser, sizes),
    ]


def wait_stored(stack: Stack, tab: Tab, answer: str) -> None:
    chat = chat_id(tab.page)
    for _ in range(50):
        if stored_citation_events(stack, chat).get(answer) == 1:
            return
        tab.page.wait_for_timeout(200)
    raise RuntimeError("the extension did not store a benchmark answer's sources")


def longest_task(scenario: str, measured: list[dict[str, Any]]) -> Row:
    """The longest task of each measure; when over the target, what ran in the longest of them."""
    longest = row(f"{LONGEST}: {scenario}", "ms", [m["longest_task_ms"] for m in measured], judged="p95", limit=16)
    if longest.passed is False:
        worst = max(measured, key=lambda m: m["longest_task_ms"])
        longest.detail = {"the extension's functions in its longest task, ms": worst["longest_task_functions"]}
    return longest


def warm_answers(
    stack: Stack, browser: Browser, sizes: Sizes, model: str, sources: int, report_cold: bool = True
) -> list[Row]:
    """Answers in new chats of one page: the first with the extension's code cold, the tenth warm
    (V8 has compiled and optimised what runs at every answer), as a page open all day runs it."""
    cold: list[float] = []
    warm: list[float] = []
    longest: list[dict[str, Any]] = []
    hot: dict[str, float] = {}
    for _ in range(max(1, sizes.reps // 2)):
        with open_tab(browser, "with") as tab:
            open_new_chat(tab.page, stack, model)
            for turn in range(1, sizes.warm_turn + 1):
                if turn > 1:
                    open_new_chat_in_app(tab.page, model)
                measured: dict[str, Any] = {}
                with tab.profiled(measured):
                    send(tab.page)
                    answer = last_answer_id(tab.page)
                    wait_for_buttons(tab, answer, sources)
                longest.append(measured)
                # Stored before the next answer: its requests are not the next one's cost.
                wait_stored(stack, tab, answer)
                if turn == 1:
                    cold.append(measured["extension_ms"])
            warm.append(measured["extension_ms"])
            hot = measured["extension_functions"]
    label = f"2. {sources} sources, non-streaming: extension's main-thread time until the buttons"
    warm_row = row(
        f"{label}, warm (answer {sizes.warm_turn} of the page)",
        "ms",
        warm,
        judged="median",
        limit=2 if sources <= 20 else 16,
    )
    warm_row.detail = {HOT: hot}
    return [
        *([row(f"{label}, cold (answer 1 of the page)", "ms", cold)] if report_cold else []),
        warm_row,
        longest_task(f"{sources} sources, non-streaming, answers 1 to {sizes.warm_turn} of a page", longest),
    ]


def crafted_answer(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """The security review's crafted answer (bench/scenarios/bench-crafted.yaml), non-streaming:
    the main thread's busy time from the question until the page is still again, with and
    without the extension, and the extension's longest task in it."""
    set_user_settings(stack, stream=False)
    busy: dict[Mode, list[float]] = {"with": [], "without": []}
    longest: list[dict[str, Any]] = []
    for mode in alternating(max(1, sizes.reps // 4)):  # Open WebUI takes half a minute to render it
        with open_tab(browser, mode) as tab:

            def drawn(answer: str, tab: Tab = tab, mode: Mode = mode) -> None:
                tab.page.wait_for_function(  # to its last paragraph (no layout read: textContent)
                    "id => document.getElementById(`message-${id}`)?.textContent.includes('Last claim')",
                    arg=answer,
                    polling=500,
                    timeout=sizes.stream_timeout_ms,
                )
                if mode == "with":
                    wait_for_buttons(tab, answer, 1, sizes.stream_timeout_ms)
                wait_still(tab, answer)

            measured = profiled_answer(tab, stack, "bench-crafted", sizes, drawn)
            busy[mode].append(measured["busy_ms"])
            if mode == "with":
                longest.append(measured)
    crafted = "a crafted answer of 170 KB (bench-crafted)"
    return [
        row(f"9. {crafted}: main-thread busy", "ms", busy["with"], busy["without"]),
        longest_task(f"{crafted}, non-streaming", longest),
    ]


# How many times a message has changed since first asked (a MutationObserver of its own).
CHANGES = """id => {
  const seen = (window.__owcChanges ??= {});
  if (!(id in seen)) {
    seen[id] = 0;
    const options = { childList: true, subtree: true, characterData: true, attributes: true };
    new MutationObserver(() => seen[id]++).observe(document.getElementById(`message-${id}`), options);
  }
  return seen[id];
}"""


def profiled_answer(tab: Tab, stack: Stack, model: str, sizes: Sizes, wait: Callable[[str], None]) -> dict[str, Any]:
    """A question to ``model`` in a new chat, profiled until ``wait(answer's id)`` returns."""
    open_new_chat(tab.page, stack, model)
    measured: dict[str, Any] = {}
    with tab.profiled(measured):
        send(tab.page)
        wait(last_answer_id(tab.page, timeout_ms=sizes.stream_timeout_ms))
    return measured


def wait_still(tab: Tab, answer: str) -> None:
    """Until the answer has not changed for SETTLE_MS (a pass in slices ends late)."""
    last, still_since = -1, 0
    while still_since < SETTLE_MS:
        tab.page.wait_for_timeout(250)
        changes = tab.page.evaluate(CHANGES, answer)
        still_since = still_since + 250 if changes == last else 0
        last = changes


def native_strip_400(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """The anchor: the same 400 sources as url_citation annotations, which Open WebUI turns into
    its own source strip (one socket event and one database write per source)."""
    set_user_settings(stack, stream=True)
    busy: dict[Mode, list[float]] = {"with": [], "without": []}
    for mode in alternating(max(1, sizes.reps // 2)):
        with open_tab(browser, mode) as tab:

            def strip_drawn(answer: str, tab: Tab = tab) -> None:
                tab.page.wait_for_function(
                    "id => /\\b400\\s+Sources\\b/i.test(document.getElementById(`message-${id}`)?.innerText ?? '')",
                    arg=answer,
                    timeout=sizes.stream_timeout_ms,
                )
                tab.page.wait_for_timeout(SETTLE_MS)

            busy[mode].append(profiled_answer(tab, stack, "bench-url-citations-400", sizes, strip_drawn)["busy_ms"])
    return [
        row(
            "2. anchor: Open WebUI's native strip, 400 url_citations: main-thread busy",
            "ms",
            busy["with"],
            busy["without"],
        )
    ]


def streaming_4000(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    set_user_settings(stack, stream=True)
    long_tasks: dict[Mode, list[float]] = {"with": [], "without": []}
    script: dict[Mode, list[float]] = {"with": [], "without": []}
    latency: list[float] = []
    rate: list[float] = []
    share: list[float] = []
    longest: list[dict[str, Any]] = []
    for mode in alternating(sizes.reps):
        with open_tab(browser, mode) as tab:
            open_new_chat(tab.page, stack, "bench-long-stream")
            started, script_before = tab.page.evaluate("performance.now()"), tab.script_seconds()
            measured: dict[str, Any] = {}
            with tab.profiled(measured):  # both sides: the sampling costs each the same
                send(tab.page)
                answer = last_answer_id(tab.page, timeout_ms=sizes.stream_timeout_ms)
                if mode == "with":
                    wait_for_buttons(tab, answer, 80)
                tab.page.wait_for_timeout(SETTLE_MS)
            script[mode].append((tab.script_seconds() - script_before) * 1000)
            if mode == "with":
                share.append(100 * measured["extension_ms"] / script[mode][-1])
                longest.append(measured)
            tasks = tab.probe("longtasks")
            long_tasks[mode].append(sum(1 for t in tasks if t["start"] >= started and t["duration"] > 50))
            rate.append(4000 / ((tab.probe(f"doneAt[{answer!r}]") - started) / 1000))
            if mode == "with":
                latency.append(buttons_latency_ms(tab, answer) or 0.0)
    return [
        row(
            "3. streaming 4,000 tokens: long tasks > 50 ms",
            "count",
            long_tasks["with"],
            long_tasks["without"],
            judged="added",
            limit=0,
        ),
        row(
            "3. streaming 4,000 tokens: scripting time",
            "ms",
            script["with"],
            script["without"],
            judged="ratio",
            limit=1.05,
        ),
        row(
            "3. streaming: the extension's own frames, share of the page's scripting time",
            "%",
            share,
            judged="median",
            limit=1,
        ),
        row("3. streaming: tokens per second received", "tok/s", rate),
        longest_task("streaming 4,000 tokens, 80 sources", longest),
        row(
            "4. Open WebUI's last render → buttons clickable, streamed 4,000 tokens and 80 sources",
            "ms",
            latency,
            judged="p95",
            limit=LATENCY_P95_MS,
        ),
    ]


# Two frames at 60 Hz: a user who sees the answer end sees its buttons in the next frame but one.
LATENCY_P95_MS = 33


def buttons_latency(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """Figure 4: from Open WebUI's last render of a finished answer to its buttons clickable, over
    many answers of one page (streamed, 20 sources cited inline, as most answers are; the first
    with the code cold), so that the p95 is one of many answers, not the slowest of a few."""
    set_user_settings(stack, stream=True)
    model = "bench-20-sources"
    latency: list[float] = []
    with open_tab(browser, "with") as tab:
        open_new_chat(tab.page, stack, model)
        for turn in range(sizes.latency_answers):
            if turn > 0:
                open_new_chat_in_app(tab.page, model)
            send(tab.page)
            answer = last_answer_id(tab.page)
            wait_for_buttons(tab, answer, 20)
            wait_stored(stack, tab, answer)  # its requests are not the next answer's wait
            latency.append(buttons_latency_ms(tab, answer) or 0.0)
    return [
        row(
            f"4. Open WebUI's last render → buttons clickable, streamed 20 sources, {sizes.latency_answers} answers",
            "ms",
            latency,
            judged="p95",
            limit=LATENCY_P95_MS,
        )
    ]


def _stored_answer(stack: Stack, browser: Browser) -> tuple[str, str]:
    """One answer with 20 sources, stored by the extension itself: its chat and message ids."""
    set_user_settings(stack, stream=False)
    with open_tab(browser, "with") as tab:
        open_new_chat(tab.page, stack, "bench-20-sources")
        send(tab.page)
        answer = last_answer_id(tab.page)
        wait_for_buttons(tab, answer, 20)
        wait_stored(stack, tab, answer)
        return chat_id(tab.page), answer


def _long_chat(stack: Stack, chat: str, answers: int) -> tuple[str, str]:
    """A chat of ``answers`` question/answer pairs, each a copy of the stored pair."""
    with stack.api() as api:
        stored = stored_chat(stack, chat)
        pair = sorted(stored["history"]["messages"].values(), key=lambda m: m["role"] != "user")
        messages: dict[str, dict[str, Any]] = {}
        parent = None
        for _ in range(answers):
            for template in pair:
                message = {**template, "id": str(uuid.uuid4()), "parentId": parent, "childrenIds": []}
                if parent:
                    messages[parent]["childrenIds"] = [message["id"]]
                messages[message["id"]] = message
                parent = message["id"]
        body = {
            **stored,
            "title": f"Benchmark: {answers} answers",
            "messages": list(messages.values()),
            "history": {"messages": messages, "currentId": parent},
        }
        created = api.post(NEW_CHAT, json={"chat": body})
        created.raise_for_status()
        assert parent is not None  # at least one answer
        return created.json()["id"], parent


READY = """([last, want]) => new Promise((resolve) => {
    const found = {};
    const tick = () => {
        const now = performance.now();
        const answer = document.getElementById(`message-${last}`);
        const shown = answer?.querySelector('%s') && answer.textContent.includes('Finding 20');
        if (found.ready === undefined && shown) found.ready = now;
        if (want && found.cited === undefined) {
            const answers = %s;
            const cited = (m) => m.querySelectorAll('%s').length >= want;
            if (answers.length && answers.every(cited)) found.cited = now;
        }
        if ((found.ready !== undefined && (found.cited !== undefined || !want)) || now > 120000) resolve(found);
        else requestAnimationFrame(tick);
    };
    tick();
})""" % (ASSISTANT, ANSWERS, CITE)


def reload_long_chat(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    chat, _ = _stored_answer(stack, browser)
    long_chat, last = _long_chat(stack, chat, sizes.reload_answers)
    ready: dict[Mode, list[float]] = {"with": [], "without": []}
    cited: list[float] = []
    longest: list[dict[str, Any]] = []
    for mode in alternating(sizes.reps):
        with open_tab(browser, mode) as tab:
            measured: dict[str, Any] = {}
            with tab.profiled(measured):  # both sides: the recording costs each the same
                tab.page.goto(f"{stack.webui_url}{chat_path(long_chat)}", wait_until="commit")
                found = tab.page.evaluate(READY, [last, 20 if mode == "with" else 0])
            ready[mode].append(found["ready"])
            if mode == "with":
                cited.append(found["cited"])
                longest.append(measured)
    label = f"5. open a chat of {sizes.reload_answers} answers × 20 sources"
    return [
        row(f"{label}: page ready", "ms", ready["with"], ready["without"], judged="ratio", limit=1.05),
        row(f"{label}: all citation UI in place", "ms", cited),
        longest_task(f"opening a chat of {sizes.reload_answers} answers", longest),
    ]


def heap_after_turns(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """Also with the extension but nothing stored (its persist module off): the stored sources
    make Open WebUI keep and draw its own view of them, which is not the extension's own heap.
    The growth from the first answer on tells what each answer adds from what loading costs."""
    set_user_settings(stack, stream=False)
    heap: dict[str, list[float]] = {"with": [], "without": [], "nothing stored": []}
    growth: dict[str, list[float]] = {side: [] for side in heap}
    sides: list[tuple[str, Mode, str | None]] = [(mode, mode, None) for mode in alternating(sizes.heap_reps)]
    sides += [("nothing stored", "with", "persist")] * max(1, sizes.heap_reps // 2)
    for side, mode, fault in sides:
        with open_tab(browser, mode, fault=fault) as tab:
            open_new_chat(tab.page, stack, "bench-20-sources")
            for turn in range(1, sizes.heap_turns + 1):
                send(tab.page, f"Question {turn}")
                last_answer_id(tab.page, count=turn, timeout_ms=sizes.stream_timeout_ms)
                if turn == 1:
                    tab.page.wait_for_timeout(SETTLE_MS)
                    first = tab.heap_bytes() / 2**20
            tab.page.wait_for_timeout(SETTLE_MS)
            heap[side].append(tab.heap_bytes() / 2**20)
            growth[side].append(heap[side][-1] - first)
    turns = f"{sizes.heap_turns} turns"
    return [
        row(f"6. JS heap after {turns}", "MB", heap["with"], heap["without"], judged="added", limit=2),
        row(
            "6. … of which the extension's own (nothing stored)",
            "MB",
            heap["nothing stored"],
            heap["without"],
            judged="added",
            limit=2,
        ),
        row(f"6. … growth from the first answer to {turns}", "MB", growth["with"], growth["without"]),
        row("6. … growth, nothing stored", "MB", growth["nothing stored"], growth["without"]),
    ]


# An answer is stored a few seconds after it is finished (persist/delivery.ts): only then does
# the extension let its raw data go.
STORED_MS = 6000


def retained_over_answers(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """The extension's own retained heap (bench/heap.py: what only its functions hold, from a
    heap snapshot) in one page over many answers: after the first third, and at the end. Its
    growth over the last two thirds is what a page open for days would keep adding."""
    set_user_settings(stack, stream=False)
    first, last = sizes.leak_answers // 3, sizes.leak_answers
    mib: list[float] = []
    kinds: dict[str, int] = {}
    with open_tab(browser, "with") as tab:
        open_new_chat(tab.page, stack, "bench-20-sources")
        for turn in range(1, last + 1):
            send(tab.page, f"Question {turn}", paste=True)
            last_answer_id(tab.page, count=turn, timeout_ms=sizes.stream_timeout_ms)
            if turn in (first, last):
                tab.page.wait_for_timeout(STORED_MS)
                # The first part's, and the parts' it loaded (the features part, once an answer had sources).
                scripts = (EXTENSION_URL, *(f"{PARTS_URL}{part.name}" for part in PARTS.glob("*.js")))
                kinds = retained_through_script(take_snapshot(tab.cdp), scripts)
                mib.append(sum(kinds.values()) / 2**20)
    after_first = row(
        f"8. extension's own retained heap after {first} answers", "MB", mib[:1], judged="median", limit=0.5
    )
    after_first.detail = {
        f"largest kinds of what it holds after {last} answers, KB": {
            kind: round(size / 1024, 1) for kind, size in sorted(kinds.items(), key=lambda item: -item[1])[:8]
        }
    }
    return [
        after_first,
        row(f"8. … after {last} answers", "MB", mib[1:]),
        row(f"8. … growth over the last {last - first} answers", "MB", [mib[1] - mib[0]], judged="median", limit=1),
    ]


CORE_LINE = re.compile(
    r"^(?P<name>.+?)\s+median\s+(?P<median>[\d.]+) ms\s+p95\s+(?P<p95>[\d.]+) ms\s+target ≤ (?P<target>[\d.]+) ms"
)


def core_library(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """`npm run bench:core` (node, no browser), for reference."""
    output = subprocess.run(
        ["npm", "run", "--silent", "bench:core"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    rows = []
    for match in filter(None, map(CORE_LINE.match, output.splitlines())):
        found = row(
            f"7. core: {match['name']}", "ms", [float(match["median"])], judged="median", limit=float(match["target"])
        )
        found.with_p95 = float(match["p95"])
        rows.append(found)
    return rows


def relay_filter(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """The relay filter's cost to Open WebUI's server (bench/relay.py: neither browser nor Open WebUI)."""
    return relay_rows()


def busy_answers(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    return busy_machine(stack, browser, sizes.busy_answers)


# The malformed answers the end-to-end suite sends (tests/e2e/test_malformed.py): the largest streamed (10 MB of
# sources in every chunk), and Perplexity's whole answer so far in every chunk asked for whole.
MALFORMED_SAMPLE = (("malformed-openrag-10-mb", True), ("malformed-perplexity-backtracking", False))
# A frame this long is a stall a user sees: what broken input may cost at worst.
MALFORMED_FRAME_MS = 200


def malformed_frames(stack: Stack, browser: Browser, sizes: Sizes) -> list[Row]:
    """Each malformed answer of the sample, from the question until its sources are stored and the page is still:
    the extension's own scripts in its worst animation frame."""
    rows = []
    for model, stream in MALFORMED_SAMPLE:
        set_user_settings(stack, stream=stream)
        worst: list[float] = []
        for _ in range(max(1, sizes.reps // 4)):
            with open_tab(browser, "with") as tab:
                watch_long_frames(tab.page.context)
                open_new_chat(tab.page, stack, model)
                forget_frames(tab.page)
                send(tab.page)
                answer = last_answer_id(tab.page, timeout_ms=sizes.stream_timeout_ms)
                wait_until_stored(tab.page, stack, chat_id(tab.page), [answer], timeout_s=60)
                wait_still(tab, answer)
                worst.append(worst_extension_frame(tab.page)["extension"])
        mode = "streaming" if stream else "non-streaming"
        metric = f"12. malformed sources, {model} {mode}: the extension's scripts in its worst animation frame"
        rows.append(row(metric, "ms", worst, judged="p95", limit=MALFORMED_FRAME_MS))
    return rows


FIGURES = {
    "bundle": bundle_size,
    "non-streaming": non_streaming_400,
    "crafted": crafted_answer,
    "streaming": streaming_4000,
    "reload": reload_long_chat,
    "latency": buttons_latency,
    "heap": heap_after_turns,
    "leak": retained_over_answers,
    "core": core_library,
    "relay": relay_filter,
    "busy": busy_answers,
    "malformed": malformed_frames,
}
