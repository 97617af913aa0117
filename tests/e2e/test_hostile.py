"""Hostile sources (producers/*/hostile.yaml: every script-injection payload in every
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
from mock_server import registry
from mock_server.registry import load_scenarios
from mock_server.scenarios import HostileChecks
from mock_server.templates import Renderer
from tests.e2e.egress import Egress
from tests.e2e.limits import expect_gap_shown
from tests.e2e.limits import gap_for
from tests.e2e.limits import gaps_named
from tests.e2e.trap import Trap

pytestmark = pytest.mark.e2e

PAYLOADS: list[str] = Renderer({}).render(yaml.safe_load((registry.PRODUCERS / "_hostile-payloads.yaml").read_text()))
HOSTILE = {name: s for name, s in load_scenarios([registry.HOSTILE]).items() if s.hostile}
# Each format once, in the mode its scenario file asks for (`hostile: stream`), a few formats a test: each
# answer of 274 payload sources is opened whole, page by page, live and after a reload (about 20 s each),
# and a test must stay within the per-test timeout.
FORMATS_A_TEST = 9


def runs() -> dict[str, list[str]]:
    """The hostile scenarios of each mode, in tests of at most FORMATS_A_TEST, about the same size."""
    found: dict[str, list[str]] = {}
    for stream in (True, False):
        models = sorted(name for name, s in HOSTILE.items() if s.hostile and s.hostile.stream == stream)
        tests = -(-len(models) // FORMATS_A_TEST)
        for n in range(tests):
            found[f"{'streaming' if stream else 'non-streaming'} {n + 1}"] = models[n::tests]
    return found


RUNS = runs()


def checks(model: str) -> HostileChecks:
    found = HOSTILE[model].hostile
    assert found is not None
    return found


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
    buttons_are = checks(model).buttons
    cited = cited_numbers(page, stack, chat, answer) if buttons_are == "as the markers say" else []
    # Open WebUI redraws the answer once the stored sources reach it: wait for the buttons to settle.
    predicted = buttons_are != "not predicted"
    buttons = wait_for_citation_numbers(page, answer, cited if predicted else None, timeout_ms=30_000)
    if predicted:
        assert buttons == cited, f"{model}: a button shows another source than its marker cites"
    report = page.evaluate(OPEN_EVERYTHING, [answer, PAYLOADS])
    report["model"] = model
    assert report["listed"] == report["pages"] == report["back"] + 1 == report["count"] > 0, report
    assert report["previews"] == len(report["buttons"]) == len(buttons), report
    if checks(model).titles == "payloads":  # every payload is on screen, as text
        assert report["shownTitles"] == report["distinctTitles"], report
    return report


def assert_nothing_ran(page: Page, trap: Trap) -> dict:
    page.wait_for_timeout(1_000)  # an image's onerror, a meta refresh or a timer would have fired by now
    audit = Trap.audit(page)
    executions = Trap.executions(page)
    assert executions == 0 and trap.dialogs == [], trap.dialogs
    assert audit["problemCount"] == 0, audit["problems"]
    return {**audit, "executions": executions}


@pytest.mark.parametrize("run", sorted(RUNS))
def test_hostile_sources_never_run_live_or_after_reload(
    hostile_context: tuple[BrowserContext, Trap], stack: Stack, egress: Egress, record_property, run: str
) -> None:
    context, trap = hostile_context
    models = RUNS[run]
    streamed = run.startswith("streaming")
    set_user_settings(stack, stream=streamed)
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
        if gap := gap_for(model, streamed, open_webui_version(stack)):  # Open WebUI's error, nothing more
            gaps[model] = gap.reason
            expect_gap_shown(page, answer, gap)
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

    # A source's link opens in a new tab that cannot reach back into Open WebUI: an answer's whose sources
    # link to the attacker's site (the answers are the extension's still: each was opened above).
    attacker_source = (
        "id => window.owuiCitations.citations(id).find((c) => c.url?.startsWith('https://attacker.example/'))?.index"
    )
    chat, answer, index = next(
        (chat, answer, index)
        for chat, answer in chats.values()
        if (index := page.evaluate(attacker_source, answer)) is not None
    )
    navigate_in_app(page, f"/c/{chat}")
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
