"""Providers' own APIs, for scenarios that a real LiteLLM proxy relays: Anthropic's Messages API,
Gemini's generateContent, and OpenAI's vector store search (a LiteLLM knowledge base). The scenario
is the first path segment (LiteLLM's `api_base`), because the model ids in these requests are the
provider's."""

from typing import Literal

from fastapi import APIRouter
from fastapi import Request
from fastapi import Response

from ..errors import ERROR_RESPONSES
from ..errors import OpenAIError
from ..request_models import AnthropicMessagesRequest
from ..request_models import GeminiRequest
from ..request_models import VectorStoreSearchRequest
from ..serving import serve

router = APIRouter(prefix="/providers/{scenario}", tags=["providers"], responses=ERROR_RESPONSES)


@router.post("/v1/messages")
def anthropic_messages(request: Request, scenario: str, body: AnthropicMessagesRequest) -> Response:
    messages = [message.model_dump() for message in body.messages]
    return serve(request, scenario, body.model, "anthropic", body.model_dump(), messages, body.stream)


def _gemini(request: Request, scenario: str, model: str, body: GeminiRequest, stream: bool) -> Response:
    return serve(request, scenario, model, "gemini", body.model_dump(), body.contents, stream)


@router.post("/v1beta/models/{model}:generateContent")
def gemini_generate(request: Request, scenario: str, model: str, body: GeminiRequest) -> Response:
    return _gemini(request, scenario, model, body, stream=False)


@router.post("/v1beta/models/{model}:streamGenerateContent")
def gemini_stream(
    request: Request, scenario: str, model: str, body: GeminiRequest, alt: Literal["sse"] | None = None
) -> Response:
    if alt is None:  # without it, Gemini streams one JSON array; LiteLLM always asks for events
        raise OpenAIError(
            400, "This mock streams Gemini's answers as server-sent events only: add ?alt=sse.", param="alt"
        )
    return _gemini(request, scenario, model, body, stream=True)


@router.post("/v1/vector_stores/{vector_store_id}/search")
def vector_store_search(
    request: Request, scenario: str, vector_store_id: str, body: VectorStoreSearchRequest
) -> Response:
    """One page of the scenario's search results, whatever the query: its store is named after it
    (devstack/litellm.py), and no other store exists."""
    if vector_store_id != scenario:
        raise OpenAIError(404, f"No vector store found with id '{vector_store_id}'.", param="vector_store_id")
    return serve(request, scenario, vector_store_id, "vector_store_search", body.model_dump(), body.query, stream=False)
