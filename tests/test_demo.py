"""`make demo` locked to this machine and its user (the environment it starts the services with,
no process started): while it runs, a web page visited meanwhile can neither sign in to Open
WebUI as admin nor call the mock from another origin. The e2e tests' stack is unchanged."""

from pathlib import Path

import pytest

from devstack.stack import Demo
from devstack.stack import local_origins
from devstack.stack import mock_server
from devstack.stack import open_webui

WEBUI_PORT, MOCK_PORT, LITELLM_PORT = 8080, 9000, 4000
OWN_ORIGINS = "http://127.0.0.1:8080;http://localhost:8080"


def demo_webui(tmp_path: Path, demo: Demo) -> dict[str, str]:
    service = open_webui(WEBUI_PORT, MOCK_PORT, LITELLM_PORT, tmp_path / "data", tmp_path / "log", demo=demo)
    assert service.command[-4:] == ["--host", "127.0.0.1", "--port", "8080"]
    return service.env


def test_the_demo_signs_in_with_a_random_admin_password_and_a_random_secret_key(tmp_path: Path) -> None:
    first, second = Demo.new(), Demo.new()
    env = demo_webui(tmp_path, first)
    assert env["WEBUI_AUTH"] == "True"
    assert (env["WEBUI_ADMIN_EMAIL"], env["WEBUI_ADMIN_PASSWORD"]) == (first.admin_email, first.admin_password)
    assert env["WEBUI_SECRET_KEY"] == first.secret_key
    assert len(first.admin_password) >= 16 and len(first.secret_key) >= 32
    assert first.admin_password != second.admin_password and first.secret_key != second.secret_key
    assert demo_webui(tmp_path, second)["WEBUI_SECRET_KEY"] == second.secret_key


def test_the_demo_allows_cross_origin_calls_from_its_own_origin_only(tmp_path: Path) -> None:
    assert demo_webui(tmp_path, Demo.new())["CORS_ALLOW_ORIGIN"] == OWN_ORIGINS
    mock = mock_server(MOCK_PORT, tmp_path / "log", cors_origins=local_origins(WEBUI_PORT))
    assert mock.command[mock.command.index("--host") + 1] == "127.0.0.1"
    assert mock.env["MOCK_SERVER_CORS_ORIGINS"] == OWN_ORIGINS


def test_the_tests_stack_is_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No login (the e2e tests sign in with an empty email), Open WebUI's own CORS default."""
    for name in ("CORS_ALLOW_ORIGIN", "WEBUI_ADMIN_PASSWORD", "MOCK_SERVER_CORS_ORIGINS"):
        monkeypatch.delenv(name, raising=False)
    service = open_webui(WEBUI_PORT, MOCK_PORT, LITELLM_PORT, tmp_path / "data", tmp_path / "log")
    assert service.env["WEBUI_AUTH"] == "False"
    assert "WEBUI_ADMIN_PASSWORD" not in service.env
    assert "CORS_ALLOW_ORIGIN" not in service.env
    assert service.env["WEBUI_SECRET_KEY"] == "owui-citations-dev"
    assert "MOCK_SERVER_CORS_ORIGINS" not in mock_server(MOCK_PORT, tmp_path / "log").env
