"""The stand-ins for providers' own APIs (Anthropic's Messages API, Gemini's generateContent, OpenAI's
vector store search), as the providers' official SDKs read them: what the LiteLLM proxy receives in
the end-to-end chain."""

import anthropic
import httpx
import openai
import pytest
from anthropic.types import MessageParam
from google import genai
from google.genai import types as genai_types

from devstack.litellm import config
from devstack.litellm import knowledge_bases
from devstack.litellm import proxied
from tests.wire import SCENARIOS

CLAUDE = sorted(name for name, s in SCENARIOS.items() if s.anthropic)
GEMINI = sorted(name for name, s in SCENARIOS.items() if s.gemini)
KNOWLEDGE_BASES = knowledge_bases(SCENARIOS)
ASK: list[MessageParam] = [{"role": "user", "content": "Which sources support this?"}]


def claude_for(mock_url: str, name: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=f"{mock_url}/providers/{name}", api_key="mock", max_retries=0)


def gemini_for(mock_url: str, name: str) -> genai.Client:
    options = genai_types.HttpOptions(base_url=f"{mock_url}/providers/{name}", api_version="v1beta")
    return genai.Client(api_key="mock", http_options=options)


def test_there_is_a_claude_a_gemini_and_a_knowledge_base_scenario() -> None:
    assert CLAUDE and GEMINI and KNOWLEDGE_BASES


@pytest.mark.parametrize("name", CLAUDE)
def test_claude_streams_the_blocks_and_citations_of_its_whole_answer(mock_url: str, name: str) -> None:
    """The SDK's own stream accumulator rebuilds the message: citations arrive block by block."""
    client = claude_for(mock_url, name)
    whole = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=ASK)
    with client.messages.stream(model="claude-sonnet-4-5", max_tokens=1024, messages=ASK) as stream:
        streamed = stream.get_final_message()
    assert [block.model_dump() for block in streamed.content] == [block.model_dump() for block in whole.content]
    cited = [block for block in whole.content if block.type == "text" and block.citations]
    # Behind a knowledge base, Claude cites nothing itself: the answer's [N] name the search results.
    assert bool(cited) == (name not in KNOWLEDGE_BASES)
    assert all(citation.cited_text for block in cited for citation in block.citations or [])
    assert whole.stop_reason == streamed.stop_reason == "end_turn"


@pytest.mark.parametrize("name", GEMINI)
def test_gemini_streams_its_whole_answer_and_grounds_it_in_bytes(mock_url: str, name: str) -> None:
    client = gemini_for(mock_url, name)
    whole = client.models.generate_content(model="gemini-2.5-flash", contents="Which sources support this?")
    chunks = list(
        client.models.generate_content_stream(model="gemini-2.5-flash", contents="Which sources support this?")
    )
    assert "".join(chunk.text or "" for chunk in chunks) == whole.text
    assert whole.candidates and chunks[-1].candidates and whole.text
    grounding = whole.candidates[0].grounding_metadata
    assert grounding and grounding.grounding_supports
    assert chunks[-1].candidates[0].grounding_metadata == grounding
    answer = whole.text.encode("utf-8")
    for support in grounding.grounding_supports:  # each segment's bytes are its text, in a non-ASCII answer
        segment = support.segment
        assert segment is not None
        assert answer[segment.start_index or 0 : segment.end_index].decode("utf-8").strip() == segment.text
    assert answer != whole.text.encode("ascii", "ignore")


@pytest.mark.parametrize("name", KNOWLEDGE_BASES)
def test_a_knowledge_base_answers_openais_vector_store_search(http: httpx.Client, mock_url: str, name: str) -> None:
    """The store is named after its scenario; LiteLLM sends every optional field, null when unset."""
    client = openai.OpenAI(base_url=f"{mock_url}/providers/{name}/v1", api_key="mock", max_retries=0)
    results = list(client.vector_stores.search(name, query="Which sources support this?", max_num_results=10))
    assert results and all(r.file_id and r.filename and 0 <= r.score <= 1 for r in results)
    assert all(part.type == "text" and part.text for r in results for part in r.content)
    unset = dict.fromkeys(["filters", "max_num_results", "ranking_options", "rewrite_query"])
    page = http.post(f"/providers/{name}/v1/vector_stores/{name}/search", json={"query": "x", **unset}).json()
    assert page["object"] == "vector_store.search_results.page" and len(page["data"]) == len(results)


