"""A stack whose start-up fails half-way leaves no process behind (devstack/stack.py)."""

from pathlib import Path

import pytest

from devstack import stack
from devstack.processes import Service


def test_a_start_up_failing_after_the_mock_started_stops_the_mock(tmp_path: Path, monkeypatch) -> None:
    started: list[Service] = []
    real_mock_server = stack.mock_server

    def recorded_mock_server(*args, **kwargs) -> Service:
        service = real_mock_server(*args, **kwargs)
        started.append(service)
        return service

    def failing_litellm_proxy(*_args, **_kwargs) -> Service:
        raise OSError("no room for LiteLLM's config")

    monkeypatch.setattr(stack, "mock_server", recorded_mock_server)
    monkeypatch.setattr(stack, "litellm_proxy", failing_litellm_proxy)
    try:
        with pytest.raises(OSError, match="LiteLLM's config"), stack.running_stack(tmp_path):
            pass
        assert [service.name for service in started] == ["mock server"]
        process = started[0].process
        assert process is not None and process.poll() is not None, "the mock server was left running"
    finally:
        for service in started:
            service.stop()
