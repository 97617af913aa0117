"""Ollama's API as LightRAG's server emulates it for Open WebUI's Ollama connection (HKUDS/LightRAG
lightrag/api/routers/ollama_api.py): the models and their version, which Open WebUI asks for to
list them (routers/ollama.py get_all_models: /api/tags, then /api/ps), and /api/chat, which replays
a scenario that speaks Ollama. A model is such a scenario, named after it."""

from collections.abc import Callable
from typing import TypeVar

from fastapi import APIRouter
from fastapi import HTTPException
from fastapi import Request
from fastapi import Response
from pydantic import BaseModel

from ..errors import OLLAMA_ERROR_RESPONSES
from ..request_models import OllamaChatRequest
from ..scenarios import Scenario
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


def _ollama_scenarios(request: Request) -> dict[str, Scenario]:
    """Each scenario that speaks Ollama, under its tagged name."""
    return {name + TAG: s for name, s in request.app.state.scenarios.items() if s.speaks_ollama}


@router.get("/version")
def version() -> Version:
    """The Ollama version LightRAG says it is."""
    return Version(version="0.9.3")


Model = TypeVar("Model", ListedModel, RunningModel)


def _models(request: Request, model: type[Model], details: Callable[[Scenario], ModelDetails]) -> list[Model]:
    """Each Ollama scenario as one of the model entries Ollama's API lists."""
    return [
        model(name=name, model=name, digest=f"sha256:{scenario.producer}", details=details(scenario))
        for name, scenario in _ollama_scenarios(request).items()
    ]


@router.get("/tags")
def list_models(request: Request) -> ModelList:
    """One model per scenario that speaks Ollama (LightRAG lists its one, `lightrag:latest`)."""
    return ModelList(
        models=_models(
            request,
            ListedModel,
            lambda scenario: ModelDetails(family=scenario.producer, families=[scenario.producer], parameter_size="13B"),
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
