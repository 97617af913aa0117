"""Every scenario through a real Open WebUI and Chromium, as a user sees it: numbered buttons,
preview, list and modal, streaming and not, and again after a reload from stored data."""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.stack import Stack
from tests.e2e.limits import gap_for
from tests.e2e.owui import Console
from tests.e2e.owui import last_answer_id
from tests.e2e.owui import native_source_strip
from tests.e2e.owui import open_new_chat
from tests.e2e.owui import open_webui_version
from tests.e2e.owui import send
from tests.e2e.owui import set_user_settings
from tests.e2e.owui import wait_for_citation_numbers
from tests.wire import SCENARIOS

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Seen:
    buttons: list[int]  # the numbered buttons in the answer, in reading order
    sources: int  # entries of the source list: the sources the text cites (all, when it cites none)
    title: str  # source 1
    link: bool = True
    page: str | None = None
    score: str | None = None
    quote: str | None = None  # the start of the highlighted verbatim quote of source 1
    not_verbatim: int | None = None  # a source whose quote is flagged
    retrieved: int = 0  # sources returned but not cited: the collapsed group after the list


GROK = Seen(buttons=[1, 2, 3], sources=3, retrieved=1, title="[Exclusif] Cloudflare rachète VoidZero")
URL_CITATION = Seen(buttons=[1, 2], sources=2, title="Spain win EURO 2024 — match report")
# [^2] and [^3] cite one page; the quote is Jina's exactQuote, or the definition's (streamed).
JINA = Seen(buttons=[1, 2, 2, 3], sources=3, title="How many stars are in the Milky Way?", quote="Astronomers estimate")
# No title is sent: the address stands for it. Source 2 is cited twice.
BRAVE = Seen(buttons=[1, 2, 3, 2], sources=3, title="who-physical-activity.html")
RAGFLOW = Seen(
    buttons=[1, 1, 2, 3],
    sources=3,
    retrieved=1,
    title="rapport_2024.pdf",
    link=False,
    page="p. 3",
    score="Relevance 80 %",
)
EXPECTED = {
    "openrag": Seen(buttons=[], sources=4, title="rapport_2024.pdf", page="p. 3", score="Reranker score 4.81"),
    "azure-on-your-data": Seen(
        buttons=[1, 2, 1, 3], sources=3, retrieved=1, title="Dog care guide", score="Reranker score 2.87"
    ),
    "openai-url-citation": URL_CITATION,
    "openai-url-citation-flat": URL_CITATION,
    # Offsets over plain sentences: each button at the end of the text it covers.
    "openai-url-citation-plain": URL_CITATION,
    "openai-responses": Seen(buttons=[1], sources=2, title="Physical activity — WHO fact sheet"),
    # Web search with action.sources: the two pages the annotations cite, and NHS, searched only (its
    # address stands for its title). Streamed only: Open WebUI keeps only the text of a whole body.
    "openai-responses-web-search": Seen(
        buttons=[1, 2], sources=2, retrieved=1, title="Physical activity — WHO fact sheet"
    ),
    "grok2api": GROK,
    "grok2api-sources-block": GROK,
    "grok2api-go": Seen(buttons=[1, 2, 1], sources=2, retrieved=1, title="合同付款条款指南"),
    "perplexity": Seen(buttons=[1, 2, 3, 2], sources=3, title="Combien d’étoiles compte la Voie lactée ?"),
    "answer-spans": Seen(
        buttons=[1, 2, 3],
        sources=3,
        title="Politique de conservation — § 4.2",
        link=False,
        page="pp. 12–13",
        quote="Les relevés de transactions",
        not_verbatim=3,
    ),
    # Uploaded documents: no link is sent. The button shows the chunk it cites (p. 3, not its whole file).
    "ragflow": RAGFLOW,
    "ragflow-agent": RAGFLOW,
    "nvidia-rag": Seen(
        buttons=[], sources=4, title="rapport_2024.pdf", link=False, page="p. 3", score="Relevance 78 %"
    ),
    "groq-compound": Seen(
        buttons=[1, 2, 3], sources=3, retrieved=1, title="Spain win EURO 2024 — match report", score="Relevance 97 %"
    ),
    "brave": BRAVE,
    "brave-split-tags": BRAVE,
    "jina-deepsearch": JINA,
    "jina-deepsearch-undated": JINA,
    # Through the real LiteLLM proxy. Claude: the button at the end of each cited block; documents
    # have no link; source 1 is cited twice.
    "claude-citations": Seen(
        buttons=[1, 2, 3, 4, 1], sources=4, title="rapport_2024.pdf", link=False, page="p. 3", quote="Chiffres clés"
    ),
    # Source 4 was searched, not cited. A sentence cited by two sources has their buttons in order.
    "claude-web-search": Seen(
        buttons=[1, 1, 2, 3],
        sources=3,
        retrieved=1,
        title="Spain win EURO 2024 — match report",
        quote="Spain beat England",
    ),
    # Gemini's titles are domains; its second sentence is grounded on two pages.
    "gemini-grounding": Seen(buttons=[1, 1, 2, 3], sources=3, title="science.nasa.gov"),
    # A knowledge-base chunk (no link, its page) and a web result cited; a second web result not.
    # Streamed, the references come on the last chunk, which has no text: Open WebUI relays it whole.
    "volcengine-ark": Seen(
        buttons=[1, 2], sources=2, retrieved=1, title="蔬菜栽培手册（2024 版）", link=False, page="p. 12"
    ),
    # No markers: every citation listed. Streamed, the citations come on a chunk of their own, which
    # has no text: Open WebUI relays it whole.
    "exa": Seen(buttons=[], sources=3, title="Physical activity — WHO fact sheet"),
    # No markers: every page listed. Streamed, the flat annotations come in the first chunk, which has
    # no text: Open WebUI relays it whole, and makes no sources of its own of flat annotations.
    "xiaomi-mimo": Seen(buttons=[], sources=3, title="合同付款条款指南"),
    # Two dataset chunks cited by id, [id](CITE) (drawn by Open WebUI as links to "CITE"), a third not; no
    # links. Streamed, the quotes come after [DONE] (limits.py): non-streamed only.
    "fastgpt": Seen(
        buttons=[1, 2], sources=2, retrieved=1, title="FastGPT 知识库使用手册.pdf", link=False, score="Relevance 89 %"
    ),
    # 【2†source】 and 【3†source】 name search results 2 and 3: sources 1 and 2, untitled (the address names
    # them), each with its quote. Streamed, the annotations come on the last chunk, which has no text:
    # Open WebUI relays it whole; the tool-role chunk of search results before it carries text, which
    # Open WebUI shows as the answer's first words (its JSON).
    "minimax": Seen(buttons=[1, 2], sources=2, title="shanghai-weather-20250526.html", quote="上海天气预报提供"),
    # Open WebUI's own shape, from an upstream Open WebUI: two chunks of one file are source 1.
    "open-webui-upstream": Seen(
        buttons=[1, 1, 2], sources=2, title="employee-handbook.pdf", link=False, page="p. 12", score="Relevance 84 %"
    ),
    # ^[1]^, ^[1][2]^ and ^[3]^ name search results 1 to 3 by their index; result 4 is not cited. Open WebUI
    # draws the brackets between the carets as buttons of its own, which become ours (the carets stay, as
    # without the extension). Streamed, the list comes on the first chunk beside text (dropped) and again
    # on the last, which has none: Open WebUI relays that one whole.
    # A LiteLLM knowledge base: the search results LiteLLM returns beside Claude's answer, each a file's chunk
    # (no link); [N] is the N-th result, the fourth not cited. Streamed, on the last chunk, which has no text:
    # Open WebUI relays it whole.
    "litellm-knowledge-base": Seen(
        buttons=[1, 2, 3, 1], sources=3, retrieved=1, title="employee-handbook.pdf", link=False, score="Relevance 91 %"
    ),
    # A content list: a tool_reference after each sentence, and a thinking chunk's pages (one read, not cited).
    # Not streamed, Open WebUI relays the body to the page, then shows the list as "[object Object],…": no answer
    # text to put buttons in. Streamed, a gap (limits.py).
    "mistral": Seen(buttons=[], sources=4, retrieved=1, title="Voie lactée — Wikipédia"),
    # No source field: the "### References" list closing the answer ("- [n] file") is read from its text, its
    # [n] in the body become buttons, and the list gives way to ours. Through Open WebUI's Ollama connection,
    # which turns LightRAG's NDJSON into OpenAI chunks.
    "lightrag": Seen(buttons=[1, 2, 3], sources=3, title="puppy-vaccination.md", link=False),
    # LightRAG 1.4.7–1.4.8's "References" section: [KG] entities and relations, a [DC] file; no markers.
    "lightrag-kg-dc": Seen(buttons=[], sources=3, title="Puppy", link=False),
    "qianfan": Seen(buttons=[1, 1, 2, 3], sources=3, retrieved=1, title="欧洲杯决赛：西班牙2比1击败英格兰 第四次夺冠"),
}


