"""The optional relay filter (relay_filter.py), registered in a running Open WebUI through its
functions API as a global, active Filter Function, removed, and reported. An admin's token is
needed (an API key or a session token); nothing of Open WebUI's is replaced that is not ours.
Standard library only."""

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .open_webui_api import open_url
from .open_webui_api import printable

FUNCTION_ID = "owui_citations_relay"
NAME = "Open WebUI Citations relay"
SOURCE = Path(__file__).resolve().with_name("relay_filter.py")
# A function under our id is ours only if it is this filter (any version of it): its content
# starts with the frontmatter of relay_filter.py, whose title Open WebUI reads there (anywhere
# else in a file, it is text anyone can write, in a function of their own).
OURS = f'"""\ntitle: {NAME}\n'
TIMEOUT_S = 30


class RelayError(Exception):
    """A refusal or a failure, with the reason; nothing was changed by the step that failed."""


@dataclass(frozen=True)
class Registered:
    ours: bool
    current: bool  # the same content as this package's filter
    active: bool
    is_global: bool


def _call(base_url: str, token: str, method: str, path: str, body: dict | None = None) -> object:
    request = urllib.request.Request(
        f"{base_url.rstrip('/')}/api/v1/functions{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with open_url(request, TIMEOUT_S) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        if error.code in (401, 403):
            raise RelayError(f"{base_url} refused the token ({error.code}): an admin's token is needed") from error
        raise RelayError(f"{method} {path}: Open WebUI answered {error.code}: {error.read(500)!r}") from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise RelayError(f"{base_url}: {printable(str(getattr(error, 'reason', error)))}") from error


def registered(base_url: str, token: str) -> Registered | None:
    """The function under our id, if any (the admin's export lists every function with its content)."""
    functions = _call(base_url, token, "GET", "/export")
    if not isinstance(functions, list):
        raise RelayError(f"{base_url}/api/v1/functions/export does not answer like an Open WebUI")
    for function in functions:
        if isinstance(function, dict) and function.get("id") == FUNCTION_ID:
            content = str(function.get("content") or "")
            return Registered(
                ours=content.startswith(OURS),
                current=content == SOURCE.read_text(),
                active=function.get("is_active") is True,
                is_global=function.get("is_global") is True,
            )
    return None


def _refuse_if_not_ours(found: Registered | None) -> None:
    if found is not None and not found.ours:
        raise RelayError(f"A function with the id {FUNCTION_ID} exists and is not this relay: left as it is.")


def install_relay(base_url: str, token: str) -> str:
    found = registered(base_url, token)
    _refuse_if_not_ours(found)
    form = {"id": FUNCTION_ID, "name": NAME, "content": SOURCE.read_text(), "meta": {"description": NAME}}
    if found is None:
        _call(base_url, token, "POST", "/create", form)
    elif not found.current:
        _call(base_url, token, "POST", f"/id/{FUNCTION_ID}/update", form)
    # The toggles flip a state: each is asked for only where it is not yet as needed.
    now = registered(base_url, token)
    if now is None:
        raise RelayError(f"{base_url} did not keep the relay filter")
    if not now.active:
        _call(base_url, token, "POST", f"/id/{FUNCTION_ID}/toggle")
    if not now.is_global:
        _call(base_url, token, "POST", f"/id/{FUNCTION_ID}/toggle/global")
    return f"Relay filter registered in {base_url} as {FUNCTION_ID}, global and active: no restart needed."


def uninstall_relay(base_url: str, token: str) -> str:
    found = registered(base_url, token)
    if found is None:
        return f"Nothing to remove: {base_url} has no function {FUNCTION_ID}."
    _refuse_if_not_ours(found)
    _call(base_url, token, "DELETE", f"/id/{FUNCTION_ID}/delete")
    return f"Relay filter removed from {base_url}."


def relay_status(base_url: str, token: str) -> tuple[str, bool]:
    """One line for `status`, and whether the relay runs as this package's."""
    found = registered(base_url, token)
    if found is None:
        return "Relay filter: not registered (optional; `owui-citations relay-install`).", True
    if not found.ours:
        return f"Relay filter: the function {FUNCTION_ID} is someone else's, not this relay.", False
    state = [
        "this package's version" if found.current else "another version: run `owui-citations relay-install`",
        "active" if found.active else "NOT ACTIVE",
        "global" if found.is_global else "NOT GLOBAL (runs only for the models it is assigned to)",
    ]
    return "Relay filter: registered, " + ", ".join(state) + ".", found.current and found.active and found.is_global
