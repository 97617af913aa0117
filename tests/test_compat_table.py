"""docs/compatibility.md's table: generated from docs/compat.json, each reason stated once."""

import json
import re

from scripts.compat_table import COMPAT_JSON
from scripts.compat_table import END
from scripts.compat_table import PAGE
from scripts.compat_table import README
from scripts.compat_table import START
from scripts.compat_table import claim
from scripts.compat_table import render


def test_the_compatibility_table_is_generated_from_the_last_matrix_run() -> None:
    page = PAGE.read_text()
    assert page[page.index(START) : page.index(END) + len(END)] == render(json.loads(COMPAT_JSON.read_text())), (
        "run `python scripts/compat_table.py` after changing docs/compat.json"
    )


def test_the_readme_claims_what_the_matrix_measured_in_the_pages_words() -> None:
    said = claim(json.loads(COMPAT_JSON.read_text()))
    for path in (README, PAGE):
        assert said in path.read_text(), f"{path.name}: run `python scripts/compat_table.py` (docs/compat.json changed)"


def test_scenarios_that_share_a_reason_share_its_note() -> None:
    reason = "Open WebUI up to 0.10 gives up on a very long line."
    gaps = json.dumps({"hostile-azure": reason, "malformed-openrag": reason})
    cell = {"works": 3, "total": 3, "gaps": {"hostile sources": gaps, "malformed sources": gaps}, "failures": {}}
    empty = {"works": 1, "total": 1, "gaps": {}, "failures": {}}
    version = {
        "open_webui": "0.9.6",
        "cells": {"streaming": empty, "non-streaming": empty, "after reload": empty, "other e2e tests": cell},
    }
    table = render({"date": "2026-11-24", "versions": [version]})
    assert table.count(reason) == 1
    assert re.findall(r"`([\w-]+)` gap \[1\]", table) == ["hostile-azure", "malformed-openrag"] * 2
