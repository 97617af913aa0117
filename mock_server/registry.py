"""Loads scenario files and checks each one renders, so a broken file stops the server at
start-up with its name and reason instead of failing a request later."""

import json
from collections.abc import Sequence
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


def _parse(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def _resolve_includes(value: Any, folder: Path) -> Any:
    """``{$include: file}`` becomes that file's content: data that several scenario files
    share (a list of payloads). The path is relative to the including file and stays in its folder."""
    if isinstance(value, list):
        return [_resolve_includes(item, folder) for item in value]
    if not isinstance(value, dict):
        return value
    if "$include" not in value:
        return {key: _resolve_includes(item, folder) for key, item in value.items()}
    target = (folder / str(value["$include"])).resolve()
    if not target.is_relative_to(folder.resolve()):
        raise ValueError(f"$include: {value['$include']!r} is outside the folder of the including file")
    return _resolve_includes(_parse(target), target.parent)


def _read(path: Path) -> dict[str, Any]:
    data = _resolve_includes(_parse(path), path.parent)
    if not isinstance(data, dict):
        raise ValueError("the file must hold a mapping (name: value pairs) at the top level")
    return data


def _with_changes(base: dict[str, Any], changes: dict[str, Any], name: str) -> dict[str, Any]:
    """``base`` with some keys replaced and some ``vars`` entries added or replaced."""
    changes = dict(changes)
    merged_vars = {**base.get("vars", {}), **changes.pop("vars", {})}
    return {**base, **changes, "vars": merged_vars, "name": name}


def _expand_variants(path: Path, data: dict[str, Any], known: dict[str, Scenario]) -> list[dict[str, Any]]:
    """A file may extend a scenario loaded before it (its wire format, with other data), and
    declare variants: the same scenario with some keys (or vars) replaced."""
    variants = data.pop("variants", None) or {}
    extended = data.pop("extends", None)
    if extended is None:
        base = {"name": path.stem, **data}
    elif extended in known:
        base = _with_changes(known[extended].model_dump(exclude={"name"}), data, path.stem)
    else:
        raise ValueError(f"extends: no scenario {extended!r} is loaded before this file")
    return [base, *(_with_changes(base, changes or {}, name) for name, changes in variants.items())]


def load_file(path: Path, known: dict[str, Scenario] | None = None) -> list[Scenario]:
    try:
        scenarios = [Scenario.model_validate(raw) for raw in _expand_variants(path, _read(path), known or {})]
        for scenario in scenarios:
            check_renders(scenario, SAMPLE_BASE_URL)
    except (OSError, ValueError, yaml.YAMLError, ValidationError, TemplateError, KeyError, TypeError) as error:
        raise ScenarioError(f"{path}: {error}") from error
    return scenarios


def load_scenarios(extra_dirs: Sequence[Path] = ()) -> dict[str, Scenario]:
    """Built-in scenarios plus every *.yaml, *.yml and *.json file in ``extra_dirs``, in that
    order; a file whose name starts with "_" is data for ``$include``, not a scenario."""
    registry: dict[str, Scenario] = {}
    for directory in [BUILT_IN_SCENARIOS, *extra_dirs]:
        if not directory.is_dir():
            raise ScenarioError(f"{directory}: not a directory")
        for path in sorted(directory.iterdir()):
            if path.suffix not in {".yaml", ".yml", ".json"} or path.name.startswith("_"):
                continue
            for scenario in load_file(path, registry):
                if scenario.name in registry:
                    raise ScenarioError(f"{path}: scenario {scenario.name!r} is already defined by another file")
                registry[scenario.name] = scenario
    return registry
