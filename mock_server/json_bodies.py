"""Reads every /v1 and Ollama /api request body as JSON, whatever its Content-Type.

``curl -d '{…}'`` sends ``application/x-www-form-urlencoded``; OpenAI-compatible servers read
the body as JSON anyway, as LightRAG's Ollama API does (ollama_api.py parse_request_body: LiteLLM
sends application/octet-stream), and FastAPI would otherwise reject it as "not an object"."""

from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

_JSON = (b"content-type", b"application/json")


class JsonBodies:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"].startswith(("/v1/", "/api/")):
            headers = [(name, value) for name, value in scope["headers"] if name != b"content-type"]
            scope = {**scope, "headers": [*headers, _JSON]}
        await self.app(scope, receive, send)
