"""The relay filter on the streams the mock sends (what Open WebUI would drop reaches the page, the
text never twice), and its registration against a small in-memory stand-in of Open WebUI's
functions API (the real one: tests/e2e/test_relay.py)."""

import json
import re
import threading
from collections.abc import Iterable
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from bench.relay import perplexity_amplified
from devstack.built_core import CORE
from devstack.built_core import call_core
from owui_citations import relay
from owui_citations.relay_filter import EVENT_TYPE
from owui_citations.relay_filter import MAX_FIELDS_PER_MESSAGE
from owui_citations.relay_filter import MAX_MESSAGES
from owui_citations.relay_filter import MAX_RELAYED_BYTES
from owui_citations.relay_filter import MAX_RELAYED_BYTES_PER_MESSAGE
from owui_citations.relay_filter import Filter
from owui_citations.relay_filter import dropped
from tests.functions_api import FunctionsApi
from tests.wire import CHAT_SCENARIOS
from tests.wire import raw_chunks

ROOT = Path(__file__).resolve().parent.parent
GEMINI_THROUGH_LITELLM = ROOT / "extension" / "src" / "core" / "fixtures" / "litellm" / "gemini-grounding.sse"
# Bytes relayed for an answer, at most: this many times the answer's text plus one copy of its
# sources. What a field costs is paid once, and again only when its value changes: the most the
# mock's scenarios need is a field that changes a few times (see the test).
RELAYED_PER_ANSWER_AND_SOURCES = 2


def relay_each(
    chunks: Iterable[dict], message_id: str = "message", through: Filter | None = None, user_id: str = "user"
) -> list[dict | None]:
    """What the relay sends with each of these chunks of one message (None: nothing), through a
    fresh filter unless given one, as Open WebUI calls it (with the message's metadata)."""
    relay_filter = through or Filter()
    metadata = {"message_id": message_id, "user_id": user_id}
    sent = []
    for chunk in chunks:
        event = relay_filter.stream(chunk, __metadata__=metadata).get("event")
        sent.append(event["data"] if event and event.get("type") == EVENT_TYPE else None)
    return sent


def relayed(chunks: list[dict], message_id: str = "message", through: Filter | None = None) -> list[dict]:
    """The relayed chunks alone (of copies: the chunks themselves are left as they are)."""
    return [data for data in relay_each(json.loads(json.dumps(chunks)), message_id, through) if data]


def texts(chunk: dict) -> list[str]:
    return [
        value
        for choice in chunk.get("choices") or []
        for key in ("content", "reasoning_content", "reasoning")
        if isinstance(value := (choice.get("delta") or {}).get(key), str) and value
    ]


@pytest.fixture(scope="module")
def streams(http: httpx.Client) -> dict[str, list[dict]]:
    """Every streamed chat scenario of the mock, as it sends it (objects only: FastGPT's list after
    [DONE] is no chunk)."""
    return {model: [c for c in raw_chunks(http, model)[1] if isinstance(c, dict)] for model in CHAT_SCENARIOS}


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
    assert any(chunk.get(dropped_field) for chunk in relays)
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
    huge = {"choices": [text], "references": ["x" * MAX_RELAYED_BYTES]}
    assert relayed([huge]) == []
    for odd in ({"choices": "x"}, {"choices": [None]}, {"choices": [{"delta": "x"}]}, {"choices": [text], "x": {1j}}):
        assert Filter().stream(odd, __metadata__={"message_id": "m"}) is odd
    cyclic: dict = {"choices": [text]}
    cyclic["self"] = cyclic
    assert "event" not in Filter().stream(cyclic, __metadata__={"message_id": "m"})


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_nan_or_infinity_is_never_relayed_and_the_stream_goes_on(number: str) -> None:
    # Open WebUI's json.loads accepts them; the browser's JSON.parse refuses the socket packet, and
    # socket.io then closes the user's connection: streaming stops for that user.
    line = '{"id": "c", "choices": [{"index": 0, "delta": {"content": "Hi"}}], "sources": [{"score": %s}]}'
    chunk = json.loads(line % number)
    relay_filter = Filter()
    passed_on = relay_filter.stream(chunk, __metadata__={"message_id": "m", "user_id": "user"})
    assert passed_on is chunk and "event" not in chunk and texts(chunk) == ["Hi"]
    # The same field with a number JSON has is relayed: nothing of the refused one was remembered.
    assert relayed([json.loads(line % "0.5")], "m", relay_filter) == [
        {"id": "c", "sources": [{"score": 0.5}], "choices": [{"index": 0, "delta": {}}]}
    ]


def passed_on(chunk: dict) -> list[dict]:
    """What of a chunk reaches the page through Open WebUI: a text chunk's text (capture/events.ts
    routeText), a chunk without text whole, a chunk without choices nothing."""
    if texts(chunk):
        content = (chunk["choices"][0].get("delta") or {}).get("content")
        return [{"type": "response.output_text.delta", "delta": content}] if isinstance(content, str) else []
    return [chunk] if chunk.get("choices") else []


def page_reads(chunks: list[dict], relays: list[dict | None]) -> list[dict]:
    """What the page's accumulator takes, in order: each chunk's relayed event (Open WebUI emits it
    before it reads the chunk), then what Open WebUI passes on."""
    items: list[dict] = []
    for chunk, sent in zip(chunks, relays, strict=True):
        items += ([sent] if sent else []) + passed_on(chunk)
    return items


