"""The relay filter on the streams the mock sends (what Open WebUI would drop reaches the page, the
text never twice), and its registration against a small in-memory stand-in of Open WebUI's
functions API (the real one: tests/e2e/test_relay.py)."""

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from owui_citations import relay
from owui_citations.relay_filter import EVENT_TYPE
from owui_citations.relay_filter import MAX_RELAYED_CHARS
from owui_citations.relay_filter import Filter
from tests.wire import raw_chunks

ROOT = Path(__file__).resolve().parent.parent
GEMINI_THROUGH_LITELLM = ROOT / "extension" / "src" / "core" / "fixtures" / "litellm" / "gemini-grounding.sse"


def relayed(chunks: list[dict]) -> list[dict]:
    events = [Filter().stream(json.loads(json.dumps(chunk))).get("event") for chunk in chunks]
    return [event["data"] for event in events if event and event.get("type") == EVENT_TYPE]


def texts(chunk: dict) -> list[str]:
    return [
        value
        for choice in chunk.get("choices") or []
        for key in ("content", "reasoning_content", "reasoning")
        if isinstance(value := (choice.get("delta") or {}).get(key), str) and value
    ]


@pytest.mark.parametrize(
    ("model", "dropped_field"),
    [("nvidia-rag", "citations"), ("open-webui-upstream", "sources")],
)
def test_what_open_webui_drops_is_relayed_without_the_text(http: httpx.Client, model: str, dropped_field: str) -> None:
    _, chunks = raw_chunks(http, model)
    for chunk in chunks:
        # Open WebUI drops the field beside text, or with no choices at all; otherwise it passes the chunk on.
        dropped = dropped_field in chunk and bool(texts(chunk) or not chunk.get("choices"))
        assert [relay[dropped_field] for relay in relayed([chunk])] == ([chunk[dropped_field]] if dropped else [])
    relays = relayed(chunks)
    assert any(chunk[dropped_field] for chunk in relays)
    assert not any(texts(chunk) for chunk in relays)


def test_gemini_grounding_on_its_last_text_chunk_is_relayed() -> None:
    # What the real LiteLLM proxy streamed for the gemini-grounding scenario (make record-litellm).
    lines = GEMINI_THROUGH_LITELLM.read_text().splitlines()
    chunks = [json.loads(line[6:]) for line in lines if line.startswith("data: {")]
    relays = relayed(chunks)
    assert any("vertex_ai_grounding_metadata" in chunk for chunk in relays)
    assert not any(texts(chunk) for chunk in relays)


@pytest.mark.parametrize(
    "chunk",
    [
        {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]},
        {"id": "c", "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}},
        {"error": {"message": "overloaded", "type": "server_error"}},
        {"type": "response.output_text.delta", "delta": "Hi", "sources": []},
        {"selected_model_id": "m"},
        {"event": {"type": "status", "data": {}}, "sources": []},
        # Without text, Open WebUI passes the chunk on whole: relayed too, it would be read twice.
        {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "citations": ["x"]},
    ],
)
def test_what_open_webui_passes_on_is_not_relayed(chunk: dict) -> None:
    assert relayed([chunk]) == []


def test_the_relay_never_breaks_the_stream() -> None:
    text = {"index": 0, "delta": {"content": "Hi"}}
    huge = {"choices": [text], "references": ["x" * MAX_RELAYED_CHARS]}
    assert "event" not in Filter().stream(huge)
    for odd in ({"choices": "x"}, {"choices": [None]}, {"choices": [{"delta": "x"}]}, {"choices": [text], "x": {1j}}):
        assert Filter().stream(odd) is odd
    cyclic: dict = {"choices": [text]}
    cyclic["self"] = cyclic
    assert "event" not in Filter().stream(cyclic)


def test_the_event_type_is_the_one_the_extension_reads() -> None:
    events = (ROOT / "extension" / "src" / "capture" / "events.ts").read_text()
    assert re.search(r"RELAY_EVENT = '([^']+)'", events)[1] == EVENT_TYPE  # type: ignore[index]


class FunctionsApi(BaseHTTPRequestHandler):
    """Open WebUI's functions API as the relay uses it: export, create, update, toggles, delete."""

    functions: dict[str, dict] = {}
    calls: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def _answer(self, code: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self) -> None:
        self.calls.append(f"{self.command} {self.path}")
        if self.headers["Authorization"] != "Bearer admin":
            return self._answer(401, {"detail": "unauthorized"})
        path = self.path.removeprefix("/api/v1/functions")
        length = int(self.headers.get("Content-Length") or 0)
        form = json.loads(self.rfile.read(length)) if length else None
        function = self.functions.get(relay.FUNCTION_ID)
        if path == "/export":
            return self._answer(200, list(self.functions.values()))
        if path == "/create" and form:
            self.functions[form["id"]] = {**form, "is_active": False, "is_global": False}
        elif function is None:
            return self._answer(401, {"detail": "not found"})
        elif path.endswith("/update") and form:
            function["content"] = form["content"]
        elif path.endswith("/toggle"):
            function["is_active"] = not function["is_active"]
        elif path.endswith("/toggle/global"):
            function["is_global"] = not function["is_global"]
        elif path.endswith("/delete"):
            del self.functions[relay.FUNCTION_ID]
        self._answer(200, True)

    do_GET = do_POST = do_DELETE = _handle


@pytest.fixture
def open_webui() -> Iterator[str]:
    FunctionsApi.functions, FunctionsApi.calls = {}, []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FunctionsApi)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_registered_global_and_active_reported_and_removed(open_webui: str) -> None:
    assert relay.relay_status(open_webui, "admin")[0].startswith("Relay filter: not registered")
    relay.install_relay(open_webui, "admin")
    assert FunctionsApi.functions[relay.FUNCTION_ID]["is_active"] is True
    assert FunctionsApi.functions[relay.FUNCTION_ID]["is_global"] is True
    assert relay.relay_status(open_webui, "admin")[1] is True
    relay.install_relay(open_webui, "admin")  # again: nothing flips back
    assert relay.relay_status(open_webui, "admin")[1] is True
    relay.uninstall_relay(open_webui, "admin")
    assert FunctionsApi.functions == {}


def test_someone_elses_function_is_never_replaced(open_webui: str) -> None:
    theirs = {"id": relay.FUNCTION_ID, "content": "class Filter: ...", "is_active": True, "is_global": False}
    FunctionsApi.functions[relay.FUNCTION_ID] = dict(theirs)
    for step in (relay.install_relay, relay.uninstall_relay):
        with pytest.raises(relay.RelayError, match="not this relay"):
            step(open_webui, "admin")
    assert FunctionsApi.functions[relay.FUNCTION_ID] == theirs
    assert not any(call.startswith(("POST", "DELETE")) for call in FunctionsApi.calls)


def test_a_token_that_is_not_an_admins_is_refused_clearly(open_webui: str) -> None:
    with pytest.raises(relay.RelayError, match="admin's token"):
        relay.install_relay(open_webui, "user")
