"""Scenario files: users add their own; a broken one stops the server with its name and reason."""

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from devstack.processes import free_port
from devstack.stack import mock_server
from mock_server import registry
from mock_server.app import create_app
from mock_server.registry import ScenarioError
from mock_server.registry import load_scenarios
from mock_server.rendering import RequestFacts
from mock_server.rendering import render_body
from mock_server.rendering import render_stream
from tests.wire import scenario_file_from_contributing
from tests.wire import sse_data

GOOD_CHAT = """
producer: demo
description: d
vars: {id: x, created: 1}
answer: ["Hello [1]."]
chat:
  body: {id: "${id}", object: chat.completion, created: "${created}", model: "${model}",
         choices: [{index: 0, message: {role: assistant, content: "${answer}"}, finish_reason: stop}]}
"""


def start_failure(tmp_path: Path, files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "mock_server", "--port", str(free_port()), "--scenarios", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("producer: x\ndescription: [unclosed\n", "while parsing"),
        ("- just\n- a list\n", "mapping"),
        (GOOD_CHAT.replace("producer: demo", "producer: demo\ncolour: blue"), "colour"),
        (GOOD_CHAT.replace("description: d\n", ""), "description"),
        (GOOD_CHAT.replace('"${id}"', '"${nope}"'), "unknown variable ${nope}"),
        (GOOD_CHAT.replace('"${created}"', '{$offset: "absent", unit: code_points}'), "'absent' not found"),
        (GOOD_CHAT + "  stream:\n    - pieces: every\n      data: x\n", "pieces"),
    ],
)
def test_malformed_scenario_stops_the_server_with_file_and_reason(tmp_path: Path, text: str, reason: str) -> None:
    result = start_failure(tmp_path, {"broken.yaml": text})
    assert result.returncode == 2
    assert "broken.yaml" in result.stderr and reason in result.stderr
    assert "Traceback" not in result.stderr


def test_a_name_defined_twice_is_refused(tmp_path: Path) -> None:
    result = start_failure(tmp_path, {"perplexity.yaml": GOOD_CHAT})
    assert result.returncode == 2 and "'perplexity' is already defined" in result.stderr


def test_missing_scenario_directory_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mock_server", "--scenarios", str(tmp_path / "absent")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "not a directory" in result.stderr


def test_contributing_example_loads_and_serves_both_modes(tmp_path: Path) -> None:
    directory = tmp_path / "scenarios"
    directory.mkdir()
    (directory / "my-rag.yaml").write_text(scenario_file_from_contributing())
    port = free_port()
    service = mock_server(port, tmp_path / "mock.log", extra_args=["--scenarios", str(directory)]).start()
    base = f"http://127.0.0.1:{port}"
    try:
        service.wait_until_ready(f"{base}/v1/models", 30)
        assert "my-rag" in [m["id"] for m in httpx.get(f"{base}/v1/models").json()["data"]]
        request = {"model": "my-rag", "messages": [{"role": "user", "content": "x"}]}
        body = httpx.post(f"{base}/v1/chat/completions", json=request).json()
        stream = sse_data(httpx.post(f"{base}/v1/chat/completions", json={**request, "stream": True}).text)
    finally:
        service.stop()
    assert body["my_sources"][0]["url"] == f"{base}/static/web/who-physical-activity.html"
    assert stream[-1] == "[DONE]" and '"my_sources"' in stream[-2]


def test_a_file_extends_a_scenario_with_shared_data_it_includes(tmp_path: Path) -> None:
    (tmp_path / "_titles.yaml").write_text("- <b>one</b>\n- two\n")
    (tmp_path / "titled-perplexity.yaml").write_text(
        "extends: perplexity\ndescription: d\nvars:\n  titles: {$include: _titles.yaml}\n"
        "  search_results: {$repeat: '${titles}', each: {title: '${item}', url: 'https://e.example/${i}'}}\n"
    )
    scenarios = load_scenarios([tmp_path])
    assert "_titles" not in scenarios
    titled = scenarios["titled-perplexity"]
    assert titled.producer == "perplexity" and titled.chat == scenarios["perplexity"].chat
    body = json.loads(render_body(titled, "chat", RequestFacts("titled-perplexity", "http://h/", 1)))
    assert [r["title"] for r in body["search_results"]] == ["<b>one</b>", "two"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("extends: nowhere\ndescription: d\n", "no scenario 'nowhere' is loaded before this file"),
        ("extends: perplexity\ndescription: d\nvars: {x: {$include: ../outside.yaml}}\n", "outside the folder"),
    ],
)
def test_a_broken_extends_or_include_is_refused(tmp_path: Path, text: str, reason: str) -> None:
    (tmp_path / "broken.yaml").write_text(text)
    with pytest.raises(ScenarioError, match=reason):
        load_scenarios([tmp_path])


