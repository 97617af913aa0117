"""The unnamed-backends corpus served by the mock (mock_server/corpus.py): each file a model
`unnamed-<slug>` answering with the backend's recorded bytes, its body whole or its lines streamed,
on the API it speaks (OpenAI's Chat Completions, Ollama's /api/chat or /api/generate); a mode it
does not answer in, or an endpoint it does not speak, is a 4xx in that API's error shape."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient

from mock_server.app import create_app
from mock_server.corpus import BUILD_DIR
from mock_server.corpus import Backend
from mock_server.corpus import CorpusError
from mock_server.corpus import load_corpus
from tests.wire import ndjson_lines
from tests.wire import sse_data

BUILD = load_corpus([BUILD_DIR])
ASK = [{"role": "user", "content": "Which sources?"}]
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def ask(http: httpx.Client | TestClient, model: str, stream: bool) -> Any:
    return http.post("/v1/chat/completions", json={"model": model, "messages": ASK, "stream": stream})


def test_every_file_of_the_build_half_is_a_model(http: httpx.Client) -> None:
    listed = {model["id"] for model in http.get("/v1/models").json()["data"]}
    for backend in BUILD:
        assert (backend.model_id in listed) != backend.ollama, backend.slug
    tags = {model["model"] for model in http.get("/api/tags").json()["models"]}
    assert {f"unnamed-{b.slug}:latest" for b in BUILD if b.ollama} <= tags


@pytest.mark.parametrize("backend", [b for b in BUILD if not b.ollama], ids=lambda b: b.slug)
def test_a_backend_answers_with_what_it_recorded(http: httpx.Client, backend: Backend) -> None:
    whole = ask(http, backend.model_id, stream=False)
    if backend.non_streamed is None:
        assert whole.status_code == 400 and whole.json()["error"]["param"] == "stream"
    else:
        assert whole.status_code == 200 and whole.headers["content-type"] == "application/json"
        assert whole.json() == json.loads(backend.non_streamed)
    streamed = ask(http, backend.model_id, stream=True)
    if backend.streamed is None:
        assert streamed.status_code == 400 and streamed.json()["error"]["param"] == "stream"
    else:
        assert streamed.status_code == 200 and streamed.headers["content-type"].startswith("text/event-stream")
        recorded = [
            line.removeprefix("data:").strip() for line in backend.streamed.splitlines() if line.startswith("data:")
        ]
        assert sse_data(streamed.text) == recorded  # each line as written, each its own event
        assert "\n\n" in streamed.text


def test_an_endpoint_the_backend_does_not_speak_is_a_400(http: httpx.Client) -> None:
    model = BUILD[0].model_id
    response = http.post("/v1/completions", json={"model": model, "prompt": "?"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "unsupported_endpoint"
    ollama = http.post("/api/chat", json={"model": f"{model}:latest", "messages": ASK})
    assert ollama.status_code == 400 and "does not support /api/chat" in ollama.json()["error"]


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"model": BUILD[0].model_id}, "messages"),
        ({"model": BUILD[0].model_id, "messages": ASK, "stream": "sometimes"}, "stream"),
        ({"model": "unnamed-no-such-backend", "messages": ASK}, "model"),
    ],
)
def test_a_malformed_request_is_an_openai_4xx(http: httpx.Client, body: dict, param: str) -> None:
    response = http.post("/v1/chat/completions", json=body)
    assert 400 <= response.status_code < 500
    assert response.json()["error"]["param"] == param


def write_backend(folder: Path, slug: str, api: str, non_streamed: str | None, streamed: str | None) -> None:
    answer = "Backups are kept 35 days [1]."
    data = {
        "name": slug,
        "kind": "rag-server",
        "api": api,
        "read_from": [{"repository": "example/backend", "path": "api.py", "commit": COMMIT}],
        "request": "nothing",
        "non_streamed": non_streamed,
        "streamed": streamed,
        "answer": answer,
        "expected": {"sources": [{"title": "backup-policy.pdf"}], "citations": [{"marker": "[1]", "source": 1}]},
        "notes": "made up for the mock's tests",
    }
    (folder / f"{slug}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")


CHAT_LINES = [
    {"model": "m", "message": {"role": "assistant", "content": "Backups are kept 35 days [1]."}, "done": False},
    {"model": "m", "message": {"role": "assistant", "content": ""}, "done": True, "sources": ["backup-policy.pdf"]},
]
GENERATE_LINES = [
    {"model": "m", "response": "Backups [1].", "done": False},
    {"model": "m", "response": "", "done": True},
]


@pytest.fixture(scope="module")
def ollama_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A corpus of its own, the directory given as the setting: Ollama backends (the build half has none)."""
    folder = tmp_path_factory.mktemp("corpus")
    ndjson = "\n".join(json.dumps(line) for line in CHAT_LINES)
    write_backend(folder, "ollama-rag", "ollama-chat", json.dumps(CHAT_LINES[-1]), ndjson)
    generate = "\n".join(json.dumps(line) for line in GENERATE_LINES)
    write_backend(folder, "ollama-gen", "ollama-generate", None, generate)
    with TestClient(create_app(corpus_dirs=[folder])) as client:
        yield client


def test_only_the_directories_set_are_served(ollama_client: TestClient) -> None:
    assert not [m for m in ollama_client.get("/v1/models").json()["data"] if m["id"].startswith("unnamed-")]
    tags = [m["model"] for m in ollama_client.get("/api/tags").json()["models"]]
    assert [t for t in tags if t.startswith("unnamed-")] == ["unnamed-ollama-gen:latest", "unnamed-ollama-rag:latest"]
    assert ask(ollama_client, "unnamed-kimi-free-api", stream=False).status_code == 404
    with TestClient(create_app(corpus_dirs=[])) as bare:
        assert not [m for m in bare.get("/v1/models").json()["data"] if m["id"].startswith("unnamed-")]


def test_an_ollama_backend_streams_its_lines_as_ndjson(ollama_client: TestClient) -> None:
    chat = {"model": "unnamed-ollama-rag:latest", "messages": ASK}
    streamed = ollama_client.post("/api/chat", json=chat)  # Ollama streams unless told not to
    assert streamed.status_code == 200 and streamed.headers["content-type"] == "application/x-ndjson"
    assert ndjson_lines(streamed.text) == CHAT_LINES and "data:" not in streamed.text
    assert ollama_client.post("/api/chat", json={**chat, "stream": False}).json() == CHAT_LINES[-1]
    generate = ollama_client.post("/api/generate", json={"model": "unnamed-ollama-gen", "prompt": "?"})
    assert ndjson_lines(generate.text) == GENERATE_LINES
    whole = ollama_client.post("/api/generate", json={"model": "unnamed-ollama-gen", "prompt": "?", "stream": False})
    assert whole.status_code == 400 and "streamed" in whole.json()["error"]  # Ollama's error shape
    wrong = ollama_client.post("/api/generate", json={"model": "unnamed-ollama-rag", "prompt": "?"})
    assert wrong.status_code == 400 and "/api/generate" in wrong.json()["error"]
    assert ollama_client.post("/api/generate", json={"model": "unnamed-ollama-gen"}).status_code == 400
    assert ask(ollama_client, "unnamed-ollama-rag", stream=True).json()["error"]["code"] == "unsupported_endpoint"


def test_a_file_off_the_schema_stops_the_server_naming_it(tmp_path: Path) -> None:
    write_backend(tmp_path, "broken", "openai-chat", None, None)  # answers in no mode
    with pytest.raises(CorpusError, match="broken.yaml"):
        create_app(corpus_dirs=[tmp_path])
