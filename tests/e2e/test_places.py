"""From a source to the places its answer cites it, in the real Open WebUI, one producer of each
family of markers: numbered (Azure's [docN]), offsets (OpenAI's url_citation start and end), tags
(Brave's <citation>), links (grok2api's [[n]](url)). Hovering a source row marks exactly the
buttons that cite it and the sentence of each; the modal says how often it is cited and steps
through those places in order; ← and → go from citation to citation; a screen reader hears
"citation k of n: source, title"."""

import pytest
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import CITE
from devstack.answer import CITED_SOURCES
from devstack.answer import Answer
from devstack.answer import wait_for_citation_numbers
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.stack import Stack
from mock_server.registry import producer_entries

pytestmark = pytest.mark.e2e

SEEN = producer_entries("seen.json")
FAMILIES = {"numbered": "azure-on-your-data", "offsets": "openai-url-citation", "tags": "brave", "links": "grok2api-go"}

MARKED = """buttons => [...document.querySelectorAll(buttons)]
    .map(b => b.hasAttribute('data-owc-marked') ? Number(b.dataset.owcIndex) : 0)"""
SENTENCES = """() => [...(CSS.highlights.get('owc-claim') ?? [])].map(r => r.toString().trim())"""
FOCUSED = """buttons => [...document.querySelectorAll(buttons)].indexOf(document.activeElement)"""


@pytest.mark.parametrize("family", FAMILIES)
def test_a_source_row_marks_exactly_the_buttons_citing_it_and_the_modal_steps_through_them(
    page: Page, stack: Stack, family: str
) -> None:
    model = FAMILIES[family]
    buttons = SEEN[model]["buttons"]
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, model)
    send(page)
    message_id = last_answer_id(page)
    assert wait_for_citation_numbers(page, message_id, buttons) == buttons
    shown = Answer(page, message_id)
    answer, buttons_in_page = shown.element, shown.selector(CITE)

    for n in sorted(set(buttons)):
        answer.locator(f"{CITED_SOURCES}[data-owc-index='{n}']").hover()
        expected = [b if b == n else 0 for b in buttons]
        page.wait_for_function(
            f"([buttons, expected]) => ({MARKED})(buttons).join() === expected.join()", arg=[buttons_in_page, expected]
        )
        sentences = page.evaluate(SENTENCES)
        assert len(sentences) == buttons.count(n) and all(sentences), sentences
    page.mouse.move(0, 0)
    assert page.evaluate(MARKED, buttons_in_page) == [0] * len(buttons)  # marks go with the pointer

    # The source cited most: the modal says so, and steps through its places in reading order.
    most = max(set(buttons), key=buttons.count)
    places = [k for k, b in enumerate(buttons) if b == most]
    row = answer.locator(f"{CITED_SOURCES}[data-owc-index='{most}']")
    row.click()
    modal = shown.modal
    expect(modal.locator(".owc-cited")).to_contain_text(
        "Cited once" if len(places) == 1 else f"Cited {len(places)} times"
    )
    modal.get_by_role("button", name="Show where").click()
    expect(modal).to_have_count(0)
    for place in places:
        assert page.evaluate(FOCUSED, buttons_in_page) == place
        page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED, buttons_in_page) == places[-1]  # the last place stays the last
    page.keyboard.press("Escape")
    expect(row).to_be_focused()  # back on the row, which marks its places as hovering does
    assert page.evaluate(MARKED, buttons_in_page) == [b if b == most else 0 for b in buttons]

    # From a citation, → reaches the next of the answer, whichever source it names; named by its place.
    first = shown.buttons.first
    first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED, buttons_in_page) == 1
    title = page.evaluate(
        "([id, n]) => window.owuiCitations.view(id).citations.find(c => c.index === n).title", [message_id, buttons[0]]
    )
    expect(first).to_have_attribute("aria-label", f"Citation 1 of {len(buttons)}: source {buttons[0]}, {title}")
