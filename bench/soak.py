"""`make soak`: a bounded load on a real mock server process, to see that it keeps answering
and that its memory stays flat.

    python -m bench.soak [--seconds 120] [--concurrency 32] [--token-delay-ms 5] [--out bench/soak.json]

Loopback only; stops by itself after --seconds or --max-requests. Every producer scenario is
requested in turn, streamed and not, on each endpoint it speaks (chat completions, responses,
completions). A request counts as an error unless it is a 200 whose body is complete (valid
JSON, or a stream that reaches its end). The server's RSS is sampled from /proc twice a second.
Exit status 1 when any request failed or when RSS grew more than RSS_GROWTH_BOUND_MIB after
the warm-up (the first tenth of the run)."""

import argparse
import asyncio
import concurrent.futures
import datetime
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.report import median
from bench.report import p95
from devstack.processes import ROOT
from devstack.processes import free_port
from devstack.stack import mock_server
from mock_server.registry import load_scenarios

# The first producers of docs/formats.md's scenario table (not the hostile or benchmark families).
SCENARIOS = (
    "openrag",
    "azure-on-your-data",
    "openai-url-citation",
    "openai-url-citation-flat",
    "openai-responses",
    "grok2api",
    "grok2api-sources-block",
    "grok2api-go",
    "perplexity",
    "answer-spans",
)
PATHS = {"chat": "/v1/chat/completions", "responses": "/v1/responses", "completions": "/v1/completions"}
RSS_GROWTH_BOUND_MIB = 50
RSS_SAMPLE_S = 0.5


@dataclass(frozen=True)
class Call:
    """One kind of request of the mix."""

    endpoint: str
    model: str
    stream: bool

    def body(self) -> dict:
        if self.endpoint == "chat":
            return {"model": self.model, "stream": self.stream, "messages": [{"role": "user", "content": "Sources?"}]}
        prompt = {"responses": "input", "completions": "prompt"}[self.endpoint]
        return {"model": self.model, "stream": self.stream, prompt: "Sources?"}


def request_mix() -> list[Call]:
    scenarios = load_scenarios()
    calls = []
    for name in SCENARIOS:
        for kind in PATHS:
            endpoint = scenarios[name].endpoint(kind)
            if endpoint is not None:
                calls.append(Call(kind, name, False))
                if endpoint.stream is not None:
                    calls.append(Call(kind, name, True))
    return calls


def complete_body(call: Call, body: bytes) -> bool:
    """The whole answer arrived: JSON that parses, or a stream up to its last event."""
    text = body.decode()
    if not call.stream:
        json.loads(text)
        return True
    events = [line.removeprefix("data: ") for line in text.splitlines() if line.startswith("data: ")]
    for data in events:
        if data != "[DONE]":
            json.loads(data)
    last = events[-1] if events else ""
    return last == "[DONE]" if call.endpoint == "chat" else '"response.completed"' in last


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class Tally:
    latencies_ms: list[float]
    errors: list[str]
    by_call: dict[str, int]
    streamed: int = 0


async def _worker(
    client: httpx.AsyncClient, mix: list[Call], offset: int, deadline: float, budget: list[int], tally: Tally
) -> None:
    turn = offset
    while time.monotonic() < deadline and budget[0] > 0:
        budget[0] -= 1
        call = mix[turn % len(mix)]
        turn += 1
        started = time.perf_counter()
        try:
            response = await client.post(PATHS[call.endpoint], json=call.body())
            ok = response.status_code == 200 and complete_body(call, response.content)
            problem = "" if ok else f"{call}: HTTP {response.status_code}, {response.content[:200]!r}"
        except (httpx.HTTPError, ValueError) as error:
            problem = f"{call}: {type(error).__name__}: {error!r}"
        tally.latencies_ms.append((time.perf_counter() - started) * 1000)
        key = f"{call.endpoint} {'stream' if call.stream else 'body'}"
        tally.by_call[key] = tally.by_call.get(key, 0) + 1
        tally.streamed += call.stream
        if problem:
            tally.errors.append(problem)


async def _sample_rss(pid: int, started: float, samples: list[tuple[float, int]]) -> None:
    while True:
        samples.append((time.monotonic() - started, rss_kib(pid)))
        await asyncio.sleep(RSS_SAMPLE_S)


