"""The Docker recipe, as far as it can be checked without Docker: the Dockerfile and the compose
file put the same built files at the same place, and the build context lets those files in."""

import fnmatch
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
LOADER = "/app/build/static/loader.js"  # where the official image keeps the frontend's loader.js


def dockerfile_copies() -> dict[str, str]:
    """COPY source → target, sources relative to the build context (the repository root)."""
    text = (DOCKER / "Dockerfile").read_text()
    return dict(re.findall(r"^COPY (?:--\S+ )*(\S+) (\S+)$", text, flags=re.MULTILINE))


def let_in(path: str) -> bool:
    """Whether the root .dockerignore lets ``path`` into the build context (last matching line wins)."""
    allowed = True
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            negated = line.startswith("!")
            if fnmatch.fnmatch(path, line.removeprefix("!")):
                allowed = negated
    return allowed


def test_the_image_puts_the_bundle_where_open_webui_serves_loader_js_from() -> None:
    copies = dockerfile_copies()
    assert copies["extension/dist/owui-citations.js"] == LOADER
    assert all(let_in(source) for source in copies), copies
    assert not let_in("node_modules/esbuild/package.json") and not let_in(".venv/pyvenv.cfg")


def test_the_compose_alternatives_build_that_image_or_mount_the_same_files() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    built, mounted = compose["services"]["open-webui"], compose["services"]["open-webui-mount"]
    assert (DOCKER / built["build"]["context"] / built["build"]["dockerfile"]).resolve() == DOCKER / "Dockerfile"
    binds = {
        (DOCKER / v["source"]).resolve().relative_to(ROOT).as_posix(): v["target"]
        for v in mounted["volumes"]
        if isinstance(v, dict) and v["type"] == "bind"
    }
    assert binds == dockerfile_copies()
    assert all(v.get("read_only") for v in mounted["volumes"] if isinstance(v, dict))
