"""`make bench` runs: its smoke mode measures every figure, with and without the extension."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from devstack.stack import ROOT

pytestmark = pytest.mark.e2e


# Its own stack and eight figures take about 4.5 minutes on an idle 2-core machine: more than the
# suite's per-test limit under load, as long as the run's own timeout.
@pytest.mark.timeout(900)
def test_benchmark_smoke_run_measures_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["commit"] not in ("", "unknown")  # the hot functions' lines are this commit's
    rows = results["rows"]
    figures = {row["metric"].split(".")[0] for row in rows}
    assert figures == {"1", "2", "3", "4", "5", "6", "7", "8"}
    assert all(row["with_median"] is not None for row in rows), [r["metric"] for r in rows if r["with_median"] is None]
    compared = [row for row in rows if row["target"].startswith(("ratio", "added"))]
    assert compared and all(row["without_median"] is not None and row["passed"] is not None for row in compared)


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
    measured = attribute(profile, lambda positions: {(line, column): sources[column] for line, column in positions})
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
