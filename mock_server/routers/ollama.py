"""Ollama's API as LightRAG's server emulates it for Open WebUI's Ollama connection (HKUDS/LightRAG
lightrag/api/routers/ollama_api.py): the models and their version, which Open WebUI asks for to
list them (routers/ollama.py get_all_models: /api/tags, then /api/ps), and /api/chat, which replays
a scenario that speaks Ollama. A model is such a scenario, named after it; or an unnamed backend of
the corpus that speaks Ollama's API (`unnamed-<slug>`, on /api/chat or /api/generate, as it does)."""

from collections.abc import Callable
from typing import TypeVar

from fastapi import APIRouter
from fastapi import HTTPException
from fastapi import Request
from fastapi import Response
from pydantic import BaseModel

from ..errors import OLLAMA_ERROR_RESPONSES
from ..errors import unknown_model
from ..request_models import OllamaChatRequest
from ..request_models import OllamaGenerateRequest
from ..serving import replay_recorded
from ..serving import serve

router = APIRouter(prefix="/api", tags=["ollama"], responses=OLLAMA_ERROR_RESPONSES)

# How LightRAG describes the model it emulates (lightrag/constants.py DEFAULT_OLLAMA_*): dummy values.
CREATED_AT = "2024-01-15T00:00:00Z"
SIZE = 7365960935
LOADED_UNTIL = "2050-12-31T14:38:31.83753-07:00"


class ModelDetails(BaseModel):
    parent_model: str = ""
    format: str = "gguf"
    family: str
    families: list[str]
    parameter_size: str
    quantization_level: str = "Q4_0"


class ListedModel(BaseModel):
    name: str
    model: str
    modified_at: str = CREATED_AT
    size: int = SIZE
    digest: str
    details: ModelDetails


class ModelList(BaseModel):
    models: list[ListedModel]


class RunningModel(BaseModel):
    name: str
    model: str
    size: int = SIZE
    digest: str
    details: ModelDetails
    expires_at: str = LOADED_UNTIL
    size_vram: int = SIZE


class RunningModelList(BaseModel):
    models: list[RunningModel]


class Version(BaseModel):
    version: str


# Ollama's names carry a tag, `:latest` when none is given (LightRAG lists `lightrag:latest`); Open WebUI
# 0.6 adds it to a name without one before it looks the model up in the list.
TAG = ":latest"


def _ollama_models(request: Request) -> dict[str, str]:
    """Each scenario that speaks Ollama, then each corpus backend that does, under its tagged name: its
    producer (the backend's slug)."""
    scenarios = {name + TAG: s.producer for name, s in request.app.state.scenarios.items() if s.speaks_ollama}
    return scenarios | {name + TAG: b.slug for name, b in request.app.state.corpus.items() if b.ollama}


@router.get("/version")
def version() -> Version:
    """The Ollama version LightRAG says it is."""
    return Version(version="0.9.3")


Model = TypeVar("Model", ListedModel, RunningModel)


def _models(request: Request, model: type[Model], details: Callable[[str], ModelDetails]) -> list[Model]:
    """Each Ollama model as one of the model entries Ollama's API lists."""
    return [
        model(name=name, model=name, digest=f"sha256:{producer}", details=details(producer))
        for name, producer in _ollama_models(request).items()
    ]


@router.get("/tags")
def list_models(request: Request) -> ModelList:
    """One model per scenario that speaks Ollama (LightRAG lists its one, `lightrag:latest`)."""
    return ModelList(
        models=_models(
            request,
            ListedModel,
            lambda producer: ModelDetails(family=producer, families=[producer], parameter_size="13B"),
        )
    )


@router.get("/ps")
def running_models(request: Request) -> RunningModelList:
    """The same models, loaded until 2050, with a llama's details: LightRAG's answer."""
    llama = ModelDetails(family="llama", families=["llama"], parameter_size="7.2B")
    return RunningModelList(models=_models(request, RunningModel, lambda _: llama))


@router.post("/chat")
def chat(request: Request, body: OllamaChatRequest) -> Response:
    if body.messages[-1].role != "user":  # LightRAG answers the last user message only, and refuses others
        raise HTTPException(400, "Last message must be from user role")
    messages = [message.model_dump() for message in body.messages]
    scenario = body.model.removesuffix(TAG)
    return serve(request, scenario, body.model, "ollama", body.model_dump(), messages, body.stream)


@router.post("/generate")
def generate(request: Request, body: OllamaGenerateRequest) -> Response:
    """Only a corpus backend that speaks it (`api: ollama-generate`); LightRAG has no /api/generate."""
    name = body.model.removesuffix(TAG)
    backend = request.app.state.corpus.get(name)
    if backend is None:
        raise unknown_model(name)
    return replay_recorded(request, backend, "ollama-generate", body.stream)
