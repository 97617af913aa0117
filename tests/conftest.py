from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest

from devstack.processes import free_port
from devstack.stack import mock_server
from tests.installer_support import fake_bundle
from tests.installer_support import make_frontend


@pytest.fixture(scope="session")
def mock_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real mock server, started as `python -m mock_server` on a free port."""
    port = free_port()
    logs = tmp_path_factory.mktemp("logs") / "mock-server.log"
    service = mock_server(port, logs, extra_args=["--no-pauses"]).start()  # the answers, not their pace
    try:
        service.wait_until_ready(f"http://127.0.0.1:{port}/v1/models", 30)
        yield f"http://127.0.0.1:{port}"
    finally:
        service.stop()


@pytest.fixture(scope="session")
def client(mock_url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{mock_url}/v1", api_key="test", max_retries=0)


@pytest.fixture(scope="session")
def http(mock_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=mock_url, timeout=30) as session:
        yield session


@pytest.fixture
def frontend(tmp_path: Path) -> Path:
    """The parts of an Open WebUI frontend the installer relies on (tests/installer_support.py)."""
    return make_frontend(tmp_path / "frontend")


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    """A bundle of this package's shape, version 0.2.0."""
    return fake_bundle(tmp_path / "dist", "0.2.0")
