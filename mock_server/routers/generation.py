"""The three generation endpoints; each replays the requested scenario in its producer's format."""

import asyncio
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse

from ..errors import ERROR_RESPONSES, OpenAIError, unknown_model
from ..rendering import EndpointKind, RequestFacts, ServerSentEvent, render_body, render_stream, switches_of
from ..request_models import ChatCompletionRequest, CompletionRequest, ResponsesRequest, _Request, count_words

router = APIRouter(prefix="/v1", tags=["generation"], responses=ERROR_RESPONSES)


async def _paced(events: list[ServerSentEvent], token_delay_ms: int) -> AsyncIterator[str]:
    for position, event in enumerate(events):
        pause = event.delay_ms + (token_delay_ms if position else 0)
        if pause:
            await asyncio.sleep(pause / 1000)
        yield event.text


def _serve(request: Request, body: _Request, kind: EndpointKind, prompt: object,
           include_usage: bool = False) -> Response:
    scenario = request.app.state.scenarios.get(body.model)
    if scenario is None:
        raise unknown_model(body.model)
    endpoint = scenario.endpoint(kind)
    if endpoint is None:
        raise OpenAIError(400, f"The model `{body.model}` does not support {request.url.path}.",
                          param="model", code="unsupported_endpoint")
    if first_token_delay_ms := request.app.state.first_token_delay_ms:
        time.sleep(first_token_delay_ms / 1000)  # a worker thread of the sync endpoint, not the event loop
    facts = RequestFacts(model=body.model, base_url=str(request.base_url), prompt_tokens=count_words(prompt),
                         switches=switches_of(scenario, body.model_dump()))
    if not body.stream:
        return Response(render_body(scenario, kind, facts), media_type="application/json")
    if endpoint.stream is None:
        raise OpenAIError(400, "Streaming is not supported for this endpoint", param="stream")
    events = render_stream(scenario, kind, facts, include_usage)
    return StreamingResponse(_paced(events, request.app.state.token_delay_ms), media_type="text/event-stream")


@router.post("/chat/completions")
def chat_completions(request: Request, body: ChatCompletionRequest) -> Response:
    include_usage = bool(body.stream_options and body.stream_options.include_usage)
    messages = [message.model_dump() for message in body.messages]
    return _serve(request, body, "chat", messages, include_usage)


@router.post("/completions")
def completions(request: Request, body: CompletionRequest) -> Response:
    return _serve(request, body, "completions", body.prompt)


@router.post("/responses")
def responses(request: Request, body: ResponsesRequest) -> Response:
    return _serve(request, body, "responses", body.input)
