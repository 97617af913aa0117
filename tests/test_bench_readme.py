"""The README's performance table is the committed run's (bench/results.json), generated, and
every target that run missed says its measured cause."""

from bench.readme import README, load
from bench.report import BEGIN, END, markdown, missed_without_cause


def test_the_readmes_performance_table_is_generated_from_the_committed_run() -> None:
    results, causes = load()
    readme = README.read_text()
    assert readme[readme.index(BEGIN):readme.index(END) + len(END)] == markdown(results, causes), \
        "run `python -m bench.readme` (make bench does) after changing bench/results.json or bench/causes.yaml"


def test_the_committed_run_is_a_full_one_and_each_missed_target_has_its_cause() -> None:
    results, causes = load()
    assert not results["smoke"] and results["sizes"]["reps"] >= 10 and not results["failed"]
    assert missed_without_cause(results, causes) == []
