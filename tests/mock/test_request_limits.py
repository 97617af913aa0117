"""What a web page visited while the mock runs can do to it: no more than Open WebUI's own page
needs. A body has a size limit (an OpenAI-style 413, never a 500, and never read whole into
memory), and only an Open WebUI page on this machine (its "direct connections") may call it
from a browser; a foreign page's POST is refused, not only left unreadable."""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from httpx2 import Response  # what Starlette's TestClient answers with

from mock_server.app import create_app

CHAT = "/v1/chat/completions"
OPEN_WEBUI = "http://127.0.0.1:8080"  # `make demo`'s, the e2e tests' on another port
FOREIGN = "https://attacker.example"
TOO_BIG = 9 * 1024 * 1024  # over the limit; Open WebUI's requests stay far below


def chat_body(content: str) -> bytes:
    return b'{"model": "openrag", "messages": [{"role": "user", "content": "%s"}]}' % content.encode()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as session:
        yield session


def assert_openai_error(response: Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text[:200]
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["message"]
    assert (error["type"], error["code"]) == ("invalid_request_error", code)


def test_a_body_over_the_limit_is_an_openai_413(client: TestClient) -> None:
    assert_openai_error(client.post(CHAT, content=chat_body("x" * TOO_BIG)), 413, "request_too_large")


def test_a_body_over_the_limit_without_a_length_is_an_openai_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # chunked: no Content-Length to refuse it by
        body, step = chat_body("x" * TOO_BIG), 1 << 20
        for start in range(0, len(body), step):
            yield body[start : start + step]

    assert_openai_error(client.post(CHAT, content=chunks()), 413, "request_too_large")


def test_a_body_under_the_limit_is_answered(client: TestClient) -> None:
    assert client.post(CHAT, content=chat_body("x" * 1024 * 1024)).status_code == 200


def test_open_webui_page_on_this_machine_may_call_it(client: TestClient) -> None:
    preflight = client.options(
        CHAT,
        headers={
            "Origin": OPEN_WEBUI,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == OPEN_WEBUI
    answer = client.post(CHAT, content=chat_body("hi"), headers={"Origin": "http://localhost:3000"})
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == "http://localhost:3000"


def test_a_foreign_page_may_not_call_it(client: TestClient) -> None:
    preflight = client.options(CHAT, headers={"Origin": FOREIGN, "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    # A "simple" request (text/plain, no preflight), which the mock would read as JSON: refused.
    simple = client.post(CHAT, content=chat_body("hi"), headers={"Origin": FOREIGN, "Content-Type": "text/plain"})
    assert_openai_error(simple, 403, "origin_not_allowed")
    assert "access-control-allow-origin" not in simple.headers


def test_requests_without_an_origin_are_served(client: TestClient) -> None:
    """curl, the openai client, Open WebUI's and LiteLLM's servers send none."""
    assert client.post(CHAT, content=chat_body("hi")).status_code == 200
    assert client.get("/v1/models").status_code == 200


def test_the_allowed_origins_can_be_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo names its Open WebUI's exact origins (MOCK_SERVER_CORS_ORIGINS); other local pages are foreign then."""
    monkeypatch.setenv("MOCK_SERVER_CORS_ORIGINS", f"{OPEN_WEBUI};http://localhost:8080")
    with TestClient(create_app()) as named:
        allowed = named.post(CHAT, content=chat_body("hi"), headers={"Origin": OPEN_WEBUI})
        assert allowed.headers["access-control-allow-origin"] == OPEN_WEBUI
        other = named.post(CHAT, content=chat_body("hi"), headers={"Origin": "http://127.0.0.1:3000"})
        assert_openai_error(other, 403, "origin_not_allowed")
