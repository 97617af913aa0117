from collections.abc import Iterator
import httpx
import pytest

from devstack.processes import free_port
from devstack.stack import mock_server, open_webui
from tests.e2e.stack import Stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The mock server and the pinned Open WebUI, each a real process on a free port."""
    logs = tmp_path_factory.mktemp("logs")
    mock_port, webui_port = free_port(), free_port()
    mock = mock_server(mock_port, logs / "mock-server.log").start()
    webui = open_webui(webui_port, mock_port, tmp_path_factory.mktemp("owui-data"), logs / "open-webui.log")
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
