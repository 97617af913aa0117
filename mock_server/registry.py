"""Loads scenario files and checks each one renders, so a broken file stops the server at
start-up with its name and reason instead of failing a request later.

The named producers' scenarios live in one folder each, `producers/<name>/` (docs/contributing.md):
`scenario.yaml` is the scenario `<name>`, `hostile.yaml` is `hostile-<name>`, `malformed.yaml` and
`malformed-<case>.yaml` are `malformed-<name>` and `malformed-<name>-<case>`. A scenario family is a
folder or a glob pattern of files (HOSTILE, MALFORMED): both may be given to the mock server."""

import glob
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .rendering import check_renders
from .scenarios import Scenario
from .templates import TemplateError

PRODUCERS = Path(__file__).resolve().parent.parent / "producers"
BUILT_IN_SCENARIOS = PRODUCERS / "*" / "scenario.yaml"
HOSTILE = PRODUCERS / "*" / "hostile.yaml"
MALFORMED = PRODUCERS / "*" / "malformed*.yaml"
# Scenarios of a declared backend: no producer of their own, served only when asked for.
DECLARED = Path(__file__).parent / "scenarios" / "declared"
SAMPLE_BASE_URL = "http://127.0.0.1:9000/"


class ScenarioError(Exception):
    """A scenario file that cannot be served; the message starts with the file's path."""


def _parse(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def _include_root(folder: Path) -> Path:
    """Where an included file may be: the including file's folder, or for a producer's file every
    producer folder (the payloads all hostile scenarios share)."""
    folder = folder.resolve()
    return PRODUCERS if folder.is_relative_to(PRODUCERS) else folder


def _resolve_includes(value: Any, folder: Path) -> Any:
    """``{$include: file}`` becomes that file's content: data that several scenario files
    share (a list of payloads). The path is relative to the including file and stays in its folder
    (a producer's, in producers/)."""
    if isinstance(value, list):
        return [_resolve_includes(item, folder) for item in value]
    if not isinstance(value, dict):
        return value
    if "$include" not in value:
        return {key: _resolve_includes(item, folder) for key, item in value.items()}
    target = (folder / str(value["$include"])).resolve()
    if not target.is_relative_to(_include_root(folder)):
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


def producer_entries(file_name: str) -> dict[str, Any]:
    """Every producer folder's file of this name (`expected.json`, `seen.json`), merged: one entry per
    scenario (a folder's scenario and its variants)."""
    entries: dict[str, Any] = {}
    for path in sorted(PRODUCERS.glob(f"*/{file_name}")):
        entries.update(json.loads(path.read_text(encoding="utf-8")))
    return entries


def scenario_name(path: Path) -> str:
    """A scenario file's scenario: its file name, or in a producer folder its role and the folder's name."""
    folder = path.parent
    if folder.resolve().parent != PRODUCERS:
        return path.stem
    if path.stem == "scenario":
        return folder.name
    role, _, case = path.stem.partition("-")
    return "-".join([role, folder.name, case] if case else [role, folder.name])


def _expand_variants(path: Path, data: dict[str, Any], known: dict[str, Scenario]) -> list[dict[str, Any]]:
    """A file may extend a scenario loaded before it (its wire format, with other data), and
    declare variants: the same scenario with some keys (or vars) replaced."""
    variants = data.pop("variants", None) or {}
    extended = data.pop("extends", None)
    own_name = scenario_name(path)
    if extended is None:
        base = {"name": own_name, **data}
    elif extended in known:
        base = _with_changes(known[extended].model_dump(exclude={"name"}), data, own_name)
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


def scenario_files(source: Path) -> list[Path]:
    """The scenario files of a folder (every *.yaml, *.yml and *.json; a file whose name starts
    with "_" is data for ``$include``, not a scenario) or of a glob pattern, in name order."""
    if glob.has_magic(str(source)):
        paths = [Path(match) for match in glob.glob(str(source))]
        if not paths:
            raise ScenarioError(f"{source}: no file matches")
    elif source.is_dir():
        paths = list(source.iterdir())
    else:
        raise ScenarioError(f"{source}: not a directory")
    wanted = (p for p in paths if p.suffix in {".yaml", ".yml", ".json"} and not p.name.startswith("_"))
    # By the whole path as text: `grok2api-go/` before `grok2api/`, as their scenario names sort.
    return sorted(wanted, key=str)


def load_scenarios(extra_dirs: Sequence[Path] = ()) -> dict[str, Scenario]:
    """Built-in scenarios (every producer's) plus the scenario files of ``extra_dirs`` (folders or
    glob patterns: HOSTILE, MALFORMED), in that order."""
    registry: dict[str, Scenario] = {}
    for source in [BUILT_IN_SCENARIOS, *extra_dirs]:
        for path in scenario_files(source):
            for scenario in load_file(path, registry):
                if scenario.name in registry:
                    raise ScenarioError(f"{path}: scenario {scenario.name!r} is already defined by another file")
                registry[scenario.name] = scenario
    return registry
