"""Open WebUI without WebSocket support falls back to socket.io's long-polling transport:
the events then arrive in XHR responses, and the extension must read them there too."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack
from tests.e2e.stacks import running_stack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def polling_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory, {"ENABLE_WEBSOCKET_SUPPORT": "False"}) as stack:
        yield stack


def test_sources_arrive_over_the_polling_transport(page: Page, polling_stack: Stack) -> None:
    websockets: list[str] = []
    page.on("websocket", lambda socket: websockets.append(socket.url))
    set_user_settings(polling_stack, stream=True)
    open_new_chat(page, polling_stack, "azure-on-your-data")
    send(page)
    answer = last_answer_id(page)
    assert websockets == []  # the page really used polling
    assert wait_for_citation_numbers(page, answer, [1, 2, 1, 3]) == [1, 2, 1, 3]
    expect(Answer(page, answer).sources).to_have_count(3)  # cited
    expect(Answer(page, answer).retrieved).to_have_attribute("data-owc-count", "1")
