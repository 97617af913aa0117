"""The generated half of the ordinary corpus is what scripts/ordinary_corpus.py writes (seeded), not edited by hand."""

from pathlib import Path

from scripts.ordinary_corpus import FIXTURES
from scripts.ordinary_corpus import main


def test_the_generated_fixtures_are_the_generators(tmp_path: Path) -> None:
    main(tmp_path)
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["ordinary-answers.json", "ordinary-payloads-generated.json"]
    stale = [name for name in written if (tmp_path / name).read_bytes() != (FIXTURES / name).read_bytes()]
    assert stale == [], "run python scripts/ordinary_corpus.py"
