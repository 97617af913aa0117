"""The README's and docs/formats.md's producer tables are the scenario files' (scripts/producer_tables.py)."""

from mock_server.registry import load_scenarios
from scripts.producer_tables import pages


def test_every_built_in_scenario_says_how_the_docs_name_it() -> None:
    assert [name for name, s in load_scenarios().items() if s.docs is None] == []


def test_the_producer_tables_are_the_scenarios() -> None:
    stale = [path.name for path, text in pages().items() if path.read_text() != text]
    assert stale == [], "run make producer-tables"
