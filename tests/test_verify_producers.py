"""Every named producer is whole (scripts/verify_producers.py), and a piece missing is named by its file."""

import json
import shutil
from pathlib import Path

import pytest

from mock_server import registry
from mock_server.registry import PRODUCERS
from mock_server.registry import load_scenarios
from scripts import new_producer
from scripts import verify_producers
from scripts.verify_producers import MARKUP
from scripts.verify_producers import problems
from scripts.verify_producers import verify_folder

# Loaded before a test moves the producers folder.
KNOWN = load_scenarios()


def test_every_producer_is_whole() -> None:
    assert problems() == []


@pytest.fixture
def acme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A producer folder `acme` whose scenario is Volcengine Ark's, in a producers folder of its own."""
    monkeypatch.setattr(registry, "PRODUCERS", tmp_path)
    folder = tmp_path / "acme"
    folder.mkdir()
    shutil.copy(PRODUCERS / "volcengine-ark" / "scenario.yaml", folder / "scenario.yaml")
    return folder


def found(folder: Path) -> list[str]:
    return list(verify_folder(folder, KNOWN))


def test_a_folder_with_only_its_scenario_is_told_each_file_to_add(acme: Path) -> None:
    assert [problem.split(":")[0].rsplit("/", 1)[-1] for problem in found(acme)] == [
        "hostile.yaml",
        "expected.json",
        "seen.json",
    ]


def test_an_expectation_of_a_format_without_its_parser_names_the_parser(acme: Path) -> None:
    (acme / "expected.json").write_text(json.dumps({"acme": {"format": "acme", "titles": [], "spans": []}}))
    named = [problem.split(":")[0] for problem in found(acme) if "'acme'" in problem]
    assert named == [str(acme / "format.ts")]


def test_a_parser_not_registered_and_without_its_shape_names_the_registry_and_the_shape(acme: Path) -> None:
    (acme / "format.ts").write_text("export const acme: Format = {\n  name: 'acme',\n};\n")
    named = [problem.split(":")[0] for problem in found(acme) if "'acme'" in problem]
    assert named == ["extension/src/core/formats/index.ts", str(acme / "shape.ts")]


def test_a_producers_code_imports_only_the_core(acme: Path) -> None:
    (acme / "format.ts").write_text(
        "import { str } from '../../extension/src/core/json.js';\n"
        "import { x } from '../../extension/src/host/answers.js';\n"
        "import { y } from '../../extension/src/capture/fetch.js';\n"
        "import { z } from 'some-package';\n"
        "import { w } from './shape.js';\n"
        "export const acme: Format = {\n  name: 'acme',\n};\n"
    )
    (acme / "shape.ts").write_text(
        "import fc from 'fast-check';\n"
        "import { shaped } from '../../extension/test-support/hostile.js';\n"
        "import { persist } from '../../extension/src/persist/outbox.js';\n"
    )
    refused = [problem.split(": imports ")[1].split(":")[0] for problem in found(acme) if ": imports " in problem]
    assert refused == [
        "'../../extension/src/host/answers.js'",
        "'../../extension/src/capture/fetch.js'",
        "'some-package'",
        "'./shape.js'",
        "'../../extension/src/persist/outbox.js'",
    ]


def test_entries_must_be_the_folders_scenarios(acme: Path) -> None:
    (acme / "seen.json").write_text(json.dumps({"acme-typo": {}}))
    seen = [problem for problem in found(acme) if "seen.json" in problem]
    assert any("add an entry for scenario 'acme'" in problem for problem in seen)
    assert any("entry 'acme-typo' names no scenario" in problem for problem in seen)


def test_a_scenario_missing_from_a_recorded_line_names_the_recording(
    acme: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verify_producers, "recordings", lambda: {"markup/open-webui-9.9.9.json": ((9, 9, 9), set())})
    (acme / "seen.json").write_text(json.dumps({"acme": {}}))
    recorded = [problem for problem in found(acme) if problem.startswith("markup/open-webui-9.9.9.json")]
    assert recorded == [
        "markup/open-webui-9.9.9.json: 'acme' is not recorded (streamed live, streamed reloaded, not streamed live, "
        "not streamed reloaded): make record-markup OWUI_VERSION=9.9.9, or a gap in devstack/limits.py"
    ]


def test_a_core_reader_without_a_wire_shape_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    shapes = verify_producers.core_wire_shapes() - {"text-list"}
    monkeypatch.setattr(verify_producers, "core_wire_shapes", lambda: shapes)
    assert problems() == [
        "extension/test-support/hostile.ts: add a wire shape for 'text-list' to CORE_WIRE_FORMATS "
        "(the core's property tests)"
    ]


def test_a_scaffolded_producer_lacks_only_its_registry_line_and_recordings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "PRODUCERS", tmp_path)
    monkeypatch.setattr(new_producer, "PRODUCERS", tmp_path)
    shutil.copy(PRODUCERS / "_hostile-payloads.yaml", tmp_path)
    new_producer.scaffold("acme-search")
    remaining = [problem.split(":")[0] for problem in found(tmp_path / "acme-search")]
    assert remaining == [
        f"extension/test-support/markup/{recording.name}" for recording in sorted(MARKUP.glob("*.json"))
    ] + ["extension/src/core/formats/index.ts"]


def test_a_built_in_declaration_is_checked_by_the_cores_validator_and_must_be_registered(acme: Path) -> None:
    declaration = acme / "declaration.json"
    declaration.write_text(
        json.dumps({"backends": [{"sources": {"path": "hits"}, "fields": {"title": "t", "url": "u"}}]})
    )
    assert [problem.split(": ", 1)[1] for problem in verify_producers.declaration_problems([declaration])] == [
        'backends[0]: fields: without "models", must name "number", the field that claims a list',
        "add builtInDeclaration('acme', …) to FORMATS, for " + str(declaration),
    ]
    declaration.write_text(
        json.dumps({"backends": [{"models": ["m"], "sources": {"path": "hits"}, "fields": {"title": "t", "url": "u"}}]})
    )
    assert "a built-in reads any model's answers" in next(verify_producers.declaration_problems([declaration]))
    declaration.write_text("{")
    assert "not JSON" in next(verify_producers.declaration_problems([declaration]))


def test_every_built_in_declaration_is_registered_under_its_producers_name() -> None:
    declared = {path.parent.name for path in PRODUCERS.glob("*/declaration.json")}
    assert declared and declared <= set(verify_producers.registered_formats())
