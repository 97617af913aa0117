"""The table of docs/compatibility.md, from the last `make test-matrix` run.

    python scripts/compat_table.py 0.6.43 0.7.2 …   # results of those versions -> docs/compat.json -> the table
    python scripts/compat_table.py                  # the table again from docs/compat.json

Each end-to-end run leaves test-results/e2e-<version>.json (tests/e2e/results.py). Per version,
the scenario tests give three cells: streaming, non-streaming (each: the answer as it arrives),
after reload (the same answers from stored data); the other end-to-end tests give a fourth.
A limit of Open WebUI that a test asserts is a gap, with its measured reason; a condition the
tests had on a version (such as the mock's time to first token) is named with its reason; a
failure is shown with its error.
"""

import argparse
import datetime
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = ROOT / "test-results"
COMPAT_JSON = ROOT / "docs" / "compat.json"
PAGE = ROOT / "docs" / "compatibility.md"
START, END = "<!-- compat-table:start -->", "<!-- compat-table:end -->"
# The README's claim, the same words as the page's.
README = ROOT / "README.md"
CLAIM_START, CLAIM_END = "<!-- compat-claim:start -->", "<!-- compat-claim:end -->"
SCENARIO_TEST = "test_scenario_shows_its_sources_and_keeps_them_after_reload"
COLUMNS = ["streaming", "non-streaming", "after reload", "other e2e tests"]


def _gaps(label: str, gap: str) -> dict[str, str]:
    """A test's gap: one reason, or several scenarios' (devstack/limits.py, `gaps_named`: a JSON object)."""
    try:
        named = json.loads(gap)
    except ValueError:
        return {label: gap}
    return named if isinstance(named, dict) else {label: gap}


def _label(test: dict) -> str:
    params = test["params"]
    if "model" in params:
        return params["model"]
    return test["name"].removeprefix("test_").replace("_", " ")


def _cell(tests: list[dict], works: Callable[[dict], bool], error: Callable[[dict], str]) -> dict:
    """Tests of one cell: how many worked, the asserted gaps, the failures with their error."""
    cell: dict = {"works": 0, "total": len(tests), "gaps": {}, "failures": {}}
    for test in tests:
        if "gap" in test:
            cell["gaps"][_label(test)] = test["gap"]
        elif works(test):
            cell["works"] += 1
        else:
            cell["failures"][_label(test)] = error(test)
    return cell


def _passed(test: dict) -> bool:
    return test["outcome"] == "passed"


def _live(test: dict) -> bool:
    """The answer was right as it arrived: the test passed, or failed only after the reload."""
    return _passed(test) or test["phase"] == "reload"


def _error(test: dict) -> str:
    return test.get("error", test["outcome"])


def _reload_error(test: dict) -> str:
    return _error(test) if test["phase"] == "reload" else "not reached: failed before the reload"


def summarize(results: dict) -> dict:
    tests = results["tests"]
    scenario = [t for t in tests if t["name"] == SCENARIO_TEST]
    return {
        "open_webui": results["open_webui"],
        **({"condition": results["condition"]} if "condition" in results else {}),
        "date": results["date"],
        "selection": results["selection"],
        "cells": {
            "streaming": _cell([t for t in scenario if t["params"].get("stream") is True], _live, _error),
            "non-streaming": _cell([t for t in scenario if t["params"].get("stream") is False], _live, _error),
            "after reload": _cell([t for t in scenario if "gap" not in t], _passed, _reload_error),
            "other e2e tests": _cell([t for t in tests if t["name"] != SCENARIO_TEST], _passed, _error),
        },
    }