async def _load(
    base_url: str, pid: int, seconds: float, concurrency: int, max_requests: int
) -> tuple[Tally, list[tuple[float, int]], float]:
    mix = request_mix()
    tally = Tally([], [], {})
    samples: list[tuple[float, int]] = []
    # Idle connections are dropped well before uvicorn closes them (5 s): reusing one as the
    # server closes it is a race of HTTP keep-alive, not an error of the server.
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency, keepalive_expiry=1)
    async with httpx.AsyncClient(base_url=base_url, timeout=30, limits=limits) as client:
        started = time.monotonic()
        budget = [max_requests]
        sampler = asyncio.create_task(_sample_rss(pid, started, samples))
        await asyncio.gather(*(_worker(client, mix, i, started + seconds, budget, tally) for i in range(concurrency)))
        elapsed = time.monotonic() - started
        sampler.cancel()
        samples.append((elapsed, rss_kib(pid)))
    return tally, samples, elapsed


def machine() -> str:
    return f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}, Python {platform.python_version()}"


def soak(
    seconds: float,
    concurrency: int = 32,
    token_delay_ms: int = 5,
    max_requests: int = 1_000_000,
    out: Path | None = None,
) -> dict:
    """Runs the load against a mock server started for it; returns (and writes) the report."""
    port = free_port()
    with tempfile.TemporaryDirectory() as logs:
        service = mock_server(port, Path(logs) / "mock-server.log", token_delay_ms).start()
        try:
            service.wait_until_ready(f"http://127.0.0.1:{port}/v1/models", 30)
            # In a thread of its own: the caller may already run an event loop (pytest-playwright's
            # sync API does, for the rest of a test session), and asyncio.run refuses to nest.
            assert service.process is not None  # started above
            load = _load(f"http://127.0.0.1:{port}", service.process.pid, seconds, concurrency, max_requests)
            with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
                tally, samples, elapsed = thread.submit(asyncio.run, load).result()
        finally:
            service.stop()
    rss_mib = [kib / 1024 for _, kib in samples]
    warm = next(mib for (t, _), mib in zip(samples, rss_mib, strict=True) if t >= elapsed * 0.1)
    latencies = tally.latencies_ms or [0.0]
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "seconds": round(elapsed, 1),
        "concurrency": concurrency,
        "token_delay_ms": token_delay_ms,
        "requests": len(tally.latencies_ms),
        "streamed": tally.streamed,
        "by_call": dict(sorted(tally.by_call.items())),
        "requests_per_s": round(len(tally.latencies_ms) / elapsed, 1),
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
        "latency_ms": {
            "p50": round(median(latencies) or 0, 1),
            "p95": round(p95(latencies) or 0, 1),
            "max": round(max(latencies), 1),
        },
        "rss_mib": {
            "start": round(rss_mib[0], 1),
            "after_warm_up": round(warm, 1),
            "end": round(rss_mib[-1], 1),
            "max": round(max(rss_mib), 1),
            "samples": len(rss_mib),
            # about a dozen points over the run: flat, or still climbing at the end
            "timeline": [round(mib, 1) for mib in rss_mib[:: max(1, len(rss_mib) // 12)]],
        },
        "rss_growth_bound_mib": RSS_GROWTH_BOUND_MIB,
    }
    report["ok"] = report["errors"] == 0 and rss_mib[-1] - warm <= RSS_GROWTH_BOUND_MIB
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2) + "\n")
    return report


def table(report: dict) -> str:
    latency, rss = report["latency_ms"], report["rss_mib"]
    rows = [
        (
            "duration",
            f"{report['seconds']} s, {report['concurrency']} concurrent, token delay {report['token_delay_ms']} ms",
        ),
        ("requests", f"{report['requests']} ({report['streamed']} streamed)"),
        *((f"  {call}", str(count)) for call, count in report["by_call"].items()),
        ("requests/s", str(report["requests_per_s"])),
        ("errors", str(report["errors"])),
        ("latency p50 / p95 / max", f"{latency['p50']} / {latency['p95']} / {latency['max']} ms"),
        ("RSS start / warm / end / max", f"{rss['start']} / {rss['after_warm_up']} / {rss['end']} / {rss['max']} MiB"),
        ("RSS over the run", " ".join(str(mib) for mib in rss["timeline"]) + " MiB"),
        ("RSS growth bound after warm-up", f"{report['rss_growth_bound_mib']} MiB"),
        ("result", "ok" if report["ok"] else "FAILED"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--token-delay-ms", type=int, default=5, help="the mock's pause between stream chunks")
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="stop earlier after this many")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "soak.json")
    args = parser.parse_args()
    report = soak(args.seconds, args.concurrency, args.token_delay_ms, args.max_requests, args.out)
    print(table(report))
    for error in report["first_errors"]:
        print(f"error: {error}", file=sys.stderr)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
