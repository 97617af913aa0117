from fastapi import APIRouter
from fastapi import Request
from pydantic import BaseModel

router = APIRouter(prefix="/v1", tags=["models"])


class Model(BaseModel):
    id: str
    object: str = "model"
    created: int = 0
    owned_by: str


class ModelList(BaseModel):
    object: str = "list"
    data: list[Model]


@router.get("/models")
def list_models(request: Request) -> ModelList:
    """One model per scenario served to OpenAI clients: the model id is the scenario's name; then one per
    unnamed backend that speaks OpenAI's API, `unnamed-<slug>`."""
    scenarios = request.app.state.scenarios
    listed = [Model(id=name, owned_by=s.producer) for name, s in scenarios.items() if s.speaks_openai]
    corpus = request.app.state.corpus
    return ModelList(data=listed + [Model(id=name, owned_by=b.slug) for name, b in corpus.items() if not b.ollama])