# One scenario per way its sources reach the page — a chunk's or body's fields, a message's field,
# annotations, Open WebUI's own source events, the Responses API, the LiteLLM proxy, the Ollama
# connection's text: where the delivery, the browser or the Open WebUI line, not the format, is under
# test (`-m per_route`: the browser extension, Firefox, the userscript, the oldest line). Every format
# runs on every line in `make test-matrix`.
ONE_PER_ROUTE = {
    "perplexity",
    "azure-on-your-data",
    "openai-url-citation",
    "open-webui-upstream",
    "openai-responses",
    "claude-citations",
    "lightrag",
}


def marks(model: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.per_route] if model in ONE_PER_ROUTE else []


def test_every_scenario_has_expectations() -> None:
    assert ONE_PER_ROUTE <= set(EXPECTED) == set(SCENARIOS)


@pytest.fixture
def page(module_context: BrowserContext) -> Iterator[Page]:
    """Each scenario in a page of its own, in the module's browser context (conftest.py)."""
    own = module_context.new_page()
    yield own
    own.close()


def check_answer(page: Page, message_id: str, seen: Seen, reloaded: bool = False) -> None:
    sources = page.locator(f'#message-{message_id} .owc-sources[data-owc-message-id="{message_id}"] button.owc-source')
    expect(sources).to_have_count(seen.sources, timeout=15_000)
    assert wait_for_citation_numbers(page, message_id, seen.buttons) == seen.buttons
    # The sources the text does not cite follow, collapsed.
    retrieved = page.locator(f'#message-{message_id} .owc-sources + .owc-retrieved[data-owc-message-id="{message_id}"]')
    expect(retrieved).to_have_count(1 if seen.retrieved else 0)
    if seen.retrieved:
        expect(retrieved).not_to_have_attribute("open", "")
        expect(retrieved.locator("summary")).to_have_text(f"{seen.retrieved} more retrieved, not cited")
    # Open WebUI's own source strip is not shown next to ours. Only after a reload is it sure to
    # have drawn one by then (live, not before our sources are stored).
    if reloaded:
        expect(native_source_strip(page, message_id)).to_have_count(0)


