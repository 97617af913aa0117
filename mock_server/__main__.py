"""Mock OpenAI-compatible server: python -m mock_server --host 127.0.0.1 --port 9000."""

import argparse
import sys
from pathlib import Path

import uvicorn

from .app import create_app
from .corpus import DEFAULT_CORPUS_DIRS
from .corpus import CorpusError
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
        "--no-pauses",
        action="store_true",
        help="stream without the producers' own pauses their scenarios write (for tests that read answers)",
    )
    parser.add_argument(
        "--scenarios",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="load more scenario files from DIR, or those a glob pattern matches: 'producers/*/hostile.yaml' "
        "(may be repeated)",
    )
    corpus = parser.add_mutually_exclusive_group()
    corpus.add_argument(
        "--corpus",
        type=Path,
        action="append",
        metavar="DIR",
        help="serve the unnamed backends of DIR as models unnamed-<slug> (may be repeated; "
        "default: corpus/unnamed/build)",
    )
    corpus.add_argument("--no-corpus", action="store_true", help="serve no unnamed backend")
    args = parser.parse_args()
    corpus_dirs = [] if args.no_corpus else (args.corpus or DEFAULT_CORPUS_DIRS)
    try:
        app = create_app(
            args.scenarios,
            args.token_delay_ms,
            args.first_token_delay_ms,
            corpus_dirs=corpus_dirs,
            pauses=not args.no_pauses,
        )
    except (ScenarioError, CorpusError) as error:
        print(f"mock_server: cannot start: {error}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
