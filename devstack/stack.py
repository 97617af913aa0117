"""The two services of the demo and the end-to-end tests, configured in one place."""

import json
import os
import secrets
import shutil
import sys
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import ExitStack
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from mock_server.corpus import DEFAULT_CORPUS_DIRS
from mock_server.corpus import load_corpus
from mock_server.registry import load_scenarios

from .litellm import MASTER_KEY
from .litellm import litellm_proxy
from .litellm import proxied
from .pins import OWUI_CACHE
from .pins import pinned
from .processes import Service
from .processes import ServiceError
from .processes import free_port
from .proxy import proxy
from .shared import shared_services


def pinned_open_webui() -> str:
    """The Open WebUI release this project is pinned to."""
    return pinned("OPEN_WEBUI_VERSION")


# Where the Makefile installs each Open WebUI version (its OWUI_VERSION, OWUI_CACHE, OWUI_VENV).
OWUI_VERSION = os.environ.get("OWUI_VERSION") or pinned_open_webui()
OWUI_VENV = Path(os.environ.get("OWUI_VENV", OWUI_CACHE / f"open-webui-{OWUI_VERSION}"))


@dataclass(frozen=True)
class Stack:
    """Where the services of a running stack are, and a token."""

    mock_url: str
    webui_url: str
    litellm_url: str
    token: str  # the admin's: in Open WebUI's no-login mode, or the demo's admin

    def api(self) -> httpx.Client:
        return httpx.Client(base_url=self.webui_url, headers={"Authorization": f"Bearer {self.token}"}, timeout=60)


@dataclass(frozen=True)
class Demo:
    """What locks `make demo` to its user: while it runs, any web page the developer visits could
    call 127.0.0.1. Open WebUI with a login (an admin whose password is printed at start), a
    secret key of this run, cross-origin calls from its own page only (Open WebUI and the mock).
    The tests' stack has none of it: they use Open WebUI's no-login mode."""

    secret_key: str
    admin_email: str
    admin_password: str
    # Signed in by a proxy that names the user in this header (devstack/proxy.py), not by password.
    trusted_header: str | None = None

    @classmethod
    def new(cls, trusted_header: str | None = None) -> "Demo":
        # Open WebUI accepts an @localhost address (utils/misc.py validate_email_format).
        return cls(secrets.token_urlsafe(32), "admin@localhost", secrets.token_urlsafe(16), trusted_header)


def local_origins(port: int) -> list[str]:
    """The origins of the page a service on this machine serves at ``port``: 127.0.0.1, as the
    demo prints it, and localhost, the same server."""
    return [f"http://127.0.0.1:{port}", f"http://localhost:{port}"]


def mock_server(
    port: int,
    log_path: Path,
    token_delay_ms: int = 0,
    extra_args: Sequence[str] = (),
    first_token_delay_ms: int = 0,
    cors_origins: Sequence[str] = (),
) -> Service:
    """The mock on 127.0.0.1; ``cors_origins``, the only pages that may call it from a browser
    (else any page on this machine: mock_server/app.py)."""
    command = [
        sys.executable,
        "-m",
        "mock_server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--token-delay-ms",
        str(token_delay_ms),
        "--first-token-delay-ms",
        str(first_token_delay_ms),
        *extra_args,
    ]
    env = {"MOCK_SERVER_CORS_ORIGINS": ";".join(cors_origins)} if cors_origins else {}
    return Service("mock server", command, log_path, env)


def _connections(mock_url: str, litellm_url: str, scenario_dirs: Sequence[Path]) -> dict:
    """Three connections, in the form of Open WebUI's `/openai/config/update`: the mock's Chat
    Completions for most scenarios, its Responses API for the scenarios that only speak it (Open
    WebUI's per-connection `api_type`), and the LiteLLM proxy for the scenarios that speak a
    provider's own API."""
    scenarios = load_scenarios(list(scenario_dirs))
    responses_only = [name for name, s in scenarios.items() if s.chat is None and s.responses]
    chat = [name for name, s in scenarios.items() if s.chat is not None]
    # The unnamed backends the mock serves by default (mock_server/corpus.py) that speak OpenAI's API.
    chat += [backend.model_id for backend in load_corpus(list(DEFAULT_CORPUS_DIRS)) if not backend.ollama]
    configs = {
        "0": {"enable": True, "model_ids": chat},
        "1": {"enable": True, "model_ids": responses_only, "api_type": "responses"},
        "2": {"enable": True, "model_ids": list(proxied(scenarios))},
    }
    return {
        "ENABLE_OPENAI_API": True,
        "OPENAI_API_BASE_URLS": [mock_url, mock_url, litellm_url],
        "OPENAI_API_KEYS": ["mock", "mock", MASTER_KEY],
        "OPENAI_API_CONFIGS": configs,
    }


