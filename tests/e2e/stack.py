"""What the end-to-end tests get: where the two services are, and a token."""

from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class Stack:
    mock_url: str
    webui_url: str
    token: str  # the admin's, in Open WebUI's no-login mode

    def api(self) -> httpx.Client:
        return httpx.Client(base_url=self.webui_url, headers={"Authorization": f"Bearer {self.token}"}, timeout=60)
