"""Every link the scenarios send opens something real on the mock server itself."""

import json
import re
from collections.abc import Iterator

import httpx
import pytest

from tests.wire import SCENARIOS
from tests.wire import ndjson_lines
from tests.wire import sse_data


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
        if value.startswith("{"):  # JSON inside a string: OpenRAG's extra
            yield from strings_in(json.loads(value))
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def requests_for(name: str, kind: str) -> tuple[tuple[str, dict], tuple[str, dict]]:
    """(path, body) of a whole answer and of a stream, on one endpoint the scenario speaks."""
    user = [{"role": "user", "content": "x"}]
    if kind == "anthropic":
        body = {"model": "claude", "max_tokens": 1024, "messages": user}
        return (f"/providers/{name}/v1/messages", body), (f"/providers/{name}/v1/messages", {**body, "stream": True})
    if kind == "vector_store_search":  # never streamed; the store is named after its scenario
        search = (f"/providers/{name}/v1/vector_stores/{name}/search", {"query": "x"})
        return search, search
    if kind == "ollama":
        body = {"model": name, "messages": user, "stream": False}
        return ("/api/chat", body), ("/api/chat", {**body, "stream": True})
    if kind == "gemini":
        base, body = f"/providers/{name}/v1beta/models/gemini", {"contents": [{"parts": [{"text": "x"}]}]}
        return (f"{base}:generateContent", body), (f"{base}:streamGenerateContent?alt=sse", body)
    path, field = {
        "chat": ("/v1/chat/completions", "messages"),
        "completions": ("/v1/completions", "prompt"),
        "responses": ("/v1/responses", "input"),
    }[kind]
    body = {"model": name, field: user if field == "messages" else "x"}
    return (path, body), (path, {**body, "stream": True})


def every_payload(http: httpx.Client, name: str) -> Iterator[object]:
    """Every body and stream chunk the scenario sends, parsed, on every endpoint it speaks."""
    scenario = SCENARIOS[name]
    for kind in scenario.kinds:
        whole, streamed = requests_for(name, kind)
        yield http.post(whole[0], json=whole[1]).json()
        endpoint = scenario.endpoint(kind)
        if endpoint is not None and endpoint.stream is not None:
            stream = http.post(streamed[0], json=streamed[1]).text
            if kind == "ollama":
                yield from ndjson_lines(stream)
            else:
                yield from (json.loads(p) for p in sse_data(stream) if p != "[DONE]")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_cited_link_resolves_locally(http: httpx.Client, mock_url: str, name: str) -> None:
    link = re.compile(re.escape(mock_url) + r"/[^\s\"'()<>\[\]\\]+")
    urls = {url for payload in every_payload(http, name) for text in strings_in(payload) for url in link.findall(text)}
    # A scenario whose sources have no link says why (`linkless:` in its scenario.yaml).
    assert urls or SCENARIOS[name].linkless, "a scenario should cite something the mock serves"
    for url in urls:
        response = http.get(url)
        assert response.status_code == 200, url


def test_the_report_is_a_real_multi_page_pdf(http: httpx.Client) -> None:
    response = http.get("/static/rapport_2024.pdf")
    assert response.headers["content-type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-") and b"/Count 8" in response.content


def test_extract_returns_the_chunk_of_a_64_bit_id(http: httpx.Client) -> None:
    response = http.get("/extract/458812345678901234")
    assert response.status_code == 200
    assert "12,4 M€" in response.json()["page_content"]
    assert '"_id":458812345678901234' in response.text
