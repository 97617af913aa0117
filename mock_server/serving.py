"""Replays a scenario as one endpoint answers: a JSON body, or its events paced like the producer's."""

import asyncio
import time
from collections.abc import AsyncIterator
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi import Response
from fastapi.responses import StreamingResponse

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


async def _paced(events: list[StreamEvent], token_delay_ms: int) -> AsyncIterator[str]:
    for position, event in enumerate(events):
        pause = event.delay_ms + (token_delay_ms if position else 0)
        if pause:
            await asyncio.sleep(pause / 1000)
        yield event.text


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
    return StreamingResponse(_paced(events, request.app.state.token_delay_ms), media_type=media_type)
