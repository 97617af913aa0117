"""The optional relay filter in a real Open WebUI: registered by the installer through Open WebUI's
functions API, it brings to the page what Open WebUI drops from a streamed answer (the measured
gaps of devstack/limits.py), shown live and kept after a reload; removed, everything is as before."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from devstack.delivery import installer
from devstack.owui import Console
from devstack.stack import Stack
from tests.e2e.checks import check_asked_live_and_after_reload

pytestmark = [pytest.mark.e2e, pytest.mark.relay]

# Streamed, Open WebUI drops their sources: beside the first words (NVIDIA), beside the last words
# (Gemini through LiteLLM), in a chunk with no choices (an upstream Open WebUI).
DROPPED_WHEN_STREAMED = ["nvidia-rag", "gemini-grounding", "open-webui-upstream"]


@pytest.fixture(scope="module")
def relay(stack: Stack) -> Iterator[None]:
    installer(stack, "relay-install", "--url", stack.webui_url)
    assert "Relay filter: registered, this package's version, active, global." in installer(
        stack, "status", "--url", stack.webui_url
    )
    yield
    installer(stack, "relay-uninstall", "--url", stack.webui_url)
    assert "Relay filter: not registered" in installer(stack, "status", "--url", stack.webui_url)


@pytest.mark.parametrize("model", DROPPED_WHEN_STREAMED)
def test_with_the_relay_sources_open_webui_drops_are_shown_and_kept(
    page: Page, stack: Stack, relay: None, model: str
) -> None:
    console = Console().watch(page)
    check_asked_live_and_after_reload(page, stack, model, stream=True)
    assert console.problems == []
