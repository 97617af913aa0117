"""What Open WebUI's replicas share (docs/deployment.md): PostgreSQL and Redis from Debian's
packages, each a plain process on a port of its own, its data in a temporary directory."""

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .processes import Service
from .processes import ServiceError
from .processes import debian_program
from .processes import free_port

DATABASE = "openwebui"


def as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run by root, its commands become the postgres user's."""
    return ["runuser", "-u", "postgres", "--", *command] if os.getuid() == 0 else command


@contextmanager
def postgresql(port: int, log_path: Path) -> Iterator[str]:
    """A new PostgreSQL cluster with an empty database; yields Open WebUI's DATABASE_URL for it
    (psycopg 3, the driver Open WebUI's pip install ships)."""
    binaries = Path(debian_program("postgresql")).parent
    # Outside pytest's private temporary folders, which the postgres user cannot enter.
    directory = Path(tempfile.mkdtemp(prefix="owc-postgresql-"))
    if os.getuid() == 0:
        shutil.chown(directory, "postgres")
    data = directory / "data"
    initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]
    server = Service(
        "PostgreSQL",
        as_postgres(
            [str(binaries / "postgres"), "-D", str(data), "-p", str(port), "-k", str(directory)]
            + ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]
        ),
        log_path,
    )
    try:
        subprocess.run(as_postgres(initdb), capture_output=True, text=True, check=True)
        server.start()
        server.wait_until(lambda: accepts(port), 30, f"127.0.0.1:{port}")
        createdb = [str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", DATABASE]
        subprocess.run(as_postgres(createdb), capture_output=True, text=True, check=True)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/{DATABASE}"
    except subprocess.CalledProcessError as error:
        raise ServiceError(f"PostgreSQL: {' '.join(error.cmd)} failed: {error.stderr}") from error
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@contextmanager
def redis(port: int, log_path: Path) -> Iterator[str]:
    """A Redis server that keeps nothing on disk; yields its URL."""
    command = [debian_program("redis-server"), "--port", str(port), "--bind", "127.0.0.1"]
    server = Service("Redis", [*command, "--save", "", "--appendonly", "no", "--daemonize", "no"], log_path)
    try:
        server.start()
        server.wait_until(lambda: accepts(port), 30, f"127.0.0.1:{port}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.stop()


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def shared_services(logs: Path) -> Iterator[dict[str, str]]:
    """PostgreSQL and Redis for Open WebUI's replicas; yields the environment that points each
    replica at them (the secret key, the other thing they must share, is the stack's own)."""
    with postgresql(free_port(), logs / "postgresql.log") as database, redis(free_port(), logs / "redis.log") as cache:
        # Without the Redis manager, an answer streamed by one replica never reaches a page
        # whose socket another holds (socket/main.py).
        yield {"DATABASE_URL": database, "REDIS_URL": cache, "WEBSOCKET_MANAGER": "redis"}
