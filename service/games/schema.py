"""The store's tables and the migrations that build them, for SQLite and PostgreSQL alike.

The schema is versioned: ``schema_version`` has one row per migration applied (its
number, what it did, when).  ``migrate`` runs on every open, inside one transaction that
first takes the database's migration lock, so that two processes opening a new database
at once do not both migrate it (the second waits, then finds nothing to do): on SQLite
the transaction is ``BEGIN IMMEDIATE`` (the caller's), on PostgreSQL a transaction-scoped
advisory lock.  A migration is a list of steps, each SQL both databases accept or a
function of the connection; migrations are never edited once released, a change of the
schema is a new one at the end of ``MIGRATIONS``.

The ``Table`` objects below describe the schema as the migrations leave it; the store's
queries are built from them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import BigInteger, Column, Connection, Integer, MetaData, Table, Text, func, select, text
from sqlalchemy.exc import SQLAlchemyError

from service.games.store import StoreUnavailable

__all__ = ["MIGRATIONS", "Migration", "entries", "first_line", "games", "migrate", "schema_version"]

Step = str | Callable[[Connection], None]
"""SQL that SQLite and PostgreSQL both accept, or a function that does the step."""

MIGRATION_LOCK = 0x72756D6D79  # "rummy": the PostgreSQL advisory lock of the migrations


@dataclass(frozen=True)
class Migration:
    """One step of the schema's history: the version it brings the schema to."""

    version: int
    what: str
    steps: tuple[Step, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games and their numbered entries",
        (
            "CREATE TABLE games ("
            " game_id TEXT PRIMARY KEY,"
            " replay_id TEXT NOT NULL UNIQUE,"
            " created TEXT NOT NULL,"
            " settings TEXT NOT NULL,"
            " seed BIGINT NOT NULL,"
            " players TEXT NOT NULL,"
            " human_seat INTEGER NOT NULL,"
            " source TEXT NOT NULL)",
            "CREATE TABLE entries ("
            " game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,"
            " seq INTEGER NOT NULL,"
            " kind TEXT NOT NULL,"
            " data TEXT NOT NULL,"
            " at TEXT NOT NULL,"
            " PRIMARY KEY (game_id, seq))",
        ),
    ),
)
"""The schema's history, oldest first, numbered 1, 2, 3, ..."""

metadata = MetaData()
schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("what", Text, nullable=False),
    Column("applied", Text, nullable=False),
)
games = Table(
    "games",
    metadata,
    Column("game_id", Text, primary_key=True),
    Column("replay_id", Text, nullable=False, unique=True),
    Column("created", Text, nullable=False),
    Column("settings", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),
    Column("players", Text, nullable=False),  # JSON
    Column("human_seat", Integer, nullable=False),
    Column("source", Text, nullable=False),
)
entries = Table(
    "entries",
    metadata,
    Column("game_id", Text, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("data", Text, nullable=False),  # JSON
    Column("at", Text, nullable=False),
)

VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, what TEXT NOT NULL, applied TEXT NOT NULL)"
)


def _check_history(migrations: Sequence[Migration]) -> None:
    numbers = [migration.version for migration in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3, ... in order, not {numbers}")


def first_line(error: BaseException) -> str:
    """The first line of a database error's own message (the driver's, not SQLAlchemy's
    wrapping with the statement and its parameters)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


def migrate(
    connection: Connection,
    kind: Literal["sqlite", "postgresql"],
    migrations: Sequence[Migration],
    where: str,
) -> int:
    """Bring the schema up to the last of ``migrations`` inside the caller's transaction
    (on SQLite begun with ``BEGIN IMMEDIATE``); the version the schema is at.

    ``StoreUnavailable`` when the schema is newer than ``migrations`` know (a newer
    program migrated it) or a step fails (e.g. the database holds tables of its own)."""
    _check_history(migrations)
    if kind == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    connection.exec_driver_sql(VERSION_TABLE)
    current = connection.execute(select(func.coalesce(func.max(schema_version.c.version), 0))).scalar_one()
    latest = len(migrations)
    if current > latest:
        raise StoreUnavailable(
            f"{where} has schema version {current}, newer than this program knows ({latest}): "
            "upgrade rummy, or name another database in RUMMY_DB"
        )
    for migration in migrations[current:]:
        try:
            for step in migration.steps:
                if isinstance(step, str):
                    connection.exec_driver_sql(step)
                else:
                    step(connection)
        except SQLAlchemyError as error:
            raise StoreUnavailable(
                f"{where}: cannot bring the schema to version {migration.version} "
                f"({migration.what}): {first_line(error)}"
            ) from error
        connection.execute(
            schema_version.insert().values(
                version=migration.version,
                what=migration.what,
                applied=datetime.now(UTC).isoformat(timespec="seconds"),
            )
        )
    return latest
