"""The stacks the end-to-end tests run against: the mock server and the pinned Open WebUI with the extension,
each a real process (the session's in conftest.py; a test module with its own settings starts its own)."""

from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from devstack.delivery import DELIVERY
from devstack.delivery import declared_frontend
from devstack.delivery import install_extension
from devstack.delivery import stock_frontend
from devstack.limits import first_token_delay_ms
from devstack.owui import installed_version
from devstack.stack import OWUI_VENV
from devstack.stack import Demo
from devstack.stack import Stack
from devstack.stack import running_stack as devstack_running_stack
from tests.e2e.egress import EGRESS


@contextmanager
def running_stack(
    tmp_path_factory: pytest.TempPathFactory,
    extra_env: dict[str, str] | None = None,
    scenario_dirs: Sequence[Path] = (),
    demo: Demo | None = None,
    replicas: int = 1,
    backends: Path | None = None,
) -> Iterator[Stack]:
    """The mock server and the pinned Open WebUI with the extension, each a real process; signed in
    with ``demo`` (its admin), else in Open WebUI's no-login mode. ``backends``: the admin's declarations
    file, installed beside the extension's loader (in a copy of the frontend)."""
    install_extension()
    if DELIVERY == "loader" and backends:
        frontend = declared_frontend(tmp_path_factory.mktemp("declared") / "frontend", backends)
        extra_env = {**(extra_env or {}), "FRONTEND_BUILD_DIR": str(frontend)}
    elif DELIVERY != "loader":
        extra_env = {
            **(extra_env or {}),
            "FRONTEND_BUILD_DIR": str(stock_frontend(tmp_path_factory.mktemp("stock") / "frontend")),
        }
    delay = first_token_delay_ms(installed_version(OWUI_VENV))
    with devstack_running_stack(
        tmp_path_factory.mktemp("stack"),
        extra_env,
        scenario_dirs=scenario_dirs,
        first_token_delay_ms=delay,
        demo=demo,
        replicas=replicas,
    ) as running:
        EGRESS.allow(running.webui_url, running.mock_url)
        yield running
