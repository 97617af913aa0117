"""Starts a named producer (docs/contributing.md, "Adding a producer"): writes its folder,
producers/<name>/ (its data, its parser format.ts and its wire shape shape.ts), from templates that
already agree with each other (a top-level `<name>_sources` list, [N] markers), then prints the one
line to add to extension/src/core/formats/index.ts. Replace the templates' wire format with the
producer's own, read from its code or docs; scripts/verify_producers.py then says what is missing.

    python scripts/new_producer.py <name>      # make new-producer NAME=<name>
"""

import argparse
import re
import sys
from pathlib import Path

from mock_server.registry import PRODUCERS

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

SCENARIO = """\
# {title}: where it puts its sources, read in <owner/repository> @ <commit>, <path> (every field
# below from there: no guessed field). Which chunk carries them when streamed, and how the answer
# cites them, with their sources too.
producer: {name}
description: {title} — a top-level `{field}` list on the body and the last streamed chunk; [N] markers.
docs:  # its rows in the README's and docs/formats.md's tables (scripts/producer_tables.py)
  name: "{title}"
  product: "{title} (<its endpoint>)"
  sources: "top-level `{field}` (`title`, `url`, `snippet`); streamed on the last chunk; `[N]`, 1-based"
vars:
  id: chatcmpl-{name}
  created: 1764151200
  sources:
    - {{title: First page, url: "${{base_url}}static/web/page-1.html", snippet: What the first page says.}}
    - {{title: Second page, url: "${{base_url}}static/web/page-2.html", snippet: What the second page says.}}
answer:
  - "The answer cites its first source"
  - "[1]"
  - " and its second"
  - "[2]"
  - .
chat:
  body:
    id: ${{id}}
    object: chat.completion
    created: ${{created}}
    model: ${{model}}
    choices: [{{index: 0, finish_reason: stop, message: {{role: assistant, content: "${{answer}}"}}}}]
    usage: ${{usage}}
    {field}: ${{sources}}
  stream:
    - pieces: ":"
      data: {{id: "${{id}}", object: chat.completion.chunk, created: "${{created}}", model: "${{model}}",
             choices: [{{index: 0, delta: {{content: "${{piece}}"}}}}]}}
    - data: {{id: "${{id}}", object: chat.completion.chunk, created: "${{created}}", model: "${{model}}",
             choices: [{{index: 0, delta: {{}}, finish_reason: stop}}], {field}: "${{sources}}"}}
"""

HOSTILE = """\
# {title} (scenario.yaml) with a script-injection payload (../_hostile-payloads.yaml) in every
# field of every source. The answer cites each with [N].
extends: {name}
description: Hostile {title} — a script-injection payload in every field of every source.
hostile:  # how it is asked for, and what it predicts (ui/hostile-markup.test.ts checks it)
  stream: true
vars:
  payloads: {{$include: ../_hostile-payloads.yaml}}
  sources:
    $repeat: ${{payloads}}
    each: {{title: "${{item}}", url: "${{item}}", snippet: "${{item}}"}}
  markers: {{$repeat: "${{payloads}}", each: "[${{i}}]", join: ""}}
answer:
  - "Every source of this answer is hostile; none may run:"
  - whole: " ${{markers}}"
"""

PARSER = """\
/**
 * {title} (<its endpoint>): a top-level `{field}` list of {{title, url, snippet}}, in the
 * producer's order; `[N]` is the N-th source (read in <owner/repository> @ <commit>, <path>).
 */

import {{ arr, isObject, str }} from '../../extension/src/core/json.js';
import type {{ Draft, Format }} from '../../extension/src/core/model.js';

export const {ident}: Format = {{
  name: '{name}',
  extract(payload) {{
    const items = arr(payload.{field}).filter(isObject);
    if (items.length === 0) return null;
    const drafts: Draft[] = items.map((item, i) => ({{
      id: str(item.url) ?? `{name}-${{i + 1}}`,
      title: str(item.title),
      url: str(item.url),
      snippet: str(item.snippet),
      kind: 'web',
      refs: [i + 1],
    }}));
    return {{ drafts, ordered: true }};
  }},
}};
"""

SHAPE = """\
/** The wire shape of format {name} (format.ts) for the core's property tests (core/properties.test.ts):
 * where its sources are and their fields, each of which may be missing, of another type or hostile. */

import type fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {{
  {field}: wire.listOf(wire.shaped({{ title: wire.text, url: wire.url, snippet: wire.text }})),
}});
"""

EXPECTED = """\
{{
  "{name}": {{
    "format": "{name}",
    "titles": ["First page", "Second page"],
    "spans": [["marker", [1], "[1]"], ["marker", [2], "[2]"]],
    "notes": "What this scenario shows that no other does."
  }}
}}
"""

SEEN = """\
{{
  "{name}": {{
    "why": "What a user sees of it, and why it differs from the other producers'.",
    "buttons": [1, 2],
    "sources": 2,
    "title": "First page"
  }}
}}
"""


def scaffold(name: str) -> list[Path]:
    folder = PRODUCERS / name
    if folder.exists():
        raise FileExistsError(f"{folder} exists already")
    words = {
        "name": name,
        "title": " ".join(part.capitalize() for part in name.split("-")),
        "field": f"{name.replace('-', '_')}_sources",
        "ident": re.sub(r"-(\w)", lambda m: m.group(1).upper(), name),
    }
    folder.mkdir()
    written = {
        folder / "scenario.yaml": SCENARIO.format(**words),
        folder / "hostile.yaml": HOSTILE.format(**words),
        folder / "expected.json": EXPECTED.format(**words),
        folder / "seen.json": SEEN.format(**words),
        folder / "format.ts": PARSER.format(**words),
        folder / "shape.ts": SHAPE.format(**words),
    }
    for path, text in written.items():
        path.write_text(text)
    return list(written)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", help="the producer's name, lowercase words joined by '-' (volcengine-ark)")
    args = parser.parse_args()
    if not NAME.match(args.name):
        print(f"new_producer: {args.name!r}: lowercase letters and digits, words joined by '-'", file=sys.stderr)
        return 2
    try:
        written = scaffold(args.name)
    except FileExistsError as error:
        print(f"new_producer: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    ident = re.sub(r"-(\w)", lambda m: m.group(1).upper(), args.name)
    print(
        "\nThe one line to add, in extension/src/core/formats/index.ts (its import, and FORMATS before the\n"
        "formats whose shapes are less particular than its own):\n"
        f"  import {{ {ident} }} from '../../../../producers/{args.name}/format.js';   ...   {ident},\n"
        "Then: make producer-tables, make record-markup, and make verify-producers until it says every\n"
        "producer is whole. Nothing else names a producer: its shape, tests and data are found in its folder."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
