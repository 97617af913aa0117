"""`make bench`'s own logic: a run that leaves a figure unmeasured fails, the time is the app's or the
extension's by who called, and a hot function is named by its source line."""

import json
import subprocess
from pathlib import Path

from devstack.processes import ROOT


def test_a_run_that_leaves_a_figure_unmeasured_fails_and_names_it() -> None:
    """`make bench BENCH_ARGS=--smoke` proves the benchmark still runs: it fails when a figure
    has no value with the extension, or none without it where the target compares the two."""
    from bench.report import row
    from bench.report import unmeasured

    measured = row("1. streaming", "ms", [10.0], [8.0], judged="ratio", limit=1.5)
    reference = row("2. reload", "ms", [40.0])  # no target: the side without is not needed
    assert unmeasured([measured, reference]) == []
    assert unmeasured([measured, row("3. latency", "ms", [], [8.0])]) == ["3. latency"]
    assert unmeasured([row("4. heap", "MB", [12.0], [], judged="added", limit=2)]) == ["4. heap"]


def test_the_apps_calls_through_the_extensions_hooks_count_for_the_app() -> None:
    """The page's own fetch and setAttribute go through the extension's hooks: their native
    time is Open WebUI's. The extension's own fetch (storing sources) and DOM calls are its."""
    from bench.browser import attribute

    def frame(node_id: int, name: str, url: str, children: list[int]) -> dict:
        return {
            "id": node_id,
            "callFrame": {"functionName": name, "url": url, "lineNumber": 0, "columnNumber": node_id},
            "children": children,
        }

    loader, app = "http://owui/static/loader.js", "http://owui/_app/immutable/chunk.js"
    profile = {
        "nodes": [
            frame(1, "(root)", "", [2, 4, 6, 8, 10]),
            frame(2, "i", loader, [3]),
            frame(3, "fetch", "", []),  # the app's request, through our hook
            frame(4, "storedMessage", loader, [5]),
            frame(5, "fetch", "", []),  # our own request
            frame(6, "St", loader, [7]),
            frame(7, "setAttribute", "", []),  # the app's attribute
            frame(8, "el", loader, [9]),
            frame(9, "setAttribute", "", []),  # ours, on our own button
            frame(10, "render", app, []),
        ],
        "samples": [3, 5, 7, 9, 10, 2],
        "timeDeltas": [1000, 2000, 4000, 8000, 16000, 32000],
    }
    # Where the minified functions come from (the bundle's source map, in a real profile).
    sources = {2: "capture/fetch.ts:51", 4: "persist/openwebui.ts:60", 6: "ui/favicons.ts:34", 8: "ui/dom.ts:12"}
    measured = attribute(
        profile, lambda _script, positions: {(line, column): sources[column] for line, column in positions}
    )
    assert measured["extension_ms"] == 2 + 8 + 32  # our fetch, our setAttribute, the hook's own JavaScript
    assert measured["busy_ms"] == 63
    assert measured["extension_functions"]["capture/fetch.ts:51"] == 32


