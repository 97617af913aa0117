"""Hostile sources (mock_server/scenarios/hostile: every script-injection payload in every
title, URL, snippet and quote of every wire format) through a real Open WebUI: every preview,
the list with "show all", every modal page forward and back, live and after a reload. Nothing
may run: no dialog, no assignment to the canary, no `on*` attribute and no link other than
http(s) or same-origin relative on anything the extension created (trap.py)."""

import re
from collections.abc import Iterator

import pytest
import yaml
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import last_answer_id
from devstack.owui import navigate_in_app
from devstack.owui import open_new_chat
from devstack.owui import open_new_chat_in_app
from devstack.owui import open_webui_version
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import stored_answer_text
from devstack.owui import wait_for_citation_numbers
from devstack.stack import Stack
from mock_server.registry import BUILT_IN_SCENARIOS
from mock_server.registry import load_scenarios
from mock_server.templates import Renderer
from tests.e2e.egress import Egress
from tests.e2e.limits import gap_for
from tests.e2e.limits import gaps_named
from tests.e2e.trap import Trap

pytestmark = pytest.mark.e2e

PAYLOADS: list[str] = Renderer({}).render(
    yaml.safe_load((BUILT_IN_SCENARIOS / "hostile" / "_payloads.yaml").read_text())
)
# Each format once, in the mode where its sources travel the most particular way: streamed for
# Azure's first-chunk context, annotation-only chunks, MiMo's first-chunk annotations, Qianfan's
# last-chunk list, the Responses
# API's events (which Open WebUI relays only when streamed) and Claude's citation chunks; whole
# bodies for the others.
MODES = {
    "streaming": [
        "hostile-claude-citations",
        "hostile-azure-on-your-data",
        "hostile-grok2api-go",
        "hostile-openai-responses",
        "hostile-openai-responses-web-search",
        "hostile-openai-url-citation",
        "hostile-xiaomi-mimo",
        "hostile-brave",
    ],
    "non-streaming": [
        "hostile-claude-web-search",
        "hostile-gemini-grounding",
        "hostile-answer-spans",
        "hostile-grok2api",
        "hostile-openrag",
        "hostile-minimax",
        "hostile-fastgpt",
        "hostile-perplexity",  # last: its links are opened below
    ],
    # In two runs: each answer of 274 payload sources is opened whole, page by page, live and after a reload
    # (about 20 s each), and one run must stay within the per-test timeout.
    "non-streaming, more": [
        "hostile-volcengine-ark",
        "hostile-exa",
        "hostile-ragflow",
        "hostile-ragflow-agent",
        "hostile-nvidia-rag",
        "hostile-groq-compound",
        "hostile-jina-deepsearch",
        "hostile-open-webui-upstream",
        "hostile-mistral",
    ],
    # Streamed too, apart, for the same timeout: Qianfan's and a LiteLLM knowledge base's last-chunk lists,
    # LightRAG's references list in the text (through Open WebUI's Ollama connection).
    "streaming, more": [
        "hostile-qianfan",
        "hostile-litellm-knowledge-base",
        "hostile-lightrag",
    ],
}


def test_every_hostile_scenario_runs_in_one_mode() -> None:
    """A hostile scenario added to mock_server/scenarios/hostile and missing from MODES would never run."""
    listed = [model for models in MODES.values() for model in models]
    hostile = [name for name in load_scenarios([BUILT_IN_SCENARIOS / "hostile"]) if name.startswith("hostile-")]
    assert sorted(listed) == sorted(hostile)


