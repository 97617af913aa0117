"""The extension's interface in Open WebUI's page, as the tests, the benchmarks and the scripts meet
it: its selectors, written once, and page objects whose properties are Playwright locators. Where
Open WebUI draws an answer (its message element, its own buttons) is devstack/owui.py's: this module
only adds what the extension draws in it (extension/src/ui/)."""

from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from devstack.owui import ASSISTANT
from devstack.owui import COPY_BUTTON
from devstack.owui import PROSE
from devstack.owui import message_selector

CITE = ".owc-cite"  # a numbered button in the text
SOURCE_LIST = ".owc-sources"  # the list under the answer: the sources the text cites
RETRIEVED = ".owc-retrieved"  # after it, collapsed: those retrieved, not cited
SOURCE = "button.owc-source"  # a source of either list
CITED_SOURCES = f"{SOURCE_LIST} {SOURCE}"
SETTINGS_TOGGLE = ".owc-settings-toggle"
SETTINGS = ".owc-settings"
EXPORT = ".owc-export"  # the export menu (a <details>)
MODAL = ".owc-modal"
PREVIEW = ".owc-preview"


class Answer:
    """One answer of the chat on the page and what the extension shows in it, by its message id."""

    def __init__(self, page: Page, message_id: str) -> None:
        self.page = page
        self.message_id = message_id

    def selector(self, part: str) -> str:
        """A CSS selector for ``part`` inside the answer, for scripts run in the page (axe's scope,
        `document.querySelectorAll`)."""
        return f"{message_selector(self.message_id)} {part}"

    def _locator(self, part: str) -> Locator:
        return self.page.locator(self.selector(part))

    @property
    def element(self) -> Locator:
        """The message's element, Open WebUI's."""
        return self.page.locator(message_selector(self.message_id))

    @property
    def content(self) -> Locator:
        """The answer's part of the message (Open WebUI's): its text, an error, its own sources."""
        return self._locator(ASSISTANT)

    @property
    def prose(self) -> Locator:
        """The answer's text as Open WebUI draws it (one block per output item)."""
        return self._locator(PROSE)

    @property
    def copy_button(self) -> Locator:
        """Open WebUI's own Copy button under the answer."""
        return self._locator(COPY_BUTTON)

    @property
    def buttons(self) -> Locator:
        """The numbered citation buttons in the text."""
        return self._locator(CITE)

    @property
    def source_list(self) -> Locator:
        return self._locator(SOURCE_LIST)

    @property
    def sources(self) -> Locator:
        """The source list's buttons: the sources the text cites."""
        return self._locator(CITED_SOURCES)

    @property
    def own_sources(self) -> Locator:
        """`sources`, in a list the extension drew for this very message (data-owc-message-id)."""
        return self._locator(f'{SOURCE_LIST}[data-owc-message-id="{self.message_id}"] {SOURCE}')

    @property
    def retrieved(self) -> Locator:
        """The sources retrieved, not cited (a <details>)."""
        return self._locator(RETRIEVED)

    @property
    def own_retrieved(self) -> Locator:
        """`retrieved`, right after the source list, drawn for this very message."""
        return self._locator(f'{SOURCE_LIST} + {RETRIEVED}[data-owc-message-id="{self.message_id}"]')

    @property
    def groups(self) -> Locator:
        """The source list and the retrieved sources: each says how many it holds (data-owc-count)."""
        return self.page.locator(f"{self.selector(SOURCE_LIST)}, {self.selector(RETRIEVED)}")

    @property
    def retrieved_sources(self) -> Locator:
        return self._locator(f"{RETRIEVED} {SOURCE}")

    @property
    def listed(self) -> Locator:
        """Every source button the answer shows, in either list."""
        return self._locator(SOURCE)

    def source(self, index: int | str) -> Locator:
        """The source button numbered ``index``, in either list."""
        return self._locator(f'{SOURCE}[data-owc-index="{index}"]')

    @property
    def settings_toggle(self) -> Locator:
        return self._locator(SETTINGS_TOGGLE)

    @property
    def settings(self) -> Locator:
        return self._locator(SETTINGS)

    @property
    def more(self) -> Locator:
        """The list's "Show all"."""
        return self._locator(".owc-more")

    @property
    def copy_all(self) -> Locator:
        return self._locator(".owc-copy-all")

    @property
    def export(self) -> Locator:
        return self._locator(EXPORT)

    @property
    def modal(self) -> Locator:
        """The source modal a button of the answer opens: one for the page, outside the answer."""
        return self.page.locator(MODAL)

    @property
    def preview(self) -> Locator:
        """The preview hovering or focusing a citation button shows: one for the page, outside the answer."""
        return self.page.locator(PREVIEW)


VISIBLE_NUMBERS = """selector => [...document.querySelectorAll(selector)]
    .filter(e => e.offsetParent !== null).map(e => Number(e.dataset.owcIndex))"""


def wait_for_citation_numbers(
    page: Page, message_id: str, expected: list[int] | None, timeout_ms: int = 15_000
) -> list[int]:
    """The numbered buttons visible in an answer once they have stayed what is expected for 500 ms
    (with no expectation: stayed the same for 2 s), or those visible at the timeout."""
    # Svelte redraws an answer when its sources arrive, and our buttons are placed again a moment
    # later: what is returned is the state that lasted, not one read again after it.
    stable = (
        """([selector, want, hold]) => {
        const now = JSON.stringify((%s)(selector));
        const same = now === window.__owcLast && (want === null || now === JSON.stringify(want));
        window.__owcLast = now;
        if (!same) { window.__owcSince = undefined; return false; }
        window.__owcSince ??= performance.now();
        return performance.now() - window.__owcSince >= hold && JSON.parse(now);
    }"""
        % VISIBLE_NUMBERS
    )
    hold_ms = 2_000 if expected is None else 500
    buttons = Answer(page, message_id).selector(CITE)
    page.evaluate("() => { window.__owcSince = undefined; window.__owcLast = undefined; }")
    try:
        return page.wait_for_function(
            stable, arg=[buttons, expected, hold_ms], timeout=timeout_ms, polling=100
        ).json_value()
    except PlaywrightTimeoutError:
        return page.evaluate(VISIBLE_NUMBERS, buttons)  # the caller's assertion shows what is there instead


OUTBOX_PREFIX = "owui-citations:outbox:"  # extension/src/persist/outbox.ts: one key per user and message


def pending_answers(page: Page) -> list[str]:
    """The answers whose sources wait in the page's outbox (extension/src/persist/outbox.ts): their
    store met trouble (the network, a signed-out session) or the page went away first; an answer
    leaves it once stored."""
    return page.evaluate(
        "prefix => Object.keys(localStorage).filter((k) => k.startsWith(prefix)).map((k) => k.split(':').at(-1))",
        OUTBOX_PREFIX,
    )
