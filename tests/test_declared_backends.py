"""Declared backends, the admin's way in: `owui-citations install --backends FILE` checks the file by
the core's rules (its Python copy, owui_citations/declared.py, must agree with the core word for word)
and installs it beside the bundle, never destroying the file it replaces."""

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from devstack.built_core import call_core
from owui_citations import declared
from owui_citations.installer import BACKENDS
from owui_citations.installer import BACKENDS_BACKUP
from tests.installer_support import ROOT
from tests.installer_support import run
from tests.installer_support import snapshot

EXAMPLES = json.loads((ROOT / "extension" / "src" / "core" / "fixtures" / "declarations.json").read_text())
GOOD = {"backends": [{"models": ["my-rag"], "sources": {"path": "references"}, "fields": {"title": "t", "url": "u"}}]}
OTHER = {"backends": [{"models": ["wiki-bot"], "sources": {"text": {"heading": "Sources"}}}]}
BAD = {"backends": [{"models": ["my-rag"], "sources": {"path": "a..b"}, "markers": "\\[\\d\\]"}]}


def test_the_python_copy_of_the_rules_is_the_cores() -> None:
    assert call_core("(core) => core.DECLARATION_RULES", None) == declared.RULES


@pytest.mark.parametrize("example", EXAMPLES["good"], ids=lambda e: e["name"])
def test_good_declarations_are_valid_for_both(example: dict[str, Any]) -> None:
    assert declared.validate(example["json"]) == (len(example["json"]["backends"]), [])


@pytest.mark.parametrize("example", EXAMPLES["bad"], ids=lambda e: e["name"])
def test_bad_declarations_get_the_cores_errors_word_for_word(example: dict[str, Any]) -> None:
    # The core's tests (core/declared.test.ts) assert the same errors of the same examples.
    assert declared.validate(example["json"])[1] == example["errors"]


def test_bounds_and_text_the_same_as_the_core() -> None:
    texts = [
        json.dumps({"backends": [{"models": [], "sources": {}}] * 30}),  # more errors than reported
        json.dumps({"backends": [{"models": ["m" * 201], "sources": {"path": "𝒙" * 150}}]}),  # UTF-16 lengths
        '{"backends": [{"models": ["m"], "sources": {"text": {"separator": true}}, "numbering": true}]}',
        '{"backends": [{"models": ["m"], "sources": {"text": {"separator": true}}, "numbering": 1.0}]}',
        " " * 100_001,
    ]
    core = call_core("(core, texts) => texts.map((t) => core.parseDeclarations(t).errors)", texts)
    assert [declared.parse(text)[1] for text in texts] == core
    assert core[0][-1] == "… and 10 more" and core[2] == ['backends[0] ("m"): numbering: must be 0 or 1']


def install_backends(frontend: Path, bundle: Path, backends: str) -> "subprocess.CompletedProcess[str]":  # noqa: F811
    """`owui-citations install --backends`."""
    return run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle), "--backends", backends)


def write(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value))
    return path


def test_install_with_backends_puts_them_beside_the_bundle_and_keeps_the_one_it_replaces(
    frontend: Path,  # noqa: F811
    bundle: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    static = frontend / "static"
    result = install_backends(frontend, bundle, str(write(tmp_path / "a.json", GOOD)))
    assert result.returncode == 0, result.stderr
    assert f"Declared backends: 1, installed as {static / BACKENDS}" in result.stdout
    assert run("check-backends", "--backends", str(tmp_path / "a.json")).stdout.endswith(
        "valid, declared backends: 1.\n"
    )
    assert json.loads((static / BACKENDS).read_text()) == GOOD
    assert (static / BACKENDS).stat().st_mode == (static / "loader.js").stat().st_mode

    result = install_backends(frontend, bundle, str(write(tmp_path / "b.json", OTHER)))
    assert result.returncode == 0, result.stderr
    assert json.loads((static / BACKENDS).read_text()) == OTHER
    assert json.loads((static / BACKENDS_BACKUP).read_text()) == GOOD

    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 0 and f"Declared backends: 1, in {BACKENDS}" in status.stdout

    # A plain install leaves them as they are.
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    assert json.loads((static / BACKENDS).read_text()) == OTHER

    result = run("uninstall", "--frontend-dir", str(frontend))
    assert result.returncode == 0 and "Removed the declared backends" in result.stdout
    assert not (static / BACKENDS).exists()
    assert json.loads((static / BACKENDS_BACKUP).read_text()) == OTHER


def test_a_bad_backends_file_is_refused_with_every_error_and_nothing_changes(
    frontend: Path,  # noqa: F811
    bundle: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    before = snapshot(frontend)
    bad = write(tmp_path / "bad.json", BAD)
    for path, errors in [
        (bad, ['backends[0] ("my-rag"): sources.path: "a..b" is not a path', "markers: must be one of brackets"]),
        (tmp_path / "missing.json", ["does not exist"]),
    ]:
        result = install_backends(frontend, bundle, str(path))
        assert result.returncode == 2 and all(error in result.stderr for error in errors)
        checked = run("check-backends", "--backends", str(path))
        assert checked.returncode == 2 and all(error in checked.stderr for error in errors)
    assert snapshot(frontend) == before


def test_status_reports_an_installed_file_the_page_would_not_apply(frontend: Path, bundle: Path) -> None:  # noqa: F811
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    (frontend / "static" / BACKENDS).write_text(json.dumps(BAD))  # written by hand, or mounted
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 1 and "Declared backends: INVALID" in status.stdout


def test_a_planted_link_where_the_backends_go_is_refused_its_target_untouched(frontend: Path, bundle: Path) -> None:  # noqa: F811
    secret = frontend.parent / "secret"
    secret.write_text("secret")
    os.symlink(secret, frontend / "static" / BACKENDS)
    result = install_backends(frontend, bundle, str(write(frontend.parent / "a.json", GOOD)))
    assert result.returncode == 2 and "symbolic link" in result.stderr
    assert secret.read_text() == "secret"
    assert (frontend / "static" / "loader.js").read_text() == ""
