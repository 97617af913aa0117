"""A page of Open WebUI with or without the extension, and what Chrome DevTools measures in it.

Both modes load the same Open WebUI: the request for /static/loader.js is intercepted on both
sides and answered with this checkout's bundle (with) or with Open WebUI's own empty loader
(without), so that the two differ by the extension and nothing else.
"""

import bisect
import json
import subprocess
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Literal

from playwright.sync_api import Browser
from playwright.sync_api import CDPSession
from playwright.sync_api import Page
from playwright.sync_api import Route

from devstack.processes import ROOT

Mode = Literal["with", "without"]
PROBE = Path(__file__).with_name("probe.js")
BUNDLE = ROOT / "extension" / "dist" / "owui-citations.js"
EXTENSION_URL = "/static/loader.js"
# The bundle's other parts, which it loads on first use from beside itself (extension/build.mjs).
PARTS = BUNDLE.parent / "owui-citations-parts"
PARTS_URL = "/static/owui-citations-parts/"


def script_of(url: str) -> Path | None:
    """The extension's file served at ``url`` (its first part as loader.js, or another part), None
    for any other script."""
    if url.endswith(EXTENSION_URL):
        return BUNDLE
    name = url.split("?", 1)[0].rpartition(PARTS_URL)[2]
    return PARTS / name if PARTS_URL in url and name.endswith(".js") and "/" not in name else None


# The extension's hooks (by source file) and the native calls they make on the app's behalf:
# the app's own cost, not the extension's (its fetch, its WebSocket and XHR open, the favicon
# guard's setAttribute). The extension's own requests (persist/) stay its own.
HOOKS = {"capture/fetch.ts": {"fetch"}, "capture/socket.ts": {"WebSocket", "open"}, "ui/favicons.ts": {"setAttribute"}}

# The main thread's tasks (RunTask), and V8's CPU samples: every 100 µs with `.hires`.
TRACE_CATEGORIES = [
    "toplevel",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-v8.cpu_profiler",
    "disabled-by-default-v8.cpu_profiler.hires",
]
TASKS = {"RunTask", "ThreadControllerImpl::RunTask"}


def locate(script: Path, positions: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The source file and line ("capture/fetch.ts:51") of functions of a minified part of the
    bundle, from its source map (bench/locate.mjs)."""
    located = subprocess.run(
        ["node", str(Path(__file__).with_name("locate.mjs")), f"{script}.map"],
        input=json.dumps(positions),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(zip(positions, json.loads(located), strict=True))


def made_for_the_app(native: str, caller: str) -> bool:
    """Whether a native call from the extension's function at ``caller`` (its source file and
    line) is the app's own, made through one of the extension's hooks."""
    return native in HOOKS.get(caller.split(":", 1)[0], set())


@dataclass
class Tab:
    page: Page
    cdp: CDPSession
    mode: Mode

    def script_seconds(self) -> float:
        """Main-thread JavaScript time of the page so far (DevTools' ScriptDuration)."""
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "ScriptDuration")

    def heap_bytes(self) -> int:
        """JS heap in use after two full garbage collections."""
        self.cdp.send("HeapProfiler.collectGarbage")
        self.cdp.send("HeapProfiler.collectGarbage")
        return int(self.cdp.send("Runtime.getHeapUsage")["usedSize"])

    def probe(self, expression: str) -> Any:
        return self.page.evaluate(f"() => window.__owcBench.{expression}")

    @contextmanager
    def profiled(self, into: dict[str, Any]) -> Iterator[None]:
        """Records what DevTools' performance panel records: the main thread's tasks, and V8's
        samples of it every 100 µs on the same clock. Fills ``into`` with milliseconds spent in
        the extension's own code (and the DOM calls it makes), in everything but idle, and in
        the extension's longest task (the most of its own time in one task)."""
        events: list[dict[str, Any]] = []
        complete: list[bool] = []

        def collected(event: dict[str, Any]) -> None:
            events.extend(event["value"])

        def completed(_: Any) -> None:
            complete.append(True)

        self.cdp.on("Tracing.dataCollected", collected)
        self.cdp.on("Tracing.tracingComplete", completed)
        config = {"includedCategories": TRACE_CATEGORIES, "recordMode": "recordAsMuchAsPossible"}
        self.cdp.send("Tracing.start", {"traceConfig": config, "transferMode": "ReportEvents"})
        # V8 starts its sampling profiler when the page next runs JavaScript: a page idle for the
        # whole measure would otherwise leave no profile at all.
        self.page.evaluate("0")
        try:
            yield
        finally:
            self.cdp.send("Tracing.end")
            while not complete:
                self.page.wait_for_timeout(20)
            self.cdp.remove_listener("Tracing.dataCollected", collected)
            self.cdp.remove_listener("Tracing.tracingComplete", completed)
            profile, tasks = main_thread(events)
            into.update(attribute(profile, tasks=tasks))


