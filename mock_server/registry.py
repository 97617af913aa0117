"""Loads scenario files and checks each one renders, so a broken file stops the server at
start-up with its name and reason instead of failing a request later."""

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .rendering import check_renders
from .scenarios import Scenario
from .templates import TemplateError

BUILT_IN_SCENARIOS = Path(__file__).parent / "scenarios"
SAMPLE_BASE_URL = "http://127.0.0.1:9000/"


class ScenarioError(Exception):
    """A scenario file that cannot be served; the message starts with the file's path."""


def _read(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    if not isinstance(data, dict):
        raise ValueError("the file must hold a mapping (name: value pairs) at the top level")
    return data


def _expand_variants(path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    """A file may declare variants: the same scenario with some keys (or vars) replaced."""
    variants = data.pop("variants", None) or {}
    base = {"name": path.stem, **data}
    expanded = [base]
    for name, changes in variants.items():
        changes = dict(changes or {})
        merged_vars = {**base.get("vars", {}), **changes.pop("vars", {})}
        expanded.append({**base, **changes, "vars": merged_vars, "name": name})
    return expanded


def load_file(path: Path) -> list[Scenario]:
    try:
        scenarios = [Scenario.model_validate(raw) for raw in _expand_variants(path, _read(path))]
        for scenario in scenarios:
            check_renders(scenario, SAMPLE_BASE_URL)
    except (OSError, ValueError, yaml.YAMLError, ValidationError, TemplateError, KeyError, TypeError) as error:
        raise ScenarioError(f"{path}: {error}") from error
    return scenarios


def load_scenarios(extra_dirs: list[Path] = ()) -> dict[str, Scenario]:
    """Built-in scenarios plus every *.yaml, *.yml and *.json file in ``extra_dirs``."""
    registry: dict[str, Scenario] = {}
    for directory in [BUILT_IN_SCENARIOS, *extra_dirs]:
        if not directory.is_dir():
            raise ScenarioError(f"{directory}: not a directory")
        for path in sorted(directory.iterdir()):
            if path.suffix not in {".yaml", ".yml", ".json"}:
                continue
            for scenario in load_file(path):
                if scenario.name in registry:
                    raise ScenarioError(f"{path}: scenario {scenario.name!r} is already defined by another file")
                registry[scenario.name] = scenario
    return registry
