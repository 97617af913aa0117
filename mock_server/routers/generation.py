"""The three OpenAI generation endpoints; each replays the requested scenario in its producer's format."""

from fastapi import APIRouter
from fastapi import Request
from fastapi import Response

from ..errors import ERROR_RESPONSES
from ..request_models import ChatCompletionRequest
from ..request_models import CompletionRequest
from ..request_models import ResponsesRequest
from ..serving import serve

router = APIRouter(prefix="/v1", tags=["generation"], responses=ERROR_RESPONSES)


@router.post("/chat/completions")
def chat_completions(request: Request, body: ChatCompletionRequest) -> Response:
    include_usage = bool(body.stream_options and body.stream_options.include_usage)
    messages = [message.model_dump() for message in body.messages]
    return serve(request, body.model, body.model, "chat", body.model_dump(), messages, body.stream, include_usage)


@router.post("/completions")
def completions(request: Request, body: CompletionRequest) -> Response:
    return serve(request, body.model, body.model, "completions", body.model_dump(), body.prompt, body.stream)


@router.post("/responses")
def responses(request: Request, body: ResponsesRequest) -> Response:
    return serve(request, body.model, body.model, "responses", body.model_dump(), body.input, body.stream)
