"""The performance table of docs/performance.md is the committed run's (bench/results.json), generated, and
every target that run missed says its measured cause."""

from dataclasses import asdict

from bench.page import PAGE
from bench.page import load
from bench.report import BEGIN
from bench.report import END
from bench.report import markdown
from bench.report import missed_without_cause
from bench.report import row


def test_the_performance_table_is_generated_from_the_committed_run() -> None:
    results, causes = load()
    page = PAGE.read_text()
    assert page[page.index(BEGIN) : page.index(END) + len(END)] == markdown(results, causes), (
        "run `python -m bench.page` (make bench does) after changing bench/results.json or bench/causes.yaml"
    )


def test_the_committed_run_is_a_full_one_and_each_missed_target_has_its_cause() -> None:
    results, causes = load()
    assert not results["smoke"] and results["sizes"]["reps"] >= 10 and not results["failed"]
    assert missed_without_cause(results, causes) == []


def test_a_figure_s_cause_is_stated_at_its_first_missed_row_not_at_a_row_it_only_details() -> None:
    untargeted = row("2. cold", "ms", [50.0])
    untargeted.detail = {"hottest": {"f": 1.0}}
    missed = row("2. warm", "ms", [40.0], judged="median", limit=16)
    results = {"date": "d", "machine": "m", "open_webui": "v", "chromium": "c", "smoke": False, "failed": {}}
    results |= {"sizes": {"reps": 1}, "rows": [asdict(untargeted), asdict(missed)]}
    page = markdown(results, {"2": "the measured cause"})
    assert "- 2. warm: the measured cause" in page
    assert "as above" not in page
