"""Copies the built bundle over `<frontend>/static/loader.js`, keeping the original once.

Open WebUI copies its frontend's `static/` into STATIC_DIR at every start, so the frontend
directory is the durable place (pip: `<site-packages>/open_webui/frontend`; Docker image:
`/app/build`). Nothing is built here and nothing changes unless every check passes.
"""

import importlib.util
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUNDLE = REPO / "extension" / "dist" / "owui-citations.js"
MARK = "owui-citations"  # the bundle's banner; tells our loader.js from Open WebUI's
BACKUP_SUFFIX = ".owui-citations-backup"
DOCKER_TARGET = "/app/build/static/loader.js"


class InstallError(Exception):
    """A refusal with the reason; nothing was changed."""


def default_frontend() -> Path:
    """The frontend of the `open_webui` package this Python can import (found, not imported)."""
    spec = importlib.util.find_spec("open_webui")
    if spec is None or spec.origin is None:
        raise InstallError("No `open_webui` package is importable by this Python; pass --frontend-dir DIR.")
    return Path(spec.origin).parent / "frontend"


def check_frontend(frontend: Path) -> Path:
    """The frontend's loader.js, once the directory is known to be an Open WebUI frontend."""
    index = frontend / "index.html"
    loader = frontend / "static" / "loader.js"
    if not index.is_file() or not loader.is_file():
        raise InstallError(f"{frontend} is not an Open WebUI frontend: it has no index.html and static/loader.js.")
    if "/static/loader.js" not in index.read_text(encoding="utf-8", errors="replace"):
        raise InstallError(f"{frontend}/index.html does not load /static/loader.js; this Open WebUI cannot load the extension.")
    return loader


def is_ours(path: Path) -> bool:
    return path.is_file() and MARK in path.read_text(encoding="utf-8", errors="replace")[:200]


def install(frontend: Path, bundle: Path = BUNDLE) -> str:
    loader = check_frontend(frontend)
    if not bundle.is_file() or not is_ours(bundle):
        raise InstallError(f"The bundle {bundle} is missing or not built by this project: run `npm run build` first.")
    backup = loader.with_name(loader.name + BACKUP_SUFFIX)
    if not is_ours(loader) and not backup.exists():
        shutil.copy2(loader, backup)  # the original, once
    shutil.copyfile(bundle, loader)
    source_map = bundle.with_name(bundle.name + ".map")
    if source_map.is_file():
        shutil.copyfile(source_map, loader.with_name(source_map.name))
    return f"Installed {bundle.name} as {loader} (original kept as {backup.name}). Restart Open WebUI."


def uninstall(frontend: Path) -> str:
    loader = check_frontend(frontend)
    backup = loader.with_name(loader.name + BACKUP_SUFFIX)
    if not backup.is_file():
        if is_ours(loader):
            raise InstallError(f"No backup of the original loader.js next to {loader}; reinstall Open WebUI to restore it.")
        return f"Nothing to uninstall: {loader} is Open WebUI's own."
    shutil.move(backup, loader)
    (loader.with_name(BUNDLE.name + ".map")).unlink(missing_ok=True)
    return f"Restored Open WebUI's original {loader}. Restart Open WebUI."


def docker_mount(bundle: Path = BUNDLE) -> str:
    return f"-v {bundle.resolve()}:{DOCKER_TARGET}:ro"