def render(compat: dict) -> str:
    notes: list[str] = []

    def note(text: str) -> int:
        if text not in notes:
            notes.append(text)
        return notes.index(text) + 1

    rows = []
    for version in compat["versions"]:
        if version.get("missing"):
            rows.append(
                f"| {version['open_webui']} | "
                + " | ".join(["no results: the run did not finish"] * len(COLUMNS))
                + " |"
            )
            continue
        label = version["open_webui"] + (f" [{note(version['condition'])}]" if "condition" in version else "")
        cells = []
        for column in COLUMNS:
            cell = version["cells"][column]
            if cell["total"] == 0:
                cells.append("not run")
                continue
            ok = cell["works"] + len(cell["gaps"])
            text = f"works ({ok}/{cell['total']})" if not cell["failures"] else f"**fails** ({ok}/{cell['total']})"
            marks = [
                f"`{name}` gap [{note(reason)}]"
                for label, gap in cell["gaps"].items()
                for name, reason in _gaps(label, gap).items()
            ]
            marks += [
                f"`{name}` fails [{note(version['open_webui'] + f' {name}: {error}')}]"
                for name, error in cell["failures"].items()
            ]
            cells.append(text + ("; " + ", ".join(marks) if marks else ""))
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    lines = [
        START,
        f"Last `make test-matrix` run: {compat['date']}. Each cell counts the end-to-end tests of that column that",
        "passed; a gap is a limit of Open WebUI itself, asserted by the tests, with its reason below. The",
        "other end-to-end tests are `make test`'s, on the pinned and the oldest line (`MATRIX_ARGS=`: here too).",
        "",
        "| Open WebUI | " + " | ".join(COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
        *rows,
        "",
        *[f"{n}. {text}" for n, text in enumerate(notes, 1)],
        END,
    ]
    return "\n".join(lines)


def claim(compat: dict) -> str:
    """One sentence of what the run measured: the scenario tests, counted over every version."""
    versions = [v for v in compat["versions"] if not v.get("missing")]
    cells = [v["cells"][mode] for v in versions for mode in ("streaming", "non-streaming")]
    total = sum(c["total"] for c in cells)
    works = sum(c["works"] for c in cells)
    gaps = sum(len(c["gaps"]) for c in cells)
    failures = sum(len(c["failures"]) for c in cells)
    reloaded = [v["cells"]["after reload"] for v in versions]
    kept = sum(c["works"] for c in reloaded)
    lines = ", ".join(v["open_webui"] for v in versions)
    missing = [v["open_webui"] for v in compat["versions"] if v.get("missing")]
    text = (
        f"Measured by `make test-matrix` on {compat['date']}, on Open WebUI {lines}: of {total} answers (every "
        f"scenario, streamed and not, on each line), {works} showed their sources and {gaps} met a limit of "
        f"Open WebUI itself (a gap, named with its reason in docs/compatibility.md)"
        + (f"; {failures} failed" if failures else "")
        + f"; after a reload, {kept} of {sum(c['total'] for c in reloaded)} answers showed them again"
        + (f"; no results for {', '.join(missing)}" if missing else "")
        + "."
    )
    return f"{CLAIM_START}\n{text}\n{CLAIM_END}"


def _replace(path: Path, start: str, end: str, section: str) -> None:
    text = path.read_text()
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        sys.exit(f"{path}: no {start} … {end} section to replace")
    path.write_text(pattern.sub(lambda _: section, text))


def update_page(compat: dict) -> None:
    _replace(PAGE, START, END, render(compat))
    for path in (PAGE, README):
        _replace(path, CLAIM_START, CLAIM_END, claim(compat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", help="Open WebUI versions of the matrix run, oldest first")
    args = parser.parse_args()
    if args.versions:
        results = {v: RESULTS_DIR / f"e2e-{v}.json" for v in args.versions}
        versions = [
            summarize(json.loads(path.read_text())) if path.exists() else {"open_webui": v, "missing": True}
            for v, path in results.items()
        ]
        compat = {"date": datetime.date.today().isoformat(), "versions": versions}
        COMPAT_JSON.write_text(json.dumps(compat, indent=1, ensure_ascii=False) + "\n")
    update_page(json.loads(COMPAT_JSON.read_text()))


if __name__ == "__main__":
    main()
