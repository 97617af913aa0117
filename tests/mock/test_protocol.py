"""The OpenAI protocol as the official SDK sees it, for every scenario."""

import time
from pathlib import Path

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

from bench.soak import SCENARIOS as PRODUCERS
from devstack.processes import free_port
from devstack.stack import mock_server
from mock_server.corpus import MODEL_PREFIX
from tests.wire import CHAT_SCENARIOS
from tests.wire import SCENARIOS
from tests.wire import raw_chunks
from tests.wire import sse_data

USER: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Which sources support this?"}]


def test_models_lists_one_model_per_scenario(client: openai.OpenAI) -> None:
    """Except the scenarios of a provider's own API: the LiteLLM proxy lists those (devstack/litellm.py);
    then the unnamed corpus's backends (tests/mock/test_unnamed_corpus.py)."""
    ids = {model.id for model in client.models.list() if not model.id.startswith(MODEL_PREFIX)}
    assert ids == {name for name, scenario in SCENARIOS.items() if scenario.speaks_openai}
    assert set(PRODUCERS) <= ids


def text_of(content: object) -> str:
    """A message's or delta's text. Mistral's content may be a list of chunks, which OpenAI's SDK hands
    on as it came (typed `str`): its text chunks are the answer."""
    if isinstance(content, list):
        return "".join(chunk["text"] for chunk in content if chunk.get("type") == "text")
    return content if isinstance(content, str) else ""


@pytest.mark.parametrize("model", CHAT_SCENARIOS)
def test_sdk_parses_both_modes_to_the_same_answer(client: openai.OpenAI, model: str) -> None:
    completion = client.chat.completions.create(model=model, messages=USER)
    answer = text_of(completion.choices[0].message.content)
    assert answer and (completion.choices[0].finish_reason == "stop" or SCENARIOS[model].stream_differs is not None)

    streamed = ""
    finish_reasons = []
    for chunk in client.chat.completions.create(model=model, messages=USER, stream=True):
        for choice in chunk.choices or []:  # an upstream Open WebUI's first chunk has only its `sources`
            streamed += text_of(choice.delta and choice.delta.content)  # MiniMax's last chunk has no delta
            finish_reasons.append(choice.finish_reason)
    if SCENARIOS[model].stream_differs:  # its scenario.yaml says why: it is the producer's own
        assert streamed.strip() and answer.split()[-1][:8] in streamed  # the same answer, told otherwise
        return
    assert streamed == answer
    assert "stop" in finish_reasons


@pytest.mark.parametrize("model", CHAT_SCENARIOS)
def test_chat_streams_end_with_done(http: httpx.Client, model: str) -> None:
    """Only a scenario whose producer sends events after [DONE] (its `chat.after_done`: FastGPT's
    flowResponses), which OpenAI's clients never read, has more after it."""
    payloads, _ = raw_chunks(http, model)
    chat = SCENARIOS[model].chat
    assert payloads.count("[DONE]") == 1
    assert payloads[-1] == "[DONE]" or (chat is not None and chat.after_done)


@pytest.mark.parametrize("model", CHAT_SCENARIOS)
def test_include_usage_adds_a_usage_chunk_before_done(client: openai.OpenAI, http: httpx.Client, model: str) -> None:
    chunks = list(
        client.chat.completions.create(model=model, messages=USER, stream=True, stream_options={"include_usage": True})
    )
    assert chunks[-1].choices == []
    usage = chunks[-1].usage
    assert usage is not None and usage.completion_tokens > 0
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens

    _, without = raw_chunks(http, model)
    chunks_before_done = [c for c in without[1:] if isinstance(c, dict)]  # FastGPT's list after [DONE]: not a chunk
    assert all(chunk.get("choices") != [] or "usage" not in chunk for chunk in chunks_before_done)


