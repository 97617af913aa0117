"""The scenario families of the hardening tests: `hostile` (script-injection payloads in every
source field of every producer's wire format) and `malformed` (broken or huge source data)."""

import json
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
import yaml

from mock_server.registry import HOSTILE
from mock_server.registry import MALFORMED
from mock_server.registry import PRODUCERS
from mock_server.registry import load_scenarios
from mock_server.rendering import RequestFacts
from mock_server.rendering import render_body
from mock_server.rendering import render_stream
from mock_server.scenarios import EndpointKind
from mock_server.templates import Renderer
from scripts.hardening_checks import OUT as HARDENING_CHECKS
from scripts.hardening_checks import rendered as hardening_checks

PAYLOADS: list[str] = Renderer({}).render(yaml.safe_load((PRODUCERS / "_hostile-payloads.yaml").read_text()))
FAMILIES = load_scenarios([HOSTILE, MALFORMED])
FACTS = RequestFacts("x", "http://127.0.0.1:9000/", 1)


def strings_in(value: object) -> Iterator[str]:
    """Every string of a body, and of the JSON that travels inside its strings (OpenRAG's extra)."""
    if isinstance(value, str):
        yield value
        try:
            yield from strings_in(json.loads(value))
        except ValueError:
            pass
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from strings_in(item)


def body_of(name: str, kind: EndpointKind | None = None) -> dict:
    """The non-streaming body of one endpoint (the scenario's first by default), for a request that asks
    for every source the producer sends only when asked (RAGFlow's extra_body.reference), as the dev
    stack's custom parameters do (producer_options)."""
    scenario = FAMILIES[name]
    facts = replace(FACTS, switches=dict.fromkeys(scenario.switches, True))
    return json.loads(render_body(scenario, kind or scenario.kinds[0], facts))


def test_over_200_distinct_payloads_none_blank_one_a_10000_character_title() -> None:
    assert len(PAYLOADS) >= 200 and len(set(PAYLOADS)) == len(PAYLOADS)
    assert all(payload.strip() for payload in PAYLOADS)
    assert max(len(payload) for payload in PAYLOADS) == 10_000


def streamed_tags(name: str) -> list[dict]:
    """The JSON of the <citation> tags in a stream's text: Brave's sources, sent only when streaming."""
    chunks = [
        json.loads(event.text[len("data: ") :])
        for event in render_stream(FAMILIES[name], "chat", FACTS)
        if event.text.startswith("data: {")
    ]
    text = "".join(chunk["choices"][0]["delta"]["content"] for chunk in chunks if chunk["choices"])
    return [json.loads(tag) for tag in re.findall(r"<citation>(.*?)</citation>", text, re.DOTALL)]


def reference_titles(name: str) -> set[str]:
    """The payloads that LightRAG's references list names, each the title of its line "- [i] <payload>" in
    the answer's text (Ollama's /api/chat body), as the scenario numbers them."""
    content = body_of(name)["message"]["content"]
    return {payload for i, payload in enumerate(PAYLOADS, start=1) if f"- [{i}] {payload}" in content}


@pytest.mark.parametrize("name", sorted(name for name in FAMILIES if name.startswith("hostile-")))
def test_every_payload_reaches_the_body(name: str) -> None:
    # A knowledge base's sources are its search page, not its model's answer.
    kind: EndpointKind | None = "vector_store_search" if FAMILIES[name].vector_store_search else None
    if name == "hostile-lightrag":  # its sources are lines of the answer's text
        sent = reference_titles(name)
    else:
        sent = set(strings_in(streamed_tags(name) if name == "hostile-brave" else body_of(name, kind)))
    assert [payload for payload in PAYLOADS if payload not in sent] == []


@pytest.mark.parametrize("name", sorted(name for name in FAMILIES if name.startswith("malformed-")))
def test_malformed_scenarios_keep_their_answer(name: str) -> None:
    body = body_of(name)
    if "content" in body:  # Anthropic's Messages API: text blocks
        assert "".join(block.get("text", "") for block in body["content"]).strip()
    elif "message" in body:  # Ollama's /api/chat
        assert body["message"]["content"].strip()
    elif "output" in body:  # the Responses API: output_text parts of its message items
        parts = [part for item in body["output"] if item["type"] == "message" for part in item["content"]]
        assert "".join(part["text"] for part in parts if part["type"] == "output_text").strip()
    elif isinstance(content := body["choices"][0]["message"]["content"], list):  # Mistral's chunks
        assert "".join(c["text"] for c in content if isinstance(c, dict) and c.get("type") == "text").strip()
    else:
        assert content.strip()


def test_the_typescript_tests_read_the_scenarios_checks_as_they_are_now() -> None:
    # extension/test-support/fixtures/hardening.json: what the core and markup tests predict, from these files.
    assert HARDENING_CHECKS.read_text() == hardening_checks(), "stale: run `make hardening-checks`"