def main_thread(events: list[dict[str, Any]]) -> tuple[dict[str, Any], list[tuple[float, float]]]:
    """From a trace's events: the CPU profile of the page's main thread (the thread that ran
    Open WebUI's scripts), in the Profiler's shape, and that thread's top-level tasks (start and
    end, in µs)."""
    profiles: dict[tuple[int, str], dict[str, Any]] = {}
    for event in events:
        if event.get("ph") != "P" or event.get("name") not in ("Profile", "ProfileChunk"):
            continue
        profile = profiles.setdefault(
            (event["pid"], event["id"]), {"nodes": [], "samples": [], "timeDeltas": [], "startTime": 0, "tid": None}
        )
        data = event["args"]["data"]
        if event["name"] == "Profile":
            profile.update(startTime=data["startTime"], tid=event["tid"])
        else:
            profile["nodes"] += data.get("cpuProfile", {}).get("nodes", [])
            profile["samples"] += data.get("cpuProfile", {}).get("samples", [])
            profile["timeDeltas"] += data.get("timeDeltas", [])

    def page_nodes(item: tuple[tuple[int, str], dict[str, Any]]) -> int:
        return sum("/_app/" in node["callFrame"].get("url", "") for node in item[1]["nodes"])

    if not profiles:
        raise RuntimeError(f"the trace holds no CPU profile ({len(events)} events)")
    (pid, _), profile = max(profiles.items(), key=page_nodes)
    children: dict[int, list[int]] = {}
    for node in profile["nodes"]:
        if "parent" in node:
            children.setdefault(node["parent"], []).append(node["id"])
    for node in profile["nodes"]:
        node["children"] = children.get(node["id"], [])
        # The trace leaves out what the Profiler's own shape always has: a native frame's URL, say.
        node["callFrame"] = {"url": "", "lineNumber": -1, "columnNumber": -1, **node["callFrame"]}
    spans = sorted(
        (event["ts"], event["ts"] + event.get("dur", 0))
        for event in events
        if event.get("name") in TASKS
        and event.get("ph") == "X"
        and (event["pid"], event["tid"]) == (pid, profile["tid"])
    )
    tasks: list[tuple[float, float]] = []
    for start, end in spans:  # nested tasks (a nested run loop) belong to the one around them
        if not tasks or start >= tasks[-1][1]:
            tasks.append((start, end))
    return profile, tasks


def attribute(
    profile: dict[str, Any],
    locate: Callable[[Path, list[tuple[int, int]]], dict[tuple[int, int], str]] = locate,
    tasks: list[tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """A sample belongs to the script of its innermost JavaScript frame; native frames (DOM
    calls, regular expressions) count for the JavaScript that called them, except the calls
    the extension's hooks make for the app (made_for_the_app). Also returns the
    extension's time per function (its innermost frame), to find what to fix, and, given the
    main thread's ``tasks`` (start, end in µs, on the profile's clock from its ``startTime``),
    the most of the extension's time in one task and its functions."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    owner: dict[int, int] = {}  # node → its innermost script frame, or the root-level entry

    def frame_of(node_id: int) -> int:
        walked = []
        while node_id not in owner:
            if nodes[node_id]["callFrame"]["url"] or node_id not in parent:
                owner[node_id] = node_id
                break
            walked.append(node_id)
            node_id = parent[node_id]
        for walked_id in walked:
            owner[walked_id] = owner[node_id]
        return owner[node_id]

    ours: dict[Path, set[tuple[int, int]]] = {}
    for node in profile["nodes"]:
        script = script_of(node["callFrame"]["url"])
        if script is not None:
            ours.setdefault(script, set()).add((node["callFrame"]["lineNumber"], node["callFrame"]["columnNumber"]))
    source = {
        (script, position): where
        for script, positions in ours.items()
        for position, where in locate(script, sorted(positions)).items()
    }
    extension = busy = 0.0
    functions: Counter[str] = Counter()
    tasks = tasks or []
    starts = [start for start, _ in tasks]
    per_task: Counter[int] = Counter()
    per_task_functions: dict[int, Counter[str]] = {}
    at_us = profile.get("startTime", 0)
    for node_id, delta_us in zip(profile["samples"], profile["timeDeltas"], strict=True):
        at_us += delta_us
        frame = nodes[frame_of(node_id)]["callFrame"]
        # "(idle)" and the bare root are the main thread waiting.
        if frame["url"] or frame["functionName"] not in ("(idle)", "(root)"):
            busy += delta_us
        script = script_of(frame["url"])
        if script is None:
            continue
        at = source[(script, (frame["lineNumber"], frame["columnNumber"]))]
        call = nodes[node_id]["callFrame"]
        if not call["url"] and made_for_the_app(call["functionName"], at):
            continue
        extension += delta_us
        functions[at] += delta_us
        task = bisect.bisect_right(starts, at_us) - 1
        if task >= 0 and at_us <= tasks[task][1]:
            per_task[task] += delta_us
            per_task_functions.setdefault(task, Counter())[at] += delta_us
    top = {name: round(us / 1000, 2) for name, us in functions.most_common(8)}
    [(longest, longest_us)] = per_task.most_common(1) or [(-1, 0)]
    in_longest = per_task_functions.get(longest, Counter())
    return {
        "extension_ms": extension / 1000,
        "busy_ms": busy / 1000,
        "extension_functions": top,
        "longest_task_ms": longest_us / 1000,
        "longest_task_functions": {name: round(us / 1000, 2) for name, us in in_longest.most_common(8)},
    }


@contextmanager
def open_tab(browser: Browser, mode: Mode, bundle: Path = BUNDLE, fault: str | None = None) -> Iterator[Tab]:
    """``fault``: an extension module switched off (its `owc:fault` switch), to weigh its part."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(path=str(PROBE))
    if fault:
        context.add_init_script(f"localStorage.setItem('owc:fault', {fault!r})")

    body = bundle.read_bytes() if mode == "with" else b""

    def serve_loader(route: Route) -> None:
        route.fulfill(status=200, content_type="application/javascript", body=body)

    def serve_part(route: Route) -> None:  # what the installer puts beside loader.js
        part = script_of(route.request.url)
        if mode == "with" and part is not None and part.is_file():
            route.fulfill(status=200, content_type="application/javascript", body=part.read_bytes())
        else:
            route.fulfill(status=404, body=b"")

    context.route(f"**{EXTENSION_URL}*", serve_loader)
    context.route(f"**{PARTS_URL}*", serve_part)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    try:
        yield Tab(page, cdp, mode)
    finally:
        context.close()
