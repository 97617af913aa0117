"""A chat's sources leave it as files, read back by the parsers reference managers and Markdown
tools use (from the package registries): after a reload, "Export → Whole chat" of a three-answer
chat downloads Markdown with footnotes (markdown-it-py's footnote plugin), CSL-JSON (rendered by
citeproc-py, a CSL processor), BibTeX (bibtexparser) and RIS (rispy), named after the chat, each
holding every source Open WebUI stored for each answer. And Open WebUI's own "Download → Plain
text" keeps each answer's cited sources after it. After a regenerate or an edited question and
Open WebUI's "<" back, both hold the version on screen."""

import html
import json
import re
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
import rispy
from citeproc import Citation
from citeproc import CitationItem
from citeproc import CitationStylesBibliography
from citeproc import CitationStylesStyle
from citeproc import formatter
from citeproc.source.json import CiteProcJSON
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from playwright.sync_api import Page
from playwright.sync_api import expect

from devstack.answer import Answer
from devstack.built_core import call_core
from devstack.owui import chat_id
from devstack.owui import edit_question
from devstack.owui import last_answer_id
from devstack.owui import open_new_chat
from devstack.owui import regenerate
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import show_previous_version
from devstack.owui import stored_answer_text
from devstack.owui import stored_chat
from devstack.owui import wait_until_stored
from devstack.stack import Stack
from tests.readers import latex_text

pytestmark = pytest.mark.e2e

MODEL = "azure-on-your-data"  # cites sources 1 to 3 of the 4 it returns, one with a quote and pages
QUESTIONS = ["Which sources support this?", "And what do they say of costs?", "Anything on timing?"]
# Other documents and text on each request (tests/e2e/scenarios): each version of an answer differs.
VERSIONED_MODEL = "azure-on-your-data-attempts"


def file_stem(title: str) -> str:
    """The file name the extension gives a chat's title: the built core's rule, tested in
    extension/src/core/export/export.test.ts."""
    return str(call_core("(core, title) => core.fileStem(title)", title))


def download(page: Page, answer: str, file: str, tmp_path: Path) -> tuple[str, str]:
    menu = Answer(page, answer).export
    if not menu.evaluate("m => m.open"):
        menu.locator("summary").click()
    with page.expect_download() as started:
        menu.get_by_role("group", name="Whole chat").get_by_role("button", name=file, exact=True).click()
    assert not menu.evaluate("m => m.open")  # a menu closes once a choice is made
    path = tmp_path / started.value.suggested_filename
    started.value.save_as(path)
    return started.value.suggested_filename, path.read_text(encoding="utf-8")


def sources_of(page: Page, answers: list[str]) -> list[list[dict[str, Any]]]:
    return [page.evaluate("id => window.owuiCitations.view(id).citations", answer) for answer in answers]


def distinct(sources: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    seen: dict[Any, dict[str, Any]] = {}
    for citation in (c for answer in sources for c in answer):
        seen.setdefault(citation["url"] or (citation["title"], citation["id"]), citation)
    return list(seen.values())


def check_markdown(text: str, sources: list[list[dict[str, Any]]], cited: list[int]) -> None:
    parser = MarkdownIt().use(footnote_plugin)
    env: dict[str, Any] = {}
    tokens = parser.parse(text, env)
    defined = {note["label"]: note for note in env["footnotes"]["list"].values() if "label" in note}
    referenced = {t.meta["label"] for token in tokens for t in token.children or [] if t.type == "footnote_ref"}
    assert referenced == set(defined), "each footnote is both used in the text and defined"
    shown = html.unescape(re.sub(r"<[^>]+>", "", parser.render(text)))  # what a Markdown viewer shows
    for k, (question, answer) in enumerate(zip(QUESTIONS, sources, strict=True), start=1):
        assert f"## Answer {k}" in text and f"> {question}" in text
        for citation in answer:  # cited ones as footnotes, retrieved ones listed: each by its title
            assert citation["title"] in shown, citation["title"]
    # Numbered through the file: each answer's cited sources, as its list shows them, have footnotes of their own.
    assert len(defined) == sum(cited)


def check_csl(text: str, sources: list[dict[str, Any]]) -> None:
    items = json.loads(text)
    assert [item["title"] for item in items] == [c["title"] for c in sources]
    for item in items:
        assert item["type"] in {"webpage", "post", "document"} and item["id"]
        if "URL" in item:
            assert item["accessed"]["date-parts"][0][0] >= 2026
    bibliography = CitationStylesBibliography(
        CitationStylesStyle("harvard-cite-them-right", validate=False), CiteProcJSON(items), formatter.plain
    )
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = "\n".join(str(entry) for entry in bibliography.bibliography())
    for item in items:
        assert item["title"] in rendered, rendered


def check_bibtex(text: str, sources: list[dict[str, Any]]) -> None:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    assert [latex_text(entry.fields_dict["title"].value) for entry in library.entries] == [c["title"] for c in sources]
    assert all(entry.entry_type in {"online", "misc"} for entry in library.entries)


def check_ris(text: str, sources: list[dict[str, Any]]) -> None:
    entries = rispy.loads(text)
    assert [entry["title"] for entry in entries] == [c["title"] for c in sources]
    assert all(entry["type_of_reference"] in {"ELEC", "BLOG", "GEN"} for entry in entries)


@pytest.mark.oldest_line  # Open WebUI's download menu differs there (0.6's DropdownMenu.Sub)
def test_a_whole_chat_exports_every_stored_source_in_four_formats_after_a_reload(
    page: Page, stack: Stack, tmp_path: Path
) -> None:
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, MODEL)
    answers = []
    for question in QUESTIONS:
        send(page, question)
        answers.append(last_answer_id(page))
    chat = chat_id(page)
    assert all(wait_until_stored(page, stack, chat, answers).values())
    page.reload()
    expect(Answer(page, answers[0]).source_list).to_have_count(1, timeout=15_000)
    sources = sources_of(page, answers)
    assert all(len(answer) == 4 for answer in sources)
    title = stored_chat(stack, chat)["title"]

    menu = Answer(page, answers[0]).export
    menu.locator("summary").click()
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    expect(menu.locator("summary")).to_be_focused()

    named, markdown = download(page, answers[0], "Markdown", tmp_path)
    assert named == f"{file_stem(title)}-sources.md"
    cited = [Answer(page, answer).sources.count() for answer in answers]
    check_markdown(markdown, sources, cited)
    for file, extension, check in [
        ("CSL-JSON", "csl.json", check_csl),
        ("BibTeX", "bib", check_bibtex),
        ("RIS", "ris", check_ris),
    ]:
        named, text = download(page, answers[-1], file, tmp_path)
        assert named == f"{file_stem(title)}-sources.{extension}"
        check(text, distinct(sources))
    check_open_webui_download(page, stack, chat, answers, tmp_path)


