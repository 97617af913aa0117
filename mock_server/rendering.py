"""Turns a scenario into response bytes: one JSON body, or a list of stream events (server-sent
events; for Ollama's API, one JSON object a line)."""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from itertools import product
from typing import Any

from .encoding import JsonStyle
from .encoding import dumps
from .scenarios import ENDPOINT_KINDS
from .scenarios import OLLAMA_KINDS
from .scenarios import Endpoint
from .scenarios import EndpointKind
from .scenarios import Scenario
from .scenarios import StreamEntry
from .scenarios import WholeSegment
from .templates import Renderer
from .templates import TemplateError

_WORD_START = re.compile(r"(?<=\S)(?=\s)")

# OpenAI's stream_options.include_usage: one more chunk, with no choices, before [DONE].
_USAGE_CHUNK = {
    "id": "${id}",
    "object": "chat.completion.chunk",
    "created": "${created}",
    "model": "${model}",
    "choices": [],
    "usage": "${usage}",
}


@dataclass(frozen=True)
class RequestFacts:
    """What a response may depend on besides the scenario."""

    model: str
    base_url: str  # where the mock is reached, so that links in sources open on it
    prompt_tokens: int
    switches: Mapping[str, bool] = field(default_factory=dict)  # the scenario's switches, as the request set them
    attempt: int = 0  # how many requests for this model came before: which of its `attempts` this one takes


@dataclass(frozen=True)
class StreamEvent:
    text: str  # as sent: a server-sent event, or an NDJSON line
    delay_ms: int = 0


def _pieces(scenario: Scenario, renderer: Renderer) -> list[str]:
    """The answer cut into stream pieces: words with their leading white space."""
    pieces: list[str] = []
    for segment in scenario.answer:
        if isinstance(segment, WholeSegment):
            pieces.append(renderer.render(segment.whole))
        else:
            pieces.extend(p for p in _WORD_START.split(renderer.render(segment)) if p)
    return pieces


def _prepare(scenario: Scenario, facts: RequestFacts) -> tuple[Renderer, list[str]]:
    """A renderer with the built-in variables, and the answer's stream pieces."""
    switches = {name: facts.switches.get(name, False) for name in scenario.switches}
    attempt = scenario.attempts[facts.attempt % len(scenario.attempts)] if scenario.attempts else {}
    variables = {**scenario.vars, **attempt}
    renderer = Renderer(variables, {"model": facts.model, "base_url": facts.base_url, **switches})
    pieces = _pieces(scenario, renderer)
    usage = {
        "prompt_tokens": facts.prompt_tokens,
        "completion_tokens": len(pieces),
        "total_tokens": facts.prompt_tokens + len(pieces),
    }
    renderer.define({"answer": "".join(pieces), "usage": usage, **usage})
    return renderer, pieces


def render_answer(scenario: Scenario, facts: RequestFacts) -> str:
    """The answer's text, as every endpoint of the scenario sends it."""
    return "".join(_prepare(scenario, facts)[1])


def _endpoint(scenario: Scenario, kind: EndpointKind) -> Endpoint:
    endpoint = scenario.endpoint(kind)
    if endpoint is None:
        raise LookupError(f"scenario {scenario.name!r} does not serve this endpoint")
    return endpoint


def render_body(scenario: Scenario, kind: EndpointKind, facts: RequestFacts) -> str:
    renderer, _ = _prepare(scenario, facts)
    body = renderer.render(_endpoint(scenario, kind).body)
    return dumps(body, scenario.json_style.body)


def _sse(data: Any, event: str | None, style: JsonStyle, delay_ms: int) -> StreamEvent:
    payload = data if isinstance(data, str) else dumps(data, style)
    prefix = f"event: {event}\n" if event else ""
    return StreamEvent(f"{prefix}data: {payload}\n\n", delay_ms)


def _ndjson(data: Any, style: JsonStyle, delay_ms: int) -> StreamEvent:
    """One line of an Ollama stream: the object's JSON (no line break inside it), then one."""
    return StreamEvent(f"{data if isinstance(data, str) else dumps(data, style)}\n", delay_ms)


def _repetitions(entry: StreamEntry, renderer: Renderer, pieces: list[str]) -> list[dict[str, Any]]:
    """The variables of each event an entry sends: one per answer piece of its ``pieces`` slice
    (``piece_index``), one per item of its ``each`` list, or one."""
    if entry.each is not None:
        items = renderer.var(entry.each)
        if not isinstance(items, list):
            raise TemplateError(f"each: ${{{entry.each}}} is not a list")
        return [{"item": item, "i": i} for i, item in enumerate(items, start=1)]
    if entry.pieces is None:
        return [{}]
    start, stop = (int(bound) if bound else None for bound in entry.pieces.split(":"))
    return [{"piece_index": index} for index in list(range(len(pieces)))[start:stop]]


def render_stream(
    scenario: Scenario, kind: EndpointKind, facts: RequestFacts, include_usage: bool = False
) -> list[StreamEvent]:
    """Every event of the stream, in order; chat streams end with OpenAI's ``data: [DONE]``."""
    entries = _endpoint(scenario, kind).stream
    if entries is None:
        raise LookupError(f"scenario {scenario.name!r} does not stream this endpoint")
    endpoint = _endpoint(scenario, kind)
    renderer, pieces = _prepare(scenario, facts)
    style = scenario.json_style.stream
    events: list[StreamEvent] = []
    sent = ""  # the answer text streamed so far, for producers that repeat it (Perplexity)

    def framed(data: Any, entry: StreamEntry) -> StreamEvent:
        if kind in OLLAMA_KINDS:
            return _ndjson(data, style, entry.delay_ms)
        return _sse(data, entry.event, style, entry.delay_ms)

    def send(entries: list[StreamEntry]) -> None:
        nonlocal sent
        for entry in entries:
            for local in _repetitions(entry, renderer, pieces):
                local["seq"] = len(events)
                if (index := local.pop("piece_index", None)) is not None:
                    sent += pieces[index]
                    local["piece"] = pieces[index]
                local["content_so_far"] = sent
                data = renderer.child(local).render(entry.data)
                events.append(framed(data, entry))

    send(entries)
    if kind == "chat":
        if include_usage:
            events.append(_sse(renderer.render(_USAGE_CHUNK), None, style, 0))
        events.append(_sse("[DONE]", endpoint.done_event, style, 0))
    send(endpoint.after_done)
    return events


def switches_of(scenario: Scenario, request: Mapping[str, Any]) -> dict[str, bool]:
    """Each switch of the scenario: is the value at its dotted path in the request body true?"""
    found: dict[str, bool] = {}
    for name, path in scenario.switches.items():
        value: Any = request
        for key in path.split("."):
            value = value.get(key) if isinstance(value, Mapping) else None
        found[name] = value is True
    return found


def check_renders(scenario: Scenario, base_url: str) -> None:
    """Render every endpoint in every mode once, with its switches all off and all on, for each
    of its attempts; raises what a request would hit."""
    for on, attempt in product((False, True), range(max(len(scenario.attempts), 1))):
        switches = dict.fromkeys(scenario.switches, on)
        facts = RequestFacts(scenario.name, base_url, prompt_tokens=1, switches=switches, attempt=attempt)
        for kind in ENDPOINT_KINDS:
            endpoint = scenario.endpoint(kind)
            if endpoint is None:
                continue
            render_body(scenario, kind, facts)
            if endpoint.stream is not None:
                render_stream(scenario, kind, facts, include_usage=(kind == "chat"))
