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


@pytest.fixture(autouse=True)
def card_faces() -> Iterator[None]:
    """Every test starts with the card games' faces on the CLI's console, as a new ``rummy``
    process does.  A Rummikub command leaves its tile faces on the shared console until the
    next command picks its own; a test that printed through the console directly after one
    (in the same worker) saw tiles: ``test_issue_puzzle_four`` found no "Decoy: 8♣" line,
    now and then, depending on which tests the worker had run before it."""
    from solver.cli.common import out
    from solver.cli.faces import CARDS

    out.faces = CARDS
    yield
