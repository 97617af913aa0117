"""What the installer's tests share: a stand-in Open WebUI frontend, a bundle, the command line, a
snapshot of a directory (tests/test_installer.py, test_admin_http.py, test_declared_backends.py)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ""  # Open WebUI's own loader.js is empty on every supported line
CUSTOMISED = "window.order = (window.order || []).concat('theirs');\n"


def run(*args: str, as_nobody_from: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installer's command line; ``as_nobody_from``: run by user `nobody`, with the package
    copied there and the system's Python (the installer needs the standard library only)."""
    command, path = [sys.executable, "-m", "owui_citations", *args], ROOT
    if as_nobody_from:
        command, path = ["runuser", "-u", "nobody", "--", "/usr/bin/python3", *command[1:]], as_nobody_from
    return subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=path, env={**os.environ, "PYTHONPATH": str(path)}
    )


def make_frontend(directory: Path, loader: str = ORIGINAL) -> Path:
    """The parts of an Open WebUI frontend the installer relies on."""
    (directory / "static").mkdir(parents=True)
    (directory / "index.html").write_text('<script src="/static/loader.js" defer></script>')
    (directory / "static" / "loader.js").write_text(loader)
    return directory


def fake_bundle(directory: Path, version: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    built = directory / "owui-citations.js"
    built.write_text(
        f"/* owui-citations {version} (Open WebUI's /static/loader.js) */\n"
        "(function(){\"use strict\";window.order = (window.order || []).concat('ours');})();\n"
    )
    return built


def fake_parts(bundle: Path, version: str, names: tuple[str, ...] = ("features", "locale-fr-FR")) -> list[str]:
    """The parts beside a bundle, in their directory, as extension/build.mjs writes them; their paths there."""
    (bundle.parent / "owui-citations-parts").mkdir()
    files = [f"owui-citations-parts/{name}.js" for name in names]
    for name, file in zip(names, files, strict=True):
        (bundle.parent / file).write_text(f"/* owui-citations {version} part {name} */\n(function () {{}})();\n")
    return files


def snapshot(directory: Path) -> dict[str, str]:
    """Each file's text, and each link's target (a link is not followed: what it points to is not the frontend's)."""
    return {
        str(p.relative_to(directory)): f"-> {os.readlink(p)}" if p.is_symlink() else p.read_text()
        for p in sorted(directory.rglob("*"))
        if p.is_symlink() or p.is_file()
    }