def _ollama_connection(mock_port: int) -> dict:
    """Open WebUI's Ollama connection, in the form of its `/ollama/config/update`: the mock's Ollama
    API, whose /api/tags lists only the scenarios that speak it (LightRAG's: mock_server/routers/ollama.py),
    none of the OpenAI connections' models."""
    return {"ENABLE_OLLAMA_API": True, "OLLAMA_BASE_URLS": [f"http://127.0.0.1:{mock_port}"], "OLLAMA_API_CONFIGS": {}}


def _connections_env(connections: dict) -> dict[str, str]:
    return {
        "OPENAI_API_BASE_URLS": ";".join(connections["OPENAI_API_BASE_URLS"]),
        "OPENAI_API_KEYS": ";".join(connections["OPENAI_API_KEYS"]),
        "OPENAI_API_CONFIGS": json.dumps(connections["OPENAI_API_CONFIGS"]),
    }


def sign_in(webui_url: str, demo: Demo | None = None) -> str:
    """The admin's token: in Open WebUI's no-login mode, or the demo's admin. Open WebUI 0.7+
    created that admin at start (WEBUI_ADMIN_EMAIL, open_webui/main.py lifespan →
    utils/auth.py create_admin_user); earlier lines lack those variables, and there the first
    user to sign up becomes the admin (routers/auths.py signup)."""
    email, password = (demo.admin_email, demo.admin_password) if demo else ("", "")
    # Behind a trusted-header proxy, the header names the user (routers/auths.py signin).
    headers = {demo.trusted_header: email} if demo and demo.trusted_header else {}
    signin = httpx.post(
        f"{webui_url}/api/v1/auths/signin", json={"email": email, "password": password}, headers=headers, timeout=60
    )
    if demo and signin.status_code in (400, 401, 403):
        signin = httpx.post(
            f"{webui_url}/api/v1/auths/signup",
            json={"name": "Admin", "email": email, "password": password},
            timeout=60,
        )
    if demo and signin.is_error:
        raise ServiceError(f"Open WebUI refused the demo's admin ({signin.status_code}): {signin.text[:300]}")
    signin.raise_for_status()
    return signin.json()["token"]