def check_asked_live_and_after_reload(page: Page, stack: Stack, model: str, stream: bool) -> None:
    """A question to ``model`` in a new chat: its answer's sources shown as it finishes, and after a reload."""
    set_user_settings(stack, stream=stream)
    open_new_chat(page, stack, model)
    send(page)
    message_id = last_answer_id(page)
    check_answer(page, message_id, EXPECTED[model])
    page.reload()
    check_answer(page, message_id, EXPECTED[model], reloaded=True)


def check_preview_and_modal(page: Page, message_id: str, seen: Seen) -> None:
    if seen.buttons:
        button = page.locator(f"#message-{message_id} .owc-cite:visible").first
        expect(button).to_have_attribute("aria-label", re.compile(re.escape(seen.title)))
        button.hover()
        expect(page.locator('[role="tooltip"].owc-preview')).to_contain_text(seen.title)
    opener = page.locator(f'#message-{message_id} button.owc-source[data-owc-index="1"]')
    opener.click()
    modal = page.locator('[role="dialog"][aria-modal="true"].owc-modal')
    expect(modal.locator(".owc-title")).to_contain_text(seen.title)
    link = modal.locator("a.owc-link")
    if seen.link:
        expect(link).to_have_attribute("href", re.compile(r"^http://127\.0\.0\.1:\d+/"))
        if seen.quote:  # the page opens at the quote: a text fragment
            expect(link).to_have_attribute("href", re.compile(re.escape("#:~:text=" + quote(seen.quote))))
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", "noopener noreferrer")
    else:
        expect(link).to_have_count(0)
    for selector, text in [(".owc-page", seen.page), (".owc-score", seen.score), ("mark.owc-quote", seen.quote)]:
        if text:
            expect(modal.locator(selector)).to_contain_text(text)
    page.keyboard.press("Escape")
    expect(modal).to_have_count(0)
    expect(opener).to_be_focused()
    if seen.retrieved:  # opened: the sources retrieved, not cited, numbered as returned, open the same modal
        retrieved = page.locator(f"#message-{message_id} .owc-retrieved")
        retrieved.locator("summary").click()
        expect(retrieved.locator("button.owc-source")).to_have_count(seen.retrieved)
        numbers = "buttons => buttons.map(b => Number(b.dataset.owcIndex))"
        cited = page.locator(f"#message-{message_id} .owc-sources button.owc-source").evaluate_all(numbers)
        assert set(cited).isdisjoint(retrieved.locator("button.owc-source").evaluate_all(numbers))
        first = retrieved.locator("button.owc-source").first
        first.click()
        expect(modal).to_have_attribute("data-owc-index", first.get_attribute("data-owc-index") or "")
        page.keyboard.press("Escape")
        expect(first).to_be_focused()
        retrieved.locator("summary").click()  # collapsed again, as after a reload
    if seen.not_verbatim:
        page.locator(f'#message-{message_id} button.owc-source[data-owc-index="{seen.not_verbatim}"]').click()
        expect(modal.locator(".owc-not-verbatim")).to_be_visible()
        page.keyboard.press("Escape")


