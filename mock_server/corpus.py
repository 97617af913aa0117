"""The unnamed-backends corpus (corpus/unnamed/, schema in its README): one YAML file a real backend,
its wire format read from its own code, with what a user must see. Loaded as typed data by the mock
server (which serves each file as a model) and by the recall harness (scripts/unnamed_recall.py)."""

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import model_validator

ROOT = Path(__file__).resolve().parent.parent
# The half the reader was built from, and the half held out from it until it was measured once
# (corpus/unnamed/README.md gives that measure); since, both are served and checked alike.
BUILD_DIR = ROOT / "corpus" / "unnamed" / "build"
HELD_OUT_DIR = ROOT / "corpus" / "unnamed" / "held-out"
# What the mock server serves unless told (`--corpus DIR`), and what the dev stack's Open WebUI lists.
DEFAULT_CORPUS_DIRS: tuple[Path, ...] = (BUILD_DIR, HELD_OUT_DIR)
MODEL_PREFIX = "unnamed-"

Api = Literal["openai-chat", "ollama-chat", "ollama-generate"]
OLLAMA_APIS: tuple[Api, ...] = ("ollama-chat", "ollama-generate")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReadFrom(_Strict):
    """A file of a repository at a commit; or, with no commit, a file of a released package or of this
    project (the repository names which)."""

    repository: str = Field(min_length=1)
    path: str = Field(min_length=1)
    commit: str | None = Field(pattern=r"^[0-9a-f]{40}$")


class ReadFromPage(_Strict):
    """A hosted API's documentation page."""

    address: str = Field(pattern=r"^https://\S+$")


class ExpectedSource(_Strict):
    """Only the fields the backend sends."""

    title: str | None = None
    url: str | None = None
    text: str | None = None
    page: int | str | None = None
    score: float | None = None

    @model_validator(mode="after")
    def _named(self) -> "ExpectedSource":
        if not (self.title or self.url or self.text):
            raise ValueError("a source has a title, a url or a text")
        return self


class ExpectedCitation(_Strict):
    marker: str = Field(min_length=1, description="the marker as the answer writes it")
    source: int = Field(ge=1, description="1-based position in expected.sources")


class Expected(_Strict):
    sources: list[ExpectedSource]
    citations: list[ExpectedCitation]


class Backend(_Strict):
    """One corpus file."""

    slug: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="the file's name, without .yaml")
    name: str = Field(min_length=1)
    kind: Literal["rag-server", "gateway", "agent", "hosted-api", "search-engine"]
    api: Api
    read_from: list[ReadFrom | ReadFromPage] = Field(min_length=1)
    request: str
    non_streamed: str | None = Field(description="the JSON body it answers, or null")
    streamed: str | None = Field(description="SSE lines (NDJSON for Ollama) it sends, or null")
    answer: str
    expected: Expected
    notes: str

    @model_validator(mode="after")
    def _consistent(self) -> "Backend":
        if not any(isinstance(place, ReadFrom) and place.commit for place in self.read_from):
            raise ValueError("read_from names one repository file at a commit at least")
        if self.non_streamed is None and self.streamed is None:
            raise ValueError("a backend answers in one mode at least")
        for citation in self.expected.citations:
            if citation.source > len(self.expected.sources):
                raise ValueError(f"citation {citation.marker!r} names source {citation.source}, which is not listed")
            if citation.marker not in self.answer:
                raise ValueError(f"citation {citation.marker!r} is not in the answer")
        return self

    @property
    def model_id(self) -> str:
        return MODEL_PREFIX + self.slug

    @property
    def ollama(self) -> bool:
        return self.api in OLLAMA_APIS

    def streamed_events(self) -> list[str]:
        """The streamed lines as the events they make: an NDJSON line each; for SSE, each `data:` line
        with the `event:` line before it, if any (the file writes them without blank lines between)."""
        lines = (self.streamed or "").splitlines()
        if self.ollama:
            return [line for line in lines if line.strip()]
        events: list[str] = []
        pending: list[str] = []
        for line in lines:
            if line.startswith("event:"):
                pending = [line]
            elif line.startswith("data:"):
                events.append("\n".join([*pending, line]))
                pending = []
        return events


class CorpusError(Exception):
    """A corpus file that cannot be read; the message starts with the file's path."""


def load_backend(path: Path) -> Backend:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the file must hold a mapping at the top level")
        return Backend.model_validate({"slug": path.stem, **data})
    except (OSError, ValueError, yaml.YAMLError) as error:  # pydantic's ValidationError is a ValueError
        raise CorpusError(f"{path}: {error}") from error


def load_corpus(directories: list[Path]) -> list[Backend]:
    """Every file of the directories, by name; a name twice is an error (one model a backend)."""
    backends = [load_backend(path) for directory in directories for path in sorted(directory.glob("*.yaml"))]
    slugs = [backend.slug for backend in backends]
    twice = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if twice:
        raise CorpusError(f"backends in more than one directory: {', '.join(twice)}")
    return backends
