"""Replays a scenario as one endpoint answers: a JSON body, or its events paced like the producer's; and
a backend of the unnamed corpus (mock_server/corpus.py), a model `unnamed-<slug>`, with its recorded
bytes as the file writes them (no template: the corpus is what the backend sends)."""

import asyncio
import time
from collections.abc import AsyncIterator
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi import Response
from fastapi.responses import StreamingResponse

from .corpus import Api
from .corpus import Backend
from .errors import OpenAIError
from .errors import unknown_model
from .rendering import EndpointKind
from .rendering import RequestFacts
from .rendering import StreamEvent
from .rendering import render_body
from .rendering import render_stream
from .rendering import switches_of
from .request_models import count_words
from .scenarios import OLLAMA_KINDS

# The API a corpus backend speaks, by the endpoint asked: /v1/chat/completions, Ollama's /api/chat.
CORPUS_APIS: dict[EndpointKind, Api] = {"chat": "openai-chat", "ollama": "ollama-chat"}


async def paced(events: list[StreamEvent], token_delay_ms: int, pauses: bool = True) -> AsyncIterator[str]:
    """``pauses``: whether the producer's own pauses (its thinking, say) are kept."""
    for position, event in enumerate(events):
        pause = (event.delay_ms if pauses else 0) + (token_delay_ms if position else 0)
        if pause:
            await asyncio.sleep(pause / 1000)
        yield event.text


def replay_recorded(request: Request, backend: Backend, api: Api | None, stream: bool) -> Response:
    """A corpus backend's answer on the API it speaks (`api`: the endpoint asked), whole or streamed; a
    mode it does not answer in is refused, as the backend refuses it, with a 400."""
    if backend.api != api:
        raise OpenAIError(
            400,
            f"The model `{backend.model_id}` does not support {request.url.path}.",
            param="model",
            code="unsupported_endpoint",
        )
    if not stream:
        if backend.non_streamed is None:
            raise OpenAIError(400, "This model answers only when streamed (stream: true)", param="stream")
        return Response(backend.non_streamed.strip(), media_type="application/json")
    if backend.streamed is None:
        raise OpenAIError(400, "Streaming is not supported for this endpoint", param="stream")
    # SSE events end with a blank line; NDJSON objects with a line break.
    end, media_type = ("\n", "application/x-ndjson") if backend.ollama else ("\n\n", "text/event-stream")
    events = [StreamEvent(event + end) for event in backend.streamed_events()]
    return StreamingResponse(
        paced(events, request.app.state.token_delay_ms, request.app.state.pauses), media_type=media_type
    )


def serve(
    request: Request,
    scenario_name: str,
    model: str,
    kind: EndpointKind,
    body: Mapping[str, Any],
    prompt: object,
    stream: bool,
    include_usage: bool = False,
) -> Response:
    """``scenario_name`` picks the scenario (the model id, or a path segment for a provider's own
    API, whose model ids are the provider's); ``model`` is the name its bodies carry."""
    if (backend := request.app.state.corpus.get(scenario_name)) is not None:
        return replay_recorded(request, backend, CORPUS_APIS.get(kind), stream)
    scenario = request.app.state.scenarios.get(scenario_name)
    if scenario is None:
        raise unknown_model(scenario_name)
    endpoint = scenario.endpoint(kind)
    if endpoint is None:
        raise OpenAIError(
            400,
            f"The model `{scenario_name}` does not support {request.url.path}.",
            param="model",
            code="unsupported_endpoint",
        )
    if first_token_delay_ms := request.app.state.first_token_delay_ms:
        time.sleep(first_token_delay_ms / 1000)  # a worker thread of the sync endpoint, not the event loop
    facts = RequestFacts(
        model=model,
        base_url=str(request.base_url),
        prompt_tokens=count_words(prompt),
        switches=switches_of(scenario, body),
        attempt=next(request.app.state.requests[scenario_name]),
    )
    if not stream:
        return Response(render_body(scenario, kind, facts), media_type="application/json")
    if endpoint.stream is None:
        raise OpenAIError(400, "Streaming is not supported for this endpoint", param="stream")
    events = render_stream(scenario, kind, facts, include_usage)
    media_type = "application/x-ndjson" if kind in OLLAMA_KINDS else "text/event-stream"
    return StreamingResponse(
        paced(events, request.app.state.token_delay_ms, request.app.state.pauses), media_type=media_type
    )
