"""Checks that every named producer is whole: its folder's pieces exist and agree with each other and
with the core (docs/contributing.md, "Adding a producer"). One message per missing or disagreeing
piece, naming the file to add or change.

    python scripts/verify_producers.py    # make verify-producers; tests/test_verify_producers.py runs it

What it checks, for each folder producers/<name>/:
- scenario.yaml loads and says how the docs name it (`docs:`), and the docs' tables are generated;
- hostile.yaml: the hostile twin, `extends: <name>`, with its `hostile:` checks;
- malformed*.yaml (optional): each loads;
- expected.json: one entry per scenario of the folder (the scenario and its variants) when the mock
  serves it to Open WebUI directly; its `format` is registered in core/formats/index.ts, has its parser
  core/formats/<format>.ts or its declaration producers/<format>/declaration.json; a scenario only a
  LiteLLM proxy relays has its recorded answers in core/fixtures/litellm/ instead;
- declaration.json (a built-in written as a declaration): valid by the core's own validator, one
  backend without models, registered in FORMATS by `builtInDeclaration('<name>', …)`;
- seen.json: one entry per scenario of the folder, recorded on every Open WebUI line in
  test-support/markup/ (streamed and not, live and reloaded) unless tests/e2e/limits.py names a gap.
And for every format of core/formats/index.ts, a wire shape in test-support/hostile.ts WIRE_FORMATS.
"""

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from devstack.litellm import proxied
from mock_server.registry import MALFORMED
from mock_server.registry import PRODUCERS
from mock_server.registry import ScenarioError
from mock_server.registry import load_file
from mock_server.registry import load_scenarios
from mock_server.scenarios import Scenario
from scripts.producer_tables import pages
from tests.e2e.limits import gap_for

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ROOT / "extension" / "src" / "core" / "formats"
REGISTRY = FORMATS / "index.ts"
WIRE_SHAPES = ROOT / "extension" / "test-support" / "hostile.ts"
MARKUP = ROOT / "extension" / "test-support" / "markup"
LITELLM_ANSWERS = ROOT / "extension" / "src" / "core" / "fixtures" / "litellm"


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def registered_formats() -> list[str]:
    """The formats of core/formats/index.ts's FORMATS, by the name of their file (the format's name), or
    the name a built-in declaration is registered under."""
    text = REGISTRY.read_text()
    files = dict(re.findall(r"^import \{ (\w+) \} from '\./([\w-]+)\.js';$", text, re.MULTILINE))
    listed = text[text.index("export const FORMATS") :]
    entries = re.findall(r"^  (?:(\w+)|builtInDeclaration\('([\w-]+)', \w+\)),", listed, re.MULTILINE)
    return [files.get(ident) or name for ident, name in entries if ident in files or name]


# The core's own validator, run on the source (tsx), so that no build is needed to lint.
CHECK_DECLARATIONS = """
import { readFileSync } from 'node:fs';
import { builtInDeclarationProblems } from './extension/src/core/declared-read.ts';
const check = (file) => {
  try {
    return builtInDeclarationProblems(JSON.parse(readFileSync(file, 'utf8'))).problems;
  } catch (error) {
    return [`not JSON: ${error.message}`];
  }
};
process.stdout.write(JSON.stringify(JSON.parse(readFileSync(0, 'utf8')).map(check)));
"""


