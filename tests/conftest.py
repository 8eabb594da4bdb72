"""Test-wide settings.

Hypothesis's per-example deadline is a timed assertion: on a loaded 2-core CI machine
it fails tests for being slow, not wrong, so it is off for the whole suite (speed is
measured by the scripts in ``benchmarks/``).  Examples stay random but reproducible
through Hypothesis's own seed printing.

The fixtures ``postgres_server`` and ``postgres_url`` give a test a real PostgreSQL server
(tests/pg_server.py) and a new database on it.
"""

from collections.abc import Iterator

import pytest
from hypothesis import settings
from pg_server import PostgresMissing, PostgresServer

settings.register_profile("project", deadline=None)
settings.load_profile("project")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server for the whole session (per xdist worker), stopped at
    its end (tests/pg_server.py).  Fails, never skips, when PostgreSQL is not installed."""
    try:
        server = PostgresServer.start()
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new empty PostgreSQL database (``postgresql://rummy@127.0.0.1:PORT/NAME``),
    one per test, as ``RUMMY_DB`` and ``service.games.open_store`` take it."""
    return postgres_server.create_database()
