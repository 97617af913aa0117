import os
import re
from collections import defaultdict
from collections.abc import Sequence
from itertools import count
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from .corpus import DEFAULT_CORPUS_DIRS
from .corpus import load_corpus
from .errors import error_response
from .errors import install_error_handlers
from .json_bodies import JsonBodies
from .registry import load_scenarios
from .routers import documents
from .routers import generation
from .routers import models
from .routers import ollama
from .routers import providers

DOCUMENTS = Path(__file__).parent / "documents"

# Far above what Open WebUI sends (a chat's history, a document's chunks to embed); a page that
# posts more would only fill this machine's memory.
MAX_BODY_BYTES = 8 * 1024 * 1024
# The pages that may call the mock from a browser: only Open WebUI's "direct connections" do (its
# page calls the upstream itself, from its own origin), and Open WebUI runs on this machine.
# MOCK_SERVER_CORS_ORIGINS (";"-separated, as Open WebUI's CORS_ALLOW_ORIGIN) names the exact
# ones: `make demo` gives its Open WebUI's.
LOOPBACK_ORIGINS = r"https?://(127\.0\.0\.1|localhost|\[::1\])(:\d+)?"


class RequestLimits:
    """Refuses what only another page, or a flood, sends: a body over ``max_body_bytes`` (413,
    before reading past the limit) and a POST from a page of a foreign origin (403). CORS alone
    would not stop that POST: as text/plain it needs no preflight, and JsonBodies reads it as JSON;
    a DNS-rebinding page's origin is foreign too. Clients other than browsers send no Origin."""

    def __init__(self, app: ASGIApp, allowed_origin: re.Pattern[str], max_body_bytes: int):
        self.app, self.allowed_origin, self.max_body_bytes = app, allowed_origin, max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if scope["method"] == "POST" and origin is not None and not self.allowed_origin.fullmatch(origin):
            refused = error_response(
                403, f"Requests from pages at {origin} are not allowed.", code="origin_not_allowed"
            )
            await refused(scope, receive, send)
            return
        too_large = error_response(
            413, f"The request body exceeds {self.max_body_bytes} bytes.", code="request_too_large"
        )
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body_bytes:
            await too_large(scope, receive, send)
            return
        # Without a length (chunked), counted as it comes: the app gets it whole, once read.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_body_bytes:
                await too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body: Message | None = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> Message:
            nonlocal body
            if body is None:
                return await receive()  # then the disconnect, as a streaming answer waits for it
            message, body = body, None
            return message

        await self.app(scope, replay, send)


def create_app(
    extra_scenario_dirs: Sequence[Path] = (),
    token_delay_ms: int = 0,
    first_token_delay_ms: int = 0,
    cors_origins: Sequence[str] | None = None,
    corpus_dirs: Sequence[Path] = DEFAULT_CORPUS_DIRS,
    pauses: bool = True,
) -> FastAPI:
    """``cors_origins``: the pages that may call it from a browser; by default
    MOCK_SERVER_CORS_ORIGINS's, else any page on this machine. ``corpus_dirs``: the unnamed
    backends served as models `unnamed-<slug>` (mock_server/corpus.py). ``pauses``: whether a stream keeps
    the producer's own pauses its scenario writes (`delay_ms`); tests that read answers go without."""
    app = FastAPI(
        title="Citation wire-format mock",
        description="An OpenAI-compatible server whose models are scenarios: each replays one "
        "producer's answer with its sources where that producer puts them.",
    )
    app.state.scenarios = load_scenarios(list(extra_scenario_dirs))
    app.state.corpus = {backend.model_id: backend for backend in load_corpus(list(corpus_dirs))}
    app.state.token_delay_ms = token_delay_ms
    app.state.pauses = pauses
    # Requests counted per model, for scenarios whose answers change on each attempt.
    app.state.requests = defaultdict(count)
    app.state.first_token_delay_ms = first_token_delay_ms
    install_error_handlers(app)
    app.include_router(models.router)
    app.include_router(generation.router)
    app.include_router(providers.router)
    app.include_router(documents.router)
    app.include_router(ollama.router)
    app.mount("/static", StaticFiles(directory=DOCUMENTS), name="static")
    if cors_origins is None:
        cors_origins = [origin for origin in os.environ.get("MOCK_SERVER_CORS_ORIGINS", "").split(";") if origin]
    allowed = "|".join(map(re.escape, cors_origins)) if cors_origins else LOOPBACK_ORIGINS
    app.add_middleware(JsonBodies)
    app.add_middleware(RequestLimits, allowed_origin=re.compile(allowed), max_body_bytes=MAX_BODY_BYTES)
    # Open WebUI's "direct connections" call the upstream from the browser, from Open WebUI's origin.
    app.add_middleware(CORSMiddleware, allow_origin_regex=allowed, allow_methods=["GET", "POST"], allow_headers=["*"])
    return app
