"""The unnamed-backends corpus to build from (corpus/unnamed/build/) holds to its schema, and the recall
harness reads it through the built core without inventing a source. No recall figure is asserted:
the reader being built moves it (`make recall` prints it)."""

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from pydantic import ValidationError

from devstack.built_core import CORE
from mock_server.corpus import BUILD_DIR
from mock_server.corpus import DEFAULT_CORPUS_DIRS
from mock_server.corpus import Backend
from mock_server.corpus import ExpectedSource
from mock_server.corpus import load_backend
from scripts.unnamed_recall import MODES
from scripts.unnamed_recall import found_for
from scripts.unnamed_recall import measure
from scripts.unnamed_recall import read_corpus

FILES = sorted(path for directory in DEFAULT_CORPUS_DIRS for path in directory.glob("*.yaml"))


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return []


def sent_text(backend: Backend) -> str:
    """Everything the backend sends and the answer shows, raw and with its JSON strings decoded
    (a JSON body writes "é" as \\u00e9, "/" as \\/)."""
    pieces = [backend.answer, backend.non_streamed or "", backend.streamed or ""]
    documents = [backend.non_streamed or ""]  # one JSON document (or Ollama's lines)
    documents += [line.removeprefix("data:") for line in (backend.streamed or "").splitlines()]
    for document in documents:
        for line in document.splitlines() if backend.ollama else [document]:
            try:
                pieces.extend(strings(json.loads(line)))
            except ValueError:  # "[DONE]", an `event:` line
                continue
    return "\n".join(pieces)


# The title the core gives a source that has none (core/i18n.ts, English).
UNTITLED = "Untitled source"


def invented(backend: Backend, citations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sources read that the backend did not send: a link it never wrote, or, without a link, a
    title it never wrote (a title made from a link is the link's), or, without either, a text. A
    link as it opens: the core percent-encodes what the backend wrote raw (`/wiki/屋顶绿化`)."""
    sent = sent_text(backend)
    return [
        c
        for c in citations
        if (unquote(c["url"]) if c["url"] else ((c["snippet"] or UNTITLED) if c["title"] == UNTITLED else c["title"]))
        not in sent
    ]


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_every_file_holds_to_the_schema(path: Path) -> None:
    backend = load_backend(path)  # required keys, types, read_from at a 40-hex commit, citations in the answer
    sent = sent_text(backend)
    for source in backend.expected.sources:  # what a user must see is what the backend sends
        assert source.url is None or source.url in sent, source.url
        assert (source.title or source.text or "") in sent or source.url, source
    for mode in MODES:
        wire = getattr(backend, mode)
        if wire is not None and not backend.ollama and mode == "non_streamed":
            assert isinstance(json.loads(wire), dict)


def test_the_build_half_is_there() -> None:
    assert len(FILES) >= 10  # a wrong directory would check nothing


def build_fields(**changes: Any) -> dict[str, Any]:
    fields = load_backend(FILES[0]).model_dump()
    return {**fields, **changes}


@pytest.mark.parametrize(
    "changes",
    [
        {"read_from": [{"repository": "a/b", "path": "x.py", "commit": "abc123"}]},
        {"read_from": [{"address": "https://docs.example/api"}]},
        {"expected": {"sources": [{"title": "T"}], "citations": [{"marker": "[2]", "source": 2}]}},
        {"expected": {"sources": [{"title": "T"}], "citations": [{"marker": "[never written]", "source": 1}]}},
        {"non_streamed": None, "streamed": None},
        {"api": "anthropic"},
        {"sources": []},
    ],
    ids=["short-commit", "no-commit", "unlisted-source", "marker-not-in-answer", "no-mode", "api", "unknown-key"],
)
def test_a_file_off_the_schema_is_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Backend.model_validate(build_fields(**changes))


@pytest.fixture(scope="module")
def reads() -> list[tuple[Backend, str, dict[str, Any]]]:
    assert CORE.exists(), "build the extension first: npm run --silent build"
    return read_corpus([load_backend(path) for path in FILES])[0]


def test_the_core_invents_no_source(reads: list[tuple[Backend, str, dict[str, Any]]]) -> None:
    for backend, mode, read in reads:
        assert invented(backend, read["citations"]) == [], f"{backend.slug} {mode}"


def test_a_source_the_backend_never_sent_is_caught() -> None:
    backend = load_backend(FILES[0])
    made_up = {"index": 1, "title": "Nowhere in the body", "url": "https://made-up.example/"}
    assert invented(backend, [made_up]) == [made_up]
    assert invented(backend, [{**made_up, "url": None}]) == [{**made_up, "url": None}]


def test_the_harness_reads_every_mode_a_backend_answers_in() -> None:
    assert CORE.exists(), "build the extension first: npm run --silent build"
    result = measure(BUILD_DIR)
    backends = [load_backend(path) for path in sorted(BUILD_DIR.glob("*.yaml"))]
    answered = [(b.slug, mode) for b in backends for mode in MODES if getattr(b, mode) is not None]
    assert [(row["slug"], row["mode"]) for row in result["rows"]] == answered
    assert len(result["skipped"]) == 2 * len(backends) - len(answered)
    for row in result["rows"]:
        assert 0 <= row["sources_found"] <= row["sources_expected"]
        assert 0 <= row["citations_placed"] <= row["citations_expected"]
    totals = result["totals"]
    assert totals["sources_expected"] == sum(len(b.expected.sources) for b in backends for m in MODES if getattr(b, m))


def test_a_file_path_shown_by_its_last_segment_is_the_source_expected() -> None:
    """The core shows a path by its file's name (Cloudflare AI Search's `docs/workers/pricing.md` as
    `pricing.md`): that counts; another file's name, or a name only ending the same way, does not."""
    expected = ExpectedSource(title="docs/workers/platform/pricing.md")
    shown = [{"index": 1, "title": "limits.md", "url": None}, {"index": 2, "title": "pricing.md", "url": None}]
    assert found_for(expected, shown, set()) == 2
    assert found_for(expected, shown, {2}) is None
    assert found_for(expected, [{"index": 1, "title": "old-pricing.md", "url": None}], set()) is None
    longer = [{"index": 1, "title": "docs/pricing.md", "url": None}]
    assert found_for(ExpectedSource(title="pricing.md"), longer, set()) is None
