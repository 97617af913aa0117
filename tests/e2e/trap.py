"""A trap for injected script, set in every page of a browser context before Open WebUI and
the extension load: a canary property that counts every assignment, every dialog, and a
record of each element the extension creates (the `document.createElement` calls made from
/static/loader.js), audited for event-handler attributes and unsafe links."""

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from playwright.sync_api import BrowserContext
from playwright.sync_api import Dialog
from playwright.sync_api import Page

CANARY = "__owc_pwned"

INIT_SCRIPT = """(() => {
  const trap = { executions: 0, created: [] };
  Object.defineProperty(window, '__owcTrap', { value: trap });
  Object.defineProperty(window, '%(canary)s', {
    configurable: false, get: () => undefined, set: () => { trap.executions++; } });
  for (const method of ['createElement', 'createElementNS']) {
    const original = Document.prototype[method];
    Document.prototype[method] = function (...args) {
      const element = original.apply(this, args);
      if ((new Error().stack || '').includes('/static/loader.js')) trap.created.push(element);
      return element;
    };
  }
})();""" % {"canary": CANARY}

# Every element the extension created, with its descendants (what an innerHTML would add).
AUDIT = r"""() => {
  const ALLOWED_TAGS = new Set(['SECTION', 'DIV', 'OL', 'LI', 'BUTTON', 'SPAN', 'H2', 'P', 'A', 'MARK', 'Q', 'STYLE',
                                // retrieved group, settings
                                'DETAILS', 'SUMMARY', 'LABEL', 'SELECT', 'OPTION', 'INPUT',
                                'UL', 'STRONG']);  // the sources as HTML, on the clipboard
  const LOADING = new Set(['src', 'srcset', 'srcdoc', 'action', 'formaction', 'xlink:href', 'data', 'poster',
                           'background', 'ping', 'codebase']);
  const SAFE_HREF = /^(https?:\/\/[^\s]|\/(?![\/\\]))/;
  // The extension's own parts (extension/src/parts/loader.ts): a script beside loader.js, on this
  // origin, with nothing but its src and async.
  const PART = /^\/static\/owui-citations-parts\/(features|locale-[A-Za-z-]+)\.js$/;
  const ownPart = (element) => {
    if (element.tagName !== 'SCRIPT' || element.children.length || element.textContent) return false;
    const names = [...element.attributes].map((a) => a.name).sort().join(' ');
    const url = new URL(element.src, location.href);
    return (names === 'async src' || names === 'src') && url.origin === location.origin && !url.search &&
      PART.test(url.pathname);
  };
  const seen = new Set();
  const problems = [];
  let hrefs = 0;
  for (const root of window.__owcTrap.created) {
    for (const element of [root, ...root.querySelectorAll('*')]) {
      if (seen.has(element)) continue;
      seen.add(element);
      if (ownPart(element)) continue;
      if (!ALLOWED_TAGS.has(element.tagName)) problems.push(`<${element.tagName.toLowerCase()}> element`);
      for (const { name, value } of element.attributes) {
        const lower = name.toLowerCase();
        if (lower.startsWith('on')) problems.push(`${lower}= on <${element.tagName.toLowerCase()}>`);
        if (LOADING.has(lower)) problems.push(`${lower}= on <${element.tagName.toLowerCase()}>`);
        if (lower === 'style' && /url\(|expression|@import/i.test(value)) problems.push(`style=${value}`);
        if (lower === 'href') {
          hrefs++;
          if (!SAFE_HREF.test(value)) problems.push(`href=${JSON.stringify(value.slice(0, 80))}`);
        }
      }
    }
  }
  return { elements: seen.size, hrefs, problems: problems.slice(0, 20), problemCount: problems.length };
}"""


@dataclass
class Trap:
    """What fired in the pages of one context: dialogs, and canary assignments per page load."""

    dialogs: list[str] = field(default_factory=list)

    def install(self, context: BrowserContext) -> "Trap":
        context.add_init_script(INIT_SCRIPT)
        context.on("page", self.watch)
        for page in context.pages:
            self.watch(page)
        return self

    def watch(self, page: Page) -> None:
        def on_dialog(dialog: Dialog) -> None:
            self.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)

    @staticmethod
    def executions(page: Page) -> int:
        """Assignments to the canary since this page loaded."""
        return page.evaluate("() => window.__owcTrap.executions")

    @staticmethod
    def audit(page: Page) -> dict[str, Any]:
        """The extension's elements in this page load: how many, their links, and any problem."""
        return page.evaluate(AUDIT)
