"""The pinned Open WebUI runs here, offline, and sees the mock server's scenarios as models."""

import pytest

from devstack.limits import NO_RESPONSES_CONNECTION
from devstack.limits import RESPONSES_CONNECTION_SINCE
from devstack.owui import COMPLETIONS
from devstack.owui import MODELS
from devstack.owui import model_id
from devstack.owui import open_webui_version
from devstack.stack import Stack
from tests.wire import SCENARIOS

pytestmark = pytest.mark.e2e


def test_every_scenario_is_a_model_in_open_webui(stack: Stack) -> None:
    with stack.api() as api:
        models = api.get(MODELS).json()["data"]
    assert {model["id"] for model in models} >= {model_id(name) for name in SCENARIOS}


@pytest.mark.parametrize("model", ["openrag", "openai-responses", "claude-citations", "gemini-grounding"])
def test_open_webui_relays_a_scenario_answer(stack: Stack, record_property, model: str) -> None:
    """Through every connection: Chat Completions, the Responses API one, and the LiteLLM proxy (Claude, Gemini)."""
    with stack.api() as api:
        response = api.post(
            COMPLETIONS,
            json={"model": model, "stream": False, "messages": [{"role": "user", "content": "?"}]},
        )
    if model == "openai-responses" and open_webui_version(stack) < RESPONSES_CONNECTION_SINCE:
        record_property("gap", NO_RESPONSES_CONNECTION)
        assert response.status_code == 400 and response.json()["error"]["code"] == "unsupported_endpoint", response.text
        return
    assert response.status_code == 200, response.text
    content = response.json()["choices"][0]["message"]["content"]
    assert (
        content.split()[:3]
        == {
            "openrag": ["Le", "chiffre", "d'affaires"],
            "openai-responses": ["Adults", "should", "do"],
            "claude-citations": ["According", "to", "the"],
            "gemini-grounding": ["Die", "Milchstraße", "enthält"],
        }[model]
    )
