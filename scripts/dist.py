"""`make dist`: every artifact of one version, from the built extension (`npm run build`), into
dist/ with its SHA-256 (dist/SHA256SUMS): the wheel (the installer and the bundle), the bundle
alone (to copy by hand or mount), the browser extension for Chromium and for Firefox, the userscript."""

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILT = ROOT / "extension" / "dist"
PACKAGED_BUNDLE = ROOT / "owui_citations" / "bundle"
DIST = ROOT / "dist"
PARTS = "owui-citations-parts"  # the bundle's other parts, beside it (extension/build.mjs PARTS_DIR)
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the same files give the same zip, byte for byte


def zip_directory(source: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            entry = zipfile.ZipInfo(path.relative_to(source).as_posix(), ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, path.read_bytes())


def build_wheel() -> None:
    """The installer with the bundle and its parts as package data; setuptools from requirements.lock, offline."""
    shutil.rmtree(PACKAGED_BUNDLE, ignore_errors=True)
    PACKAGED_BUNDLE.mkdir()
    for name in ("owui-citations.js", "owui-citations.js.map"):
        shutil.copy2(BUILT / name, PACKAGED_BUNDLE / name)
    (PACKAGED_BUNDLE / PARTS).mkdir()
    parts = [f"{PARTS}/{path.name}" for path in sorted((BUILT / PARTS).glob("*.js"))]
    for name in parts:
        shutil.copy2(BUILT / name, PACKAGED_BUNDLE / name)
    # Their SHA-256 beside them (package data too), the bundle's first: the installer checks the
    # bundle, its parts and the installed loader.js with them.
    sums = [
        f"{hashlib.sha256((PACKAGED_BUNDLE / name).read_bytes()).hexdigest()}  {name}\n"
        for name in ("owui-citations.js", *parts)
    ]
    (PACKAGED_BUNDLE / "owui-citations.js.sha256").write_text("".join(sums))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(DIST),
            str(ROOT),
        ],
        check=True,
        env={**os.environ, "SOURCE_DATE_EPOCH": "315532800"},
    )  # 1980: the same wheel, byte for byte
    shutil.rmtree(ROOT / "build", ignore_errors=True)


def main() -> int:
    version = (ROOT / "VERSION").read_text().strip()
    shutil.rmtree(DIST, ignore_errors=True)
    DIST.mkdir()
    build_wheel()
    shutil.copy2(BUILT / "owui-citations.js", DIST / f"owui-citations-{version}.js")
    # Its parts, in the directory it loads them from, to copy beside it.
    shutil.copytree(BUILT / PARTS, DIST / PARTS, ignore=shutil.ignore_patterns("*.map"))
    shutil.copy2(BUILT / "owui-citations.user.js", DIST / "owui-citations.user.js")
    zip_directory(BUILT / "webext", DIST / f"owui-citations-{version}-chromium.zip")
    zip_directory(BUILT / "webext-firefox", DIST / f"owui-citations-{version}-firefox.zip")
    artifacts = sorted(p for p in DIST.rglob("*") if p.is_file())
    sums = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(DIST).as_posix()}" for p in artifacts]
    (DIST / "SHA256SUMS").write_text("\n".join(sums) + "\n")
    for line, path in zip(sums, artifacts, strict=True):
        print(f"{path.stat().st_size / 1024:8.1f} KiB  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
