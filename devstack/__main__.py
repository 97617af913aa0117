"""`make demo`: the mock server and a real Open WebUI connected to it, until Ctrl-C."""

import argparse
import signal
import sys
import threading

from .processes import ServiceError
from .stack import ROOT, ask_for_sources, connect_to_mock, mock_server, open_webui, sign_in


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m devstack")
    parser.add_argument("--mock-port", type=int, default=9000)
    parser.add_argument("--port", type=int, default=8080, help="Open WebUI's port")
    parser.add_argument("--token-delay-ms", type=int, default=30, help="streaming pace of the mock")
    parser.add_argument("--first-token-delay-ms", type=int, default=1000,
                        help="the mock's time to first token (Open WebUI 0.9-0.11 drop a new chat's answer that comes sooner)")
    args = parser.parse_args()

    logs = ROOT / ".owui" / "logs"
    mock = mock_server(args.mock_port, logs / "mock-server.log", args.token_delay_ms,
                       first_token_delay_ms=args.first_token_delay_ms)
    webui = open_webui(args.port, args.mock_port, ROOT / ".owui" / "demo-data", logs / "open-webui.log")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        mock.start().wait_until_ready(f"http://127.0.0.1:{args.mock_port}/v1/models", 30)
        print(f"Mock server:  http://127.0.0.1:{args.mock_port}/docs", flush=True)
        print("Starting Open WebUI (about 15 s)…", flush=True)
        webui.start().wait_until_ready(f"http://127.0.0.1:{args.port}/health", 180)
        webui_url = f"http://127.0.0.1:{args.port}"
        token = sign_in(webui_url)
        connect_to_mock(webui_url, token, args.mock_port)
        ask_for_sources(webui_url, token)  # RAGFlow: custom parameter extra_body = {"reference": true}
        print(f"\nOpen WebUI is ready:  http://127.0.0.1:{args.port}/?model=openrag", flush=True)
        print("Every scenario is a model; pick one in the model menu or use ?model=<scenario>.")
        print(f"Logs in {logs}. Ctrl-C stops both.", flush=True)
        stop.wait()
    except ServiceError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        webui.stop()
        mock.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
