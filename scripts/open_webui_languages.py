"""Open WebUI's interface languages and its own words for the ones we share, read from an installed Open WebUI.

    python scripts/open_webui_languages.py ~/.cache/owui-citations/open-webui-0.12.4 0.12.4

Open WebUI's src/lib/i18n/locales/languages.json is compiled into one chunk of its frontend
(open_webui/frontend/_app/immutable/chunks/), the one that holds `{code:"en-US",title:"English (US)"}`;
each language's translation.json is a chunk of its own, named in the chunk of src/lib/i18n/index.ts
(`"./locales/<code>/translation.json":()=>…import("./<chunk>.js")`), whose default export is the
translation. Writes extension/test-support/open-webui-languages.json: the codes in Open WebUI's
order and, per code, its translation of the words our strings share with its interface
(extension/src/ui/locales.test.ts compares both with ours).
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "extension" / "test-support" / "open-webui-languages.json"
# Open WebUI's keys (its English words) whose translation our strings of the same meaning use.
SHARED_WORDS = ["Close", "Copied", "Export", "Settings", "All", "Source", "Previous", "Next"]
LANGUAGES = re.compile(r'\[\{code:"en-US",title:"[^"]*"\}(?:,\{code:"[^"]*",title:"[^"]*"\})*\]')
CODE = re.compile(r'code:"([^"]*)"')
TRANSLATION_CHUNK = re.compile(r'"\./locales/([^/"]+)/translation\.json":\(\)=>\w+\(\(\)=>import\("\./([^"]+)"\)')
# Node prints a chunk's default export: the chunks are ES modules, not JSON.
PRINT_DEFAULT = "import(process.argv[1]).then((m) => process.stdout.write(JSON.stringify(m.default)))"


def chunks_dir(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python*/site-packages/open_webui/frontend/_app/immutable/chunks"))
    if not found:
        sys.exit(f"no Open WebUI frontend under {venv}")
    return found[0]


def read(venv: Path) -> tuple[list[str], dict[str, dict[str, str]]]:
    chunks = chunks_dir(venv)
    codes: list[str] = []
    translation_chunks: dict[str, str] = {}
    for chunk in chunks.glob("*.js"):
        text = chunk.read_text(encoding="utf-8", errors="replace")
        if not codes and (listed := LANGUAGES.search(text)):
            codes = CODE.findall(listed.group(0))
        translation_chunks.update(TRANSLATION_CHUNK.findall(text))
    if not codes:
        sys.exit(f"no languages.json in {chunks}")
    words: dict[str, dict[str, str]] = {}
    for code in codes:
        if code not in translation_chunks:
            sys.exit(f"{code}: listed, but no translation.json chunk")
        printed = subprocess.run(
            ["node", "--input-type=module", "-e", PRINT_DEFAULT, str(chunks / translation_chunks[code])],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        translation = json.loads(printed)
        words[code] = {word: translation[word] for word in SHARED_WORDS if translation.get(word)}
    return codes, words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("venv", type=Path, help="the virtual environment Open WebUI is installed in")
    parser.add_argument("version", help="its version, recorded with the list")
    args = parser.parse_args()
    codes, words = read(args.venv.expanduser())
    OUT.write_text(
        json.dumps({"openWebui": args.version, "languages": codes, "words": words}, ensure_ascii=False, indent=2)
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(codes)} languages -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
