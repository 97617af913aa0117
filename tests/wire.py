"""Helpers to read the mock server's raw responses."""

import json
from pathlib import Path

import httpx

from mock_server.registry import load_scenarios

SCENARIOS = load_scenarios()
CHAT_SCENARIOS = sorted(name for name, s in SCENARIOS.items() if s.chat is not None)


def sse_data(text: str) -> list[str]:
    """The payloads of the `data:` lines of a server-sent event stream, in order."""
    return [line[len("data: ") :] for line in text.splitlines() if line.startswith("data: ")]


def ndjson_lines(text: str) -> list[dict]:
    """The objects of an NDJSON stream (Ollama's), one a line: split at "\n" only, as Open WebUI reads it
    (aiohttp's lines), not at every line break str.splitlines knows (U+2028 in a JSON string)."""
    return [json.loads(line) for line in text.split("\n") if line]


def raw_chunks(http: httpx.Client, model: str, **extra: object) -> tuple[list[str], list[dict]]:
    """A streamed chat completion as raw `data:` payloads and as parsed JSON (without [DONE])."""
    body = {"model": model, "messages": [{"role": "user", "content": "Sources?"}], "stream": True, **extra}
    response = http.post("/v1/chat/completions", json=body)
    assert response.status_code == 200, response.text
    payloads = sse_data(response.text)
    return payloads, [json.loads(p) for p in payloads if p != "[DONE]"]


def chat_body(http: httpx.Client, model: str) -> tuple[str, dict]:
    body = {"model": model, "messages": [{"role": "user", "content": "Sources?"}]}
    response = http.post("/v1/chat/completions", json=body)
    assert response.status_code == 200, response.text
    return response.text, response.json()


def scenario_file_from_contributing() -> str:
    """The complete scenario example of docs/contributing.md, so that the documented format is tested."""
    guide = (Path(__file__).resolve().parent.parent / "docs" / "contributing.md").read_text()
    start = guide.index("```yaml\n", guide.index("## Scenario files")) + len("```yaml\n")
    return guide[start : guide.index("```", start)]
