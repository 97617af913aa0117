"""Installs the Open WebUI Citations bundle as Open WebUI's `static/loader.js`, and says whether it is.

Open WebUI copies its frontend's `static/` into STATIC_DIR at every start, so the frontend
directory is the durable place (pip: `<site-packages>/open_webui/frontend`; Docker image:
`/app/build`). The loader.js found there is kept (`loader.js.owui-citations-backup`) and, when it
holds code, still runs: the installed file is the bundle followed by it. Nothing changes unless
every check passes, and every file is written whole (a temporary file renamed over it), so a
failure leaves the old one.

Whoever can write the frontend (code running as Open WebUI's user) is less trusted than the admin
who runs this, often as root: every file read or written must be a regular file, never followed
through a link, or a planted link would have root publish a secret as /static/loader.js or
overwrite a file of its choosing. And a loader.js that only starts like the bundle is not taken
for it: `make dist` records the bundle's SHA-256 beside it, and the installed copy must hold the
very bundle.
"""

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BUNDLE = Path(__file__).resolve().parent / "bundle" / "owui-citations.js"
BANNER = re.compile(rb"/\* owui-citations (\S+) ")  # the bundle's first line; tells our loader.js from anyone else's
BACKUP_SUFFIX = ".owui-citations-backup"
SHA256_SUFFIX = ".sha256"  # beside the packaged bundle, written by `make dist` (scripts/dist.py)
CHAINED = b"\n/* owui-citations: the loader.js that was here before, run after the extension */\n"


class InstallError(Exception):
    """A refusal with the reason; nothing was changed."""


def default_frontend() -> Path:
    """The frontend of the `open_webui` package this Python can import (found, not imported)."""
    spec = importlib.util.find_spec("open_webui")
    if spec is None or spec.origin is None:
        raise InstallError("No `open_webui` package is importable by this Python; pass --frontend-dir DIR.")
    return Path(spec.origin).parent / "frontend"


def check_frontend(frontend: Path) -> tuple[Path, os.stat_result]:
    """The frontend's loader.js and its status, once the directory is known to be an Open WebUI frontend."""
    index = read(frontend / "index.html")
    loader = frontend / "static" / "loader.js"
    found = regular(loader)
    if index is None or found is None:
        raise InstallError(f"{frontend} is not an Open WebUI frontend: it has no index.html and static/loader.js.")
    if b"/static/loader.js" not in index:
        raise InstallError(
            f"{frontend}/index.html does not load /static/loader.js; this Open WebUI cannot load the extension."
        )
    return loader, found


def regular(path: Path) -> os.stat_result | None:
    """The status of the file at ``path`` itself, None if there is none; a link, a named pipe, a
    directory… is refused: a link could point anywhere, a pipe would block a read."""
    try:
        found = path.lstat()
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(found.st_mode):
        raise InstallError(f"{path} is a symbolic link: refused, it could point at any file. Put a regular file there.")
    if not stat.S_ISREG(found.st_mode):
        raise InstallError(f"{path} is not a regular file: refused.")
    return found


def read(path: Path) -> bytes | None:
    """A regular file's bytes, None if there is none."""
    if regular(path) is None:
        return None
    # O_NOFOLLOW, and checked again once open: a link or a pipe put there since the check is not read either.
    with open(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise InstallError(f"{path} is not a regular file: refused.")
        return file.read()


def bundle_version(data: bytes) -> str | None:
    """The version in the banner of a bundle (or of an installed loader.js), None if it is not ours."""
    match = BANNER.match(data[:200])
    return match.group(1).decode("utf-8", errors="replace") if match else None


def load_bundle(bundle: Path) -> tuple[bytes, str]:
    """The bundle and its version; in the package, it must be the very file `make dist` packaged (a
    bundle given with --bundle and no recorded SHA-256 stands for itself)."""
    data = read(bundle) or b""
    version = bundle_version(data)
    if version is None:
        raise InstallError(f"The bundle {bundle} is missing or not built by this project: build it with `make dist`.")
    recorded = read(bundle.with_name(bundle.name + SHA256_SUFFIX))
    if recorded is not None and recorded.split()[:1] != [hashlib.sha256(data).hexdigest().encode()]:
        raise InstallError(
            f"The bundle {bundle} is not the one this package was built with (its SHA-256 is not the one recorded "
            f"in {bundle.name}{SHA256_SUFFIX}): reinstall the package."
        )
    return data, version


def backup_of(loader: Path) -> Path:
    return loader.with_name(loader.name + BACKUP_SUFFIX)


def write_whole(path: Path, data: bytes, new_like: os.stat_result) -> None:
    """Writes a new file and renames it over ``path``: never a half-written loader.js, and a file
    that other directories share through hard links is replaced, not changed in place. The
    temporary file's name cannot be foreseen and it is always a new file (mkstemp: O_EXCL), so no
    link planted in advance is written through. It takes the mode and owner of the file it
    replaces, or of ``new_like`` for a new one: Open WebUI, running as its own user, must still read it."""
    like = regular(path) or new_like
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with open(descriptor, "wb") as file:
            file.write(data)
            with contextlib.suppress(PermissionError):  # only root gives a file away; others keep their own
                os.fchown(descriptor, like.st_uid, like.st_gid)
            os.fchmod(descriptor, stat.S_IMODE(like.st_mode))
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)


