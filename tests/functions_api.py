"""A small in-memory stand-in of Open WebUI's functions API, as the relay's registration uses it
(tests/test_relay.py, test_admin_http.py; the real one: tests/e2e/test_relay.py)."""

import json
from http.server import BaseHTTPRequestHandler

from owui_citations import relay


class FunctionsApi(BaseHTTPRequestHandler):
    """Open WebUI's functions API as the relay uses it: export, create, update, toggles, delete."""

    functions: dict[str, dict] = {}
    calls: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def _answer(self, code: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self) -> None:
        self.calls.append(f"{self.command} {self.path}")
        if self.headers["Authorization"] != "Bearer admin":
            return self._answer(401, {"detail": "unauthorized"})
        path = self.path.removeprefix("/api/v1/functions")
        length = int(self.headers.get("Content-Length") or 0)
        form = json.loads(self.rfile.read(length)) if length else None
        function = self.functions.get(relay.FUNCTION_ID)
        if path == "/export":
            return self._answer(200, list(self.functions.values()))
        if path == "/create" and form:
            self.functions[form["id"]] = {**form, "is_active": False, "is_global": False}
        elif function is None:
            return self._answer(401, {"detail": "not found"})
        elif path.endswith("/update") and form:
            function["content"] = form["content"]
        elif path.endswith("/toggle"):
            function["is_active"] = not function["is_active"]
        elif path.endswith("/toggle/global"):
            function["is_global"] = not function["is_global"]
        elif path.endswith("/delete"):
            del self.functions[relay.FUNCTION_ID]
        self._answer(200, True)

    do_GET = do_POST = do_DELETE = _handle
