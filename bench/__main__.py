"""`make bench`: what the extension costs Open WebUI, measured in headless Chromium against the
pinned Open WebUI and the mock server, with and without the extension, in one run.

    python -m bench [--smoke] [--reps N] [--only streaming,reload] [--out bench/results.json]
"""

import argparse
import datetime
import os
import platform
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.figures import FIGURES
from bench.figures import Sizes
from bench.report import table
from bench.report import unmeasured
from bench.report import write
from devstack.browser import chromium_launch_args
from devstack.owui import CONFIG
from devstack.processes import ROOT
from devstack.stack import running_stack
from mock_server.registry import MALFORMED

SCENARIOS = Path(__file__).with_name("scenarios")
SMOKE = Sizes(
    reps=1,
    heap_reps=1,
    heap_turns=3,
    reload_answers=10,
    leak_answers=6,
    warm_turn=3,
    busy_answers=10,
    latency_answers=3,
)


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    return f"{os.cpu_count()} cores, {cpu}, {platform.system()} {platform.machine()}"


def source_commit() -> str:
    """The commit benchmarked, "-dirty" when the tree had changes ("unknown" outside git)."""
    described = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return described.stdout.strip() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--smoke", action="store_true", help="one repetition of small sizes: proves the benchmark runs")
    parser.add_argument("--reps", type=int, default=Sizes.reps, help="repetitions of each side (default %(default)s)")
    parser.add_argument("--heap-reps", type=int, default=Sizes.heap_reps)
    parser.add_argument("--leak-answers", type=int, default=Sizes.leak_answers)
    parser.add_argument("--only", default=",".join(FIGURES), help=f"figures to run, of: {','.join(FIGURES)}")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    args = parser.parse_args()
    unknown = set(args.only.split(",")) - set(FIGURES)
    if unknown:
        parser.error(f"unknown figure(s): {', '.join(sorted(unknown))}")

    # Stopped from outside (a timeout, kill): still stop Open WebUI and the mock server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sizes = SMOKE if args.smoke else Sizes(reps=args.reps, heap_reps=args.heap_reps, leak_answers=args.leak_answers)
    # 100 tokens per second, a fast producer (docs/performance.md); the smoke run streams as fast as it can.
    token_delay_ms = 1 if args.smoke else 10
    rows = []
    failed: dict[str, str] = {}
    with (
        tempfile.TemporaryDirectory(prefix="owc-bench-") as workdir,
        running_stack(Path(workdir), token_delay_ms=token_delay_ms, scenario_dirs=[SCENARIOS, MALFORMED]) as stack,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(**chromium_launch_args())
        with stack.api() as api:
            owui_version = api.get(CONFIG).json()["version"]
        context = {
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": machine(),
            # The hottest functions are named by source line: the lines of this commit.
            "commit": source_commit(),
            "open_webui": owui_version,
            "chromium": browser.version,
            "smoke": args.smoke,
            "sizes": vars(sizes),
            "token_delay_ms": token_delay_ms,
            "failed": failed,
        }
        for name in args.only.split(","):
            print(f"bench: {name}…", file=sys.stderr, flush=True)
            try:
                measured = FIGURES[name](stack, browser, sizes)
                if not measured:
                    raise RuntimeError("no row")
                rows += measured
            except Exception as error:  # one figure that cannot be measured does not lose the others
                failed[name] = f"{type(error).__name__}: {error}".splitlines()[0]
                print(f"bench: {name} could not be measured: {failed[name]}", file=sys.stderr, flush=True)
            write(args.out, rows, context)  # after each figure: a long run keeps what it measured
        browser.close()
    print(table(rows))
    print(f"\nWritten to {args.out}", file=sys.stderr)
    if missing := unmeasured(rows):
        print(f"bench: not measured: {', '.join(missing)}", file=sys.stderr)
    return 1 if failed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