def citations_in_page(streams: dict[str, list[dict]]) -> dict[str, dict]:
    """The citations the extension's core finds in each stream (extension/dist/core.mjs, `npm run build`)."""
    assert CORE.exists(), "build the extension first: npm run --silent build"
    return call_core(
        """(core, streams) => Object.fromEntries(Object.entries(streams).map(([name, items]) => {
          const accumulator = core.createAccumulator();
          items.forEach((item) => accumulator.add(item));
          return [name, accumulator.result()];
        }))""",
        streams,
    )


def test_fields_relayed_once_give_the_page_the_sources_relayed_on_every_chunk(streams: dict[str, list[dict]]) -> None:
    """The relay sends a field again only when it changed: the page must find the same sources as
    when every chunk's dropped fields were relayed whole (the relay before, `dropped`)."""
    before, now = {}, {}
    for model, chunks in streams.items():
        every_time = [dropped(chunk) for chunk in chunks]
        if not any(every_time):
            continue  # the relay does not touch this stream
        before[model] = page_reads(chunks, every_time)
        now[model] = page_reads(chunks, relay_each(json.loads(json.dumps(chunks)), model))
    assert {"perplexity", "nvidia-rag", "openrag", "jina-deepsearch"} <= set(before)
    found_before, found_now = citations_in_page(before), citations_in_page(now)
    # FastGPT's quotes come after [DONE], where Open WebUI stops reading (docs/compatibility.md).
    assert all(found_before[model]["citations"] for model in before if model != "fastgpt")
    assert {model: found_now[model] for model in before} == found_before


def test_a_field_is_relayed_again_only_when_its_value_changes() -> None:
    text = {"index": 0, "delta": {"content": "word "}}
    growing = [["a"], ["a"], ["a", "b"], ["a", "b"], ["a"]]
    chunks = [{"id": "c", "choices": [text], "citations": citations} for citations in growing]
    assert [sent["citations"] for sent in relayed(chunks)] == [["a"], ["a", "b"], ["a"]]


def relayed_bytes(relays: list[dict]) -> int:
    """As python-socketio encodes them (json.dumps, ASCII): the bytes each of the user's tabs receives."""
    return sum(len(json.dumps(relay)) for relay in relays)


def answer_and_sources(chunks: Iterable[dict]) -> tuple[int, int]:
    """The answer's text, and one copy of its sources: the most Open WebUI drops of one chunk,
    without the answer so far that a producer repeats (Perplexity's cumulative `message`)."""
    answer, sources = [], 0
    for chunk in chunks:
        answer += texts(chunk)[:1]
        if (relay := dropped(chunk)) is not None:
            for choice in relay.get("choices") or []:
                if isinstance(choice, dict) and isinstance(choice.get("message"), dict):
                    choice["message"] = {key: value for key, value in choice["message"].items() if key != "content"}
            sources = max(sources, relayed_bytes([relay]))
    return len(json.dumps("".join(answer))), sources


def test_the_bytes_relayed_follow_the_answer_and_its_sources_not_the_chunks(streams: dict[str, list[dict]]) -> None:
    ratios = {}
    for model, chunks in streams.items():
        answer, sources = answer_and_sources(chunks)
        if sources:
            ratios[model] = relayed_bytes(relayed(chunks)) / (answer + sources)
    assert "perplexity" in ratios
    assert max(ratios.values()) <= RELAYED_PER_ANSWER_AND_SOURCES, ratios


def test_a_perplexity_stream_of_8000_tokens_relays_its_sources_once() -> None:
    # The security review's amplification: 10 results of 300 characters and the answer so far on
    # each of 8,000 chunks were relayed whole, every time (190 MB to each of the user's tabs).
    sent = [data for data in relay_each(perplexity_amplified()) if data]
    _, sources = answer_and_sources(perplexity_amplified(tokens=1))
    assert relayed_bytes(sent) <= 2 * sources


def test_a_stream_whose_fields_change_on_every_chunk_is_capped() -> None:
    text = {"index": 0, "delta": {"content": "word "}}
    growing = [{"id": "c", "choices": [text], "results": ["r" * 1000] * n} for n in range(1, 600)]
    assert relayed_bytes(relayed(growing)) <= MAX_RELAYED_BYTES_PER_MESSAGE
    many_fields = [{"id": "c", "choices": [text], f"field{n}": n} for n in range(1000)]
    assert len(relayed(many_fields)) <= MAX_FIELDS_PER_MESSAGE


def test_each_message_and_each_user_gets_its_own_sources() -> None:
    chunk = {"id": "same-completion-id", "choices": [{"index": 0, "delta": {"content": "Hi"}}], "citations": ["x"]}
    relay_filter = Filter()
    for message, user in [("m1", "u1"), ("m2", "u1"), ("m1", "u2")]:
        metadata = {"message_id": message, "user_id": user}
        assert relay_filter.stream(json.loads(json.dumps(chunk)), __metadata__=metadata)["event"]["data"][
            "citations"
        ] == ["x"]
    assert relayed([chunk, chunk], "m3", relay_filter) == [{**chunk, "choices": [{"index": 0, "delta": {}}]}]
    for number in range(2 * MAX_MESSAGES):  # what it remembers stays bounded
        relay_filter.stream(json.loads(json.dumps(chunk)), __metadata__={"message_id": str(number)})
    assert len(relay_filter.messages) == MAX_MESSAGES


def test_the_event_type_is_the_one_the_extension_reads() -> None:
    events = (ROOT / "extension" / "src" / "capture" / "events.ts").read_text()
    assert re.search(r"RELAY_EVENT = '([^']+)'", events)[1] == EVENT_TYPE  # type: ignore[index]


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
