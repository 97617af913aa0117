"""A five-second run of `make soak`: concurrent streamed and plain requests on every endpoint
against a real mock server process all succeed, and the report is written. Throughput and
memory are reported, not asserted (they belong to the long run)."""

import json
from pathlib import Path

from bench.soak import soak
from bench.soak import table


def test_short_soak_has_no_errors_and_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    report = soak(seconds=5, concurrency=8, out=out)
    assert report["errors"] == 0, report["first_errors"]
    assert report["streamed"] > 0 and report["requests"] > report["streamed"]
    assert {"chat stream", "chat body", "responses stream", "responses body", "completions body"} <= set(
        report["by_call"]
    )
    assert json.loads(out.read_text()) == report
    assert report["rss_mib"]["samples"] >= 2 and "requests/s" in table(report)
