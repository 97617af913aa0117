import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from devstack.browser import chromium_launch_args
from devstack.stack import OWUI_VENV, ROOT, Stack
from devstack.stack import running_stack as devstack_running_stack
from tests.e2e.results import pytest_runtest_makereport, pytest_sessionfinish  # noqa: F401  (hooks: the results file)


def install_extension() -> None:
    """The installer, as a user runs it: with Open WebUI's own Python."""
    result = subprocess.run([str(OWUI_VENV / "bin" / "python"), "-m", "owui_citations", "install"],
                            cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@contextmanager
def running_stack(tmp_path_factory: pytest.TempPathFactory, extra_env: dict[str, str] | None = None) -> Iterator[Stack]:
    """The mock server and the pinned Open WebUI with the extension, each a real process."""
    install_extension()
    with devstack_running_stack(tmp_path_factory.mktemp("stack"), extra_env) as running:
        yield running


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory) as running:
        yield running


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict:
    return chromium_launch_args()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    path = ROOT / "test-results" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
