"""The game store over SQLAlchemy Core: one SQLite file, or a PostgreSQL database.

Appending is one short transaction: the game must exist, the entry's number must be the
game's next one, and the ``(game_id, seq)`` primary key settles a race (of two requests
that both read the same next number, one inserts, the other's insert fails and is
refused as stale).  Entries are never changed or deleted, so the numbers have no gaps.

SQLite: WAL journal (readers never wait for the writer), ``synchronous=FULL`` (a
committed entry is on disk when ``append`` returns), a busy timeout (writers of other
threads and processes wait their turn), and writes in ``BEGIN IMMEDIATE`` transactions
(a write takes the lock when it begins, so it never fails half-way on a busy database).
Each thread uses its own connection from SQLAlchemy's pool.

PostgreSQL: psycopg 3, READ COMMITTED, connections checked before use (a restarted
server costs no request), a connect timeout so that an unreachable server is reported
instead of waited on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Row, create_engine, event, func, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry

from service.games.location import Location
from service.games.schema import MIGRATIONS, Migration, entries, first_line, games, migrate
from service.games.store import (
    ENTRY_KINDS,
    SOURCES,
    BadEntry,
    Entry,
    GameExists,
    GameHeader,
    StaleAction,
    StoreError,
    StoreUnavailable,
    UnknownGame,
)

__all__ = ["SqlStore"]

BUSY_MS = 15_000
"""How long a SQLite writer waits for another one before giving up."""
CONNECT_SECONDS = 10
"""How long opening a PostgreSQL connection may take (unless the URL sets connect_timeout)."""
WRITE = "rummy_write"
"""The execution option that makes a SQLite transaction ``BEGIN IMMEDIATE``."""
BIGINT = range(-(2**63), 2**63)


def _sqlite_connected(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    # The driver's own transaction handling is off: the "begin" hook below says BEGIN.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreUnavailable(f"SQLite cannot keep this file in WAL mode (journal mode {mode!r})")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _engine(location: Location) -> Engine:
    if location.kind == "sqlite":
        engine = create_engine(location.url, connect_args={"timeout": BUSY_MS / 1000})
        event.listen(engine, "connect", _sqlite_connected)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    connect_args = {} if "connect_timeout" in location.url.query else {"connect_timeout": CONNECT_SECONDS}
    return create_engine(location.url, pool_pre_ping=True, connect_args=connect_args)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise BadEntry(f"{what} is not JSON: {error}") from None


def _checked_entry(kind: str, data: dict[str, Any]) -> tuple[str, str]:
    if kind not in ENTRY_KINDS:
        raise BadEntry(f"an entry's kind is one of {', '.join(sorted(ENTRY_KINDS))}, not {kind!r}")
    if not isinstance(data, dict):
        raise BadEntry(f"an entry's data is a JSON object, not {type(data).__name__}")
    return kind, _json(data, "the entry's data")


def _check_seq(seq: int) -> None:
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise BadEntry(f"an entry's number is an integer 0 or more, not {seq!r}")


def _check_header(header: GameHeader) -> None:
    problems = []
    if not (isinstance(header.game_id, str) and header.game_id):
        problems.append("the game id is empty")
    if not (isinstance(header.replay_id, str) and header.replay_id) or header.replay_id == header.game_id:
        problems.append("the replay id is empty or the game id")
    if isinstance(header.seed, bool) or not isinstance(header.seed, int) or header.seed not in BIGINT:
        problems.append(f"the seed {header.seed!r} is not a signed 64-bit integer")
    if not (isinstance(header.players, list) and all(isinstance(name, str) for name in header.players)):
        problems.append("the players are not a list of names")
    elif not (isinstance(header.human_seat, int) and 0 <= header.human_seat < len(header.players)):
        problems.append(f"seat {header.human_seat!r} is not one of the {len(header.players)} seats")
    if header.source not in SOURCES:
        problems.append(f"the source is one of {', '.join(sorted(SOURCES))}, not {header.source!r}")
    if problems:
        raise BadEntry("cannot keep this game: " + "; ".join(problems))


def _header(row: Row[Any]) -> GameHeader:
    return GameHeader(
        game_id=row.game_id,
        replay_id=row.replay_id,
        created=row.created,
        settings=json.loads(row.settings),
        seed=row.seed,
        players=json.loads(row.players),
        human_seat=row.human_seat,
        source=row.source,
    )


def _make_folder(folder: Path, where: str) -> None:
    """Make the SQLite file's folder (``StoreUnavailable`` when that cannot be done)."""
    for path in (folder, *folder.parents):
        if path.exists() and not path.is_dir():
            raise StoreUnavailable(f"cannot use {where}: {path} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        why = f"cannot make the folder {folder}: {error.strerror}"
        raise StoreUnavailable(f"cannot use {where}: {why}") from None


class SqlStore:
    """A ``GameStore`` on the database ``location`` names; the schema is migrated when it
    opens.  ``where`` says where the games are kept (any password masked)."""

    def __init__(self, location: Location, *, migrations: Sequence[Migration] | None = None) -> None:
        self.where = location.description
        self.kind = location.kind
        if location.path is not None:
            _make_folder(location.path.parent, self.where)
        self._engine = _engine(location)
        try:
            with self._transaction(write=True) as connection:
                self.version = migrate(connection, location.kind, migrations or MIGRATIONS, self.where)
        except IntegrityError as error:
            self._engine.dispose()
            raise StoreUnavailable(f"cannot use {self.where}: {first_line(error)}") from error
        except BaseException:
            self._engine.dispose()
            raise

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Connection]:
        """A connection in a transaction, committed at the end of the block (rolled back on
        an error).  Database errors become ``StoreUnavailable``, except a broken unique
        constraint, which the caller answers for (an ``IntegrityError``)."""
        try:
            with self._engine.connect() as connection:
                if write:
                    connection.execution_options(**{WRITE: True})
                with connection.begin():
                    yield connection
        except (StoreError, IntegrityError):
            raise
        except SQLAlchemyError as error:
            raise StoreUnavailable(f"cannot use {self.where}: {first_line(error)}") from error

    def create(self, header: GameHeader) -> None:
        _check_header(header)
        row = {
            "game_id": header.game_id,
            "replay_id": header.replay_id,
            "created": header.created,
            "settings": _json(header.settings, "the game's settings"),
            "seed": header.seed,
            "players": _json(header.players, "the players"),
            "human_seat": header.human_seat,
            "source": header.source,
        }
        try:
            with self._transaction(write=True) as connection:
                connection.execute(insert(games), row)
        except IntegrityError:
            raise GameExists("a game with this id or replay id is kept already") from None

    def append(self, game_id: str, seq: int, kind: str, data: dict[str, Any]) -> Entry:
        return self.append_many(game_id, seq, [(kind, data)])[0]

    def append_many(
        self, game_id: str, first_seq: int, records: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[Entry]:
        _check_seq(first_seq)
        checked = [_checked_entry(kind, data) for kind, data in records]
        at = _now()
        rows = [
            {"game_id": game_id, "seq": first_seq + index, "kind": kind, "data": data, "at": at}
            for index, (kind, data) in enumerate(checked)
        ]
        try:
            with self._transaction(write=True) as connection:
                self._expect_next(connection, game_id, first_seq)
                if rows:
                    connection.execute(insert(entries), rows)
        except IntegrityError:
            raise StaleAction(
                f"entry {first_seq} was just stored by another request (someone acted first)"
            ) from None
        made = enumerate(checked, start=first_seq)
        return [Entry(seq, kind, json.loads(data), at) for seq, (kind, data) in made]

    @staticmethod
    def _expect_next(connection: Connection, game_id: str, seq: int) -> None:
        """``UnknownGame`` unless the game exists, ``StaleAction`` unless ``seq`` is its next number."""
        found = connection.execute(select(games.c.game_id).where(games.c.game_id == game_id)).first()
        if found is None:
            raise UnknownGame("no game has this id")
        next_seq = connection.execute(
            select(func.coalesce(func.max(entries.c.seq) + 1, 0)).where(entries.c.game_id == game_id)
        ).scalar_one()
        if seq < next_seq:
            raise StaleAction(
                f"entry {seq} is taken: the game is at entry {next_seq} (someone acted first)", next_seq
            )
        if seq > next_seq:
            raise StaleAction(f"entry {seq} would leave a gap: the game's next entry is {next_seq}", next_seq)

    def load(self, game_id: str) -> tuple[GameHeader, list[Entry]]:
        return self._load(games.c.game_id == game_id, "no game has this id")

    def load_replay(self, replay_id: str) -> tuple[GameHeader, list[Entry]]:
        return self._load(games.c.replay_id == replay_id, "no game has this replay id")

    def _load(self, which: Any, unknown: str) -> tuple[GameHeader, list[Entry]]:
        with self._transaction(write=False) as connection:
            row = connection.execute(select(games).where(which)).first()
            if row is None:
                raise UnknownGame(unknown)
            found = connection.execute(
                select(entries.c.seq, entries.c.kind, entries.c.data, entries.c.at)
                .where(entries.c.game_id == row.game_id)
                .order_by(entries.c.seq)
            ).all()
        return _header(row), [Entry(seq, kind, json.loads(data), at) for seq, kind, data, at in found]

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> SqlStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