def check_open_webui_download(page: Page, stack: Stack, chat: str, answers: list[str], tmp_path: Path) -> str:
    """Open WebUI's own "Download → Plain text" holds each answer with its cited sources; its text."""
    page.locator("#chat-context-menu-button").click()
    page.get_by_text("Download", exact=True).hover()
    with page.expect_download() as started:
        page.get_by_text("Plain text (.txt)").click()
    path = tmp_path / started.value.suggested_filename
    started.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    for answer in answers:
        cited = Answer(page, answer).sources.evaluate_all("bs => bs.map(b => Number(b.dataset.owcIndex))")
        written = f"### ASSISTANT\n{stored_answer_text(stack, chat, answer).strip()}\n\n**Sources**\n\n"
        assert written in text, text
        after = text.split(written, 1)[1].split("\n\n", 1)[0]
        assert [int(n) for n in re.findall(r"^- \[(\d+)\] ", after, re.M)] == cited, after
    return text


def stored_history(stack: Stack, chat: str) -> dict[str, Any]:
    return stored_chat(stack, chat)["history"]


@pytest.mark.oldest_line  # 0.6's "<" and Regenerate differ (devstack/owui.py)
@pytest.mark.parametrize("change", ["regenerate", "edit"])
def test_a_whole_chat_exports_the_version_on_screen_after_going_back_to_it(
    page: Page, stack: Stack, tmp_path: Path, change: str
) -> None:
    """After a regenerate (or an edited question) and Open WebUI's "<" back to the first version,
    "Export → Whole chat" holds that version's sources and text, as Open WebUI's own download then
    does, though the stored chat still opens at the other version ("<" is not saved)."""
    set_user_settings(stack, stream=True)
    open_new_chat(page, stack, VERSIONED_MODEL)
    send(page, QUESTIONS[0])
    first = last_answer_id(page)
    chat = chat_id(page)
    assert all(wait_until_stored(page, stack, chat, [first]).values())
    question = stored_history(stack, chat)["messages"][first]["parentId"]
    if change == "regenerate":
        regenerate(page, first)
    else:
        edit_question(page, question, f"{QUESTIONS[0]} For puppies?")
    other = last_answer_id(page)
    assert all(wait_until_stored(page, stack, chat, [other]).values())
    expect(Answer(page, other).source_list).to_have_count(1, timeout=15_000)
    other_sources = sources_of(page, [other])[0]
    # "<" under the version shown: the new answer, or the edited question.
    versioned = other if change == "regenerate" else stored_history(stack, chat)["messages"][other]["parentId"]
    show_previous_version(page, versioned)
    expect(Answer(page, first).source_list).to_have_count(1, timeout=15_000)
    shown_sources = sources_of(page, [first])[0]
    shown_titles, other_titles = [c["title"] for c in shown_sources], [c["title"] for c in other_sources]
    assert set(shown_titles).isdisjoint(other_titles), "each version cites sources of its own"
    assert stored_history(stack, chat)["currentId"] == other  # what the stored chat opens at

    _, markdown = download(page, first, "Markdown", tmp_path)
    shown_text, other_text = (stored_answer_text(stack, chat, a).split(" [doc")[0] for a in (first, other))
    assert shown_text in markdown and other_text not in markdown, markdown
    assert all(title in markdown for title in shown_titles) and not any(t in markdown for t in other_titles)
    _, bibliography = download(page, first, "RIS", tmp_path)
    check_ris(bibliography, shown_sources)
    own = check_open_webui_download(page, stack, chat, [first], tmp_path)
    assert other_text not in own, own  # Open WebUI's own download, at the same moment, holds the same version