# Formats whose answers write no markers (OpenRAG, NVIDIA RAG, Exa, MiMo), or cite with links to their URLs
# (Groq), which hostile URLs are not: no button is expected.
UNMARKED = {"hostile-openrag", "hostile-nvidia-rag", "hostile-groq-compound", "hostile-exa", "hostile-xiaomi-mimo"}
UNMARKED.add("hostile-fastgpt")  # FastGPT names a quote by its 24-hex id, which a payload is not: no marker
UNMARKED.add("hostile-mistral")
# LightRAG's sources are lines of its answer's references list, hidden whole once shown: its [n] are no buttons.
UNMARKED.add("hostile-lightrag")  # Mistral writes no marker: a tool_reference follows the text it supports
# Jina and Brave put their sources inside the answer's own markdown (footnote definitions; <citation> tags),
# which Open WebUI renders and the payloads break up (a line break ends a definition; a payload that is HTML
# becomes an element, so a tag's text is no longer its JSON): which of those become buttons is not predicted
# here. Everything else is asserted as for the others.
BUTTONS_NOT_PREDICTED = {"hostile-jina-deepsearch", "hostile-brave"}
# Claude's and Gemini's buttons follow the text each source supports (LiteLLM's supported_text, Gemini's byte
# segments), not markers in the text: their number is not predicted from the text either.
BUTTONS_NOT_PREDICTED |= {"hostile-claude-citations", "hostile-claude-web-search", "hostile-gemini-grounding"}
# Mistral's follow the text before each tool_reference, which Open WebUI shows as "[object Object],…".
BUTTONS_NOT_PREDICTED.add("hostile-mistral")
# Streamed, grok2api-go's titles come from three annotations only; NVIDIA's are file names, shown without
# their folders; Brave sends no title (its address stands for it); every other format's are the payloads.
TITLES_NOT_PAYLOADS = {"hostile-grok2api-go", "hostile-nvidia-rag", "hostile-brave"}
# Streamed, LiteLLM 1.106.2 ends Claude's answer at the first event that holds a raw U+2028 (its line reader
# splits there, the JSON breaks, the stream stops): the payloads after it never come (measured: 265 of 274).
TITLES_NOT_PAYLOADS |= {"hostile-claude-citations"}
# Open WebUI's own shape: a payload that is a web address is that source's link, and its name, the same
# address, is not repeated as its title (formats/open-webui.ts, as Open WebUI shows it).
TITLES_NOT_PAYLOADS.add("hostile-open-webui-upstream")
# A knowledge base's titles are file names, shown without their folders.
TITLES_NOT_PAYLOADS.add("hostile-litellm-knowledge-base")

# In the page: "show all" and the retrieved sources, every preview (the hover/focus event the extension listens
# to), then the modal from the first source, through every page with "next" and back with "previous".
OPEN_EVERYTHING = r"""async ([id, payloads]) => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const message = document.getElementById(`message-${id}`);
  const list = message.querySelector('.owc-sources');
  const count = (group) => Number(group?.dataset.owcCount ?? 0);
  const report = { count: count(list) + count(message.querySelector('.owc-retrieved')), listed: 0, buttons: [],
                   previews: 0, pages: 0, back: 0, shownTitles: 0 };
  list.querySelector('.owc-more')?.click();
  const retrieved = message.querySelector('.owc-retrieved');  // the sources not cited, when any
  if (retrieved) {  // its rows are built when it opens
    const opened = new Promise((resolve) => retrieved.addEventListener('toggle', resolve, { once: true }));
    retrieved.open = true;
    await opened;
  }
  await tick();
  report.listed = message.querySelectorAll('.owc-sources .owc-source, .owc-retrieved .owc-source').length;
  for (const cite of message.querySelectorAll('.owc-cite')) {
    if (cite.offsetParent === null) continue;
    report.buttons.push(Number(cite.dataset.owcIndex));
    cite.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    if (document.querySelector('.owc-preview')) report.previews++;
    cite.dispatchEvent(new PointerEvent('pointerout', { bubbles: true }));
  }
  // As the extension shows a title: a NUL byte (which Open WebUI does not store) as U+FFFD, trimmed,
  // its first 500 characters (core/limits.ts MAX_FIELD: the payloads are ASCII there).
  const titles = new Set(payloads.map((p) => p.replaceAll('\0', '\uFFFD').trim().slice(0, 500)));
  report.distinctTitles = titles.size;
  const shown = new Set();
  message.querySelector('.owc-source[data-owc-index="1"]').click();  // the first source, cited or not
  for (;;) {
    const modal = document.querySelector('.owc-modal');
    report.pages++;
    const title = modal.querySelector('.owc-title').textContent.replace(/^\d+\. /, '');
    if (titles.has(title)) shown.add(title);
    const next = modal.querySelector('.owc-next');
    if (next.disabled) break;
    next.click();
    if (report.pages % 25 === 0) await tick();
  }
  for (;;) {
    const previous = document.querySelector('.owc-modal .owc-previous');
    if (previous.disabled) break;
    previous.click();
    report.back++;
  }
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  report.shownTitles = shown.size;
  return report;
}"""

# Each producer number ([N], [docN]) → the number of the citation it names, as the extension
# exposes its citations for debugging.
NUMBER_OF_REF = """id => Object.fromEntries(
    window.owuiCitations.citations(id).flatMap((c) => c.refs.map((ref) => [ref, c.index])).reverse())"""


def cited_numbers(page: Page, stack: Stack, chat: str, answer: str) -> list[int]:
    """The citation numbers the answer's markers ask for, in reading order."""
    content = stored_answer_text(stack, chat, answer)
    number_of = page.evaluate(NUMBER_OF_REF, answer)
    # [N], [docN], RAGFlow's [ID:N], Jina's [^N] (not its definitions "[^N]:"), Brave's tags' numbers, 【N†source】.
    refs = re.findall(r"\[(?:doc|ID:\s?|\^)?(\d+)\](?!:)|<citation>\{[^<]*?\"number\": (\d+)|【(\d+)†", content)
    return [number_of[ref] for ref in (a or b or c for a, b, c in refs) if ref in number_of]


