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
overwrite a file of its choosing. Nor may the frontend or its static/ be a link (root would write
into another application's directory), and both are opened once: every file is then reached
through static/'s descriptor, never by its path again. The directories above the frontend are
followed: they hold the Python that runs this, so whoever can change them runs as root anyway.
And a loader.js that only starts like the bundle is not taken for it: `make dist` records the
bundle's SHA-256 beside it, and the installed copy must hold the very bundle.

The bundle comes in parts: loader.js is its first part, and it loads the others (what only a click
needs, each language) on first use from the directory `owui-citations-parts/` beside itself. Each
part is checked as the bundle is (its version, the SHA-256 `make dist` recorded), written into that
directory (made as static/'s own, never through a link), and removed by uninstall, with any part
an older version left.
"""

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import declared

BUNDLE = Path(__file__).resolve().parent / "bundle" / "owui-citations.js"
BANNER = re.compile(rb"/\* owui-citations (\S+) ")  # the bundle's first line; tells our loader.js from anyone else's
BACKUP_SUFFIX = ".owui-citations-backup"
SHA256_SUFFIX = ".sha256"  # beside the packaged bundle, written by `make dist` (scripts/dist.py)
CHAINED = b"\n/* owui-citations: the loader.js that was here before, run after the extension */\n"


PARTS = "owui-citations-parts"  # beside the bundle and beside loader.js (extension/build.mjs PARTS_DIR)
PART_NAME = re.compile(r"[A-Za-z0-9-]+\.js")
PART_BANNER = re.compile(rb"/\* owui-citations (\S+) part ")


class InstallError(Exception):
    """A refusal with the reason; nothing was changed."""


def default_frontend() -> Path:
    """The frontend of the `open_webui` package this Python can import (found, not imported)."""
    spec = importlib.util.find_spec("open_webui")
    if spec is None or spec.origin is None:
        raise InstallError("No `open_webui` package is importable by this Python; pass --frontend-dir DIR.")
    return Path(spec.origin).parent / "frontend"


LOADER = "loader.js"
BACKUP = LOADER + BACKUP_SUFFIX
# The admin's declared backends, beside the bundle: the page fetches it as /static/owc-backends.json
# (extension/src/host/routes.ts, ADMIN_DECLARATIONS_PATH); the file it replaces, or uninstall removes,
# is kept as its backup.
BACKENDS = "owc-backends.json"
BACKENDS_BACKUP = BACKENDS + BACKUP_SUFFIX


class Directory:
    """A directory opened once, then never looked up by its path again: every file is read,
    written, renamed and removed relative to its descriptor, so a link or another directory put on
    that path afterwards (between a check and a write) redirects nothing. ``path`` is for messages."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path, self.descriptor = path, descriptor

    @classmethod
    def open(cls, path: Path, parent: "Directory | None" = None, follow: bool = False) -> "Directory | None":
        """None if there is none; refused if it is a link (unless ``follow``) or not a directory.
        With ``parent``, ``path`` is that directory's entry, opened through its descriptor."""
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
        name, at = (path, None) if parent is None else (path.name, parent.descriptor)
        try:
            return cls(path, os.open(name, flags, dir_fd=at))
        except FileNotFoundError:
            return None
        except NotADirectoryError as error:  # a link too, under O_NOFOLLOW
            if stat.S_ISLNK(os.stat(name, dir_fd=at, follow_symlinks=False).st_mode):
                raise InstallError(f"{path} is a symbolic link: refused, it could point at any directory.") from error
            raise InstallError(f"{path} is not a directory: refused.") from error

    def __enter__(self) -> "Directory":
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.descriptor)

    def regular(self, name: str) -> os.stat_result | None:
        """The status of the file ``name`` itself, None if there is none; a link, a named pipe, a
        directory… is refused: a link could point anywhere, a pipe would block a read."""
        try:
            found = os.stat(name, dir_fd=self.descriptor, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if stat.S_ISLNK(found.st_mode):
            raise InstallError(
                f"{self.path / name} is a symbolic link: refused, it could point at any file. Put a regular file there."
            )
        if not stat.S_ISREG(found.st_mode):
            raise InstallError(f"{self.path / name} is not a regular file: refused.")
        return found

    def read(self, name: str) -> bytes | None:
        """A regular file's bytes, None if there is none."""
        if self.regular(name) is None:
            return None
        # O_NOFOLLOW, and checked again once open: a link or a pipe put there since the check is not read either.
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        with open(os.open(name, flags, dir_fd=self.descriptor), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise InstallError(f"{self.path / name} is not a regular file: refused.")
            return file.read()

    def _new_file(self, name: str) -> tuple[int, str]:
        """A new file under a name no one can foresee (O_EXCL: never one planted in advance, nor a
        link), for a file ``name`` to come."""
        temporary = f".{name}.{secrets.token_hex(8)}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        return os.open(temporary, flags, 0o600, dir_fd=self.descriptor), temporary

    def write_whole(self, name: str, data: bytes, new_like: os.stat_result) -> None:
        """Writes a new file and renames it over ``name``: never a half-written loader.js, and a file
        that other directories share through hard links is replaced, not changed in place. It takes
        the mode and owner of the file it replaces, or of ``new_like`` for a new one: Open WebUI,
        running as its own user, must still read it."""
        like = self.regular(name) or new_like
        descriptor, temporary = self._new_file(name)
        try:
            with open(descriptor, "wb") as file:
                file.write(data)
                with contextlib.suppress(PermissionError):  # only root gives a file away; others keep their own
                    os.fchown(descriptor, like.st_uid, like.st_gid)
                os.fchmod(descriptor, stat.S_IMODE(like.st_mode))
            self.rename(temporary, name)
        finally:
            self.remove(temporary)

    def rename(self, name: str, new_name: str) -> None:
        os.replace(name, new_name, src_dir_fd=self.descriptor, dst_dir_fd=self.descriptor)

    def remove(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=self.descriptor)

    def check_writable(self) -> None:
        try:
            descriptor, probe = self._new_file("owui-citations-write-check")
            os.close(descriptor)
            self.remove(probe)
        except OSError as error:
            raise InstallError(
                f"{self.path} cannot be written ({error.strerror}): a read-only image layer or mount? "
                "Install where the frontend can be changed (see the README's Install section, Docker)."
            ) from error


@contextlib.contextmanager
def opened_frontend(frontend: Path) -> Iterator[tuple[Directory, os.stat_result]]:
    """The frontend's static/ directory and the status of its loader.js, once the directory is
    known to be an Open WebUI frontend. Neither the frontend nor static/ may be a link, and the
    installer writes into the very directory it checked."""
    if frontend.is_symlink():
        # Refused too, with the directory it points to (the O_NOFOLLOW open below is what refuses a
        # link put there later). Whoever can write the frontend's parent (Open WebUI's own user,
        # in a pip install where it owns its environment) could have put it there to have root
        # write where it points; an admin who made it names the directory itself, in one step.
        raise InstallError(
            f"{frontend} is a symbolic link (to {frontend.resolve()}): refused, it could point at any directory. "
            f"If you made it, name the frontend itself: --frontend-dir {frontend.resolve()}"
        )
    with contextlib.ExitStack() as stack:
        top = Directory.open(frontend)
        index = static = found = None
        if top is not None:
            stack.enter_context(top)
            index = top.read("index.html")
            static = Directory.open(frontend / "static", parent=top)
        if static is not None:
            stack.enter_context(static)
            found = static.regular(LOADER)
        if index is None or static is None or found is None:
            raise InstallError(f"{frontend} is not an Open WebUI frontend: it has no index.html and static/loader.js.")
        if b"/static/loader.js" not in index:
            raise InstallError(
                f"{frontend}/index.html does not load /static/loader.js; this Open WebUI cannot load the extension."
            )
        yield static, found


def read(path: Path) -> bytes | None:
    """A regular file's bytes, None if there is none (the directories on its path are followed)."""
    directory = Directory.open(path.parent, follow=True)
    if directory is None:
        return None
    with directory:
        return directory.read(path.name)


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


def load_parts(bundle: Path, version: str) -> dict[str, bytes]:
    """The parts in the directory beside the bundle, by file name, each checked as the bundle is:
    of its version, and, in the package, the very file `make dist` recorded (then the record lists
    them). No directory: a bundle in one part."""
    directory = bundle.with_name(PARTS)
    recorded = read(bundle.with_name(bundle.name + SHA256_SUFFIX))
    digests = {}
    for line in (recorded or b"").decode("utf-8", errors="replace").splitlines()[1:]:
        digest, _, path = line.partition("  ")
        digests[path.strip().removeprefix(PARTS + "/")] = digest
    if recorded is not None:
        names = sorted(digests)
    elif directory.is_dir():
        names = sorted(path.name for path in directory.iterdir() if PART_NAME.fullmatch(path.name))
    else:
        return {}
    parts = {}
    for name in names:
        if not PART_NAME.fullmatch(name):
            raise InstallError(f"{bundle.name}{SHA256_SUFFIX} records {name!r}, which is no part of the bundle.")
        data = read(directory / name)
        match = PART_BANNER.match((data or b"")[:200])
        if data is None or match is None or match.group(1).decode("utf-8", errors="replace") != version:
            raise InstallError(
                f"The part {directory / name} is missing or not of this bundle (version {version}): "
                "build it with `make dist`."
            )
        if recorded is not None and digests[name] != hashlib.sha256(data).hexdigest():
            raise InstallError(
                f"The part {directory / name} is not the one this package was built with (its SHA-256 is not "
                f"the one recorded in {bundle.name}{SHA256_SUFFIX}): reinstall the package."
            )
        parts[name] = data
    return parts


@contextlib.contextmanager
def parts_directory(static: "Directory", new_like: os.stat_result | None) -> Iterator["Directory | None"]:
    """static/'s directory of parts, opened through static/ (a link there is refused); made, owned
    like ``new_like``, when there is none and ``new_like`` is given; None when there is none."""
    found = Directory.open(static.path / PARTS, parent=static)
    if found is None and new_like is not None:
        os.mkdir(PARTS, 0o755, dir_fd=static.descriptor)
        found = Directory.open(static.path / PARTS, parent=static)
        assert found is not None
        with contextlib.suppress(PermissionError):  # only root gives a directory away
            os.chown(found.descriptor, new_like.st_uid, new_like.st_gid)
    if found is None:
        yield None
        return
    with found:
        yield found


def part_files(parts: "Directory | None") -> list[str]:
    """The part files in static/'s directory of parts (this version's, or an older one's), sorted."""
    return sorted(name for name in os.listdir(parts.descriptor) if PART_NAME.fullmatch(name)) if parts else []


def check_parts(static: "Directory") -> None:
    """Refuses a link or a special file among the installed parts, before anything changes."""
    with parts_directory(static, None) as directory:
        if directory is not None:
            for name in part_files(directory):
                directory.regular(name)


def write_parts(static: "Directory", parts: dict[str, bytes], new_like: os.stat_result) -> None:
    """Puts ``parts`` into static/'s directory of parts, and takes out those an older version left."""
    with parts_directory(static, new_like if parts else None) as directory:
        if directory is None:
            return
        for name, data in parts.items():
            directory.write_whole(name, data, new_like)
        for name in part_files(directory):
            if name not in parts:
                directory.remove(name)


def chained(bundle: bytes, previous: bytes) -> bytes:
    """The installed loader.js: the bundle byte for byte (so that `status` can check it), then the
    code that was in loader.js before, if any."""
    return bundle + CHAINED + previous if previous.strip() else bundle


def changed(installed: bytes, bundle: bytes, backup: bytes) -> str | None:
    """What changed in a loader.js that `install` wrote from this same bundle: None; "chained" (the
    code chained after the bundle is not the backup: one of them changed since); or "tampered" (the
    bundle part is not the bundle, or something follows it that `install` does not write: code
    appended after the chained backup, or after the bundle where nothing was chained)."""
    expected = chained(bundle, backup)
    if installed == expected:
        return None
    if not installed.startswith(bundle) or installed.startswith(expected):
        return "tampered"
    rest = installed[len(bundle) :]
    return "chained" if not rest or rest.startswith(CHAINED) else "tampered"


def load_backends(path: Path) -> tuple[bytes, int]:
    """The declared backends file and how many backends it declares, refused with every error the
    page would report (owui_citations/declared.py, the core's rules)."""
    data = read(path)
    if data is None:
        raise InstallError(f"The declared backends file {path} does not exist.")
    try:
        count, errors = declared.parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        count, errors = 0, ["not UTF-8 text"]
    if errors:
        raise InstallError(
            f"{path} is not a valid declared backends file; nothing was changed:\n  " + "\n  ".join(errors)
        )
    return data, count


def install_backends(static: Directory, data: bytes, new_like: os.stat_result) -> str:
    """Writes the declared backends beside the bundle, the file it replaces kept as its backup."""
    current = static.read(BACKENDS)
    kept = ""
    if current is not None and current != data:
        static.write_whole(BACKENDS_BACKUP, current, new_like)
        kept = f" (the one it replaced kept as {BACKENDS_BACKUP})"
    static.write_whole(BACKENDS, data, new_like)
    return kept


def install(frontend: Path, bundle: Path = BUNDLE, backends: Path | None = None) -> str:
    with opened_frontend(frontend) as (static, loader_status):
        loader = static.path / LOADER
        bundle_data, version = load_bundle(bundle)
        parts = load_parts(bundle, version)
        backends_data, backends_count = load_backends(backends) if backends else (None, 0)
        source_map = read(bundle.with_name(bundle.name + ".map"))
        installed_map = bundle.name + ".map"
        for name in (installed_map, BACKENDS, BACKENDS_BACKUP):
            static.regular(name)  # refused now, before anything changed, rather than halfway
        check_parts(static)
        static.check_writable()
        current = static.read(LOADER) or b""
        backup_data = static.read(BACKUP)
        found = None
        if bundle_version(current):
            previous = backup_data or b""
            if bundle_version(current) == version:  # another version's content cannot be checked
                found = changed(current, bundle_data, previous)
        else:
            # Open WebUI's own (or someone's customisation): kept. A backup left by an install that an
            # upgrade of Open WebUI undid is older than this loader.js: it is kept too, under its date.
            previous = current
            backup_status = static.regular(BACKUP)
            if backup_status is not None and backup_data != current:
                stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(backup_status.st_mtime))
                static.rename(BACKUP, f"{BACKUP}-{stamp}")
            static.write_whole(BACKUP, current, loader_status)
        # The parts first: a page that gets the new loader.js finds its parts beside it.
        write_parts(static, parts, loader_status)
        static.write_whole(LOADER, chained(bundle_data, previous), loader_status)
        if source_map is not None:
            static.write_whole(installed_map, source_map, loader_status)
        declared_line = ""
        if backends_data is not None:
            replaced = install_backends(static, backends_data, loader_status)
            declared_line = f"\nDeclared backends: {backends_count}, installed as {static.path / BACKENDS}{replaced}."
    kept = " (the code that was in it runs after the extension)" if previous.strip() else ""
    warning = {
        None: "",
        "chained": f"\nThe code chained after the extension differed from {BACKUP}: the backup runs again.",
        "tampered": "\nThe loader.js replaced was not this package's bundle: tampered with, or another build of the "
        "same version (a developer's); find out who changed it.",
    }[found]
    beside = f", its other parts in {static.path / PARTS}" if parts else ""
    return (
        f"Installed Open WebUI Citations {version} as {loader}{kept}{beside}; "
        f"the original is kept as {BACKUP}. Restart Open WebUI.{declared_line}{warning}"
    )


def uninstall_backends(static: Directory) -> str:
    """Takes the declared backends out of what Open WebUI serves, kept as their backup."""
    if static.regular(BACKENDS) is None:
        return ""
    static.regular(BACKENDS_BACKUP)
    static.check_writable()
    static.rename(BACKENDS, BACKENDS_BACKUP)
    return f" Removed the declared backends (kept as {static.path / BACKENDS_BACKUP})."


def uninstall(frontend: Path) -> str:
    with opened_frontend(frontend) as (static, loader_status):
        loader = static.path / LOADER
        removed = uninstall_backends(static)
        if bundle_version(static.read(LOADER) or b"") is None:
            return f"Nothing to uninstall: {loader} is not the extension's.{removed}"
        original = static.read(BACKUP)
        if original is None:
            raise InstallError(
                f"No backup of the original loader.js next to {loader}; reinstall Open WebUI to restore it."
            )
        check_parts(static)
        static.check_writable()
        # Its bytes copied, not the backup renamed: a link swapped in after the check is not moved to loader.js.
        static.write_whole(LOADER, original, loader_status)
        static.remove(BACKUP)
        static.remove(BUNDLE.name + ".map")
        write_parts(static, {}, loader_status)
        with contextlib.suppress(OSError):  # none, or someone else's files in it: they stay
            os.rmdir(PARTS, dir_fd=static.descriptor)
    return f"Restored the original {loader}. Restart Open WebUI.{removed}"


@dataclass(frozen=True)
class Status:
    """What `owui-citations status` found; ``ok`` is False where `install` would change something."""

    lines: list[str]
    ok: bool
    bundle: bytes  # the packaged bundle, and its version
    version: str
    backup: bytes  # the loader.js that install chains after the bundle (empty: none)
    parts: dict[str, bytes]  # the bundle's other parts, by file name in PARTS/


def open_webui_version(frontend: Path) -> str:
    """The version of the Open WebUI this frontend belongs to, where this Python can tell."""
    try:
        if default_frontend() == frontend:
            return importlib.metadata.version("open-webui")
    except (InstallError, importlib.metadata.PackageNotFoundError):
        pass
    return "unknown (not the frontend of an open-webui package this Python imports)"


def backends_status(data: bytes | None, lines: list[str]) -> bool:
    """The line about the declared backends installed, and whether the page will apply them."""
    if data is None:
        lines.append("Declared backends: none (`owui-citations install --backends FILE` installs them).")
        return True
    try:
        count, errors = declared.parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        count, errors = 0, ["not UTF-8 text"]
    if errors:
        lines.append(
            f"Declared backends: INVALID, the page applies none of {BACKENDS} — "
            + "; ".join(errors)
            + ". Install a valid file with `owui-citations install --backends FILE`."
        )
        return False
    lines.append(f"Declared backends: {count}, in {BACKENDS}")
    return True


def status(frontend: Path, bundle: Path = BUNDLE) -> Status:
    with opened_frontend(frontend) as (static, _):
        bundle_data, packaged = load_bundle(bundle)
        parts = load_parts(bundle, packaged)
        installed_data = static.read(LOADER) or b""
        backup = static.read(BACKUP)
        backends = static.read(BACKENDS)
        with parts_directory(static, None) as directory:
            unlike = [name for name, data in parts.items() if directory is None or directory.read(name) != data]
    installed = bundle_version(installed_data)
    lines = [f"Frontend: {frontend} (Open WebUI {open_webui_version(frontend)})"]
    backends_ok = backends_status(backends, lines)

    def found(ok: bool) -> Status:
        return Status(lines, ok and backends_ok, bundle_data, packaged, backup or b"", parts)

    if installed is None:
        if backup is not None:
            lines.append(
                "Extension: NOT INSTALLED — it was, but loader.js is someone else's again (an upgrade or "
                "reinstall of Open WebUI puts its own back). Run `owui-citations install`, then restart Open WebUI."
            )
        else:
            lines.append("Extension: not installed. Run `owui-citations install`, then restart Open WebUI.")
        return found(False)
    if installed != packaged:  # another version's content cannot be checked: this package has only its own
        lines.append(
            f"Extension: installed, version {installed}; this package has {packaged}: "
            "run `owui-citations install` to update"
        )
        return found(False)
    change = changed(installed_data, bundle_data, backup or b"")
    if change == "tampered":
        lines.append(
            f"Extension: TAMPERED — loader.js starts like version {installed} but is not what install writes: "
            "this package's bundle, followed only by the loader.js it replaced. Find out who changed it (another "
            "build of the same version, a developer's, reads so too), and run `owui-citations install` to put the "
            "bundle back."
        )
        return found(False)
    lines.append(f"Extension: installed, version {installed}")
    if change == "chained":
        lines.append(
            f"Chained: the code after the extension differs from {BACKUP}; one of them changed "
            "since the install. `owui-citations install` chains the backup again."
        )
    elif CHAINED in installed_data:
        lines.append("Chained: the loader.js that was there before runs after the extension.")
    if unlike:
        lines.append(
            f"Parts: MISSING OR CHANGED in {PARTS}/ — {', '.join(unlike)}: what needs them (the source "
            "window, export, the settings, other languages) does not work. Run `owui-citations install`."
        )
    elif parts:
        lines.append(f"Parts: {len(parts)} in {PARTS}/ beside loader.js, as packaged")
    return found(change is None and not unlike)
