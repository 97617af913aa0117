"""Mock OpenAI-compatible server: python -m mock_server --host 127.0.0.1 --port 9000."""

import argparse
import sys
from pathlib import Path

import uvicorn

from .app import create_app
from .registry import ScenarioError


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m mock_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument(
        "--token-delay-ms", type=int, default=0, metavar="N", help="pause N ms between stream chunks (default: none)"
    )
    parser.add_argument(
        "--first-token-delay-ms",
        type=int,
        default=0,
        metavar="N",
        help="pause N ms before each answer, a backend's time to first token (default: none)",
    )
    parser.add_argument(
        "--scenarios",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="load more scenario files from DIR (may be repeated)",
    )
    args = parser.parse_args()
    try:
        app = create_app(args.scenarios, args.token_delay_ms, args.first_token_delay_ms)
    except ScenarioError as error:
        print(f"mock_server: cannot start: {error}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
