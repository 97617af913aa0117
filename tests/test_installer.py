"""The installer: copies the built bundle over loader.js, keeps the original once, refuses
anything that is not an Open WebUI frontend and changes nothing then."""

import subprocess
import sys
from pathlib import Path

import pytest

from owui_citations.installer import BUNDLE

ORIGINAL = "// Open WebUI's own loader.js\n"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "owui_citations", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def frontend(tmp_path: Path) -> Path:
    """The parts of an Open WebUI frontend the installer relies on."""
    (tmp_path / "static").mkdir()
    (tmp_path / "index.html").write_text('<script src="/static/loader.js" defer></script>')
    (tmp_path / "static" / "loader.js").write_text(ORIGINAL)
    return tmp_path


@pytest.fixture
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = tmp_path_factory.mktemp("dist") / "owui-citations.js"
    built.write_text("/* owui-citations 0.1.0 (Open WebUI's /static/loader.js) */\n(()=>{})();\n")
    return built


def snapshot(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): p.read_text() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_install_replaces_loader_and_keeps_the_original_once(frontend: Path, bundle: Path) -> None:
    loader = frontend / "static" / "loader.js"
    for _ in range(2):  # idempotent: the second run must not back up our own bundle
        result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
        assert result.returncode == 0, result.stderr
    assert loader.read_text() == bundle.read_text()
    assert (frontend / "static" / "loader.js.owui-citations-backup").read_text() == ORIGINAL

    result = run("uninstall", "--frontend-dir", str(frontend))
    assert result.returncode == 0 and "Restored" in result.stdout
    assert loader.read_text() == ORIGINAL
    assert not (frontend / "static" / "loader.js.owui-citations-backup").exists()


@pytest.mark.parametrize("breakage", ["no index", "no loader", "index without loader"])
def test_a_directory_that_is_not_a_frontend_is_refused_unchanged(frontend: Path, bundle: Path, breakage: str) -> None:
    if breakage == "no index":
        (frontend / "index.html").unlink()
    elif breakage == "no loader":
        (frontend / "static" / "loader.js").unlink()
    else:
        (frontend / "index.html").write_text("<html></html>")
    before = snapshot(frontend)
    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 2 and str(frontend) in result.stderr
    assert snapshot(frontend) == before


def test_a_missing_or_foreign_bundle_is_refused_unchanged(frontend: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    foreign = elsewhere / "other.js"
    foreign.write_text("alert(1)")
    before = snapshot(frontend)
    for candidate in (elsewhere / "absent.js", foreign):
        result = run("install", "--frontend-dir", str(frontend), "--bundle", str(candidate))
        assert result.returncode == 2 and "npm run build" in result.stderr
    assert snapshot(frontend) == before


def test_uninstall_without_an_install_changes_nothing(frontend: Path) -> None:
    result = run("uninstall", "--frontend-dir", str(frontend))
    assert result.returncode == 0 and "Nothing to uninstall" in result.stdout
    assert (frontend / "static" / "loader.js").read_text() == ORIGINAL


def test_print_docker_names_the_bind_mount() -> None:
    result = run("install", "--print-docker")
    assert result.stdout.strip() == f"-v {BUNDLE.resolve()}:/app/build/static/loader.js:ro"
