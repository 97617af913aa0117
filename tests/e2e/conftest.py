import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from devstack.processes import free_port
from devstack.stack import OWUI_VENV, ROOT, mock_server, open_webui
from tests.e2e.stack import Stack


def install_extension() -> None:
    """The installer, as a user runs it: with Open WebUI's own Python."""
    result = subprocess.run([str(OWUI_VENV / "bin" / "python"), "-m", "owui_citations", "install"],
                            cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@contextmanager
def running_stack(tmp_path_factory: pytest.TempPathFactory, extra_env: dict[str, str] | None = None) -> Iterator[Stack]:
    """The mock server and the pinned Open WebUI with the extension, each a real process."""
    install_extension()
    logs = tmp_path_factory.mktemp("logs")
    mock_port, webui_port = free_port(), free_port()
    mock = mock_server(mock_port, logs / "mock-server.log").start()
    webui = open_webui(webui_port, mock_port, tmp_path_factory.mktemp("owui-data"), logs / "open-webui.log", extra_env)
    try:
        mock.wait_until_ready(f"http://127.0.0.1:{mock_port}/v1/models", 30)
        webui.start().wait_until_ready(f"http://127.0.0.1:{webui_port}/health", 180)
        webui_url = f"http://127.0.0.1:{webui_port}"
        signin = httpx.post(f"{webui_url}/api/v1/auths/signin", json={"email": "", "password": ""}, timeout=60)
        signin.raise_for_status()
        yield Stack(f"http://127.0.0.1:{mock_port}", webui_url, signin.json()["token"])
    finally:
        webui.stop()
        mock.stop()


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory) as running:
        yield running


def chromium_path() -> str:
    return subprocess.run([str(ROOT / "scripts" / "ensure-browser.sh")], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict:
    """Debian's Chromium; the flags keep it from calling home on this closed network."""
    return {
        "executable_path": chromium_path(),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture(scope="session")
def screenshots() -> Path:
    path = ROOT / "test-results" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
