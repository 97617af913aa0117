"""Hostile sources (producers/*/hostile.yaml: every script-injection payload in every
title, URL, snippet and quote of a wire format) through a real Open WebUI and a real browser,
for one producer a route (SAMPLE): every preview, the list with "show all", every modal page
forward and back, live and after a reload, streamed and not. Nothing may run: no dialog, no
assignment to the canary, no console problem, no `on*` attribute and no link other than http(s)
or same-origin relative on anything the extension created (trap.py); a source's link opens a tab
that cannot reach back.

Every producer's hostile twin is drawn on Open WebUI's recorded markup from what today's core
reads in it (extension/src/ui/hostile-markup.test.ts): the same audit of what the extension adds,
its buttons as the markers say and every payload shown as a title. What is left here is what only
a browser running Open WebUI shows: whether anything runs, and what the stored sources become
after a reload. A route is a way sources reach the page (test_citations.py ONE_PER_ROUTE: a
chunk's or body's fields, a message's field, annotations, Open WebUI's own source events, the
Responses API, the Ollama connection's text), each taken in the mode its
hostile file asks for: the formats of one route differ in their fields, which the markup test
covers, not in how the page receives them."""

from collections.abc import Iterator

import pytest
import yaml
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page

from devstack.answer import SOURCE_LIST
from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.limits import gap_for
from devstack.limits import gaps_named
from devstack.owui import Console
from devstack.owui import chat_id
from devstack.owui import chat_path
from devstack.owui import last_answer_id
from devstack.owui import message_selector
from devstack.owui import navigate_in_app
from devstack.owui import open_new_chat
from devstack.owui import open_new_chat_in_app
from devstack.owui import open_webui_version
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack
from mock_server import registry
from mock_server.registry import load_scenarios
from mock_server.scenarios import Scenario
from mock_server.templates import Renderer
from tests.e2e.checks import ONE_PER_ROUTE
from tests.e2e.checks import expect_gap_shown
from tests.e2e.egress import Egress
from tests.e2e.trap import Trap

pytestmark = pytest.mark.e2e

PAYLOADS: list[str] = Renderer({}).render(yaml.safe_load((registry.PRODUCERS / "_hostile-payloads.yaml").read_text()))
HOSTILE = {name: s for name, s in load_scenarios([registry.HOSTILE]).items() if s.hostile}


def streamed(scenario: Scenario) -> bool:
    assert scenario.hostile is not None
    return scenario.hostile.stream


# The hostile twin of each route's producer, by the mode its file asks for; but the LiteLLM proxy's
# (claude-citations): what it relays reaches the page as a chunk's fields, as Azure's do, and how it
# relays each payload (up to the one that ends its stream) is the markup test's, from its recorded answer.
SAMPLE = {f"hostile-{model}" for model in ONE_PER_ROUTE - {"claude-citations"}}
RUNS = {
    "streaming" if stream else "non-streaming": sorted(m for m in SAMPLE if streamed(HOSTILE[m]) == stream)
    for stream in (True, False)
}


def test_the_sample_takes_each_route() -> None:
    assert SAMPLE <= set(HOSTILE)
    assert all(RUNS.values())


# In the page: "show all" and the retrieved sources, every preview (the hover/focus event the extension listens
# to), then the modal from the first source, through every page with "next" and back with "previous".
OPEN_EVERYTHING = r"""async (selector) => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const message = document.querySelector(selector);
  const list = message.querySelector('.owc-sources');
  const count = (group) => Number(group?.dataset.owcCount ?? 0);
  const report = { count: count(list) + count(message.querySelector('.owc-retrieved')), listed: 0, buttons: [],
                   previews: 0, pages: 0, back: 0 };
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
  message.querySelector('.owc-source[data-owc-index="1"]').click();  // the first source, cited or not
  for (;;) {
    const modal = document.querySelector('.owc-modal');
    report.pages++;
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
  return report;
}"""


@pytest.fixture
def hostile_context(browser: Browser) -> Iterator[tuple[BrowserContext, Trap]]:
    context = browser.new_context()
    trap = Trap().install(context)
    yield context, trap
    context.close()


def open_everything(page: Page, answer: str, model: str) -> dict:
    page.wait_for_selector(Answer(page, answer).selector(SOURCE_LIST), timeout=20_000)
    # Open WebUI redraws the answer once the stored sources reach it: wait for the buttons to settle.
    buttons = wait_for_citation_numbers(page, answer, None, timeout_ms=30_000)
    report = page.evaluate(OPEN_EVERYTHING, message_selector(answer))
    report["model"] = model
    assert report["listed"] == report["pages"] == report["back"] + 1 == report["count"] > 0, report
    assert report["previews"] == len(report["buttons"]) == len(buttons), report
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
        count(open_everything(page, chats[model][1], model))
    if gaps:
        record_property("gap", gaps_named(gaps))
    live = assert_nothing_ran(page, trap)

    page.reload()  # the stored sources, read back by the extension, must be as inert
    for model, (chat, answer) in chats.items():
        navigate_in_app(page, chat_path(chat))
        count(open_everything(page, answer, model))
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
    navigate_in_app(page, chat_path(chat))
    Answer(page, answer).source(index).click()
    context.route(
        "https://attacker.example/**",
        lambda route: route.fulfill(body="<title>elsewhere</title>", content_type="text/html"),
    )
    with egress.expect(r"^https://attacker\.example/"):
        with context.expect_page() as new_tab:
            Answer(page, answer).modal.locator("a.owc-link").click()
        new_tab.value.wait_for_load_state()
        assert new_tab.value.evaluate("() => window.opener") is None
