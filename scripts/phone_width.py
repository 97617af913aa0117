"""Whether the head of our source list fits a phone's width in every language: lays out each
language's head (extension/test-support/list-heads.ts, as list.ts draws it) with our styles in
Chromium and prints the width each needs on one line, widest first, and the languages that do not fit.

    python scripts/phone_width.py [--viewport 360] [--gutter 16]

The answer's column is the viewport less Open WebUI's side padding (`--gutter` each side). The
width is the head's one-line width (its items' max-content plus gaps): more than the column and
the labels wrap or the row overflows. Only the machine's fonts are used: a script it has no font
for (CJK, Thai, Indic, Tibetan on a bare Debian) is drawn as boxes, its width an estimate.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from devstack.browser import chromium_launch_args  # noqa: E402

STYLES = ROOT / "extension" / "src" / "ui" / "styles.css"
# Open WebUI's page: its body font and size; the head inherits them, as on the chat.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>{styles}</style>
<style>body {{ margin: 0; font: 16px/1.5 ui-sans-serif, system-ui, sans-serif; }}
.column {{ margin: 0 {gutter}px; }} .one-line {{ width: max-content; }}</style></head>
<body><div class="column"><section class="owc-sources">{head}</section></div></body></html>"""
MEASURE = """() => {
  const head = document.querySelector('.owc-sources-head');
  const column = document.querySelector('.column').clientWidth;
  head.classList.add('one-line');
  const needed = head.getBoundingClientRect().width;
  head.classList.remove('one-line');
  return { needed, column, overflows: head.scrollWidth > head.clientWidth };
}"""


def measure(viewport: int, gutter: int) -> list[tuple[str, float, int, bool]]:
    heads: dict[str, str] = json.loads(
        subprocess.run(
            ["node", "--import", "tsx", "extension/test-support/list-heads.ts"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    styles = STYLES.read_text(encoding="utf-8")
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_launch_args())
        page = browser.new_page(viewport={"width": viewport, "height": 640})
        for code, head in heads.items():
            page.set_content(PAGE.format(styles=styles, gutter=gutter, head=head))
            found = page.evaluate(MEASURE)
            rows.append((code, found["needed"], found["column"], found["overflows"]))
        browser.close()
    return sorted(rows, key=lambda row: -row[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewport", type=int, default=360, help="the phone's CSS width (px)")
    parser.add_argument("--gutter", type=int, default=16, help="Open WebUI's padding each side of the answer (px)")
    args = parser.parse_args()
    rows = measure(args.viewport, args.gutter)
    for code, needed, column, overflows in rows:
        print(f"{code:12} {needed:6.1f} px of {column}{'  OVERFLOWS' if overflows else ''}")
    too_wide = [code for code, needed, column, _ in rows if needed > column]
    print(f"{len(rows)} languages; widest {rows[0][0]} {rows[0][1]:.1f} px; not on one line: {too_wide or 'none'}")
    sys.exit(1 if too_wide else 0)


if __name__ == "__main__":
    main()
