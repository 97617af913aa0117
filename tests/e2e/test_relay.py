"""The optional relay filter in a real Open WebUI: registered by the installer through Open WebUI's
functions API, it brings to the page what Open WebUI drops from a streamed answer (the measured
gaps of limits.py), shown live and kept after a reload; removed, everything is as before."""

import os
import subprocess
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from devstack.owui import Console
from devstack.stack import Stack
from tests.e2e.delivery import console_script
from tests.e2e.test_citations import check_asked_live_and_after_reload

pytestmark = [pytest.mark.e2e, pytest.mark.relay]

# Streamed, Open WebUI drops their sources: beside the first words (NVIDIA), beside the last words
# (Gemini through LiteLLM), in a chunk with no choices (an upstream Open WebUI).
DROPPED_WHEN_STREAMED = ["nvidia-rag", "gemini-grounding", "open-webui-upstream"]


def installer(stack: Stack, *args: str) -> str:
    env = {**os.environ, "OWUI_CITATIONS_TOKEN": stack.token}
    result = subprocess.run([console_script(), *args], cwd="/", env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


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
