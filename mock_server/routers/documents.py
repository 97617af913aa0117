"""The documents the scenarios cite, so every link in a demo opens something real and local."""

import functools
import html
from pathlib import Path
from typing import Any

import yaml
from fastapi import APIRouter
from fastapi import Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel
from pydantic import TypeAdapter

from ..errors import ERROR_RESPONSES
from ..errors import OpenAIError

router = APIRouter(tags=["documents"], responses=ERROR_RESPONSES)

STAND_IN_PAGES = Path(__file__).parents[1] / "stand_in_pages.yaml"


class StandInPage(BaseModel):
    title: str
    paragraphs: list[str]


@functools.cache
def stand_in_pages() -> dict[str, StandInPage]:
    return TypeAdapter(dict[str, StandInPage]).validate_python(yaml.safe_load(STAND_IN_PAGES.read_text("utf-8")))


@router.get("/extract/{extract_id}")
def get_extract(request: Request, extract_id: str) -> dict[str, Any]:
    """OpenRAG's chunk endpoint: ``{"page_content", "metadata"}`` of one indexed chunk.

    The id stays a string: OpenRAG's Milvus ids exceed 2^53."""
    for scenario in request.app.state.scenarios.values():
        if extract_id in scenario.extracts:
            return scenario.extracts[extract_id]
    raise OpenAIError(404, f"No chunk with id {extract_id}.", param="extract_id", code="not_found")


@router.get("/static/web/{name}.html", response_class=HTMLResponse)
def get_stand_in_page(name: str) -> str:
    """A web page a search scenario cites: its title and the words its sources quote."""
    page = stand_in_pages().get(name)
    if page is None:
        raise OpenAIError(404, f"No page named {name}.", param="name", code="not_found")
    title = html.escape(page.title)
    paragraphs = "\n".join(f"<p>{html.escape(text)}</p>" for text in page.paragraphs)
    return f"""<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>{title}</title>
<p><em>A stand-in page served by the citation mock server.</em></p>
<h1>{title}</h1>
{paragraphs}
</html>
"""
