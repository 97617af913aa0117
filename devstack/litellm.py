"""The real LiteLLM proxy, between Open WebUI and the mock's stand-ins for providers' own APIs
(Anthropic's Messages API, Gemini's generateContent, OpenAI's vector store search): what LiteLLM
relays of their citations, grounding and search results is LiteLLM's own doing, not the mock's
(docs/litellm-chain.md)."""

import os
from collections.abc import Mapping
from pathlib import Path

import yaml

from mock_server.scenarios import Scenario

from .pins import OWUI_CACHE
from .pins import pinned
from .processes import Service

# Where the Makefile installs the proxy (versions.env's LITELLM_VERSION, the Makefile's LITELLM_VENV).
LITELLM_VENV = Path(os.environ.get("LITELLM_VENV", OWUI_CACHE / f"litellm-{pinned('LITELLM_VERSION')}"))
MASTER_KEY = "sk-owui-citations"
# The provider models a scenario is served as: LiteLLM looks up what a model supports by its name.
PROVIDER_MODELS = {"anthropic": "anthropic/claude-sonnet-4-5-20250929", "gemini": "gemini/gemini-2.5-flash"}
# LiteLLM appends the provider's own path to api_base: /v1/messages for Anthropic, and
# /models/<model>:generateContent (or :streamGenerateContent?alt=sse) for Gemini.
API_BASE_SUFFIX = {"anthropic": "", "gemini": "/v1beta"}


def proxied(scenarios: Mapping[str, Scenario]) -> dict[str, str]:
    """Scenario name -> the provider API it speaks, for the scenarios LiteLLM relays."""
    return {name: kind for name, s in scenarios.items() for kind in PROVIDER_MODELS if s.endpoint(kind)}


def knowledge_bases(scenarios: Mapping[str, Scenario]) -> list[str]:
    """The relayed scenarios whose model answers from a knowledge base: a vector store of their own,
    named after them, which LiteLLM searches before it asks the model."""
    return [name for name in proxied(scenarios) if scenarios[name].vector_store_search]


def _vector_store(mock_url: str, name: str) -> dict:
    """A `vector_store_registry` entry: an OpenAI vector store, searched at
    api_base + /vector_stores/<id>/search (LiteLLM's OpenAI vector store transformation)."""
    return {
        "vector_store_name": name,
        "litellm_params": {
            "vector_store_id": name,
            "custom_llm_provider": "openai",
            "api_base": f"{mock_url}/providers/{name}/v1",
            "api_key": "mock",
        },
    }


def config(mock_url: str, scenarios: Mapping[str, Scenario]) -> dict:
    """LiteLLM's config.yaml: one model per such scenario, named after it. A knowledge base's model
    names its store in `vector_store_ids`: Open WebUI cannot send that parameter."""
    stores = knowledge_bases(scenarios)
    models = [
        {
            "model_name": name,
            "litellm_params": {
                "model": PROVIDER_MODELS[kind],
                "api_base": f"{mock_url}/providers/{name}{API_BASE_SUFFIX[kind]}",
                "api_key": "mock",
                **({"vector_store_ids": [name]} if name in stores else {}),
            },
        }
        for name, kind in proxied(scenarios).items()
    ]
    return {
        "model_list": models,
        **({"vector_store_registry": [_vector_store(mock_url, name) for name in stores]} if stores else {}),
        "litellm_settings": {"telemetry": False, "drop_params": True, "num_retries": 0, "request_timeout": 60},
        "general_settings": {"master_key": MASTER_KEY},
    }


def litellm_proxy(
    port: int, mock_url: str, scenarios: Mapping[str, Scenario], workdir: Path, log_path: Path
) -> Service:
    """The proxy offline: its cost map from the package, no database, and any request that is not
    to this machine sent to a closed port (LiteLLM has no reason to go elsewhere; if it tried, it fails)."""
    workdir.mkdir(parents=True, exist_ok=True)
    config_path = workdir / "litellm-config.yaml"
    config_path.write_text(yaml.safe_dump(config(mock_url, scenarios), sort_keys=False))
    nowhere = "http://127.0.0.1:9"
    env = {
        "LITELLM_MASTER_KEY": MASTER_KEY,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HTTP_PROXY": nowhere,
        "HTTPS_PROXY": nowhere,
        "http_proxy": nowhere,
        "https_proxy": nowhere,
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    command = [
        str(LITELLM_VENV / "bin" / "litellm"),
        "--config",
        str(config_path),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    service = Service("LiteLLM proxy", command, log_path, env)
    service.env.pop("DATABASE_URL", None)  # with one, LiteLLM would start Prisma and a spend database
    return service
