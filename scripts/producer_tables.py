"""The producer tables of the README and docs/formats.md, from the scenario files: one row per file
(its variants with it), in the words of its `docs` entry.

    python scripts/producer_tables.py           # rewrites both tables (make producer-tables)
    python scripts/producer_tables.py --check   # fails when a table is not what the scenarios say
"""

import argparse
import sys
from pathlib import Path

from mock_server.registry import BUILT_IN_SCENARIOS
from mock_server.registry import load_file
from mock_server.registry import load_scenarios
from mock_server.registry import scenario_files as files_of
from mock_server.scenarios import Scenario

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- producers:start (scripts/producer_tables.py) -->", "<!-- producers:end -->"


def scenario_files() -> list[list[Scenario]]:
    """Each built-in scenario file's scenarios, the file's own first, in the order of the files' names."""
    known = load_scenarios()
    return [load_file(path, known) for path in files_of(BUILT_IN_SCENARIOS)]


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def ids(scenarios: list[Scenario], model_ids: bool) -> str:
    """The scenarios' names; as model ids, an Ollama model's with its tag, as Open WebUI lists it."""
    return ", ".join(f"`{s.name}:latest`" if model_ids and s.speaks_ollama else f"`{s.name}`" for s in scenarios)


def readme_table(files: list[list[Scenario]]) -> list[str]:
    rows = [f"| {cell(f[0].docs.name)} | {ids(f, model_ids=True)} |" for f in files if f[0].docs]
    return ["| producer | scenario (model id in `make demo`) |", "|---|---|", *rows]


def formats_table(files: list[list[Scenario]]) -> list[str]:
    rows = [f"| {ids(f, False)} | {cell(f[0].docs.product)} | {cell(f[0].docs.sources)} |" for f in files if f[0].docs]
    return ["| scenario (model id) | producer | where the sources are |", "|---|---|---|", *rows]


def with_table(page: str, table: list[str]) -> str:
    before, rest = page.split(START, 1)
    _, after = rest.split(END, 1)
    return "\n".join([before + START, *table, END + after])


def pages() -> dict[Path, str]:
    """Each page as the scenarios make it."""
    files = scenario_files()
    readme, formats = ROOT / "README.md", ROOT / "docs" / "formats.md"
    return {
        readme: with_table(readme.read_text(), readme_table(files)),
        formats: with_table(formats.read_text(), formats_table(files)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the tables are up to date")
    args = parser.parse_args()
    stale = [path for path, text in pages().items() if path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)}: its producer table is not the scenarios' (make producer-tables)")
        return 1 if stale else 0
    for path, text in pages().items():
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
