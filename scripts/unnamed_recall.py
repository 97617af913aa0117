"""How much of the unnamed-backends corpus the built core reads, the way the page reads it.

    python scripts/unnamed_recall.py corpus/unnamed/build [--json OUT]    # make recall

For each corpus file and mode (its non-streamed body, its streamed lines), what the page's capture
layer would hold: the body, or each streamed event, added to the core's accumulator as Open WebUI's
socket hands them over (capture/hub.ts), the finished answer's own text read too, the two chosen
between by the core's precedence, and the answer's markers linked (ui/message.ts). Then, against
what the file says a user must see: sources expected and found (matched by url, else title, a
file's path also by its last segment, in any order) and citations expected and placed (the marker
written in the answer, linked to the source it names). A mode the backend does not answer in (null)
is skipped and said. Needs `npm run build` (extension/dist/core.mjs).
"""

import argparse
import json
import re
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from devstack.built_core import call_core
from mock_server.corpus import Backend
from mock_server.corpus import ExpectedSource
from mock_server.corpus import load_corpus

MODES = ("non_streamed", "streamed")

# The page's chain for one answer (capture/hub.ts `citations`, ui/message.ts): what streamed, or the
# body, in the accumulator; the finished text read apart; the core's precedence between them (no
# stored copy yet); the markers of the text shown linked to the citations chosen.
READ_AS_THE_PAGE = """(core, answers) => answers.map(({ events, answer }) => {
  const accumulator = core.createAccumulator();
  for (const event of events) accumulator.add(event);
  const text = accumulator.text() || answer;
  const chosen = core.chooseCitations({
    streamed: accumulator.result(),
    written: () => core.extractCitations({ choices: [{ message: { content: text } }] }),
    stored: () => null,
  });
  return {
    format: chosen.format,
    text,
    citations: chosen.citations.map((c) => ({ index: c.index, title: c.title, url: c.url, snippet: c.snippet })),
    spans: core.linkMarkers(text, chosen.citations).filter((s) => s.kind !== 'hide')
      .map((s) => ({ kind: s.kind, start: s.start, end: s.end, indices: s.indices })),
    hidden: core.linkMarkers(text, chosen.citations).filter((s) => s.kind === 'hide')
      .map((s) => ({ start: s.start, end: s.end })),
  };
})"""


def relayed_ollama(lines: list[str], api: str) -> list[dict[str, Any]]:
    """Ollama's body, or its NDJSON lines, as what reaches the page: Open WebUI turns each object into
    an OpenAI chunk holding its text only (utils/response.py convert_response_ollama_to_openai and
    convert_streaming_response_ollama_to_openai); nothing else of it is relayed."""
    chunks = []
    for line in lines:
        value = json.loads(line)
        text = value.get("response") if api == "ollama-generate" else (value.get("message") or {}).get("content")
        chunks.append({"choices": [{"index": 0, "delta": {"content": text or ""}}]})
    return chunks


def page_events(backend: Backend, mode: str) -> list[Any]:
    if mode == "non_streamed":
        body = backend.non_streamed or ""
        return relayed_ollama([body], backend.api) if backend.ollama else [json.loads(body)]
    events = backend.streamed_events()
    return relayed_ollama(events, backend.api) if backend.ollama else list(events)


@dataclass
class Row:
    slug: str
    mode: str
    format: str | None = None
    sources_expected: int = 0
    sources_found: int = 0
    # Sources the core reported that match none expected.
    sources_other: int = 0
    citations_expected: int = 0
    citations_placed: int = 0
    missed_sources: list[str] = field(default_factory=list)
    missed_citations: list[str] = field(default_factory=list)


def same(field_name: str, read: Any, expected: str) -> bool:
    """Whether a field read is the one expected: a url as it opens (the core percent-encodes what
    the backend wrote raw, `/wiki/屋顶绿化`); a title as written or, for a file's path, its last
    segment (the core shows `docs/workers/pricing.md` as `pricing.md`); any other field as written."""
    if field_name == "url" and isinstance(read, str):
        return unquote(read) == unquote(expected)
    if field_name == "title":
        return read in (expected, re.split(r"[/\\]", expected)[-1])
    return bool(read == expected)


