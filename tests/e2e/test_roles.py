"""Open WebUI as organisations run it: sign-in on, an admin and two users of role "user", each
signed in through the real sign-in page. A user's sources are stored once, as that user; a chat
shared with another user, cloned by them, or read by an admin shows its sources and the viewing
page writes nothing; on a shared browser, what one user left pending is never sent with the next
user's session and is stored when its owner signs in again (persist/outbox.ts)."""

import secrets
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import replace

import httpx
import pytest
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import Request
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.answer import pending_answers
from devstack.answer import wait_for_citation_numbers
from devstack.owui import ADD_USER
from devstack.owui import CHAT_REQUESTS
from devstack.owui import SIGN_IN
from devstack.owui import STORE_REQUESTS
from devstack.owui import chat_id
from devstack.owui import chat_path
from devstack.owui import set_user_settings
from devstack.owui import share_access_api
from devstack.owui import share_api
from devstack.owui import stored_citation_events
from devstack.owui import wait_for_chat_input
from devstack.owui import wait_until
from devstack.owui import wait_until_stored
from devstack.stack import Demo
from devstack.stack import Stack
from tests.e2e.checks import ASKED_BUTTONS
from tests.e2e.checks import answered_by
from tests.e2e.checks import from_open_webui
from tests.e2e.stacks import running_stack

pytestmark = pytest.mark.e2e

# What a page may send that writes into a chat: every request but a read.
WRITES = CHAT_REQUESTS


@dataclass(frozen=True)
class Person:
    name: str
    email: str
    password: str
    id: str
    stack: Stack  # the stack with this person's token: Open WebUI's API as them


@dataclass(frozen=True)
class Organisation:
    admin: Person
    alice: Person
    bob: Person


def signed_in(stack: Stack, name: str, email: str, password: str) -> Person:
    response = httpx.post(stack.webui_url + SIGN_IN, json={"email": email, "password": password})
    response.raise_for_status()
    session = response.json()
    person = Person(name, email, password, session["id"], replace(stack, token=session["token"]))
    set_user_settings(person.stack, stream=True)  # and this version's changelog seen
    return person


@pytest.fixture(scope="module")
def organisation(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Organisation]:
    """A signed-in Open WebUI: its admin (the demo's), then two users the admin adds. Models are
    open to every user, as an organisation makes its connections' models public."""
    demo = Demo.new()
    with running_stack(tmp_path_factory, {"BYPASS_MODEL_ACCESS_CONTROL": "True"}, demo=demo) as stack:
        admin = signed_in(stack, "Admin", demo.admin_email, demo.admin_password)
        users = []
        for name in ("Alice", "Bob"):
            email, password = f"{name.lower()}@localhost", secrets.token_urlsafe(12)
            form = {"name": name, "email": email, "password": password, "role": "user"}
            with admin.stack.api() as api:
                api.post(ADD_USER, json=form).raise_for_status()
            users.append(signed_in(stack, name, email, password))
        yield Organisation(admin, *users)


def sign_in(page: Page, person: Person) -> None:
    """Through Open WebUI's sign-in page, as a person fills it."""
    page.goto(f"{person.stack.webui_url}/auth")
    page.locator('input[autocomplete="email"]').fill(person.email)
    page.locator('input[autocomplete="current-password"]').fill(person.password)
    page.locator('button[type="submit"]').click()
    wait_for_chat_input(page)


def sign_out(page: Page) -> None:
    """Through the user menu's "Sign Out"."""
    page.get_by_role("button", name="User menu").locator("visible=true").first.click()
    page.get_by_text("Sign Out", exact=True).click()
    page.wait_for_url("**/auth**")


def record_requests(page: Page, keep: Callable[[Request], object]) -> list[str]:
    """The page's requests that ``keep`` selects, from now on."""
    kept: list[str] = []

    def on_request(request: Request) -> None:
        if keep(request):
            kept.append(f"{request.method} {request.url}")

    page.on("request", on_request)
    return kept


