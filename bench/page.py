"""Writes the table of docs/performance.md from bench/results.json and bench/causes.yaml
(`make bench` runs it after measuring): the table is generated, never copied by hand."""

import json
import sys

import yaml

from bench.report import markdown
from bench.report import missed_without_cause
from bench.report import replace_section
from devstack.processes import ROOT

RESULTS = ROOT / "bench" / "results.json"
CAUSES = ROOT / "bench" / "causes.yaml"
PAGE = ROOT / "docs" / "performance.md"


def load() -> tuple[dict, dict[str, str]]:
    causes = {str(figure): text for figure, text in (yaml.safe_load(CAUSES.read_text()) or {}).items()}
    return json.loads(RESULTS.read_text()), causes


def main() -> int:
    results, causes = load()
    PAGE.write_text(replace_section(PAGE.read_text(), markdown(results, causes)))
    unexplained = missed_without_cause(results, causes)
    if unexplained:
        print(
            "bench: a missed target has no measured cause in bench/causes.yaml: " + "; ".join(unexplained),
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
