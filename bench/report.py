"""Benchmark rows: medians and 95th percentiles of each side, the verdict against a target,
printed as a table and written as JSON. A missed target is reported, never raised."""

import json
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

Judged = Literal["median", "p95", "ratio", "added"]


def p95(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass
class Row:
    metric: str
    unit: str
    with_median: float | None
    with_p95: float | None
    without_median: float | None
    without_p95: float | None
    ratio: float | None  # with / without, medians
    target: str
    value: float | None  # what the target is judged on
    passed: bool | None  # None: no target (for reference), or nothing measured
    samples: int
    detail: dict[str, Any] | None = None  # e.g. where the extension's time went (profile)


def row(metric: str, unit: str, with_values: list[float], without_values: list[float] = (),
        judged: Judged | None = None, limit: float | None = None) -> Row:
    """``judged``: the with-side median or p95, the ratio of medians, or what the extension
    adds (with median minus without median); ``limit`` is the target's upper bound."""
    with_values, without_values = list(with_values), list(without_values)
    wm, wo = median(with_values), median(without_values)
    ratio = wm / wo if wm is not None and wo else None
    value = {"median": wm, "p95": p95(with_values), "ratio": ratio,
             "added": wm - wo if wm is not None and wo is not None else None, None: None}[judged]
    target = "" if judged is None else f"{'ratio' if judged == 'ratio' else judged} ≤ {limit:g}"
    passed = None if judged is None or value is None else value <= limit
    return Row(metric, unit, wm, p95(with_values), wo, p95(without_values), ratio, target, value, passed,
               len(with_values) + len(without_values))


def _cell(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def table(rows: list[Row]) -> str:
    header = ("metric", "with (median / p95)", "without (median / p95)", "ratio", "target", "result")
    lines = [header]
    for r in rows:
        verdict = {True: "pass", False: "MISSED", None: "—"}[r.passed]
        lines.append((f"{r.metric} [{r.unit}]", f"{_cell(r.with_median)} / {_cell(r.with_p95)}",
                      f"{_cell(r.without_median)} / {_cell(r.without_p95)}", _cell(r.ratio, 3),
                      r.target and f"{r.target} (is {_cell(r.value, 2)})", verdict))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in lines)


def write(path: Path, rows: list[Row], context: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**context, "rows": [asdict(r) for r in rows]}, indent=2, ensure_ascii=False) + "\n")