def record_writes(page: Page) -> list[str]:
    return record_requests(page, lambda request: request.method != "GET" and WRITES.search(request.url))


def test_a_users_sources_are_stored_as_them_and_a_share_a_clone_and_an_admin_read_them_without_writing(
    browser: Browser, organisation: Organisation, record_property
) -> None:
    alice, bob, admin = organisation.alice, organisation.bob, organisation.admin
    alices = browser.new_context().new_page()
    sign_in(alices, alice)
    chat, answer = answered_by(alices, alice.stack)
    assert wait_until_stored(alices, alice.stack, chat, [answer], timeout_s=30) == {answer: 1}
    alices.reload()
    assert wait_for_citation_numbers(alices, answer, ASKED_BUTTONS) == ASKED_BUTTONS

    # Alice shares the chat with Bob, as Open WebUI's share dialog does.
    with alice.stack.api() as api:
        share = api.post(share_api(chat)).json()["share_id"]
        grants = [{"principal_type": "user", "principal_id": bob.id, "permission": "read"}]
        api.post(share_access_api(chat), json={"access_grants": grants}).raise_for_status()
    bobs = browser.new_context().new_page()
    sign_in(bobs, bob)
    writes = record_writes(bobs)
    bobs.goto(f"{bob.stack.webui_url}/s/{share}")
    assert wait_for_citation_numbers(bobs, answer, ASKED_BUTTONS) == ASKED_BUTTONS
    bobs.wait_for_timeout(3_000)  # a store would have begun within a second
    assert writes == []

    # Bob clones it: his copy shows the sources it carries, and nothing is stored twice.
    bobs.get_by_role("button", name="Clone").click()
    clone = chat_id(bobs)
    assert wait_for_citation_numbers(bobs, answer, ASKED_BUTTONS) == ASKED_BUTTONS
    bobs.wait_for_timeout(3_000)  # an absence, as above
    assert [write for write in writes if "/clone" not in write] == []
    assert stored_citation_events(bob.stack, clone) == {answer: 1}

    # The admin reads Alice's chat (Open WebUI's admin panel opens it at /s/<chat id>).
    admins = browser.new_context().new_page()
    sign_in(admins, admin)
    writes = record_writes(admins)
    admins.goto(f"{admin.stack.webui_url}/s/{chat}")
    assert wait_for_citation_numbers(admins, answer, ASKED_BUTTONS) == ASKED_BUTTONS
    admins.wait_for_timeout(3_000)  # an absence, as above
    assert writes == []
    assert stored_citation_events(alice.stack, chat) == {answer: 1}
    for page in (alices, bobs, admins):
        page.context.close()
    record_property("measured", {"share": share, "clone": clone})


def test_on_a_shared_browser_pending_sources_wait_for_their_owner_and_never_go_with_another_session(
    browser: Browser, organisation: Organisation
) -> None:
    alice, bob = organisation.alice, organisation.bob
    page = browser.new_context().new_page()
    sign_in(page, alice)
    # Alice's sources stay pending: the extension's requests fail, Open WebUI's go through.
    page.route(STORE_REQUESTS, lambda route: route.continue_() if from_open_webui(route) else route.abort("failed"))
    chat, answer = answered_by(page, alice.stack)
    assert wait_until(page, lambda: answer in pending_answers(page), timeout_s=15), "no store attempt failed"
    sign_out(page)
    page.unroute(STORE_REQUESTS)

    sent_for_alice = record_requests(page, lambda request: chat in request.url)
    sign_in(page, bob)
    page.wait_for_timeout(5_000)  # the outbox is read at sign-in
    assert sent_for_alice == [], "Alice's pending sources went out with Bob's session"
    assert stored_citation_events(alice.stack, chat) == {answer: 0}

    sign_out(page)
    sign_in(page, alice)
    assert wait_until_stored(page, alice.stack, chat, [answer], timeout_s=30) == {answer: 1}
    page.goto(f"{alice.stack.webui_url}{chat_path(chat)}")
    expect(Answer(page, answer).source_list).to_have_count(1, timeout=20_000)
    page.context.close()
