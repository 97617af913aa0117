"""Figure 10: what the relay filter (owui_citations/relay_filter.py) costs Open WebUI's server. Its
`stream` runs on Open WebUI's event loop for every chunk of every user's streamed answer, and what
it relays goes to each of the user's open tabs. Measured on every streamed chat scenario of the
mock (rendered in this process) and on a Perplexity-style stream that repeats 10 results of 300
characters and the answer so far on every chunk. No browser, no Open WebUI:

    python -m bench.relay
"""

import json
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from functools import partial

from bench.report import Row
from bench.report import row
from bench.report import table
from mock_server.registry import load_scenarios
from mock_server.rendering import RequestFacts
from mock_server.rendering import render_stream
from owui_citations.relay_filter import EVENT_TYPE
from owui_citations.relay_filter import Filter

REPS = 5  # each stream relayed this many times, each by a fresh filter: the CPU figures' samples
PERPLEXITY_TOKENS = 8000


def perplexity_amplified(tokens: int = PERPLEXITY_TOKENS, results: int = 10, snippet: int = 300) -> Iterator[dict]:
    """Perplexity's default ("full") stream at its worst: every chunk repeats `citations` and
    `search_results` and carries the cumulative `message` (producers/perplexity/scenario.yaml).
    Made one chunk at a time, each a fresh object, as Open WebUI parses them."""
    so_far = ""
    for token in range(tokens):
        urls = [f"https://example.org/page-{n}" for n in range(results)]
        found = [{"title": f"Result {n}", "url": url, "snippet": "s" * snippet} for n, url in enumerate(urls)]
        piece = f" word{token % 10}[{token % results + 1}]"
        so_far += piece
        choice = {"index": 0, "delta": {"content": piece}, "message": {"role": "assistant", "content": so_far}}
        yield {"id": "pplx", "model": "sonar", "citations": urls, "search_results": found, "choices": [choice]}


def streamed_scenarios() -> dict[str, list[dict]]:
    """Each streamed chat scenario's chunks, as the mock sends them (without [DONE])."""
    streams = {}
    for name, scenario in sorted(load_scenarios().items()):
        if scenario.chat is None or scenario.chat.stream is None:
            continue
        facts = RequestFacts(model=name, base_url="http://127.0.0.1:8000/", prompt_tokens=3)
        lines = [event.text for event in render_stream(scenario, "chat", facts)]
        data = [line.split("data: ", 1)[1].strip() for line in lines if "data: " in line]
        streams[name] = [chunk for text in data if text != "[DONE]" and isinstance(chunk := json.loads(text), dict)]
    return streams


def relayed_through(relay: Filter, chunks: Iterable[dict], metadata: dict) -> tuple[list[dict], list[float]]:
    """What the relay sends for one answer, and the time its `stream` took on each chunk (µs)."""
    sent, times = [], []
    for chunk in chunks:
        start = time.thread_time()
        relay.stream(chunk, __metadata__=metadata)
        times.append((time.thread_time() - start) * 1e6)
        event = chunk.get("event")
        if isinstance(event, dict) and event.get("type") == EVENT_TYPE:
            sent.append(event["data"])
    return sent, times


def relay_cost(stream: Callable[[], Iterable[dict]]) -> tuple[int, list[float]]:
    """Bytes relayed for the answer (as socket.io encodes them) and µs per chunk over REPS runs,
    each of a fresh copy of the stream (the filter marks the chunks it relays)."""
    all_times: list[float] = []
    sent: list[dict] = []
    for rep in range(REPS):
        sent, times = relayed_through(Filter(), stream(), {"message_id": f"m{rep}", "user_id": "u"})
        all_times += times
    return sum(len(json.dumps(data)) for data in sent), all_times


def copied(chunks: list[dict]) -> list[dict]:
    return json.loads(json.dumps(chunks))


def relay_rows() -> list[Row]:
    """Targets: a chunk's relay costs at most 50 µs on the event loop (half a percent of the 10 ms
    between two tokens at 100 tokens/s), and the amplified answer relays at most two copies of its
    sources (4 KB): each field is sent once, and again only when it changes."""
    amplified_bytes, amplified_times = relay_cost(perplexity_amplified)
    scenario_bytes, scenario_times = 0, []
    for chunks in streamed_scenarios().values():
        sent, times = relay_cost(partial(copied, chunks))
        scenario_bytes = max(scenario_bytes, sent)
        scenario_times += times
    amplified = (
        f"Perplexity-style, {PERPLEXITY_TOKENS:,} tokens, 10 results of 300 characters and the answer on each chunk"
    )
    scenarios = "the mock's streamed scenarios"
    return [
        row(f"10. relay: CPU per chunk, {amplified}", "µs", amplified_times, judged="p95", limit=50),
        row(f"10. relay: bytes per answer, {amplified}", "KB", [amplified_bytes / 1024], judged="median", limit=8),
        row(f"10. relay: CPU per chunk, {scenarios}", "µs", scenario_times, judged="p95", limit=50),
        row(f"10. relay: bytes per answer, {scenarios}, the most", "KB", [scenario_bytes / 1024]),
    ]


if __name__ == "__main__":
    print(table(relay_rows()))
