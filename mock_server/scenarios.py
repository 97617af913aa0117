"""The shape of a scenario file: one producer's wire format as data (docs/contributing.md, "Scenario files").

A file holds the producer's answer, the variables its bodies share (sources, ids), and for
each endpoint it speaks a body template and a list of stream entries.
"""

from typing import Any
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import model_validator

from .encoding import JsonStyle

EndpointKind = Literal["chat", "completions", "responses", "anthropic", "gemini", "vector_store_search", "ollama"]
OPENAI_KINDS: tuple[EndpointKind, ...] = ("chat", "completions", "responses")
PROVIDER_KINDS: tuple[EndpointKind, ...] = ("anthropic", "gemini")
# What a LiteLLM proxy searches before it asks a scenario's model: a knowledge base.
SEARCH_KINDS: tuple[EndpointKind, ...] = ("vector_store_search",)
# Ollama's API, for Open WebUI's Ollama connection: what LightRAG emulates. It streams one JSON
# object a line (NDJSON), not server-sent events.
OLLAMA_KINDS: tuple[EndpointKind, ...] = ("ollama",)
ENDPOINT_KINDS = OPENAI_KINDS + PROVIDER_KINDS + SEARCH_KINDS + OLLAMA_KINDS


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WholeSegment(_Strict):
    whole: str = Field(description="text sent as one stream chunk, never split")


class StreamEntry(_Strict):
    data: Any = Field(description="chunk template; a plain string is sent as is")
    event: str | None = Field(None, description="SSE `event:` name (Responses API)")
    pieces: str | None = Field(
        None,
        pattern=r"^-?\d*:-?\d*$",
        description="repeat this entry for a slice of the answer pieces (Python slice: ':' all, "
        "':-1' all but the last, '-1:' the last), binding ${piece}",
    )
    each: str | None = Field(
        None,
        description="repeat this entry for each item of this list variable, binding ${item} (and ${i}, from 1): "
        "one event per citation (Anthropic's citations_delta)",
    )
    delay_ms: int = Field(0, ge=0, description="pause before this entry, part of the producer's timing")

    @model_validator(mode="after")
    def _one_repetition(self) -> "StreamEntry":
        if self.pieces is not None and self.each is not None:
            raise ValueError("a stream entry repeats over `pieces` or over `each`, not both")
        return self


class Endpoint(_Strict):
    body: Any = Field(description="non-streaming response body template")
    stream: list[StreamEntry] | None = Field(None, description="absent: the producer refuses stream=true")
    done_event: str | None = Field(
        None, description="SSE `event:` name on the closing `data: [DONE]` of a chat stream (FastGPT's `answer`)"
    )
    after_done: list[StreamEntry] = Field(
        [], description="events sent after the closing `data: [DONE]` (FastGPT's `flowResponses`)"
    )


class JsonStyles(_Strict):
    body: JsonStyle = "compact"
    stream: JsonStyle = "compact"


class Docs(_Strict):
    """How the README's and docs/formats.md's producer tables show a scenario file (its variants with it)."""

    name: str = Field(description="the producer, as the README names it")
    product: str = Field(description="the producer and the endpoint it answers on, as docs/formats.md names it")
    sources: str = Field(description="where it puts its sources, on the wire (docs/formats.md)")


class HostileChecks(_Strict):
    """How a hostile scenario is asked for (streamed or not), and what it predicts of the answer: checked on
    recorded markup by ui/hostile-markup.test.ts, end to end for one twin per route by test_hostile.py."""

    stream: bool = Field(description="asked streamed: where its sources travel the most particular way")
    buttons: Literal["as the markers say", "none", "not predicted"] = Field(
        "as the markers say", description="the answer's buttons: those its markers name, none, or not predicted"
    )
    titles: Literal["payloads", "not payloads"] = Field(
        "payloads", description="whether every payload is shown as a title (not: the reason is in the file)"
    )


class MalformedChecks(_Strict):
    """What a malformed scenario predicts of its answer in the page, checked by capture/malformed.test.ts."""

    warnings: int = Field(ge=0, description="the extension's console warnings")
    listed: int = Field(ge=0, description="the sources listed")


class Scenario(_Strict):
    name: str
    producer: str
    description: str
    docs: Docs | None = Field(None, description="the scenario's rows in the docs (built-in scenarios have them)")
    hostile: HostileChecks | None = Field(None, description="a hostile scenario's checks (producers/*/hostile.yaml)")
    malformed: MalformedChecks | None = Field(
        None, description="a malformed scenario's checks (producers/*/malformed*.yaml)"
    )
    stream_differs: str | None = Field(
        None,
        description="why its stream does not spell out its non-streamed body, as the producer's code does "
        "(tests/mock/test_protocol.py then checks only that both tell the same answer)",
    )
    linkless: str | None = Field(
        None,
        description="why its sources carry no link the mock serves: document sections or files the producer "
        "sends no link to (tests/mock/test_documents.py checks every other scenario cites something served)",
    )
    json_style: JsonStyles = JsonStyles()
    vars: dict[str, Any] = {}
    switches: dict[str, str] = Field(
        {},
        description="variables bound to what the request asks for: name -> a dotted path in the request "
        "body (`extra_body.reference`); the variable is true when the value there is true",
    )
    attempts: list[dict[str, Any]] = Field(
        [],
        description="vars replaced on successive requests for this model, in turn (the first request takes the "
        "first entry, the next the second, and round again): a regenerated answer, or the answer to an edited "
        "question, with sources and text of its own",
    )
    answer: list[str | WholeSegment] = Field(
        description="the answer text: strings are streamed word by word, {whole: …} as one chunk"
    )
    chat: Endpoint | None = None
    completions: Endpoint | None = None
    responses: Endpoint | None = None
    anthropic: Endpoint | None = Field(None, description="Anthropic's Messages API, for a real LiteLLM proxy in front")
    gemini: Endpoint | None = Field(None, description="Gemini's generateContent, for a real LiteLLM proxy in front")
    vector_store_search: Endpoint | None = Field(
        None,
        description="OpenAI's vector store search, one page of results (never streamed): the knowledge base "
        "a real LiteLLM proxy searches before it asks this scenario's model",
    )
    ollama: Endpoint | None = Field(
        None, description="Ollama's /api/chat: a body, or one JSON object a line when streamed (NDJSON)"
    )
    extracts: dict[str, Any] = Field({}, description="OpenRAG-style chunks served at /extract/<id>")

    def endpoint(self, kind: str) -> Endpoint | None:
        return getattr(self, kind) if kind in ENDPOINT_KINDS else None

    @property
    def kinds(self) -> list[EndpointKind]:
        """The endpoints this scenario serves."""
        return [kind for kind in ENDPOINT_KINDS if self.endpoint(kind)]

    @property
    def speaks_openai(self) -> bool:
        """Served to OpenAI clients (Open WebUI) directly, not only to a proxy through a provider's own API."""
        return any(kind in OPENAI_KINDS for kind in self.kinds)

    @property
    def speaks_ollama(self) -> bool:
        """Served to Ollama clients (Open WebUI's Ollama connection), listed by /api/tags."""
        return self.ollama is not None