def test_provider_scenarios_are_not_openai_models(http: httpx.Client) -> None:
    """Open WebUI reaches them through the LiteLLM proxy, not directly."""
    listed = {model["id"] for model in http.get("/v1/models").json()["data"]}
    assert listed.isdisjoint(CLAUDE + GEMINI)
    response = http.post("/v1/chat/completions", json={"model": CLAUDE[0], "messages": ASK})
    assert response.status_code == 400 and response.json()["error"]["code"] == "unsupported_endpoint"


@pytest.mark.parametrize(
    ("path", "body", "param"),
    [
        ("/providers/nope/v1/messages", {"model": "m", "max_tokens": 8, "messages": ASK}, "model"),
        ("/providers/{claude}/v1/messages", {"model": "m", "messages": ASK}, "max_tokens"),
        ("/providers/{claude}/v1/messages", {"model": "m", "max_tokens": 8, "messages": []}, "messages"),
        ("/providers/{gemini}/v1beta/models/g:generateContent", {"contents": []}, "contents"),
        (
            "/providers/{gemini}/v1beta/models/g:streamGenerateContent",
            {"contents": [{"parts": [{"text": "x"}]}]},
            "alt",
        ),
        ("/providers/{claude}/v1beta/models/g:generateContent", {"contents": [{"parts": [{"text": "x"}]}]}, "model"),
        ("/providers/{kb}/v1/vector_stores/{kb}/search", {"max_num_results": 5}, "query"),
        ("/providers/{kb}/v1/vector_stores/{kb}/search", {"query": ""}, "query"),
        ("/providers/{kb}/v1/vector_stores/{kb}/search", {"query": "x", "max_num_results": 51}, "max_num_results"),
        ("/providers/{kb}/v1/vector_stores/vs_other/search", {"query": "x"}, "vector_store_id"),
        ("/providers/{claude}/v1/vector_stores/{claude}/search", {"query": "x"}, "model"),
    ],
)
def test_bad_provider_requests_get_a_clear_4xx(http: httpx.Client, path: str, body: dict, param: str) -> None:
    response = http.post(path.format(claude=CLAUDE[0], gemini=GEMINI[0], kb=KNOWLEDGE_BASES[0]), json=body)
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["error"]["param"] == param, response.text


def test_litellm_serves_each_provider_scenario_under_its_name() -> None:
    models = {m["model_name"]: m["litellm_params"] for m in config("http://127.0.0.1:9", SCENARIOS)["model_list"]}
    assert set(models) == set(proxied(SCENARIOS)) == set(CLAUDE + GEMINI)
    assert models[CLAUDE[0]]["api_base"] == f"http://127.0.0.1:9/providers/{CLAUDE[0]}"
    assert models[GEMINI[0]]["api_base"] == f"http://127.0.0.1:9/providers/{GEMINI[0]}/v1beta"


def test_litellm_searches_a_knowledge_base_before_asking_its_model() -> None:
    """Open WebUI cannot send `vector_store_ids`: the model names its store."""
    litellm_config = config("http://127.0.0.1:9", SCENARIOS)
    models = {m["model_name"]: m["litellm_params"] for m in litellm_config["model_list"]}
    stores = {s["vector_store_name"]: s["litellm_params"] for s in litellm_config["vector_store_registry"]}
    assert set(stores) == set(KNOWLEDGE_BASES)
    for name in KNOWLEDGE_BASES:
        assert models[name]["vector_store_ids"] == [stores[name]["vector_store_id"]] == [name]
        assert stores[name]["custom_llm_provider"] == "openai"
        assert stores[name]["api_base"] == f"http://127.0.0.1:9/providers/{name}/v1"
    assert not any("vector_store_ids" in params for name, params in models.items() if name not in KNOWLEDGE_BASES)
