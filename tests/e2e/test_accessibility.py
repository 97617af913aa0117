"""The extension's interface audited by axe-core (from npm, injected into the real page) in the
light and dark themes, and used with the keyboard alone."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import CITE
from devstack.answer import PREVIEW
from devstack.answer import RETRIEVED
from devstack.answer import SETTINGS_TOGGLE
from devstack.answer import SOURCE_LIST
from devstack.answer import Answer
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.processes import ROOT
from devstack.stack import Stack

pytestmark = pytest.mark.e2e

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
MODEL = "azure-on-your-data"  # cited and retrieved sources, quotes, scores
# WCAG 2.2 A and AA, and axe's best practices; not the rules about a whole page (landmarks, one
# main heading), which are Open WebUI's: only the extension's elements are audited.
RUN_ONLY = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PAGE_RULES = {
    "region": {"enabled": False},
    "landmark-one-main": {"enabled": False},
    "page-has-heading-one": {"enabled": False},
}


def axe_violations(page: Page, selectors: list[str]) -> list[str]:
    if not page.evaluate("() => 'axe' in window"):
        page.add_script_tag(path=AXE)
    return page.evaluate(
        """async ([include, runOnly, rules]) => {
        const found = include.filter(s => document.querySelector(s));
        const result = await axe.run({ include: found.map(s => [s]) },
                                     { runOnly: { type: 'tag', values: runOnly }, rules, resultTypes: ['violations'] });
        return result.violations.flatMap(v => v.nodes.map(
            n => `${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary}`));
    }""",
        [selectors, RUN_ONLY, PAGE_RULES],
    )


def answer_with_sources(page: Page, stack: Stack) -> str:
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    send(page)
    message_id = last_answer_id(page)
    expect(Answer(page, message_id).retrieved).to_have_count(1, timeout=15_000)
    return message_id


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_violation_in_buttons_preview_list_settings_and_modal(
    page: Page, context: BrowserContext, stack: Stack, screenshots: Path, theme: str
) -> None:
    context.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    message_id = answer_with_sources(page, stack)
    expect(page.locator("html")).to_have_class(re.compile(r"\bdark\b" if theme == "dark" else r"^(?!.*\bdark\b)"))
    shown = Answer(page, message_id)
    answer = shown.element
    shown.retrieved.locator("summary").click()
    expect(shown.retrieved_sources).to_have_count(1)
    shown.settings_toggle.click()
    expect(shown.settings).to_be_visible()
    shown.export.locator("summary").click()
    expect(answer.locator(".owc-export-menu")).to_be_visible()
    shown.sources.first.hover()  # its places marked
    expect(answer.locator(f"{CITE}[data-owc-marked]").first).to_be_visible()
    shown.buttons.first.hover()
    expect(shown.preview).to_be_visible()
    scope = [shown.selector(CITE), shown.selector(SOURCE_LIST), shown.selector(RETRIEVED), PREVIEW]
    found = axe_violations(page, scope)
    assert found == [], "\n".join(found)
    shown.export.locator("summary").click()
    shown.settings_toggle.click()
    page.mouse.move(0, 0)
    expect(shown.preview).to_have_count(0)
    answer.screenshot(path=screenshots / f"cited-and-retrieved-{theme}.png")  # the README's pictures
    shown.sources.first.hover()
    answer.screenshot(path=screenshots / f"source-places-{theme}.png")
    shown.export.locator("summary").click()
    shown.source_list.screenshot(path=screenshots / f"export-{theme}.png")
    shown.export.locator("summary").click()

    shown.sources.first.click()
    expect(shown.modal).to_be_visible()
    found = axe_violations(page, [".owc-backdrop"])
    assert found == [], "\n".join(found)
    shown.modal.screenshot(path=screenshots / f"modal-{theme}.png")


def focused(page: Page) -> str:
    """What has the focus: its classes, and whether it is inside the modal."""
    return page.evaluate("""() => { const e = document.activeElement;
        return `${e?.className ?? ''}${e?.closest('.owc-modal') ? ' in-modal' : ''}`; }""")


def tab_to(page: Page, selector: str, limit: int = 300) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.oldest_line
def test_keyboard_alone_reaches_a_citation_opens_and_leaves_the_modal_and_changes_settings(
    page: Page, stack: Stack
) -> None:
    answer = Answer(page, answer_with_sources(page, stack))
    page.evaluate("document.activeElement?.blur()")
    tab_to(page, answer.selector(CITE))
    expect(answer.preview).to_be_visible()  # focus shows the preview, as hovering does
    citation = page.evaluate_handle("document.activeElement")
    page.keyboard.press("Enter")
    modal = answer.modal
    expect(modal).to_be_visible()
    expect(modal.locator(".owc-close")).to_be_focused()
    for key in ["Tab"] * 8 + ["Shift+Tab"] * 8:  # the focus stays inside, both ways round
        page.keyboard.press(key)
        assert "in-modal" in focused(page), key
    page.keyboard.press("Escape")
    expect(modal).to_have_count(0)
    assert page.evaluate("c => document.activeElement === c", citation)

    tab_to(page, answer.selector(SETTINGS_TOGGLE))
    page.keyboard.press("Enter")
    panel = answer.settings
    expect(panel).to_be_visible()
    shown = panel.get_by_label("Sources shown before “Show all”")
    expect(shown).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(shown).to_have_value("2")
    expect(answer.sources).to_have_count(2)
    expect(shown).to_be_focused()  # the list was redrawn, the focus kept
    page.keyboard.press("Tab")
    expect(panel.get_by_label("Show sources retrieved but not cited")).to_be_focused()
    page.keyboard.press("Space")
    expect(answer.retrieved).to_have_count(0)
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(answer.settings_toggle).to_be_focused()
    page.keyboard.press("Enter")  # opened again: the controls show the settings as they are
    expect(shown).to_have_value("2")
    expect(panel.get_by_label("Show sources retrieved but not cited")).not_to_be_checked()
