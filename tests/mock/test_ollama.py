"""Ollama's API (mock_server/routers/ollama.py) as Open WebUI's Ollama connection uses it: the models it
lists, /api/chat whole and streamed as NDJSON, and its errors, Ollama's {"error": message}, never a 500."""

import json
from datetime import datetime

import httpx
import pytest

from tests.wire import SCENARIOS
from tests.wire import ndjson_lines

OLLAMA = sorted(name for name, s in SCENARIOS.items() if s.speaks_ollama)
ASK = [{"role": "user", "content": "How often should a puppy see a vet?"}]


def test_the_ollama_models_are_its_scenarios_and_no_openai_ones(http: httpx.Client) -> None:
    assert "lightrag" in OLLAMA
    tags = http.get("/api/tags").json()["models"]
    assert [m["model"] for m in tags] == [m["name"] for m in tags] == [f"{name}:latest" for name in OLLAMA]
    assert all(m["details"]["family"] == SCENARIOS[m["model"].removesuffix(":latest")].producer for m in tags)
    openai = {m["id"] for m in http.get("/v1/models").json()["data"]}
    assert openai.isdisjoint(OLLAMA)


def test_version_and_running_models_as_open_webui_reads_them(http: httpx.Client) -> None:
    assert http.get("/api/version").json() == {"version": "0.9.3"}
    running = http.get("/api/ps").json()["models"]
    assert [m["model"] for m in running] == [f"{name}:latest" for name in OLLAMA]
    for model in running:  # Open WebUI's get_all_models: datetime.fromisoformat(expires_at)
        assert datetime.fromisoformat(model["expires_at"]).year == 2050


@pytest.mark.parametrize("model", OLLAMA)
def test_chat_whole_and_streamed_as_ndjson_give_the_same_answer(http: httpx.Client, model: str) -> None:
    whole = http.post("/api/chat", json={"model": model, "messages": ASK, "stream": False})
    assert whole.status_code == 200 and whole.headers["content-type"] == "application/json"
    body = whole.json()
    assert body["model"] == model and body["done"] is True and body["done_reason"] == "stop"
    assert body["message"]["role"] == "assistant" and "References" in body["message"]["content"]

    streamed = http.post("/api/chat", json={"model": model, "messages": ASK})  # Ollama streams by default
    assert streamed.status_code == 200 and streamed.headers["content-type"] == "application/x-ndjson"
    assert streamed.text.endswith("}\n") and "data:" not in streamed.text
    lines = ndjson_lines(streamed.text)  # Open WebUI's json.loads of each line
    assert [line["done"] for line in lines] == [False] * (len(lines) - 1) + [True]
    assert lines[-1]["done_reason"] == "stop" and lines[-1]["message"]["content"] == ""
    assert all(isinstance(lines[-1][key], int) for key in ("prompt_eval_count", "eval_count", "eval_duration"))
    assert "".join(line["message"]["content"] for line in lines) == body["message"]["content"]


@pytest.mark.parametrize("content_type", ["application/octet-stream", "text/plain", None])
def test_a_body_is_json_whatever_its_content_type(http: httpx.Client, content_type: str | None) -> None:
    """As LightRAG's parse_request_body reads it (LiteLLM sends application/octet-stream; curl -d, a form)."""
    body = json.dumps({"model": "lightrag", "messages": ASK, "stream": False})
    headers = {"content-type": content_type} if content_type else {}
    assert http.post("/api/chat", content=body, headers=headers).json()["done"] is True


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("{not json", 400),
        ([1, 2], 400),
        ({"messages": ASK}, 400),
        ({"model": "lightrag"}, 400),
        ({"model": "lightrag", "messages": []}, 400),
        ({"model": "lightrag", "messages": "hello"}, 400),
        ({"model": "lightrag", "messages": [{"role": "user", "content": ["a", "list"]}]}, 400),
        ({"model": "lightrag", "messages": [*ASK, {"role": "assistant", "content": "x"}]}, 400),  # as LightRAG
        ({"model": "lightrag", "messages": ASK, "stream": "sometimes"}, 400),
        ({"model": "no-such-model", "messages": ASK}, 404),
        ({"model": "openrag", "messages": ASK}, 400),  # an OpenAI scenario: not served here
    ],
)
def test_bad_requests_get_ollama_errors(http: httpx.Client, body: object, status: int) -> None:
    content = body if isinstance(body, str) else json.dumps(body)
    response = http.post("/api/chat", content=content, headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    error = response.json()
    assert list(error) == ["error"] and isinstance(error["error"], str) and error["error"]


def test_unknown_ollama_routes_get_ollama_errors_and_openai_routes_keep_theirs(http: httpx.Client) -> None:
    assert http.get("/api/show").json().keys() == {"error"}
    refused = http.post("/v1/chat/completions", json={"model": "lightrag", "messages": ASK})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unsupported_endpoint"


def test_a_name_tagged_latest_is_the_model_itself(http: httpx.Client) -> None:
    # Listed tagged; Open WebUI 0.6 adds the tag to a name without one, as Ollama reads it.
    untagged = http.post("/api/chat", json={"model": "lightrag", "messages": ASK, "stream": False}).json()
    tagged = http.post("/api/chat", json={"model": "lightrag:latest", "messages": ASK, "stream": False}).json()
    assert tagged["model"] == "lightrag:latest"
    assert tagged["message"] == untagged["message"]
