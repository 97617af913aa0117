"""Installs the Open WebUI Citations bundle as Open WebUI's `static/loader.js`, and says whether it is.

Open WebUI copies its frontend's `static/` into STATIC_DIR at every start, so the frontend
directory is the durable place (pip: `<site-packages>/open_webui/frontend`; Docker image:
`/app/build`). The loader.js found there is kept (`loader.js.owui-citations-backup`) and, when it
holds code, still runs: the installed file is the bundle followed by it. Nothing changes unless
every check passes, and every file is written whole (a temporary file renamed over it), so a
failure leaves the old one.
"""

import importlib.metadata
import importlib.util
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

BUNDLE = Path(__file__).resolve().parent / "bundle" / "owui-citations.js"
BANNER = re.compile(r"/\* owui-citations (\S+) ")  # the bundle's first line; tells our loader.js from anyone else's
BACKUP_SUFFIX = ".owui-citations-backup"
CHAINED = "\n/* owui-citations: the loader.js that was here before, run after the extension */\n"


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
    if "/static/loader.js" not in read(index):
        raise InstallError(
            f"{frontend}/index.html does not load /static/loader.js; this Open WebUI cannot load the extension."
        )
    return loader


def read(path: Path) -> str:
    """A text file as it is, "" if there is none; bytes that are not UTF-8 do not stop a check."""
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""


def bundle_version(text: str) -> str | None:
    """The version in the banner of a bundle (or of an installed loader.js), None if it is not ours."""
    match = BANNER.match(text[:200])
    return match.group(1) if match else None


def backup_of(loader: Path) -> Path:
    return loader.with_name(loader.name + BACKUP_SUFFIX)


def write_whole(path: Path, text: str) -> None:
    """Writes a new file and renames it over ``path``: never a half-written loader.js, and a file
    that other directories share through hard links is replaced, not changed in place."""
    temporary = path.with_name(f".{path.name}.owui-citations-tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def check_writable(directory: Path) -> None:
    probe = directory / ".owui-citations-write-check"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise InstallError(
            f"{directory} cannot be written ({error.strerror}): a read-only image layer or mount? "
            "Install where the frontend can be changed (see the README's Install section, Docker)."
        ) from error


def chained(bundle_text: str, previous: str) -> str:
    """The installed loader.js: the bundle, then the code that was in loader.js before, if any."""
    return bundle_text if not previous.strip() else bundle_text.rstrip("\n") + CHAINED + previous


def install(frontend: Path, bundle: Path = BUNDLE) -> str:
    loader = check_frontend(frontend)
    bundle_text = read(bundle)
    version = bundle_version(bundle_text)
    if version is None:
        raise InstallError(f"The bundle {bundle} is missing or not built by this project: build it with `make dist`.")
    check_writable(loader.parent)
    backup = backup_of(loader)
    current = read(loader)
    if bundle_version(current):
        previous = read(backup)
    else:
        # Open WebUI's own (or someone's customisation): kept. A backup left by an install that an
        # upgrade of Open WebUI undid is older than this loader.js: it is kept too, under its date.
        previous = current
        if backup.is_file() and read(backup) != current:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(backup.stat().st_mtime))
            os.replace(backup, backup.with_name(f"{backup.name}-{stamp}"))
        write_whole(backup, current)
    write_whole(loader, chained(bundle_text, previous))
    source_map = bundle.with_name(bundle.name + ".map")
    if source_map.is_file():
        write_whole(loader.with_name(source_map.name), read(source_map))
    kept = " (the code that was in it runs after the extension)" if previous.strip() else ""
    return (
        f"Installed Open WebUI Citations {version} as {loader}{kept}; "
        f"the original is kept as {backup.name}. Restart Open WebUI."
    )


def uninstall(frontend: Path) -> str:
    loader = check_frontend(frontend)
    backup = backup_of(loader)
    if bundle_version(read(loader)) is None:
        return f"Nothing to uninstall: {loader} is not the extension's."
    if not backup.is_file():
        raise InstallError(f"No backup of the original loader.js next to {loader}; reinstall Open WebUI to restore it.")
    check_writable(loader.parent)
    os.replace(backup, loader)
    loader.with_name(BUNDLE.name + ".map").unlink(missing_ok=True)
    return f"Restored the original {loader}. Restart Open WebUI."


@dataclass(frozen=True)
class Status:
    """What `owui-citations status` found; ``ok`` is False where `install` would change something."""

    lines: list[str]
    ok: bool


def open_webui_version(frontend: Path) -> str:
    """The version of the Open WebUI this frontend belongs to, where this Python can tell."""
    try:
        if default_frontend() == frontend:
            return importlib.metadata.version("open-webui")
    except (InstallError, importlib.metadata.PackageNotFoundError):
        pass
    return "unknown (not the frontend of an open-webui package this Python imports)"


def status(frontend: Path, bundle: Path = BUNDLE) -> Status:
    loader = check_frontend(frontend)
    packaged = bundle_version(read(bundle))
    installed_text = read(loader)
    installed = bundle_version(installed_text)
    lines = [f"Frontend: {frontend} (Open WebUI {open_webui_version(frontend)})"]
    if installed is None:
        if backup_of(loader).is_file():
            lines.append(
                "Extension: NOT INSTALLED — it was, but loader.js is someone else's again (an upgrade or "
                "reinstall of Open WebUI puts its own back). Run `owui-citations install`, then restart Open WebUI."
            )
        else:
            lines.append("Extension: not installed. Run `owui-citations install`, then restart Open WebUI.")
        return Status(lines, False)
    up_to_date = packaged is None or installed == packaged
    lines.append(
        f"Extension: installed, version {installed}"
        + ("" if up_to_date else f"; this package has {packaged}: run `owui-citations install` to update")
    )
    if CHAINED in installed_text:
        lines.append("Chained: the loader.js that was there before runs after the extension.")
    return Status(lines, up_to_date)
