"""Child processes with a log file, a readiness check and a clean stop."""

import fcntl
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# How long a stopped service may take to exit before it is killed.
STOP_GRACE_S = 3


def debian_program(package: str) -> str:
    """The path of a program of Debian's ``package`` that scripts/ensure-debian.sh finds (or installs)."""
    command = [str(ROOT / "scripts" / "ensure-debian.sh"), package]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


@contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """One process at a time in the block, among those locking ``lock_file`` (pytest's workers, say)."""
    with open(lock_file, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServiceError(RuntimeError):
    pass


class Service:
    """One child process; its output goes to ``log_path``, read back when it fails."""

    def __init__(self, name: str, command: list[str], log_path: Path, env: dict[str, str] | None = None):
        self.name, self.command, self.log_path = name, command, log_path
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> "Service":
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            # A process group of its own, so that stopping it stops its children too.
            self.process = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True
            )
        return self

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def wait_until_ready(self, url: str, timeout_s: float) -> None:
        """Polls ``url`` until it answers 200; fails early if the process exits."""

        def answers() -> bool:
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    return response.status == 200
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                return False

        self.wait_until(answers, timeout_s, url)

    def wait_until(self, ready: Callable[[], bool], timeout_s: float, where: str) -> None:
        """Polls ``ready`` until it holds; fails early if the process exits."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise ServiceError(f"{self.name} exited with code {self.process.returncode}:\n{self.log_tail()}")
            if ready():
                return
            time.sleep(0.25)
        raise ServiceError(f"{self.name} was not ready at {where} after {timeout_s:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            # Open WebUI serving the polling transport does not exit while a long poll is open; its data is a run's.
            self.process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
