"""Writes what the hardening scenarios predict, for the TypeScript tests that check it on the core and on
Open WebUI's recorded markup (extension/src/ui/hostile-markup.test.ts, extension/src/capture/malformed.test.ts),
which read no YAML: the script-injection payloads (producers/_hostile-payloads.yaml), each hostile twin's
`hostile:` checks and each malformed variant's `malformed:` counts, into
extension/test-support/fixtures/hardening.json.

Run `make hardening-checks` after changing a hostile or malformed scenario or the payloads;
tests/mock/test_hardening_scenarios.py fails while the file is stale."""

import json

import yaml

from devstack.processes import ROOT
from mock_server.registry import HOSTILE
from mock_server.registry import MALFORMED
from mock_server.registry import PRODUCERS
from mock_server.registry import load_scenarios
from mock_server.templates import Renderer

OUT = ROOT / "extension" / "test-support" / "fixtures" / "hardening.json"


def hardening_checks() -> dict:
    """The payloads, then each hostile and malformed scenario's checks, by name."""
    scenarios = load_scenarios([HOSTILE, MALFORMED])
    return {
        "payloads": Renderer({}).render(yaml.safe_load((PRODUCERS / "_hostile-payloads.yaml").read_text())),
        "hostile": {name: s.hostile.model_dump() for name, s in sorted(scenarios.items()) if s.hostile},
        "malformed": {name: s.malformed.model_dump() for name, s in sorted(scenarios.items()) if s.malformed},
    }


def rendered() -> str:
    return json.dumps(hardening_checks(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(rendered())
    print(f"{OUT.relative_to(ROOT)} written")
