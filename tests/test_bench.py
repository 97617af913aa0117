"""`make bench` runs: its smoke mode measures every figure, with and without the extension."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from devstack.stack import ROOT

pytestmark = pytest.mark.e2e


def test_benchmark_smoke_run_measures_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = subprocess.run([sys.executable, "-m", "bench", "--smoke", "--out", str(out)], cwd=ROOT,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]
    figures = {row["metric"].split(".")[0] for row in rows}
    assert figures == {"1", "2", "3", "4", "5", "6", "7"}
    assert all(row["with_median"] is not None for row in rows), [r["metric"] for r in rows if r["with_median"] is None]
    compared = [row for row in rows if row["target"].startswith(("ratio", "added"))]
    assert compared and all(row["without_median"] is not None and row["passed"] is not None for row in compared)