def test_a_hot_function_is_named_by_its_source_file_line_and_name(tmp_path: Path) -> None:
    """bench/locate.mjs, on a source map of two functions: the line says where, the name what."""
    source = (
        "// x\nexport function linkTextMarkers(root) {\n  return 1;\n}\nconst spansOf = (a) => a;\n"
        "  guard('persist', (state) => {\n"
    )
    # Generated line 1, column 0 -> source line 2; column 10 -> line 5; column 20 -> line 6 (base64 VLQ).
    source_map = {"version": 3, "sources": ["../src/ui/message.ts"], "sourcesContent": [source], "names": []}
    (tmp_path / "bundle.js.map").write_text(json.dumps({**source_map, "mappings": "AACA,UAGA,UACA"}))
    located = subprocess.run(
        ["node", str(ROOT / "bench" / "locate.mjs"), str(tmp_path / "bundle.js.map")],
        input="[[0, 0], [0, 12], [0, 22]]",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # A callback handed to a call has no name of its own: not the callee's.
    assert json.loads(located) == ["ui/message.ts:2 linkTextMarkers", "ui/message.ts:5 spansOf", "ui/message.ts:6"]


def test_the_longest_task_is_the_most_of_the_extensions_time_within_one_task_of_the_trace() -> None:
    """From a DevTools trace: the page's main thread (the profile that ran Open WebUI's scripts),
    its top-level tasks (a nested run loop's inside them), and our samples counted by task."""
    from bench.browser import attribute
    from bench.browser import main_thread

    loader, app = "http://owui/static/loader.js", "http://owui/_app/immutable/chunk.js"

    def node(node_id: int, url: str, parent: int | None = None) -> dict:
        frame = {"functionName": "f", "url": url, "lineNumber": 0, "columnNumber": node_id}
        return {"id": node_id, "callFrame": frame, **({"parent": parent} if parent else {})}

    def chunk(pid: int, nodes: list[dict], samples: list[int], deltas: list[int]) -> dict:
        data = {"cpuProfile": {"nodes": nodes, "samples": samples}, "timeDeltas": deltas}
        return {"ph": "P", "name": "ProfileChunk", "pid": pid, "tid": 99, "id": "0x1", "args": {"data": data}}

    def task(tid: int, ts: int, dur: int) -> dict:
        return {"ph": "X", "name": "RunTask", "pid": 1, "tid": tid, "ts": ts, "dur": dur}

    events = [
        {"ph": "P", "name": "Profile", "pid": 1, "tid": 7, "id": "0x1", "args": {"data": {"startTime": 100_000}}},
        # Samples at 101, 103 (ours, task 1), 112 (the app's, task 2), 120 and 126 ms (ours, task 2).
        chunk(1, [node(1, ""), node(2, loader, 1), node(3, app, 1)], [2, 2], [1000, 2000]),
        chunk(1, [], [3, 2, 2], [9000, 8000, 6000]),
        {"ph": "P", "name": "Profile", "pid": 2, "tid": 7, "id": "0x1", "args": {"data": {"startTime": 0}}},
        chunk(2, [node(1, ""), node(2, "http://other/worker.js", 1)], [2], [1000]),  # another process
        task(7, 100_000, 10_000),
        task(7, 110_000, 20_000),
        task(7, 115_000, 1_000),  # nested in the one before
        task(8, 100_000, 50_000),  # another thread
    ]
    profile, tasks = main_thread(events)
    assert tasks == [(100_000, 110_000), (110_000, 130_000)]
    measured = attribute(profile, lambda _script, positions: dict.fromkeys(positions, "ui/message.ts:1"), tasks)
    assert measured["extension_ms"] == 17
    assert measured["longest_task_ms"] == 14
    assert measured["longest_task_functions"] == {"ui/message.ts:1": 14}


def test_a_part_loaded_on_first_use_counts_for_the_extension_located_by_its_own_source_map() -> None:
    """The modal's code comes in a part beside loader.js (extension/build.mjs): its samples are
    the extension's, its functions found in that part's source map, not the first part's."""
    from bench.browser import BUNDLE
    from bench.browser import PARTS
    from bench.browser import attribute

    def frame(node_id: int, url: str, children: list[int]) -> dict:
        call = {"functionName": "f", "url": url, "lineNumber": 0, "columnNumber": node_id}
        return {"id": node_id, "callFrame": call, "children": children}

    owui = "http://owui/static/"
    profile = {
        "nodes": [
            frame(1, "", [2, 3, 4]),
            frame(2, owui + "loader.js", []),
            frame(3, owui + "owui-citations-parts/features.js", []),
            frame(4, owui + "owui-citations-parts/../../app.js", []),  # no part of ours
        ],
        "samples": [2, 3, 4],
        "timeDeltas": [1000, 2000, 4000],
    }
    maps = {BUNDLE: "ui/message.ts:1", PARTS / "features.js": "ui/modal.ts:1"}
    measured = attribute(profile, lambda script, positions: dict.fromkeys(positions, maps[script]))
    assert measured["extension_ms"] == 3
    assert measured["extension_functions"] == {"ui/message.ts:1": 1, "ui/modal.ts:1": 2}