def connect_to_mock(
    webui_url: str, token: str, mock_port: int, litellm_port: int, scenario_dirs: Sequence[Path] = ()
) -> None:
    """Open WebUI 0.8 and 0.9 read OPENAI_API_CONFIGS from their database only, not from the
    environment: where the running one does not show our connections, they go through its API; the
    Ollama connection likewise, should a release read its URLs so."""
    connections = _connections(f"http://127.0.0.1:{mock_port}/v1", f"http://127.0.0.1:{litellm_port}/v1", scenario_dirs)
    ollama = _ollama_connection(mock_port)
    with httpx.Client(base_url=webui_url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as api:
        if api.get("/openai/config").json().get("OPENAI_API_CONFIGS") != connections["OPENAI_API_CONFIGS"]:
            api.post("/openai/config/update", json=connections).raise_for_status()
        if api.get("/ollama/config").json().get("OLLAMA_BASE_URLS") != ollama["OLLAMA_BASE_URLS"]:
            api.post("/ollama/config/update", json=ollama).raise_for_status()


def producer_options(scenario_dirs: Sequence[Path] = ()) -> dict[str, dict[str, str]]:
    """For each scenario whose producer sends its sources only when asked (RAGFlow's
    `extra_body.reference`), the custom parameters that ask for them, as a user sets them in
    Open WebUI (Workspace → Models → Advanced Params → Custom Parameters): a parameter's value
    is JSON text, merged into the request body."""
    options: dict[str, dict[str, str]] = {}
    for name, scenario in load_scenarios(list(scenario_dirs)).items():
        for path in scenario.switches.values():
            first, *rest = path.split(".")
            value: object = True
            for key in reversed(rest):
                value = {key: value}
            options.setdefault(name, {})[first] = json.dumps(value)
    return options


# What Open WebUI's model editor saves for a model's capabilities when none is changed
# (ModelEditor.svelte): 0.7 fails every answer of a model saved without them (it reads
# meta.capabilities.builtin_tools from None).
EDITOR_CAPABILITIES = {
    "file_context": True,
    "vision": True,
    "file_upload": True,
    "web_search": True,
    "image_generation": True,
    "code_interpreter": True,
    "citations": True,
    "status_updates": True,
    "builtin_tools": True,
}


def ask_for_sources(webui_url: str, token: str, scenario_dirs: Sequence[Path] = ()) -> None:
    """Sets each such model's custom parameters through Open WebUI's model API, as its editor saves them."""
    with httpx.Client(base_url=webui_url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as api:
        for model, custom_params in producer_options(scenario_dirs).items():
            meta = {"description": f"{model}, sources on", "capabilities": EDITOR_CAPABILITIES}
            form = {
                "id": model,
                "name": model,
                "base_model_id": None,
                "meta": meta,
                "params": {"custom_params": custom_params},
            }
            if api.get("/api/v1/models/model", params={"id": model}).status_code == 200:
                api.post("/api/v1/models/model/update", params={"id": model}, json=form).raise_for_status()
            else:
                api.post("/api/v1/models/create", json=form).raise_for_status()


def open_webui(
    port: int,
    mock_port: int,
    litellm_port: int,
    data_dir: Path,
    log_path: Path,
    extra_env: dict[str, str] | None = None,
    scenario_dirs: Sequence[Path] = (),
    demo: Demo | None = None,
) -> Service:
    """A real Open WebUI from its pinned venv, on 127.0.0.1: offline, no background LLM tasks, no
    login unless ``demo`` (then its admin, its secret key, CORS for its own page only)."""
    mock_url = f"http://127.0.0.1:{mock_port}/v1"
    data_dir.mkdir(parents=True, exist_ok=True)
    env = {
        "DATA_DIR": str(data_dir),
        # Open WebUI empties and refills its static folder (loader.js included) at every start:
        # one per instance, or instances of the same venv break each other's pages.
        "STATIC_DIR": str(data_dir / "static"),
        "WEBUI_AUTH": "False",
        "WEBUI_SECRET_KEY": "owui-citations-dev",
        "ENABLE_PERSISTENT_CONFIG": "False",  # the environment below wins at every start
        "ENABLE_OLLAMA_API": "True",
        "OLLAMA_BASE_URLS": ";".join(_ollama_connection(mock_port)["OLLAMA_BASE_URLS"]),
        "ENABLE_OPENAI_API": "True",
        "ENABLE_DIRECT_CONNECTIONS": "True",  # users may add their own upstream (tested)
        **_connections_env(_connections(mock_url, f"http://127.0.0.1:{litellm_port}/v1", scenario_dirs)),
        "OFFLINE_MODE": "true",
        "HF_HUB_OFFLINE": "1",
        "ENABLE_VERSION_UPDATE_CHECK": "False",
        # Offline, the default local embedding model cannot load; some versions refuse to start.
        "RAG_EMBEDDING_ENGINE": "openai",
        "RAG_EMBEDDING_MODEL_AUTO_UPDATE": "False",
        "RAG_OPENAI_API_BASE_URL": mock_url,
        "RAG_OPENAI_API_KEY": "mock",
        # Title, tag and follow-up generation would send extra requests to the scenarios.
        "ENABLE_TITLE_GENERATION": "False",
        "ENABLE_TAGS_GENERATION": "False",
        "ENABLE_FOLLOW_UP_GENERATION": "False",
        "ENABLE_AUTOCOMPLETE_GENERATION": "False",
        "ENABLE_SEARCH_QUERY_GENERATION": "False",
        "ENABLE_RETRIEVAL_QUERY_GENERATION": "False",
    }
    if demo:
        env |= {
            "WEBUI_AUTH": "True",
            "WEBUI_SECRET_KEY": demo.secret_key,  # signs the session tokens: none outlives the run
            # Created at start when the database has no user (0.7+: open_webui/env.py, main.py).
            "WEBUI_ADMIN_EMAIL": demo.admin_email,
            "WEBUI_ADMIN_PASSWORD": demo.admin_password,
            "WEBUI_ADMIN_NAME": "Admin",
            # Open WebUI's default is `*`: any page could read its answers (config.py CORS_ALLOW_ORIGIN).
            "CORS_ALLOW_ORIGIN": ";".join(local_origins(port)),
        }
        if demo.trusted_header:
            env["WEBUI_AUTH_TRUSTED_EMAIL_HEADER"] = demo.trusted_header
    env |= extra_env or {}
    command = [str(OWUI_VENV / "bin" / "open-webui"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    return Service("Open WebUI", command, log_path, env)


@contextmanager
def running_stack(
    workdir: Path,
    extra_env: dict[str, str] | None = None,
    token_delay_ms: int = 0,
    scenario_dirs: Sequence[Path] = (),
    first_token_delay_ms: int = 0,
    ports: tuple[int, int, int] | None = None,
    demo: Demo | None = None,
    replicas: int = 1,
) -> Iterator[Stack]:
    """The mock server, the LiteLLM proxy and Open WebUI, each a real process, until the block
    ends; on free ports unless ``ports`` (mock, Open WebUI, LiteLLM) are given. ``workdir``
    receives Open WebUI's data, LiteLLM's config and the logs. With ``demo``, Open WebUI's
    data starts empty: its admin is created only in a database without users. With ``replicas``
    above one, that many Open WebUI processes share PostgreSQL, Redis and their data folder behind
    a round-robin nginx at Open WebUI's address (docs/deployment.md)."""
    mock_port, webui_port, litellm_port = ports or (free_port(), free_port(), free_port())
    mock_url, webui_url = f"http://127.0.0.1:{mock_port}", f"http://127.0.0.1:{webui_port}"
    logs = workdir / "logs"
    data_dir = workdir / "owui-data"
    if demo:
        shutil.rmtree(data_dir, ignore_errors=True)
    scenario_args = [arg for directory in scenario_dirs for arg in ("--scenarios", str(directory))]
    cors_origins = local_origins(webui_port) if demo else ()
    replica_ports = [webui_port] if replicas == 1 else [free_port() for _ in range(replicas)]
    mock: Service | None = None
    litellm: Service | None = None
    webuis: list[Service] = []
    nginx: Service | None = None
    with ExitStack() as shared:
        # Everything started is inside the try: a start-up that fails half-way leaves no process behind.
        try:
            mock = mock_server(
                mock_port, logs / "mock-server.log", token_delay_ms, scenario_args, first_token_delay_ms, cors_origins
            ).start()
            mock.wait_until_ready(f"{mock_url}/v1/models", 30)
            litellm = litellm_proxy(
                litellm_port, mock_url, load_scenarios(list(scenario_dirs)), workdir, logs / "litellm.log"
            ).start()
            shared_env = {} if replicas == 1 else shared.enter_context(shared_services(logs))
            for number, port in enumerate(replica_ports, 1):
                env = {**(extra_env or {}), **shared_env}
                if replicas > 1:
                    # Each start empties and refills its static folder: one per replica. Migrations run once.
                    env |= {"STATIC_DIR": str(workdir / f"static-{number}")}
                    env |= {"ENABLE_DB_MIGRATIONS": "False"} if number > 1 else {}
                    env |= {"CORS_ALLOW_ORIGIN": ";".join(local_origins(webui_port))} if demo else {}
                log = logs / ("open-webui.log" if replicas == 1 else f"open-webui-{number}.log")
                webui = open_webui(port, mock_port, litellm_port, data_dir, log, env, scenario_dirs, demo)
                webuis.append(webui.start())
                # One after the other: the first creates the database's tables (config.py, no lock).
                webui.wait_until_ready(f"http://127.0.0.1:{port}/health", 180)
            if replicas > 1:
                upstreams = [f"127.0.0.1:{port}" for port in replica_ports]
                nginx = proxy(webui_port, upstreams, workdir / "nginx").start()
                nginx.wait_until_ready(f"{webui_url}/health", 30)
            litellm.wait_until_ready(f"http://127.0.0.1:{litellm_port}/health/liveliness", 120)
            token = sign_in(webui_url, demo)
            connect_to_mock(webui_url, token, mock_port, litellm_port, scenario_dirs)
            ask_for_sources(webui_url, token, scenario_dirs)
            yield Stack(mock_url, webui_url, f"http://127.0.0.1:{litellm_port}", token)
        finally:
            for service in [nginx, *webuis, litellm, mock]:
                if service:
                    service.stop()
