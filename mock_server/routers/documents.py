"""The documents the scenarios cite, so every link in a demo opens something real and local."""

from typing import Any

from fastapi import APIRouter
from fastapi import Request

from ..errors import ERROR_RESPONSES
from ..errors import OpenAIError

router = APIRouter(tags=["documents"], responses=ERROR_RESPONSES)


@router.get("/extract/{extract_id}")
def get_extract(request: Request, extract_id: str) -> dict[str, Any]:
    """OpenRAG's chunk endpoint: ``{"page_content", "metadata"}`` of one indexed chunk.

    The id stays a string: OpenRAG's Milvus ids exceed 2^53."""
    for scenario in request.app.state.scenarios.values():
        if extract_id in scenario.extracts:
            return scenario.extracts[extract_id]
    raise OpenAIError(404, f"No chunk with id {extract_id}.", param="extract_id", code="not_found")
