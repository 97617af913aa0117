"""Backends of the unnamed corpus (corpus/unnamed/build/), served by the mock as `unnamed-<slug>`,
through a real Open WebUI: the page shows the sources and the numbered buttons the recall harness
(scripts/unnamed_recall.py) says the built core finds, no more and no fewer, as the answer finishes and
after a reload. A sample, one page for all: the corpus's recall is the harness's to measure, this is
that the page reads what the harness reads."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import RETRIEVED
from devstack.answer import SOURCE
from devstack.answer import SOURCE_LIST
from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.built_core import CORE
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack
from mock_server.corpus import BUILD_DIR
from mock_server.corpus import load_backend
from scripts.unnamed_recall import read_corpus

pytestmark = pytest.mark.e2e

# Backends of different kinds and places: sources at the body's top level (dify2openai, a gateway that
# does not stream), LiteLLM's knowledge-base envelope streamed, a RAG server's own field on its choice
# (PrivateGPT, not streamed: streamed, it sends them on chunks that carry text, which Open WebUI drops
# without the relay filter), and lists the backend writes into the text (Higress's References block
# before the answer; Bing's searches in a <details>, cited as [^n^]).
SAMPLE = [
    ("dify2openai-tonori", False),
    ("litellm-bedrock-knowledge-base", True),
    ("privategpt", False),
    ("higress-ai-search", True),
    ("bing-chat-api", True),
]

SHOWN_SOURCES = """sources => [...document.querySelectorAll(sources)]
    .map(b => [Number(b.dataset.owcIndex), b.querySelector('.owc-source-title').textContent])
    .sort((a, b) => a[0] - b[0])"""


@pytest.fixture(scope="module")
def core_reads() -> dict[tuple[str, bool], dict[str, Any]]:
    """What the harness says the core finds, by backend and mode."""
    assert CORE.exists(), "build the extension first: npm run --silent build"
    backends = [load_backend(BUILD_DIR / f"{slug}.yaml") for slug in sorted({slug for slug, _ in SAMPLE})]
    reads, _ = read_corpus(backends)
    return {(backend.slug, mode == "streamed"): read for backend, mode, read in reads}


@pytest.fixture(scope="module")
def page(module_context: BrowserContext) -> Iterator[Page]:
    """One page for the whole sample: each answer in a new chat of it."""
    own = module_context.new_page()
    yield own
    own.close()


def check_shown(page: Page, message_id: str, read: dict[str, Any]) -> None:
    sources = [[c["index"], c["title"]] for c in sorted(read["citations"], key=lambda c: c["index"])]
    answer = Answer(page, message_id)
    listed = answer.listed
    expect(listed).to_have_count(len(sources), timeout=15_000)
    own_lists = f':is({SOURCE_LIST}, {RETRIEVED})[data-owc-message-id="{message_id}"] {SOURCE}'
    assert page.evaluate(SHOWN_SOURCES, answer.selector(own_lists)) == sources
    buttons = [index for span in read["spans"] if span["kind"] == "marker" for index in span["indices"]]
    assert wait_for_citation_numbers(page, message_id, buttons) == buttons


@pytest.mark.parametrize(
    ("slug", "stream"), SAMPLE, ids=[f"{s}-{'streaming' if m else 'non-streaming'}" for s, m in SAMPLE]
)
def test_the_page_shows_what_the_harness_reads(
    page: Page, stack: Stack, core_reads: dict[tuple[str, bool], dict[str, Any]], slug: str, stream: bool
) -> None:
    read = core_reads[(slug, stream)]
    set_user_settings(stack, stream=stream)
    open_new_chat(page, stack, f"unnamed-{slug}")
    send(page)
    message_id = last_answer_id(page)
    check_shown(page, message_id, read)
    page.reload()
    check_shown(page, message_id, read)