def test_a_producers_files_are_named_by_their_folder_and_role(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    known = load_scenarios()
    monkeypatch.setattr(registry, "PRODUCERS", tmp_path)
    folder = tmp_path / "acme"
    folder.mkdir()
    (tmp_path / "_shared.yaml").write_text("- one\n")
    for role in ("scenario", "hostile", "malformed", "malformed-nulls"):
        (folder / f"{role}.yaml").write_text(
            "extends: perplexity\ndescription: d\nvars: {x: {$include: ../_shared.yaml}}\n"
        )
    assert [s.name for path in sorted(folder.iterdir()) for s in registry.load_file(path, known)] == [
        "hostile-acme",
        "malformed-acme-nulls",
        "malformed-acme",
        "acme",
    ]
    (folder / "scenario.yaml").write_text("extends: perplexity\ndescription: d\nvars: {x: {$include: ../../x.yaml}}\n")
    with pytest.raises(ScenarioError, match="outside the folder"):
        registry.load_file(folder / "scenario.yaml", known)


def test_a_stream_entry_is_sent_once_per_item_of_a_list(tmp_path: Path) -> None:
    (tmp_path / "cited.yaml").write_text(
        "producer: p\ndescription: d\nanswer: [Hi]\nvars: {cites: [a, b, c]}\n"
        "anthropic:\n  body: {}\n  stream:\n    - {event: e, each: cites, data: {n: '${i}', citation: '${item}'}}\n"
    )
    events = render_stream(load_scenarios([tmp_path])["cited"], "anthropic", RequestFacts("m", "http://h/", 1))
    assert [json.loads(e.text.split("data: ", 1)[1]) for e in events] == [
        {"n": 1, "citation": "a"},
        {"n": 2, "citation": "b"},
        {"n": 3, "citation": "c"},
    ]


def test_a_chat_stream_may_name_its_done_event_and_send_events_after_it(tmp_path: Path) -> None:
    # FastGPT's detail mode: `event: answer` on `data: [DONE]`, then `event: flowResponses`.
    (tmp_path / "after.yaml").write_text(
        "producer: p\ndescription: d\nanswer: [Hi]\nvars: {id: x, created: 1, nodes: [{quoteList: [{id: a}]}]}\n"
        "chat:\n  body: {}\n  stream:\n"
        "    - {event: answer, pieces: ':', data: {choices: [{delta: {content: '${piece}'}}]}}\n"
        "  done_event: answer\n  after_done:\n    - {event: flowResponses, data: '${nodes}'}\n"
    )
    events = render_stream(load_scenarios([tmp_path])["after"], "chat", RequestFacts("m", "http://h/", 1))
    assert [e.text for e in events] == [
        'event: answer\ndata: {"choices":[{"delta":{"content":"Hi"}}]}\n\n',
        "event: answer\ndata: [DONE]\n\n",
        'event: flowResponses\ndata: [{"quoteList":[{"id":"a"}]}]\n\n',
    ]


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("{each: cites, pieces: ':', data: x}", "not both"),
        ("{each: answer, data: x}", "is not a list"),
    ],
)
def test_a_stream_entry_repeats_over_one_list(tmp_path: Path, entry: str, reason: str) -> None:
    (tmp_path / "broken.yaml").write_text(
        f"producer: p\ndescription: d\nanswer: [Hi]\nvars: {{cites: [a]}}\nchat:\n  body: {{}}\n  stream: [{entry}]\n"
    )
    with pytest.raises(ScenarioError, match=reason):
        load_scenarios([tmp_path])


def test_successive_requests_for_a_model_take_its_attempts_in_turn(tmp_path: Path) -> None:
    # A regenerated answer asks the same question again: with attempts, it is answered otherwise.
    (tmp_path / "tries.yaml").write_text(GOOD_CHAT + "answer: ['${reply}']\nattempts: [{reply: one}, {reply: two}]\n")
    request = {"messages": [{"role": "user", "content": "x"}]}
    with TestClient(create_app([tmp_path])) as client:

        def reply(model: str) -> str:
            response = client.post("/v1/chat/completions", json={**request, "model": model})
            return response.json()["choices"][0]["message"]["content"]

        replies = [reply("tries"), reply("perplexity"), reply("tries"), reply("tries")]
    assert replies[::2] == ["one", "two"] and replies[3] == "one"  # counted per model, and round again