def test_prompt_tokens_follow_the_request(client: openai.OpenAI) -> None:
    short = client.chat.completions.create(model="openrag", messages=[{"role": "user", "content": "a"}])
    long = client.chat.completions.create(model="openrag", messages=[{"role": "user", "content": "a b c d"}])
    assert long.usage is not None and short.usage is not None
    assert long.usage.prompt_tokens == short.usage.prompt_tokens + 3


def test_responses_stream_parses_with_the_sdk(client: openai.OpenAI) -> None:
    response = client.responses.create(model="openai-responses", input="Exercise?")
    events = list(client.responses.create(model="openai-responses", input="Exercise?", stream=True))
    deltas = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert deltas == response.output_text
    assert events[-1].type == "response.completed"
    assert [e.sequence_number for e in events] == list(range(len(events)))


def test_responses_stream_has_event_lines_and_no_done(http: httpx.Client) -> None:
    text = http.post("/v1/responses", json={"model": "openai-responses", "input": "x", "stream": True}).text
    assert "[DONE]" not in text
    names = [line[len("event: ") :] for line in text.splitlines() if line.startswith("event: ")]
    assert len(names) == len(sse_data(text))
    assert names[0] == "response.created" and names[-1] == "response.completed"


def test_completions_endpoint_answers_without_streaming(client: openai.OpenAI) -> None:
    completion = client.completions.create(model="openrag", prompt="Chiffre d'affaires ?")
    assert completion.choices[0].text.startswith("Le chiffre d'affaires 2024")


def timed_post(tmp_path: Path, body: dict, token_delay_ms: int = 0, first_token_delay_ms: int = 0) -> tuple[float, str]:
    """Seconds until a mock started with these delays has answered ``body`` whole, and the answer."""
    port = free_port()
    log = tmp_path / "mock.log"
    service = mock_server(port, log, token_delay_ms=token_delay_ms, first_token_delay_ms=first_token_delay_ms).start()
    try:
        service.wait_until_ready(f"http://127.0.0.1:{port}/v1/models", 30)
        started = time.monotonic()
        text = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=body, timeout=60).text
        return time.monotonic() - started, text
    finally:
        service.stop()


# Lower bounds only: the pauses must have happened.
def test_token_delay_paces_the_stream(tmp_path: Path) -> None:
    elapsed, text = timed_post(tmp_path, {"model": "perplexity", "messages": USER, "stream": True}, token_delay_ms=40)
    assert elapsed >= (len(sse_data(text)) - 1) * 0.040


def test_first_token_delay_holds_back_a_whole_answer(tmp_path: Path) -> None:
    elapsed, text = timed_post(tmp_path, {"model": "perplexity", "messages": USER}, first_token_delay_ms=600)
    assert elapsed >= 0.6 and "citations" in text


def test_output_is_deterministic(http: httpx.Client) -> None:
    body = {"model": "grok2api", "messages": USER, "stream": True}
    assert http.post("/v1/chat/completions", json=body).text == http.post("/v1/chat/completions", json=body).text


def test_ragflow_sends_references_only_when_the_request_asks_for_them(client: openai.OpenAI) -> None:
    """RAGFlow reads `extra_body.reference` from the request body (a key of that name, which the
    SDK's own `extra_body` argument puts there as `{"extra_body": {...}}`)."""
    plain = client.chat.completions.create(model="ragflow", messages=USER).model_dump()
    asked = client.chat.completions.create(
        model="ragflow", messages=USER, extra_body={"extra_body": {"reference": True}}
    ).model_dump()
    assert "reference" not in plain["choices"][0]["message"]
    assert len(asked["choices"][0]["message"]["reference"]) == 4
    streamed = client.chat.completions.create(
        model="ragflow", messages=USER, stream=True, extra_body={"extra_body": {"reference": True}}
    )
    last = [chunk.model_dump() for chunk in streamed][-1]["choices"][0]
    assert last["finish_reason"] == "stop" and last["delta"]["content"] is None
    assert len(last["delta"]["reference"]) == 4 and last["delta"]["final_content"]