@pytest.fixture
def hostile_context(browser: Browser) -> Iterator[tuple[BrowserContext, Trap]]:
    context = browser.new_context()
    trap = Trap().install(context)
    yield context, trap
    context.close()


def open_everything(page: Page, stack: Stack, chat: str, answer: str, model: str) -> dict:
    page.wait_for_selector(f"#message-{answer} .owc-sources", timeout=20_000)
    cited = cited_numbers(page, stack, chat, answer) if model not in UNMARKED else []
    # Open WebUI redraws the answer once the stored sources reach it: wait for the buttons to settle.
    predicted = model not in BUTTONS_NOT_PREDICTED
    buttons = wait_for_citation_numbers(page, answer, cited if predicted else None, timeout_ms=30_000)
    if predicted:
        assert buttons == cited, f"{model}: a button shows another source than its marker cites"
    report = page.evaluate(OPEN_EVERYTHING, [answer, PAYLOADS])
    report["model"] = model
    assert report["listed"] == report["pages"] == report["back"] + 1 == report["count"] > 0, report
    assert report["previews"] == len(report["buttons"]) == len(buttons), report
    if model not in TITLES_NOT_PAYLOADS:  # every payload is on screen, as text
        assert report["shownTitles"] == report["distinctTitles"], report
    return report


def assert_nothing_ran(page: Page, trap: Trap) -> dict:
    page.wait_for_timeout(1_000)  # an image's onerror, a meta refresh or a timer would have fired by now
    audit = Trap.audit(page)
    executions = Trap.executions(page)
    assert executions == 0 and trap.dialogs == [], trap.dialogs
    assert audit["problemCount"] == 0, audit["problems"]
    return {**audit, "executions": executions}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_hostile_sources_never_run_live_or_after_reload(
    hostile_context: tuple[BrowserContext, Trap], stack: Stack, egress: Egress, record_property, mode: str
) -> None:
    context, trap = hostile_context
    models = MODES[mode]
    set_user_settings(stack, stream=mode.startswith("streaming"))
    page = context.new_page()
    console = Console().watch(page)
    chats: dict[str, tuple[str, str]] = {}
    gaps: dict[str, str] = {}
    opened = {"previews": 0, "modal_pages": 0}

    def count(report: dict) -> None:
        opened["previews"] += report["previews"]
        opened["modal_pages"] += report["pages"] + report["back"]

    for position, model in enumerate(models):
        if position == 0:
            open_new_chat(page, stack, model)
        else:
            open_new_chat_in_app(page, model)
        send(page)
        answer = last_answer_id(page)
        if gap := gap_for(
            model, mode.startswith("streaming"), open_webui_version(stack)
        ):  # Open WebUI's error, nothing more
            gaps[model] = gap.reason
            if gap.shows:
                expect(page.locator(f"#message-{answer}")).to_contain_text(gap.shows)
            page.wait_for_timeout(2_000)
            expect(page.locator(f"#message-{answer} .owc-sources")).to_have_count(0)
            continue
        chats[model] = (chat_id(page), answer)
        count(open_everything(page, stack, *chats[model], model))
    if gaps:
        record_property("gap", gaps_named(gaps))
    live = assert_nothing_ran(page, trap)

    page.reload()  # the stored sources, read back by the extension, must be as inert
    for model, (chat, answer) in chats.items():
        navigate_in_app(page, f"/c/{chat}")
        count(open_everything(page, stack, chat, answer, model))
    audit = assert_nothing_ran(page, trap)
    assert audit["hrefs"] > 0  # links were made, and each was checked
    assert console.problems == []
    record_property(
        "measured",
        {
            "payloads": len(PAYLOADS),
            "formats": len(chats),
            **opened,
            "elements_audited": live["elements"] + audit["elements"],
            "links_checked": live["hrefs"] + audit["hrefs"],
            "executions": live["executions"] + audit["executions"],
            "dialogs": len(trap.dialogs),
        },
    )

    # A source's link opens in a new tab that cannot reach back into Open WebUI.
    index = page.evaluate(
        "id => window.owuiCitations.citations(id).find((c) => c.url?.startsWith('https://attacker.example/')).index",
        answer,
    )
    page.locator(f"#message-{answer} .owc-source[data-owc-index='{index}']").click()
    context.route(
        "https://attacker.example/**",
        lambda route: route.fulfill(body="<title>elsewhere</title>", content_type="text/html"),
    )
    with egress.expect(r"^https://attacker\.example/"):
        with context.expect_page() as new_tab:
            page.locator(".owc-modal a.owc-link").click()
        new_tab.value.wait_for_load_state()
        assert new_tab.value.evaluate("() => window.opener") is None
