"""Checks that every named producer is whole: its folder's pieces exist and agree with each other and
with the core (docs/contributing.md, "Adding a producer"). One message per missing or disagreeing
piece, naming the file to add or change.

    python scripts/verify_producers.py    # make verify-producers; tests/test_verify_producers.py runs it

What it checks, for each folder producers/<name>/:
- scenario.yaml loads and says how the docs name it (`docs:`), and the docs' tables are generated;
- hostile.yaml: the hostile twin, `extends: <name>`, with its `hostile:` checks;
- malformed*.yaml (optional): each loads;
- expected.json: one entry per scenario of the folder (the scenario and its variants) when the mock
  serves it to Open WebUI directly; its `format` has its parser, producers/<format>/format.ts (or, for
  the core's own readers, extension/src/core/formats/<format>.ts), or its declaration
  producers/<format>/declaration.json; a scenario only a LiteLLM proxy relays has its recorded answers
  in core/fixtures/litellm/ instead;
- declaration.json (a built-in written as a declaration): valid by the core's own validator, one
  backend without models, registered in FORMATS by `builtInDeclaration('<name>', …)`;
- seen.json: one entry per scenario of the folder, recorded on every Open WebUI line in
  test-support/markup/ (streamed and not, live and reloaded) unless devstack/limits.py names a gap;
- format.ts (when the producer has its own format): a Format named as the folder, registered in
  core/formats/index.ts, with its wire shape for the property tests beside it (shape.ts); every .ts of
  the folder imports only the core, relatively (the parser is part of the pure core, bundled as such),
  and its tests and shape also node:, fast-check and extension/test-support/.
And for every format of core/formats/index.ts, a wire shape: its folder's shape.ts, or for the core's own
readers an entry of CORE_WIRE_FORMATS in extension/test-support/hostile.ts.
"""

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from devstack.limits import gap_for
from devstack.litellm import proxied
from mock_server.registry import MALFORMED
from mock_server.registry import PRODUCERS
from mock_server.registry import ScenarioError
from mock_server.registry import load_file
from mock_server.registry import load_scenarios
from mock_server.scenarios import Scenario
from scripts.producer_tables import pages

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "extension" / "src" / "core"
FORMATS = CORE / "formats"  # the core's own readers, of no producer
REGISTRY = FORMATS / "index.ts"
TEST_SUPPORT = ROOT / "extension" / "test-support"
CORE_WIRE_SHAPES = TEST_SUPPORT / "hostile.ts"
PARSER, SHAPE = "format.ts", "shape.ts"  # in producers/<name>/
IMPORTED = re.compile(r"(?:\bfrom|^import|\bimport\()\s*'([^']*)'", re.MULTILINE)
TEST_PACKAGES = re.compile(r"^(node:[\w/]+|fast-check)$")
MARKUP = ROOT / "extension" / "test-support" / "markup"
LITELLM_ANSWERS = ROOT / "extension" / "src" / "core" / "fixtures" / "litellm"


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def registered_formats() -> list[str]:
    """The formats of core/formats/index.ts's FORMATS, by the name of their file or folder (the format's
    name): `./<format>.js` for the core's own readers, `producers/<format>/format.js` for a producer's; or
    the name a built-in declaration is registered under."""
    text = REGISTRY.read_text()
    imports = re.findall(
        r"^import \{ (\w+) \} from '(?:\./([\w-]+)|(?:\.\./){4}producers/([\w-]+)/format)\.js';$", text, re.MULTILINE
    )
    files = {ident: core or producer for ident, core, producer in imports}
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


def parser_file(fmt: str, producers: Path) -> Path:
    """Where format `fmt`'s parser is: its producer's folder, or the core's own readers."""
    own = producers / fmt / PARSER
    return own if own.exists() or not (FORMATS / f"{fmt}.ts").exists() else FORMATS / f"{fmt}.ts"


def core_wire_shapes() -> set[str]:
    """The core's own readers with a fast-check wire shape in test-support/hostile.ts (CORE_WIRE_FORMATS'
    keys); a producer's is its folder's shape.ts."""
    text = CORE_WIRE_SHAPES.read_text()
    block = text[text.index("export const CORE_WIRE_FORMATS") :]
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

    yield from code_problems(folder)


def code_problems(folder: Path) -> Iterator[str]:
    """The producer's own format, when it has one: named as its folder, registered, with its shape;
    and every .ts of the folder importing only what the pure core may."""
    parser = folder / PARSER
    if parser.exists():
        named = re.search(r"^  name: '([\w-]+)',$", parser.read_text(), re.MULTILINE)
        if named is None or named.group(1) != folder.name:
            yield f"{rel(parser)}: its Format's name must be its folder's, {folder.name!r} (expected.json's `format`)"
        elif folder.name not in registered_formats():
            yield f"{rel(REGISTRY)}: add format {folder.name!r} to FORMATS, before the formats it must precede"
    if (parser.exists() or (folder / "declaration.json").exists()) and not (folder / SHAPE).exists():
        yield f"{rel(folder / SHAPE)}: missing: format {folder.name!r}'s wire shape (the core's property tests)"
    for path in sorted(folder.glob("*.ts")):
        yield from import_problems(path)


def import_problems(path: Path) -> Iterator[str]:
    """A producer's parser is pure core: it imports only the core (relatively: extension/src/core/, or
    another producer's parser), never ui/, capture/, persist/, host/ or a package. Its tests and wire
    shape may also import node: modules, fast-check and extension/test-support/."""
    test_code = path.name == SHAPE or path.name.endswith(".test.ts")
    folder = ROOT / "producers" / path.parent.name  # where its relative imports start from in the repository
    for imported in IMPORTED.findall(path.read_text()):
        if imported.startswith("."):
            target = (folder / imported).resolve()
            allowed = (
                target.is_relative_to(CORE)
                or (target.parent.parent == folder.parent and target.name == "format.js")
                or (test_code and (target.is_relative_to(TEST_SUPPORT) or target.parent == folder))
            )
        else:
            allowed = test_code and TEST_PACKAGES.match(imported) is not None
        if not allowed:
            yield (
                f"{rel(path)}: imports {imported!r}: a producer's code imports only the core (extension/src/core/), "
                "relatively; its tests and shape.ts also node:, fast-check and extension/test-support/"
            )


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
        yield f"{rel(path)}: add `hostile:` (stream, buttons, titles), how ui/hostile-markup.test.ts checks it"


def expectation_problems(path: Path, names: list[str]) -> Iterator[str]:
    if not path.exists():
        yield f"{rel(path)}: missing: the core's expectations of each scenario (format, titles, spans)"
        return
    yield from entries_problems(path, names, "the core's expectations")
    entries, _ = read_json(path)
    for model, entry in (entries or {}).items():
        fmt = entry.get("format") if isinstance(entry, dict) else None
        if fmt is None:
            continue  # a variant's (`like`) is its scenario's
        parser = parser_file(fmt, path.parent.parent)
        if not parser.exists() and not (path.parent.parent / fmt / "declaration.json").exists():
            yield f"{rel(parser)}: missing: the parser of format {fmt!r} ({model}'s)"
        elif parser.parent == FORMATS and fmt not in registered_formats():
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
                    f"make record-markup OWUI_VERSION={line}, or a gap in devstack/limits.py"
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
    shapes = core_wire_shapes()
    found += [
        f"{rel(CORE_WIRE_SHAPES)}: add a wire shape for {fmt!r} to CORE_WIRE_FORMATS (the core's property tests)"
        for fmt in registered_formats()
        if parser_file(fmt, PRODUCERS).parent == FORMATS and fmt not in shapes
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
