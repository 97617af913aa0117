"""Pytest hooks: every run of the end-to-end tests writes what it found, per test, to
test-results/e2e-<Open WebUI version>.json, the input of the compatibility table
(scripts/compat_table.py). A test says how far it got with `record_property("phase", …)` and
names an asserted limit of Open WebUI with `record_property("gap", reason)` and what it counted
with `record_property("measured", {…})`; a condition the whole run had on this version
(devstack/limits.py) and what the browser requested in the run (egress.py) are written beside
the tests."""

import datetime
import json
from pathlib import Path

import pytest

from devstack.delivery import DELIVERY
from devstack.limits import condition_for
from devstack.owui import installed_version
from devstack.processes import ROOT
from devstack.processes import exclusive
from devstack.stack import OWUI_VENV
from tests.e2e.egress import EGRESS

RESULTS_DIR = ROOT / "test-results"


def results_path(version: str) -> Path:
    """One file per version; a run through the browser extension or the userscript, one of its own."""
    return RESULTS_DIR / (f"e2e-{version}.json" if DELIVERY == "loader" else f"e2e-{version}-{DELIVERY}.json")


_records: list[dict] = []


def failure(report: pytest.TestReport) -> str:
    """The first line of what failed: the assertion or the exception."""
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash else report.longreprtext
    return (text.strip().splitlines() or [""])[0][:300]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    failed_in_setup = report.when == "setup" and report.failed
    if (report.when == "call" or failed_in_setup or report.skipped) and item.get_closest_marker("e2e"):
        properties = dict(item.user_properties)
        params = getattr(item, "callspec", None)
        _records.append(
            {
                "test": item.nodeid,
                "name": getattr(item, "originalname", item.name),
                "params": {k: v for k, v in (params.params if params else {}).items() if isinstance(v, (str, bool))},
                "outcome": report.outcome,
                "phase": properties.get("phase", "live"),
                **({key: properties[key] for key in ("gap", "measured") if key in properties}),
                **({"error": failure(report)} if report.failed else {}),
                "seconds": round(report.duration, 1),
            }
        )
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A run of some tests updates theirs and keeps the others' last results: running one test
    again does not lose a whole matrix run. The workers of one run (pytest -n) each add theirs, one
    at a time, and their requests add up."""
    if not _records:
        return
    version = installed_version(OWUI_VENV)
    version_name = ".".join(map(str, version)) or "unknown"
    path = results_path(version_name)
    RESULTS_DIR.mkdir(exist_ok=True)
    worker = getattr(session.config, "workerinput", None)
    run = worker["testrunuid"] if worker else None
    egress = {"requests": EGRESS.requests, "to_links_clicked": len(EGRESS.declared), "unexpected": EGRESS.unexpected}
    today = datetime.date.today().isoformat()
    fresh = {record["test"]: {**record, "date": today} for record in _records}
    with exclusive(path.with_suffix(".lock")):
        try:
            earlier = json.loads(path.read_text())
        except (OSError, ValueError):
            earlier = None
        if not isinstance(earlier, dict):
            earlier = {}
        if run is not None and earlier.get("run") == run:  # another worker's part of this run
            egress = {key: earlier["egress"][key] + value for key, value in egress.items()}
        tests = [test for test in earlier.get("tests", []) if test.get("test") not in fresh] + list(fresh.values())
        path.write_text(
            json.dumps(
                {
                    "open_webui": version_name,
                    **({"condition": condition} if (condition := condition_for(version)) else {}),
                    "date": min(test.get("date", today) for test in tests),  # of the oldest result kept
                    "selection": " ".join(session.config.invocation_params.args),  # of the last run
                    **({"run": run} if run else {}),
                    "egress": egress,  # of the last run, all its workers
                    "tests": tests,
                },
                indent=1,
            )
            + "\n"
        )
