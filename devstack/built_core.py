"""The built core (`extension/dist/core.mjs`, from `npm run build`) called from Python through node,
as the page calls it: pure functions, JSON in and out."""

import json
import subprocess
from typing import Any

from devstack.processes import ROOT

CORE = ROOT / "extension" / "dist" / "core.mjs"


def call_core(function: str, data: Any) -> Any:
    """`function`, JavaScript of the form `(core, data) => result`, applied to the core's exports and
    to `data`; its result, through JSON."""
    script = (
        f"import * as core from {json.dumps(CORE.as_uri())};"
        "import { readFileSync } from 'node:fs';"
        f"const result = ({function})(core, JSON.parse(readFileSync(0, 'utf8')));"
        "process.stdout.write(JSON.stringify(result));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(data),
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)
