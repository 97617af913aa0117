"""No egress: every request the browser makes during the end-to-end suite, WebSockets included,
must go to an Open WebUI or a mock server the suite started, unless a test clicked a link and
declared where it leads (`with egress.expect(pattern):`). Recorded for every browser context
(its pages, popups and workers) and every page's WebSockets; checked once, when the session ends."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from urllib.parse import urlsplit

from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page

# Schemes that never leave the browser.
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "moz-extension", "devtools"}


@dataclass
class Egress:
    allowed_hosts: set[str] = field(default_factory=set)  # host:port
    current_test: str = ""
    requests: int = 0
    declared: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    _expected: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, *urls: str) -> None:
        self.allowed_hosts.update(urlsplit(url).netloc for url in urls)

    def watch(self, browser: Browser) -> None:
        browser.on("context", self.watch_context)

    def watch_context(self, context: BrowserContext) -> None:
        context.on("request", lambda request: self.record(request.url))
        context.on("page", self._watch_page)

    def _watch_page(self, page: Page) -> None:
        page.on("websocket", lambda socket: self.record(socket.url))

    def record(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in LOCAL_SCHEMES:
            return
        self.requests += 1
        if parts.netloc in self.allowed_hosts:
            return
        entry = f"{self.current_test}: {url[:200]}"
        (self.declared if any(p.search(url) for p in self._expected) else self.unexpected).append(entry)

    @contextmanager
    def expect(self, pattern: str) -> Iterator[None]:
        """Requests matching ``pattern`` are expected while the block runs (a link the test clicks)."""
        compiled = re.compile(pattern)
        self._expected.append(compiled)
        try:
            yield
        finally:
            self._expected.remove(compiled)


EGRESS = Egress()