def check_writable(directory: Path) -> None:
    try:
        descriptor, probe = tempfile.mkstemp(dir=directory, prefix=".owui-citations-write-check.")
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        raise InstallError(
            f"{directory} cannot be written ({error.strerror}): a read-only image layer or mount? "
            "Install where the frontend can be changed (see the README's Install section, Docker)."
        ) from error


def chained(bundle: bytes, previous: bytes) -> bytes:
    """The installed loader.js: the bundle byte for byte (so that `status` can check it), then the
    code that was in loader.js before, if any."""
    return bundle + CHAINED + previous if previous.strip() else bundle


def changed(installed: bytes, bundle: bytes, backup: bytes) -> str | None:
    """What changed in a loader.js that `install` wrote from this same bundle: None; "chained" (the
    code after the bundle is not the backup: one of them changed since); or "tampered" (the bundle
    part is not the bundle, or something follows it that `install` does not write)."""
    if installed == chained(bundle, backup):
        return None
    rest = installed[len(bundle) :]
    return "chained" if installed.startswith(bundle) and (not rest or rest.startswith(CHAINED)) else "tampered"


def install(frontend: Path, bundle: Path = BUNDLE) -> str:
    loader, loader_status = check_frontend(frontend)
    bundle_data, version = load_bundle(bundle)
    source_map = read(bundle.with_name(bundle.name + ".map"))
    installed_map = loader.with_name(bundle.name + ".map")
    regular(installed_map)  # refused now, before anything changed, rather than halfway
    check_writable(loader.parent)
    backup = backup_of(loader)
    current = read(loader) or b""
    backup_data = read(backup)
    found = None
    if bundle_version(current):
        previous = backup_data or b""
        if bundle_version(current) == version:  # another version's content cannot be checked
            found = changed(current, bundle_data, previous)
    else:
        # Open WebUI's own (or someone's customisation): kept. A backup left by an install that an
        # upgrade of Open WebUI undid is older than this loader.js: it is kept too, under its date.
        previous = current
        if backup_data is not None and backup_data != current:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(backup.stat().st_mtime))
            os.replace(backup, backup.with_name(f"{backup.name}-{stamp}"))
        write_whole(backup, current, loader_status)
    write_whole(loader, chained(bundle_data, previous), loader_status)
    if source_map is not None:
        write_whole(installed_map, source_map, loader_status)
    kept = " (the code that was in it runs after the extension)" if previous.strip() else ""
    warning = {
        None: "",
        "chained": f"\nThe code chained after the extension differed from {backup.name}: the backup runs again.",
        "tampered": "\nThe loader.js replaced was tampered with (not this package's bundle): find out who changed it.",
    }[found]
    return (
        f"Installed Open WebUI Citations {version} as {loader}{kept}; "
        f"the original is kept as {backup.name}. Restart Open WebUI.{warning}"
    )


def uninstall(frontend: Path) -> str:
    loader, loader_status = check_frontend(frontend)
    backup = backup_of(loader)
    if bundle_version(read(loader) or b"") is None:
        return f"Nothing to uninstall: {loader} is not the extension's."
    original = read(backup)
    if original is None:
        raise InstallError(f"No backup of the original loader.js next to {loader}; reinstall Open WebUI to restore it.")
    check_writable(loader.parent)
    # Its bytes copied, not the backup renamed: a link swapped in after the check is not moved to loader.js.
    write_whole(loader, original, loader_status)
    backup.unlink()
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
    loader, _ = check_frontend(frontend)
    bundle_data, packaged = load_bundle(bundle)
    installed_data = read(loader) or b""
    installed = bundle_version(installed_data)
    backup = read(backup_of(loader))
    lines = [f"Frontend: {frontend} (Open WebUI {open_webui_version(frontend)})"]
    if installed is None:
        if backup is not None:
            lines.append(
                "Extension: NOT INSTALLED — it was, but loader.js is someone else's again (an upgrade or "
                "reinstall of Open WebUI puts its own back). Run `owui-citations install`, then restart Open WebUI."
            )
        else:
            lines.append("Extension: not installed. Run `owui-citations install`, then restart Open WebUI.")
        return Status(lines, False)
    if installed != packaged:  # another version's content cannot be checked: this package has only its own
        lines.append(
            f"Extension: installed, version {installed}; this package has {packaged}: "
            "run `owui-citations install` to update"
        )
        return Status(lines, False)
    found = changed(installed_data, bundle_data, backup or b"")
    if found == "tampered":
        lines.append(
            f"Extension: TAMPERED — loader.js starts like version {installed} but is not this package's bundle. "
            "Find out who changed it, and run `owui-citations install` to put the bundle back."
        )
        return Status(lines, False)
    lines.append(f"Extension: installed, version {installed}")
    if found == "chained":
        lines.append(
            f"Chained: the code after the extension differs from {backup_of(loader).name}; one of them changed "
            "since the install. `owui-citations install` chains the backup again."
        )
    elif CHAINED in installed_data:
        lines.append("Chained: the loader.js that was there before runs after the extension.")
    return Status(lines, found is None)
