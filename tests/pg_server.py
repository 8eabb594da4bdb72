"""A throwaway PostgreSQL server for the tests, from Debian's binaries (``initdb``, ``pg_ctl``).

``PostgresServer.start()`` makes a cluster in a new temporary folder, starts it on a free
port of 127.0.0.1 (and a Unix socket in that folder) with trust authentication for the
superuser ``rummy``, and ``stop()`` stops it and removes the folder.  PostgreSQL refuses
to run as root: as root (CI, this machine), the cluster belongs to the ``postgres``
user (Debian's package makes it) or, without one, to ``nobody``, and its commands run as
that user.  ``create_database()`` makes a new empty database and returns its URL, so that
each test has its own.

The fixtures ``postgres_server`` (one server per test session, or per xdist worker) and
``postgres_url`` (a new database on it per test) are in ``tests/conftest.py``.  The tests
that use them fail, never skip, when PostgreSQL is missing: ``python3 dev.py test``
installs it (``apt-get install postgresql``).
"""

from __future__ import annotations

import atexit
import itertools
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["INSTALL_HINT", "PostgresMissing", "PostgresServer", "find_bindir"]

INSTALL_HINT = (
    "install Debian's PostgreSQL (apt-get install postgresql; python3 dev.py test does it), "
    "or put a folder with initdb and pg_ctl on PATH"
)
SUPERUSER = "rummy"
SERVER_SETTINGS = (
    "-c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off "
    "-c max_connections=60 -c shared_buffers=16MB"
)
"""A test server: durability against a crash of the machine is not tested (fsync off);
against a crash of the client it is, and that needs no fsync."""


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed here."""


def find_bindir(debian: Path = Path("/usr/lib/postgresql")) -> Path:
    """The folder with ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest
    ``/usr/lib/postgresql/VERSION/bin`` (Debian does not put them on PATH)."""
    on_path = shutil.which("initdb")
    if on_path is not None and (Path(on_path).resolve().parent / "pg_ctl").exists():
        return Path(on_path).resolve().parent
    found = [path.parent for path in debian.glob("*/bin/initdb") if (path.parent / "pg_ctl").exists()]
    if not found:
        raise PostgresMissing(f"PostgreSQL's initdb is neither on PATH nor in {debian}/*/bin: {INSTALL_HINT}")

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in folder.parent.name.split(".") if part.isdigit())

    return max(found, key=version)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _owner() -> pwd.struct_passwd | None:
    """The user the cluster runs as when we are root (None: ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise PostgresMissing("running as root, with neither a postgres nor a nobody user to run PostgreSQL as")


def _reachable_temp(owner: pwd.struct_passwd | None) -> str | None:
    """Where the cluster's folder goes: the usual temporary folder, unless the cluster
    runs as another user who could not reach it (a private TMPDIR of root's): then /tmp."""
    usual = Path(tempfile.gettempdir()).resolve()
    if owner is None or all(path.stat().st_mode & 0o001 for path in (usual, *usual.parents)):
        return None
    return "/tmp"


class PostgresServer:
    """One running throwaway cluster; ``url`` names its ``postgres`` database."""

    def __init__(self, bindir: Path, folder: Path, port: int, owner: pwd.struct_passwd | None) -> None:
        self.bindir = bindir
        self.folder = folder
        self.port = port
        self.owner = owner
        self.socket_dir = folder / "socket"
        self._databases = itertools.count(1)
        self.running = False

    @classmethod
    def start(cls, bindir: Path | None = None) -> PostgresServer:
        """Make and start a cluster (``PostgresMissing`` without PostgreSQL's programs;
        ``RuntimeError`` with the server's log when it does not start)."""
        bindir = bindir or find_bindir()
        owner = _owner()
        folder = Path(tempfile.mkdtemp(prefix="rummy-pg-", dir=_reachable_temp(owner)))
        server = cls(bindir, folder, _free_port(), owner)
        try:
            server.socket_dir.mkdir()
            if owner is not None:
                for path in (folder, server.socket_dir):
                    os.chown(path, owner.pw_uid, owner.pw_gid)
            server._run(
                "initdb", "-D", str(folder / "data"), "-U", SUPERUSER, "--auth=trust",
                "--no-sync", "--no-locale", "-E", "UTF8",
            )  # fmt: skip
            server._launch()
        except BaseException:
            server.stop()
            raise
        atexit.register(server.stop)  # also when the session ends without its fixtures' teardown
        return server

    def _launch(self) -> None:
        for attempt in range(3):
            options = f"-p {self.port} -k {shlex.quote(str(self.socket_dir))} {SERVER_SETTINGS}"
            done = self._run(
                "pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "server.log"),
                "-w", "-t", "60", "-o", options, "start", check=False,
            )  # fmt: skip
            if done.returncode == 0:
                self.running = True
                return
            if attempt < 2 and "already in use" in self.log():  # the free port was taken meanwhile
                self.port = _free_port()
                continue
            raise RuntimeError(f"PostgreSQL did not start ({done.stdout.strip()}); its log:\n{self.log()}")

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        extra: dict[str, Any] = {}
        if self.owner is not None:
            extra = {"user": self.owner.pw_uid, "group": self.owner.pw_gid, "extra_groups": []}
        done = subprocess.run(
            [str(self.bindir / program), *args],
            capture_output=True,
            text=True,
            cwd=self.folder,
            start_new_session=True,  # a Ctrl-C of the tests does not reach the server first
            check=False,
            **extra,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stdout}{done.stderr}")
        return done

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` over TCP, as ``RUMMY_DB`` takes it."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database on this server; its URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self._databases)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname=postgres") as admin:
            admin.autocommit = True
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once (it holds nothing worth a clean shutdown) and remove its folder."""
        if self.running:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop", check=False)
            self.running = False
        shutil.rmtree(self.folder, ignore_errors=True)
