"""What the export writes is data, read back by the readers people import with: a crafted source
(title, date, snippet, quote, file name, container), from a producer's body read by the core's
extract and from a stored or cloned chat's `metadata[].owc`, is exactly one entry with exactly its
fields, each holding the source's text, in pybtex (which counts braces as BibTeX does), bibtexparser
and rispy; CSL-JSON holds it as JSON; and in the Markdown file it adds no footnote, link or heading.
The built core (`extension/dist/core.mjs`) does the work, through node: no browser."""

import itertools
import json
import random
import re
from typing import Any
from urllib.parse import unquote

import bibtexparser
import pytest
import rispy
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from pybtex.database import parse_string

from devstack.built_core import call_core
from tests.readers import latex_text

PAGE = "https://owui.example/c/1"
ACCESSED = "2026-11-27"
# Every line break Unicode knows (Python's str.splitlines breaks at each), then a tag or a field after it.
BREAKS = ["\r\n", "\r", "\n", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\u2028", "\u2029"]


def broken(text: str, after: str) -> str:
    return "".join(f"{text}{line_break}{after}" for line_break in BREAKS)


# Each source: what a producer or a stored chat says of it, and the container and ISO date the
# files give it (a host, or a file name as the URL writes it, one line; a date only when it reads as ISO).
SOURCES: list[dict[str, Any]] = [
    {  # security review 2026-11-27, F1 (a): a date that closes the entry, an entry after it
        "title": "Dated",
        "url": "https://news.example/a",
        "date": "2024T},a=1",
        "snippet": '@online(evil, title = "INJECTED ENTRY", url = "https://evil.example/phish")',
        "quote": '}, url = "https://evil.example/phish"}',
        "container": "news.example",
        "iso": None,
    },
    {  # F1 (b): a title that closes its field for the snippet to reopen (`\}` is no escape to BibTeX)
        "title": 'a}, author = "Mallory Forged", x = "{',
        "url": "https://news.example/b?q={x}\\",
        "date": "2024-05-01T10:00:00Z",
        "snippet": '}"',
        "quote": "\\} \\{ {{{ }}} % & # $ _ ^ ~ \\input{/etc/passwd}",
        "container": "news.example",
        "iso": "2024-05-01",
    },
    {  # F2: a same-origin file whose name percent-encodes a RIS record of its own
        "title": "Report",
        "url": "/api/v1/files/x/content%0D%0AER%20%20-%20%0D%0A%0D%0ATY%20%20-%20ELEC%0D%0ATI%20%20-%20Forged"
        "%0D%0AUR%20%20-%20https:%2F%2Fevil.example%2Fphish",
        "date": "2024-05",
        "snippet": "Quarterly figures.",
        "quote": "Revenue rose.",
        "container": "content%0D%0AER - %0D%0A%0D%0ATY - ELEC%0D%0ATI - Forged%0D%0AUR - https://evil.example/phish",
        "iso": "2024-05",
    },
    {  # every field broken by every line break, each followed by a tag, an entry or a field
        "title": broken("Lines", "TY  - JOUR @misc{evil, title = {x}}"),
        "url": "/files/a%C2%85TY%20%20-%20JOUR%E2%80%A8b%0Bc%1Ed%E2%80%AEfdp.exe",
        "date": broken("2024", "PY  - 1999"),
        "snippet": broken("line", "ER  - "),
        "quote": broken("quoted", "AU  - Forged, Mallory"),
        "container": "a%C2%85TY - JOUR%E2%80%A8b%0Bc%1Ed%E2%80%AEfdp.exe",
        "iso": None,
    },
]
TEXT = "Claim [1]. Forged [2]. Report [3]. Lines [4]."


def producer_body() -> dict[str, Any]:
    """A producer's body (Perplexity's `search_results`, read by the core's extract): every field but
    the quote, which Perplexity does not send."""
    fields = ("title", "url", "date", "snippet")
    return {
        "id": "chatcmpl-export",
        "object": "chat.completion",
        "model": "sonar",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": TEXT}}],
        "search_results": [{key: source[key] for key in fields} for source in SOURCES],
    }


def stored_chat() -> dict[str, Any]:
    """A stored (or cloned, or imported) chat's message sources, as this extension stores them."""
    return {
        "sources": [
            {
                "source": {"id": f"s{n}", "name": source["title"]},
                "document": [source["snippet"]],
                "metadata": [
                    {
                        "source": f"s{n}",
                        "owc": {
                            "id": f"s{n}",
                            "title": source["title"],
                            "url": source["url"],
                            "snippet": source["snippet"],
                            "quote": {"text": source["quote"]},
                            "date": source["date"],
                            "kind": "web",
                            "refs": [n],
                        },
                    }
                ],
            }
            for n, source in enumerate(SOURCES, start=1)
        ]
    }


EXPORT = """(core, {payload, text, urls}) => {
  const { citations } = core.extractCitations(payload);
  const answers = [{ question: 'Which sources?', text, citations }];
  const absolute = (url) => new URL(url, PAGE).href;
  const entries = core.bibliography(answers, absolute);
  const day = new Date(ACCESSED);
  const words = {
    answer: (n) => `Answer ${n}`,
    sources: 'Sources',
    retrieved: 'Retrieved, not cited',
    page: () => null,
    link: (citation) => (citation.url ? absolute(citation.url) : null),
  };
  return {
    absolute: urls.map(absolute),
    entries,
    bib: core.bibtex(entries, day),
    ris: core.ris(entries, day),
    csl: core.cslJson(entries, day),
    markdown: core.chatMarkdown('Chat # [x](https://evil.example/title)', answers, words),
  };
}""".replace("PAGE", json.dumps(PAGE)).replace("ACCESSED", json.dumps(ACCESSED))


def one_line(text: str) -> str:
    """A text as a field of a file holds it: every run of blanks, line breaks and controls one space."""
    return re.sub(r"[\s\x00-\x1f\x7f-\x9f]+", " ", text).strip()


@pytest.fixture(scope="module", params=["producer", "stored chat"])
def exported(request: pytest.FixtureRequest) -> dict[str, Any]:
    payload = producer_body() if request.param == "producer" else stored_chat()
    urls = [source["url"] for source in SOURCES]
    files: dict[str, Any] = call_core(EXPORT, {"payload": payload, "text": TEXT, "urls": urls})
    # Each source with its link as the page makes it absolute, and the quote where it was given.
    files["sources"] = [
        {**source, "url": url, **({"quote": None} if request.param == "producer" else {})}
        for source, url in zip(SOURCES, files["absolute"], strict=True)
    ]
    return files


def quoted(source: dict[str, Any]) -> str | None:
    """The quote as the files hold it, when the source has one."""
    return f"“{one_line(source['quote'])}”" if source["quote"] else None


def bibtex_fields(entry: dict[str, Any], source: dict[str, Any]) -> dict[str, str]:
    """The fields a BibTeX entry of this source holds, as text."""
    web = entry["kind"] in {"web", "post"}
    fields = {
        "title": one_line(source["title"]),
        "organization" if web else "howpublished": source["container"],
        "url": unquote(source["url"]),
        "urldate": ACCESSED,
        **({"year": source["iso"][:4], "date": source["iso"]} if source["iso"] else {}),
        "note": quoted(source),
        "abstract": one_line(source["snippet"]),
    }
    return {name: value for name, value in fields.items() if value is not None}


def test_bibtex_is_one_entry_per_source_with_exactly_its_fields_in_pybtex(exported: dict[str, Any]) -> None:
    data = parse_string(exported["bib"], "bibtex")  # pybtex is strict: a syntax error raises
    assert list(data.entries) == [f"source{n}" for n in range(1, len(SOURCES) + 1)]
    for entry, read, source in zip(exported["entries"], data.entries.values(), exported["sources"], strict=True):
        assert read.persons == {}, "no author was forged"
        expected = bibtex_fields(entry, source)
        assert list(read.fields) == list(expected)
        for name, value in read.fields.items():
            shown = unquote(value) if name == "url" else latex_text(value)
            assert shown == expected[name], name


def test_bibtex_is_one_entry_per_source_with_exactly_its_fields_in_bibtexparser(exported: dict[str, Any]) -> None:
    library = bibtexparser.parse_string(exported["bib"])
    assert library.failed_blocks == [] and len(library.blocks) == len(SOURCES)
    assert [read.key for read in library.entries] == [f"source{n}" for n in range(1, len(SOURCES) + 1)]
    for entry, read, source in zip(exported["entries"], library.entries, exported["sources"], strict=True):
        assert read.entry_type == ("online" if entry["kind"] in {"web", "post"} else "misc")
        expected = bibtex_fields(entry, source)
        assert [field.key for field in read.fields] == list(expected)
        for field in read.fields:
            shown = unquote(field.value) if field.key == "url" else latex_text(field.value)
            assert shown == expected[field.key], field.key


def test_ris_is_one_record_per_source_with_exactly_its_tags_in_rispy(exported: dict[str, Any]) -> None:
    assert all(re.match(r"[A-Z][A-Z0-9]  - ", line) for line in exported["ris"].splitlines() if line)
    records = rispy.loads(exported["ris"])
    assert len(records) == len(SOURCES)
    for entry, record, source in zip(exported["entries"], records, exported["sources"], strict=True):
        assert record == {
            "type_of_reference": {"web": "ELEC", "post": "BLOG"}.get(entry["kind"], "GEN"),
            "title": one_line(source["title"]),
            "secondary_title": source["container"],
            "urls": [source["url"]],
            "access_date": ACCESSED.replace("-", "/") + "/",
            **({"year": source["iso"][:4]} if source["iso"] else {}),
            **({"notes": [quoted(source)]} if source["quote"] else {}),
            "abstract": one_line(source["snippet"]),
        }


def test_csl_json_holds_each_source_once_with_its_text(exported: dict[str, Any]) -> None:
    items = json.loads(exported["csl"])
    assert [item["id"] for item in items] == [f"source{n}" for n in range(1, len(SOURCES) + 1)]
    for item, source in zip(items, exported["sources"], strict=True):
        issued = (
            {"date-parts": [[int(part) for part in source["iso"].split("-")]]}
            if source["iso"]
            else {"literal": one_line(source["date"])}
        )
        assert {key: item[key] for key in item if key not in {"id", "type", "accessed"}} == {
            "title": one_line(source["title"]),
            "URL": source["url"],
            "container-title": source["container"],
            "issued": issued,
            **({"note": quoted(source)} if source["quote"] else {}),
            "abstract": one_line(source["snippet"]),
        }


def test_markdown_holds_no_footnote_link_or_heading_that_a_source_wrote(exported: dict[str, Any]) -> None:
    parser = MarkdownIt("commonmark").use(footnote_plugin)
    env: dict[str, Any] = {}
    tokens = parser.parse(exported["markdown"], env)
    defined = [note["label"] for note in env["footnotes"]["list"].values() if "label" in note]
    inline = [child for token in tokens for child in token.children or []]
    referenced = {child.meta["label"] for child in inline if child.type == "footnote_ref"}
    assert defined == [str(n) for n in range(1, len(SOURCES) + 1)] and referenced == set(defined)
    headings = [tokens[i + 1] for i, token in enumerate(tokens) if token.type == "heading_open"]
    assert ["".join(child.content for child in heading.children or []) for heading in headings] == [
        "Chat # [x](https://evil.example/title)"
    ]
    links = [str(child.attrs["href"]) for child in inline if child.type == "link_open"]
    assert [unquote(link) for link in links] == [unquote(source["url"]) for source in exported["sources"]]


# What a question or an answer may write to forge the export's reference list: definitions of its
# footnotes (markdown-it keeps a label's last, GFM its first), a link label that takes every
# reference of the export ("[ ^2]"), an inline footnote, references to another answer's footnote,
# links made of the export's own references, a heading as the export writes them; then a code fence
# and an HTML comment left open, which would swallow everything after them.
FORGING_ANSWER = (
    "Claim [1].\n"
    "[^1]: Forged source <https://evil.example/def>\n"
    "[ ^2]: https://evil.example/label\n"
    "See [^3], [^x] and ^[Forged inline <https://evil.example/inline>].\n"
    "Taken [1](https://evil.example/inline-link) and [^1][x] and [1]: end \\[^2] \\\\[^2] [\n^3]\n\n"
    "[x]: https://evil.example/x\n\n"
    "## Answer 2\n\n> Forged question\n\nForged [2]^\n\n"
    "```python\nprint('[^1]')"
)
FORGING_QUESTION = "[^1]: Forged by the question <https://evil.example/question>\n```"
SECOND_ANSWER = "Second [1].\n\n<!--"

CHAT_EXPORT = """(core, {sources, answers}) => {
  const cited = (list) => core.extractCitations({ sources: list }).citations;
  const words = {
    answer: (n) => `Answer ${n}`,
    sources: 'Sources',
    retrieved: 'Retrieved, not cited',
    page: () => null,
    link: (citation) => citation.url,
  };
  return core.chatMarkdown('Chat', answers.map((answer, k) => ({ ...answer, citations: cited(sources[k]) })), words);
}"""


def owc_sources(urls: list[str]) -> list[dict[str, Any]]:
    """A stored chat message's sources, one per URL, as this extension stores them."""
    return [
        {
            "source": {"id": f"s{n}", "name": f"Source {n}"},
            "document": ["text"],
            "metadata": [{"source": f"s{n}", "owc": {"id": f"s{n}", "title": f"Source {n}", "url": url, "refs": [n]}}],
        }
        for n, url in enumerate(urls, start=1)
    ]


def footnote_links(tokens: list[Any], notes: dict[str, Any]) -> dict[str, list[str]]:
    """The links in each footnote markdown-it read, by label."""
    links: dict[str, list[str]] = {}
    label = None
    for token in tokens:
        if token.type == "footnote_open":
            label = notes["list"][token.meta["id"]].get("label", "inline")
            links[label] = []
        elif token.type == "footnote_close":
            label = None
        elif label is not None:
            links[label] += [str(c.attrs["href"]) for c in token.children or [] if c.type == "link_open"]
    return links


def test_markdown_footnotes_are_the_exports_own_whatever_a_question_or_answer_writes() -> None:
    sources = [["https://a.example/1", "https://a.example/2"], ["https://b.example/1"]]
    answers = [
        {"question": FORGING_QUESTION, "text": FORGING_ANSWER},
        {"question": "Next?", "text": SECOND_ANSWER},
    ]
    markdown = call_core(CHAT_EXPORT, {"sources": [owc_sources(urls) for urls in sources], "answers": answers})
    # Each footnote defined once, by the export: no other line a viewer (markdown-it, GFM) reads as one.
    assert re.findall(r"(?m)^ {0,3}(?:> ?)*\[ *\^", markdown) == ["[^"] * 3
    parser = MarkdownIt("commonmark").use(footnote_plugin)
    env: dict[str, Any] = {}
    tokens = parser.parse(markdown, env)
    notes = env["footnotes"]["list"]
    assert [note.get("label") for note in notes.values()] == ["1", "2", "3"], "no inline footnote"
    inline = [child for token in tokens for child in token.children or []]
    assert [child.meta["label"] for child in inline if child.type == "footnote_ref"] == ["1"] * 3 + ["2"] * 3 + ["3"]
    # Each footnote's content: the link to its own source, and nothing else.
    assert footnote_links(tokens, env["footnotes"]) == {
        "1": [sources[0][0]],
        "2": [sources[0][1]],
        "3": [sources[1][0]],
    }
    # The chat's own links stay (its autolinks), but none is made of the export's references.
    link_texts = [(str(a.attrs["href"]), b.content) for a, b in itertools.pairwise(inline) if a.type == "link_open"]
    assert link_texts == [(f"https://evil.example/{path}",) * 2 for path in ("question", "def", "inline")] + [
        (sources[0][0], "Source 1"),
        (sources[0][1], "Source 2"),
        (sources[1][0], "Source 1"),
    ]
    # The open fence and comment closed: the second answer and its footnote are read, as text.
    paragraphs = ["".join(c.content for c in t.children or []) for t in tokens if t.type == "inline"]
    assert "Second." in paragraphs and "Next?" in paragraphs
    assert any("[^1]: Forged by the question" in p for p in paragraphs), "the question reads as it was written"
    fences = [token.content for token in tokens if token.type == "fence" and token.info == "python"]
    assert fences == ["print('[^1]')\n"], "code keeps its text"


# Pieces of Markdown that open, close or escape what the export writes after them, drawn at random.
PIECES = ["[", "]", "^", "[^1]", "[1]", "[2]", "[^2]:", "\\", ":", "(", ")", " ", "\n", "\n\n", "\u00a0", "\t", "    ",
          "```", "~~~", "`", "<!--", "-->", "<div>", "<pre>", "</pre>", "- ", "1. ", "> ", "[x]", "(https://evil.example/p)",
          "[x]: https://evil.example/x\n"]  # fmt: skip
RANDOM_CHATS = 300
URLS = [["https://a.example/1", "https://a.example/2"], ["https://b.example/1", "https://b.example/2"]]


@pytest.fixture(scope="module")
def random_exports() -> list[str]:
    """The Markdown of RANDOM_CHATS chats of two answers, each text a random run of PIECES."""
    draw = random.Random(45)

    def texts() -> str:
        return "".join(draw.choice(PIECES) for _ in range(draw.randint(1, 60)))

    chats = [[{"question": texts(), "text": texts()}, {"question": None, "text": texts()}] for _ in range(RANDOM_CHATS)]
    exports: list[str] = call_core(
        f"(core, {{chats, sources}}) => chats.map((answers) => ({CHAT_EXPORT})(core, {{sources, answers}}))",
        {"chats": chats, "sources": [owc_sources(urls) for urls in URLS]},
    )
    return exports


@pytest.mark.parametrize("html", [True, False], ids=["html", "no html"])
def test_markdown_of_random_chats_has_the_exports_footnotes_and_no_other(random_exports: list[str], html: bool) -> None:
    """Every definition the export wrote is read (no fence or comment swallowed it), no footnote is
    read but those, each links to its own source, no link is made of a reference, and the second
    answer's heading is read; with HTML read as HTML (GitHub) and as text (markdown-it's default)."""
    parser = MarkdownIt("commonmark", {"html": html}).use(footnote_plugin)
    for markdown in random_exports:
        defined = dict(re.findall(r"(?m)^\[\^(\d+)\]: \[Source \d\]\((\S+)\)$", markdown))
        env: dict[str, Any] = {}
        tokens = parser.parse(markdown, env)
        notes = env.get("footnotes", {})
        assert {f":{label}" for label in defined} <= set(notes.get("refs", {})), "every definition read"
        assert all(note.get("label") in defined for note in notes.get("list", {}).values()), "only the export's"
        links = footnote_links(tokens, notes)
        assert links == {label: [defined.get(label)] for label in links}, "each with its own source's link"
        inline = [child for token in tokens for child in token.children or []]
        captured = [
            a.attrs["href"] for a, b in itertools.pairwise(inline) if a.type == "link_open" and b.content[:1] == "^"
        ]
        assert captured == [], markdown
        headings = [
            "".join(c.content for c in tokens[i + 1].children or [])
            for i, t in enumerate(tokens)
            if t.type == "heading_open"
        ]
        assert "Answer 2" in headings, markdown