@pytest.mark.parametrize("stream", [True, False], ids=["streaming", "non-streaming"])
@pytest.mark.parametrize("model", [pytest.param(m, marks=marks(m)) for m in sorted(EXPECTED)])
def test_scenario_shows_its_sources_and_keeps_them_after_reload(
    page: Page, stack: Stack, screenshots: Path, record_property, model: str, stream: bool
) -> None:
    console = Console().watch(page)
    set_user_settings(stack, stream=stream)
    seen = EXPECTED[model]
    open_new_chat(page, stack, model)
    send(page)
    message_id = last_answer_id(page)
    if gap := gap_for(model, stream, open_webui_version(stack)):  # shown as Open WebUI shows it, without sources
        record_property("gap", gap.reason)
        expect(page.locator(f"#message-{message_id} .chat-assistant")).not_to_be_empty()
        if gap.shows:
            expect(page.locator(f"#message-{message_id}")).to_contain_text(gap.shows)
        page.wait_for_timeout(2_000)
        expect(page.locator(f"#message-{message_id} .owc-sources button.owc-source")).to_have_count(gap.sources)
        assert wait_for_citation_numbers(page, message_id, []) == []
        return
    check_answer(page, message_id, seen)
    check_preview_and_modal(page, message_id, seen)
    if model == "grok2api-sources-block":  # its "## Sources" block gives way to our list
        expect(page.locator(f"#message-{message_id} h2", has_text="Sources")).to_be_hidden()
    if model.startswith("lightrag"):  # its references list gives way to our list
        expect(page.locator(f"#message-{message_id} li[dir='auto']", has_text="puppy-vaccination.md")).to_be_hidden()
    page.screenshot(path=screenshots / f"{model}-{'streaming' if stream else 'non-streaming'}.png")

    record_property("phase", "reload")
    page.reload()
    check_answer(page, message_id, seen, reloaded=True)
    check_preview_and_modal(page, message_id, seen)
    assert console.problems == []