def declaration_problems(files: list[Path]) -> Iterator[str]:
    """Each producers/<name>/declaration.json checked by the core, and registered under its folder's name."""
    if not files:
        return
    done = subprocess.run(
        ["node", "--import", "tsx", "--input-type=module", "-e", CHECK_DECLARATIONS],
        input=json.dumps([str(file) for file in files]),
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    registered = registered_formats()
    for file, found in zip(files, json.loads(done.stdout), strict=True):
        yield from (f"{rel(file)}: {problem}" for problem in found)
        name = file.parent.name
        if name not in registered:
            yield f"{rel(REGISTRY)}: add builtInDeclaration({name!r}, …) to FORMATS, for {rel(file)}"


def wire_shapes() -> set[str]:
    """The formats test-support/hostile.ts has a fast-check wire shape for (WIRE_FORMATS' keys)."""
    text = WIRE_SHAPES.read_text()
    block = text[text.index("export const WIRE_FORMATS") :]
    block = block[: block.index("\n};")]
    return {key.strip("'") for key in re.findall(r"^  ('[\w-]+'|\w+):", block, re.MULTILINE)}


def recordings() -> dict[str, tuple[tuple[int, ...], set[tuple[str, bool, str]]]]:
    """Each recorded line's file: its Open WebUI version and the answers recorded on it."""
    found = {}
    for path in sorted(MARKUP.glob("*.json")):
        recorded = json.loads(path.read_text())
        answers = {(a["model"], a["stream"], a["phase"]) for a in recorded["answers"]}
        found[rel(path)] = (tuple(recorded["openWebui"]), answers)
    return found


def read_json(path: Path) -> tuple[dict | None, str | None]:
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return None, f"{rel(path)}: {error}"
    return (value, None) if isinstance(value, dict) else (None, f"{rel(path)}: must hold one entry per scenario")


def entries_problems(path: Path, names: list[str], what: str) -> Iterator[str]:
    entries, problem = read_json(path)
    if problem or entries is None:
        yield problem or ""
        return
    for name in names:
        if name not in entries:
            yield f"{rel(path)}: add an entry for scenario {name!r} ({what})"
    for name in entries:
        if name not in names:
            yield f"{rel(path)}: entry {name!r} names no scenario of {rel(path.parent / 'scenario.yaml')}"


def verify_folder(folder: Path, known: dict[str, Scenario]) -> Iterator[str]:
    name = folder.name
    scenario_file = folder / "scenario.yaml"
    if not scenario_file.exists():
        yield f"{rel(scenario_file)}: missing: the producer's answer as data (python scripts/new_producer.py {name})"
        return
    try:
        scenarios = load_file(scenario_file, known)
    except ScenarioError as error:
        yield str(error)
        return
    names = [s.name for s in scenarios]
    if scenarios[0].docs is None:
        yield f"{rel(scenario_file)}: add `docs:` (name, product, sources), how the README and docs/formats.md name it"

    yield from hostile_problems(folder / "hostile.yaml", {**known, **{s.name: s for s in scenarios}})

    if scenarios[0].speaks_openai or scenarios[0].speaks_ollama:
        yield from expectation_problems(folder / "expected.json", names)
    else:
        for scenario in scenarios:
            for suffix in ("json", "sse"):
                answer = LITELLM_ANSWERS / f"{scenario.name}.{suffix}"
                if scenario.name in proxied(known) and not answer.exists():
                    yield f"{rel(answer)}: missing: LiteLLM's answer for the core's tests (make record-litellm)"

    seen = folder / "seen.json"
    if not seen.exists():
        yield f"{rel(seen)}: missing: what a user sees of each scenario (buttons, sources, title…)"
    else:
        yield from entries_problems(seen, names, "what a user sees of it")
        yield from markup_problems(names)


def hostile_problems(path: Path, known: dict[str, Scenario]) -> Iterator[str]:
    if not path.exists():
        yield f"{rel(path)}: missing: the hostile twin (`extends: {path.parent.name}`, payloads in every field)"
        return
    try:
        twin = load_file(path, known)[0]
    except ScenarioError as error:
        yield str(error)
        return
    if twin.hostile is None:
        yield f"{rel(path)}: add `hostile:` (stream, buttons, titles), how tests/e2e/test_hostile.py checks it"


def expectation_problems(path: Path, names: list[str]) -> Iterator[str]:
    if not path.exists():
        yield f"{rel(path)}: missing: the core's expectations of each scenario (format, titles, spans)"
        return
    yield from entries_problems(path, names, "the core's expectations")
    entries, _ = read_json(path)
    formats = registered_formats()
    for model, entry in (entries or {}).items():
        fmt = entry.get("format") if isinstance(entry, dict) else None
        if fmt is None:
            continue  # a variant's (`like`) is its scenario's
        if not (FORMATS / f"{fmt}.ts").exists() and not (PRODUCERS / fmt / "declaration.json").exists():
            yield f"{rel(FORMATS / f'{fmt}.ts')}: missing: the parser of format {fmt!r} ({model}'s)"
        if fmt not in formats:
            yield f"{rel(REGISTRY)}: add format {fmt!r} to FORMATS ({model}'s), before the formats it must precede"


def markup_problems(names: list[str]) -> Iterator[str]:
    for recording, (version, answers) in recordings().items():
        for model in names:
            missing = [
                f"{'streamed' if stream else 'not streamed'} {phase}"
                for stream in (True, False)
                if not gap_for(model, stream, version)
                for phase in ("live", "reloaded")
                if (model, stream, phase) not in answers
            ]
            if missing:
                line = ".".join(map(str, version))
                yield (
                    f"{recording}: {model!r} is not recorded ({', '.join(missing)}): "
                    f"make record-markup OWUI_VERSION={line}, or a gap in tests/e2e/limits.py"
                )


def problems() -> list[str]:
    """Every piece missing or disagreeing, over every producer folder, then the generated docs."""
    try:
        known = load_scenarios()
        load_scenarios([MALFORMED])
    except ScenarioError as error:
        return [str(error)]
    found = [
        problem
        for folder in sorted(p for p in PRODUCERS.iterdir() if p.is_dir())
        for problem in verify_folder(folder, known)
    ]
    found += declaration_problems(sorted(PRODUCERS.glob("*/declaration.json")))
    shapes = wire_shapes()
    found += [
        f"{rel(WIRE_SHAPES)}: add a wire shape for {fmt!r} to WIRE_FORMATS (the core's property tests)"
        for fmt in registered_formats()
        if fmt not in shapes
    ]
    stale = [rel(path) for path, text in pages().items() if path.read_text() != text]
    if stale:
        found.append(f"{', '.join(stale)}: the producer tables are not the scenarios': run make producer-tables")
    return found


def main() -> int:
    found = problems()
    for problem in found:
        print(problem)
    print(f"{len(found)} problem(s)" if found else "every producer is whole", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
