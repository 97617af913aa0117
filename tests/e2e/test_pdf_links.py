"""A PDF source opens at its page with its passage found, in each browser's own viewer, for a
producer's PDF (one the mock serves) and for a file uploaded to Open WebUI. The link is the built
core's (sourceLink). Firefox's viewer (pdf.js) is read through its application object: the page and
the highlighted phrase. Chromium's highlight is drawn by its PDF plugin, out of any page's reach:
its page selector is read, the highlight was seen in screenshots (docs/compatibility.md)."""

import pytest
from playwright.sync_api import Page

from devstack.built_core import call_core
from devstack.owui import FILES
from devstack.owui import file_content
from devstack.owui import open_new_chat
from devstack.processes import ROOT
from devstack.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.per_route]

REPORT = ROOT / "mock_server" / "documents" / "rapport_2024.pdf"
PAGE = 7
QUOTE = "Objectif 2025 : 13,5 M EUR de chiffre d'affaires."


def source_link(url: str, title: str) -> str:
    citation = {"url": url, "title": title, "page": PAGE, "quote": {"text": QUOTE}, "snippet": None}
    return str(call_core("(core, citation) => core.sourceLink(citation)", citation))


def opened_at(page: Page, browser_name: str) -> tuple[int, str | None]:
    """The page the viewer shows, and the text it highlights (None where the page cannot read it)."""
    if browser_name == "firefox":
        page.wait_for_function("() => window.PDFViewerApplication?.findController?.selected?.pageIdx >= 0")
        shown = page.evaluate("""() => [PDFViewerApplication.page,
            document.querySelector('.textLayer .highlight.selected')?.textContent ?? null]""")
        return shown[0], shown[1]
    for _ in range(100):  # Chromium's viewer: an extension's frame, attached once the PDF is read
        viewer = next((frame for frame in page.frames if frame.url.startswith("chrome-extension://")), None)
        if viewer:
            break
        page.wait_for_timeout(100)
    assert viewer, [frame.url for frame in page.frames]
    selector = """() => document.querySelector('pdf-viewer')?.shadowRoot?.querySelector('viewer-toolbar')
        ?.shadowRoot?.querySelector('viewer-page-selector')?.shadowRoot?.querySelector('input')?.value"""
    viewer.wait_for_function(f"() => ({selector})() === '{PAGE}'")
    return int(viewer.evaluate(selector)), None


def test_a_pdf_source_opens_at_its_page_with_its_passage_found(page: Page, stack: Stack, browser_name: str) -> None:
    open_new_chat(page, stack, "azure-on-your-data")  # signed in: Open WebUI's files need the session
    with stack.api() as api:
        uploaded = api.post(
            FILES,
            params={"process": "false"},
            files={"file": (REPORT.name, REPORT.read_bytes(), "application/pdf")},
        )
        uploaded.raise_for_status()
    links = {
        "the producer's": source_link(f"{stack.mock_url}/static/{REPORT.name}", REPORT.name),
        "Open WebUI's": stack.webui_url + source_link(file_content(uploaded.json()["id"]), REPORT.name),
    }
    for whose, link in links.items():
        assert f"#page={PAGE}&search=" in link and ":~:text=Objectif" in link, link
        viewer = page.context.new_page()
        viewer.goto(link)
        number, highlighted = opened_at(viewer, browser_name)
        assert number == PAGE, whose
        if browser_name == "firefox":
            assert highlighted == " ".join(QUOTE.split()[:6]), (whose, highlighted)  # the quote's first words
        viewer.close()
