"""Behind an authenticating proxy: nginx (Debian's) signs people in with HTTP basic
authentication and names them to Open WebUI in a trusted header (devstack/proxy.py). Open WebUI's
sign-in page then signs in by itself; the extension knows whose session the page holds from the
token as usual, stores each answer's sources once as that user, and, when the session expires
mid-answer, stores them after Open WebUI signs the user in again."""

import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import replace
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.owui import ASSISTANT
from devstack.owui import CONFIG
from devstack.owui import SESSION
from devstack.owui import chat_path
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_citation_events
from devstack.owui import wait_for_chat_input
from devstack.owui import wait_until_stored
from devstack.processes import free_port
from devstack.proxy import TrustedSignIn
from devstack.proxy import proxy
from devstack.stack import Demo
from devstack.stack import Stack
from tests.e2e.checks import answered_by
from tests.e2e.egress import EGRESS
from tests.e2e.stacks import running_stack

pytestmark = pytest.mark.e2e

HEADER = "X-WebAuth-Email"


@dataclass(frozen=True)
class Proxied:
    stack: Stack  # its webui_url is the proxy's; its token the admin's
    user: str
    password: str


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    port = free_port()
    proxy_url = f"http://127.0.0.1:{port}"
    user, password = "alice@localhost", secrets.token_urlsafe(12)
    env = {
        "BYPASS_MODEL_ACCESS_CONTROL": "True",
        "DEFAULT_USER_ROLE": "user",  # a person the proxy names is a user at once, not "pending"
        "CORS_ALLOW_ORIGIN": proxy_url,  # the page's origin is the proxy's
    }
    with running_stack(tmp_path_factory, env, demo=Demo.new(trusted_header=HEADER)) as stack:
        upstream = urlsplit(stack.webui_url).netloc
        nginx = proxy(port, [upstream], tmp_path_factory.mktemp("nginx"), TrustedSignIn(HEADER, {user: password}))
        nginx.start()
        try:
            nginx.wait_until_ready(proxy_url + CONFIG, 30)  # not behind the password
            EGRESS.allow(proxy_url)
            yield Proxied(replace(stack, webui_url=proxy_url), user, password)
        finally:
            nginx.stop()


def signed_in_page(browser: Browser, proxied: Proxied) -> Page:
    """A browser that answers the proxy's password prompt, on Open WebUI's page: it signs in by itself."""
    context = browser.new_context(http_credentials={"username": proxied.user, "password": proxied.password})
    page = context.new_page()
    page.goto(proxied.stack.webui_url)
    wait_for_chat_input(page)
    return page


def test_behind_the_proxy_the_user_it_names_has_sources_stored_once_even_across_an_expired_session(
    browser: Browser, proxied: Proxied
) -> None:
    page = signed_in_page(browser, proxied)
    person = replace(proxied.stack, token=page.evaluate("() => localStorage.token"))
    with person.api() as api:
        assert api.get(SESSION).json()["email"] == proxied.user
    set_user_settings(person, stream=True)

    chat, first = answered_by(page, person)
    assert wait_until_stored(page, person, chat, [first], timeout_s=30) == {first: 1}

    # The session expires as the next answer streams: at its next request Open WebUI meets a 401,
    # clears the session, and its sign-in page signs the user in again through the proxy. An answer
    # that finished first leaves no request to come: the user's next page load is that request.
    send(page, "And how old is it?")
    page.wait_for_selector(f"{ASSISTANT} >> nth=1", timeout=60_000)
    page.evaluate("() => { localStorage.token = 'expired'; }")
    renewed = "() => localStorage.token && localStorage.token !== 'expired'"
    try:
        page.wait_for_function(renewed, timeout=6_000)  # a 401 at the end of a streamed answer, within seconds
    except PlaywrightTimeoutError:
        page.reload()
        page.wait_for_function(renewed, timeout=60_000)
    deadline = time.monotonic() + 60
    while not (len(stored := stored_citation_events(person, chat)) == 2 and all(stored.values())):
        if time.monotonic() > deadline:
            break
        page.wait_for_timeout(500)
    assert sorted(stored.values()) == [1, 1], stored
    page.goto(f"{proxied.stack.webui_url}{chat_path(chat)}")
    for answer in stored:
        expect(Answer(page, answer).source_list).to_have_count(1, timeout=20_000)
    page.context.close()