def found_for(expected: ExpectedSource, citations: list[dict[str, Any]], taken: set[int]) -> int | None:
    """The index of the citation that is this expected source: the same url, else the same title (else,
    for a source with neither, the same text)."""
    keys = [("url", expected.url), ("title", expected.title)] if expected.url or expected.title else []
    for field_name, value in keys or [("snippet", expected.text)]:
        for citation in citations:
            if value and citation["index"] not in taken and same(field_name, citation[field_name], value):
                return int(citation["index"])
    return None


def placed(marker: str, occurrence: int, index: int | None, read: dict[str, Any]) -> bool:
    """Whether the `occurrence`-th time the answer writes `marker`, a marker linked to `index` covers it."""
    text: str = read["text"]
    hidden = [(span["start"], span["end"]) for span in read.get("hidden", [])]
    start = -1
    for _ in range(occurrence + 1):
        start = text.find(marker, start + 1)
        # A list of sources the page hides is not what the answer cites: its numbers are skipped.
        while start >= 0 and any(begin <= start < end for begin, end in hidden):
            start = text.find(marker, start + 1)
        if start < 0:
            return False
    end = start + len(marker)
    return index is not None and any(
        span["start"] < end and start < span["end"] and index in span["indices"] for span in read["spans"]
    )


def score(backend: Backend, mode: str, read: dict[str, Any]) -> Row:
    expected = backend.expected
    row = Row(backend.slug, mode, read["format"], len(expected.sources), citations_expected=len(expected.citations))
    taken: set[int] = set()
    matched: list[int | None] = []
    for source in expected.sources:
        index = found_for(source, read["citations"], taken)
        matched.append(index)
        if index is None:
            row.missed_sources.append(source.url or source.title or source.text or "")
        else:
            taken.add(index)
    row.sources_found = len(taken)
    row.sources_other = len(read["citations"]) - len(taken)
    seen: dict[str, int] = {}
    for citation in expected.citations:
        occurrence = seen.get(citation.marker, 0)
        seen[citation.marker] = occurrence + 1
        if placed(citation.marker, occurrence, matched[citation.source - 1], read):
            row.citations_placed += 1
        else:
            row.missed_citations.append(citation.marker)
    return row


def read_corpus(backends: list[Backend]) -> tuple[list[tuple[Backend, str, dict[str, Any]]], list[str]]:
    """What the core reads of every file and mode it answers in (one node process); the modes skipped."""
    cases = [(backend, mode) for backend in backends for mode in MODES if getattr(backend, mode) is not None]
    skipped = [f"{backend.slug} {mode}" for backend in backends for mode in MODES if getattr(backend, mode) is None]
    reads = call_core(
        READ_AS_THE_PAGE,
        [{"events": page_events(backend, mode), "answer": backend.answer} for backend, mode in cases],
    )
    return [(backend, mode, read) for (backend, mode), read in zip(cases, reads, strict=True)], skipped


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def measure(directory: Path) -> dict[str, Any]:
    reads, skipped = read_corpus(load_corpus([directory]))
    rows = [score(backend, mode, read) for backend, mode, read in reads]
    totals = {
        key: sum(getattr(row, key) for row in rows)
        for key in ("sources_expected", "sources_found", "sources_other", "citations_expected", "citations_placed")
    }
    return {
        "directory": str(directory),
        "rows": [asdict(row) for row in rows],
        "skipped": skipped,
        "totals": totals,
        "source_recall": ratio(totals["sources_found"], totals["sources_expected"]),
        "citation_recall": ratio(totals["citations_placed"], totals["citations_expected"]),
    }


def table(result: dict[str, Any]) -> str:
    lines = [f"{'backend':34} {'mode':13} {'format':24} sources  citations  other"]
    for row in result["rows"]:
        lines.append(
            f"{row['slug']:34} {row['mode']:13} {row['format'] or '-':24} "
            f"{row['sources_found']:>3}/{row['sources_expected']:<3}  {row['citations_placed']:>3}/"
            f"{row['citations_expected']:<3}     {row['sources_other']}"
        )
    totals = result["totals"]
    lines.append(
        f"source recall {totals['sources_found']}/{totals['sources_expected']} = {result['source_recall']}, "
        f"citation recall {totals['citations_placed']}/{totals['citations_expected']} = {result['citation_recall']}, "
        f"other sources reported {totals['sources_other']} ({len(result['rows'])} backend-modes)"
    )
    if result["skipped"]:
        lines.append("skipped (the backend does not answer so): " + ", ".join(result["skipped"]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--json", type=Path, help="also write the rows and totals here")
    args = parser.parse_args()
    result = measure(args.directory)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
