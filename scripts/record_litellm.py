"""Records what the real LiteLLM proxy answers for each scenario it relays (Claude, Gemini, a
knowledge base), both modes, into extension/src/core/fixtures/litellm/, for the core's tests:
`make record-litellm`; `PYTHONPATH=. .venv/bin/python scripts/record_litellm.py <scenario>…` records some only.

The mock's base address is written as http://127.0.0.1:9000/ whatever port it ran on, so that a
new recording differs only where LiteLLM's answer does (its ids and timestamps)."""

import sys
import tempfile
from pathlib import Path

import httpx

from devstack.litellm import MASTER_KEY
from devstack.litellm import litellm_proxy
from devstack.litellm import proxied
from devstack.processes import ROOT
from devstack.processes import free_port
from devstack.stack import mock_server
from mock_server.registry import HOSTILE
from mock_server.registry import MALFORMED
from mock_server.registry import load_scenarios

FIXTURES = ROOT / "extension" / "src" / "core" / "fixtures" / "litellm"
# Its hostile and malformed twins too, when named (test-support/core-reads.ts reads them for the
# hardening tests); without names, the scenarios only.
HARDENING = [HOSTILE, MALFORMED]
ASK = [{"role": "user", "content": "Which sources support this?"}]


def main() -> int:
    scenarios = load_scenarios(HARDENING)
    names = sys.argv[1:] or list(proxied(load_scenarios()))
    if unknown := set(names) - set(proxied(scenarios)):
        print(f"not relayed by LiteLLM: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    mock_port, proxy_port = free_port(), free_port()
    mock_url = f"http://127.0.0.1:{mock_port}"
    with tempfile.TemporaryDirectory() as workdir:
        logs = Path(workdir)
        scenario_args = [arg for glob in HARDENING for arg in ("--scenarios", str(glob))]
        # Both built before either starts: a failure building the proxy leaves no mock running.
        mock = mock_server(mock_port, logs / "mock-server.log", extra_args=scenario_args)
        proxy = litellm_proxy(proxy_port, mock_url, scenarios, logs, logs / "litellm.log")
        try:
            mock.start().wait_until_ready(f"{mock_url}/v1/models", 30)
            proxy.start().wait_until_ready(f"http://127.0.0.1:{proxy_port}/health/liveliness", 120)
            headers = {"Authorization": f"Bearer {MASTER_KEY}"}
            with httpx.Client(base_url=f"http://127.0.0.1:{proxy_port}/v1", headers=headers, timeout=60) as proxy_api:
                for name in names:
                    for stream, suffix in ((False, "json"), (True, "sse")):
                        answer = proxy_api.post(
                            "/chat/completions", json={"model": name, "messages": ASK, "stream": stream}
                        )
                        if answer.is_error and name.startswith(("hostile-", "malformed-")):
                            # A twin LiteLLM cannot relay in this mode: the tests read none.
                            print(f"{name}.{suffix}: NOT RECORDED, HTTP {answer.status_code}")
                            continue
                        answer.raise_for_status()
                        text = answer.text.replace(f"{mock_url}/", "http://127.0.0.1:9000/")
                        (FIXTURES / f"{name}.{suffix}").write_text(text)
                        print(f"{name}.{suffix}: {len(text)} characters")
        finally:
            proxy.stop()
            mock.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
