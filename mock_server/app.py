from collections.abc import Sequence
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles

from .errors import install_error_handlers
from .json_bodies import JsonBodies
from .registry import load_scenarios
from .routers import documents
from .routers import generation
from .routers import models
from .routers import providers

DOCUMENTS = Path(__file__).parent / "documents"


def create_app(
    extra_scenario_dirs: Sequence[Path] = (), token_delay_ms: int = 0, first_token_delay_ms: int = 0
) -> FastAPI:
    app = FastAPI(
        title="Citation wire-format mock",
        description="An OpenAI-compatible server whose models are scenarios: each replays one "
        "producer's answer with its sources where that producer puts them.",
    )
    app.state.scenarios = load_scenarios(list(extra_scenario_dirs))
    app.state.token_delay_ms = token_delay_ms
    app.state.first_token_delay_ms = first_token_delay_ms
    install_error_handlers(app)
    app.include_router(models.router)
    app.include_router(generation.router)
    app.include_router(providers.router)
    app.include_router(documents.router)
    app.mount("/static", StaticFiles(directory=DOCUMENTS), name="static")
    app.add_middleware(JsonBodies)
    # Open WebUI's "direct connections" call the upstream from the browser, from another origin.
    app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["*"], allow_headers=["*"])
    return app
