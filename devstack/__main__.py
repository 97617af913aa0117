"""`make demo`: the mock server, the LiteLLM proxy and a real Open WebUI connected to them, until Ctrl-C.

Open WebUI has a login (an admin whose password this run prints) and starts with empty data:
any web page visited meanwhile could otherwise sign in to it as admin (stack.Demo)."""

import argparse
import signal
import sys
import threading

from .processes import ROOT
from .processes import ServiceError
from .stack import Demo
from .stack import running_stack


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m devstack")
    parser.add_argument("--mock-port", type=int, default=9000)
    parser.add_argument("--port", type=int, default=8080, help="Open WebUI's port")
    parser.add_argument("--litellm-port", type=int, default=4000, help="the LiteLLM proxy's port")
    parser.add_argument("--token-delay-ms", type=int, default=30, help="streaming pace of the mock")
    parser.add_argument(
        "--first-token-delay-ms",
        type=int,
        default=1000,
        help="the mock's time to first token (Open WebUI 0.9-0.11 drop a new chat's answer that comes sooner)",
    )
    parser.add_argument(
        "--replicas",
        type=int,
        default=1,
        help="Open WebUI processes sharing PostgreSQL and Redis behind a round-robin nginx at --port",
    )
    args = parser.parse_args()

    workdir = ROOT / ".owui"
    demo = Demo.new()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print("Starting the mock server, the LiteLLM proxy and Open WebUI (about 20 s)…", flush=True)
    try:
        # Models whose producer sends sources only when asked (RAGFlow) get the custom parameter that asks.
        with running_stack(
            workdir,
            token_delay_ms=args.token_delay_ms,
            first_token_delay_ms=args.first_token_delay_ms,
            ports=(args.mock_port, args.port, args.litellm_port),
            demo=demo,
            replicas=args.replicas,
        ) as stack:
            print(f"Mock server:  {stack.mock_url}/docs")
            print(f"LiteLLM:      {stack.litellm_url} (the Claude, Gemini and knowledge-base scenarios)")
            print(f"\nOpen WebUI is ready:  {stack.webui_url}/?model=openrag", flush=True)
            print(f"Sign in as {demo.admin_email}, password {demo.admin_password} (new at every run).", flush=True)
            print("Every scenario is a model; pick one in the model menu or use ?model=<scenario>.")
            print(f"Logs in {workdir / 'logs'}. Ctrl-C stops them all.", flush=True)
            stop.wait()
    except ServiceError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
