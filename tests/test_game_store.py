"""The game store (service/games, issue 33), against SQLite and a real PostgreSQL server.

Every behaviour test runs on both: a SQLite file in the test's folder, and a new database
on the session's throwaway PostgreSQL server (``postgres_url``, tests/conftest.py).  The
races are real: threads released together by a barrier, and processes of their own
(tests/store_worker.py) that share the database, take turns, race for one number, are
killed with SIGKILL right after an append returned, or open a new database at the same
moment.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest
from pg_server import PostgresMissing, PostgresServer, find_bindir
from sqlalchemy import Engine, create_engine, text

from service.games import (
    Entry,
    GameExists,
    GameHeader,
    GameStore,
    StaleAction,
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    UnknownGame,
    describe,
    open_store,
)
from service.games.location import parse_location
from service.games.schema import MIGRATIONS, Migration
from service.games.sql import SqlStore
from service.games.store import BadEntry

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "tests" / "store_worker.py"
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's games are kept: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    database: str = request.getfixturevalue("postgres_url")
    return database


@pytest.fixture
def store(url: str) -> Iterator[GameStore]:
    opened = open_store(url)
    yield opened
    opened.close()


@contextmanager
def opened(url: str | None, migrations: tuple[Migration, ...] | None = None) -> Iterator[SqlStore]:
    """``open_store``'s store, closed at the end of the block."""
    store = open_store(url, migrations=migrations)
    assert isinstance(store, SqlStore)
    try:
        yield store
    finally:
        store.close()


def header(number: int = 0, **changes: Any) -> GameHeader:
    fields: dict[str, Any] = {
        "game_id": f"game{number}-" + "g" * 20,
        "replay_id": f"replay{number}-" + "r" * 20,
        "created": "2026-11-27T10:00:00+00:00",
        "settings": {"variant": "rummikub", "players": 3},
        "seed": 2**62 + number,
        "players": ["you", "pimc", "expert"],
        "human_seat": 0,
        "source": "played",
    }
    fields.update(changes)
    return GameHeader(**fields)


def action(seat: int, number: int = 0) -> dict[str, Any]:
    return {"seat": seat, "action": {"type": "draw", "n": number}, "ms": 12.5}


def raw_engine(url: str) -> Engine:
    """An engine on the store's database that bypasses the store (to set traps in it)."""
    return create_engine(parse_location(url).url)


# --- what a store keeps -------------------------------------------------------------------


def test_a_game_is_created_appended_to_and_loaded(store: GameStore) -> None:
    game = header()
    store.create(game)
    assert store.load(game.game_id) == (game, [])
    first = store.append(game.game_id, 0, "action", action(0))
    assert (first.seq, first.kind, first.data) == (0, "action", action(0))
    more = store.append_many(game.game_id, 1, [("help", {"level": 2, "turn": 1}), ("action", action(1, 7))])
    assert [entry.seq for entry in more] == [1, 2]
    fourth = store.append(game.game_id, 3, "advice", {"turn": 3})
    loaded_header, entries = store.load(game.game_id)
    assert loaded_header == game
    assert entries == [first, *more, fourth]  # as stored, so as returned
    assert [(entry.seq, entry.kind) for entry in entries] == [
        (0, "action"),
        (1, "help"),
        (2, "action"),
        (3, "advice"),
    ]
    assert entries[3].data == {"turn": 3}
    assert all(entry.at.endswith("+00:00") for entry in entries)


def test_games_are_kept_apart_and_outlive_the_store(url: str) -> None:
    with opened(url) as first:
        for number in range(3):
            first.create(header(number))
            first.append(header(number).game_id, 0, "action", action(number))
    with opened(url) as again:
        for number in range(3):
            game, entries = again.load(header(number).game_id)
            assert game == header(number)
            assert [entry.data for entry in entries] == [action(number)]


def test_the_replay_id_loads_the_same_game(store: GameStore) -> None:
    store.create(header(1))
    store.append(header(1).game_id, 0, "action", action(0))
    assert store.load_replay(header(1).replay_id) == store.load(header(1).game_id)
    with pytest.raises(UnknownGame):
        store.load_replay(header(1).game_id)  # the secret id is not a replay id
    with pytest.raises(UnknownGame):
        store.load(header(1).replay_id)  # and the replay id cannot act


def test_an_unknown_game_is_refused_everywhere(store: GameStore) -> None:
    store.create(header(1))
    for attempt in (
        lambda: store.load("nope"),
        lambda: store.load_replay("nope"),
        lambda: store.append("nope", 0, "action", action(0)),
        lambda: store.append_many("nope", 0, [("action", action(0))]),
    ):
        with pytest.raises(UnknownGame) as refused:
            attempt()
        assert isinstance(refused.value, LookupError)


def test_a_game_or_replay_id_cannot_be_kept_twice(store: GameStore) -> None:
    store.create(header(1))
    with pytest.raises(GameExists):
        store.create(header(1, replay_id="another-replay-id-0000000"))
    with pytest.raises(GameExists):
        store.create(header(2, replay_id=header(1).replay_id))
    assert store.load(header(1).game_id)[0] == header(1)


# --- the numbers: stale, gaps, all or nothing --------------------------------------------


def test_a_taken_number_is_stale_and_changes_nothing(store: GameStore) -> None:
    game = header().game_id
    store.create(header())
    store.append_many(game, 0, [("action", action(0)), ("action", action(1))])
    with pytest.raises(StaleAction) as stale:
        store.append(game, 1, "action", action(2))
    assert stale.value.next_seq == 2
    assert "taken" in str(stale.value)
    with pytest.raises(StaleAction):
        store.append_many(game, 0, [("action", action(2))])
    assert [entry.data for entry in store.load(game)[1]] == [action(0), action(1)]


def test_a_number_ahead_of_the_game_is_stale_too(store: GameStore) -> None:
    game = header().game_id
    store.create(header())
    with pytest.raises(StaleAction) as gap:
        store.append(game, 1, "action", action(0))
    assert gap.value.next_seq == 0
    assert "gap" in str(gap.value)
    store.append(game, 0, "action", action(0))
    with pytest.raises(StaleAction):
        store.append_many(game, 3, [("action", action(1))])
    assert [entry.seq for entry in store.load(game)[1]] == [0]


def test_append_many_keeps_all_or_nothing(store: GameStore, url: str) -> None:
    game = header().game_id
    store.create(header())
    store.append(game, 0, "action", action(0))
    # a bad entry last: refused before anything is written
    with pytest.raises(BadEntry):
        store.append_many(game, 1, [("action", action(1)), ("action", action(2)), ("shrug", {})])
    # a failure inside the database on the batch's second row: the first is rolled back too
    engine = raw_engine(url)
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql(
                "CREATE TRIGGER trap BEFORE INSERT ON entries WHEN NEW.seq = 2 "
                "BEGIN SELECT RAISE(ABORT, 'trap'); END"
            )
        else:
            connection.exec_driver_sql(
                "CREATE FUNCTION trap() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN IF NEW.seq = 2 THEN RAISE EXCEPTION 'trap'; END IF; RETURN NEW; END $$"
            )
            connection.exec_driver_sql(
                "CREATE TRIGGER trap BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION trap()"
            )
    engine.dispose()
    with pytest.raises(StoreError):
        store.append_many(game, 1, [("action", action(1)), ("action", action(2)), ("action", action(3))])
    assert [entry.seq for entry in store.load(game)[1]] == [0]
    assert store.append_many(game, 1, []) == []
    assert [entry.seq for entry in store.append_many(game, 1, [("help", {"level": 1, "turn": 1})])] == [1]


def test_what_cannot_be_kept_is_refused_with_a_reason(store: GameStore) -> None:
    game = header().game_id
    store.create(header())
    refused: list[tuple[Any, str]] = [
        (lambda: store.append(game, 0, "move", {}), "kind"),
        (lambda: store.append(game, -1, "action", {}), "number"),
        (lambda: store.append(game, True, "action", {}), "number"),
        (lambda: store.append(game, 0, "action", [1, 2]), "JSON object"),  # type: ignore[arg-type]
        (lambda: store.append(game, 0, "action", {"cards": {1, 2}}), "not JSON"),
        (lambda: store.append(game, 0, "action", {"ms": float("nan")}), "not JSON"),
        (lambda: store.create(header(1, human_seat=3)), "seat 3"),
        (lambda: store.create(header(1, seed=2**64)), "64-bit"),
        (lambda: store.create(header(1, replay_id=header(1).game_id)), "replay id"),
        (lambda: store.create(header(1, source="found")), "source"),
        (lambda: store.create(header(1, game_id="")), "game id"),
    ]
    for attempt, reason in refused:
        with pytest.raises(BadEntry) as bad:
            attempt()
        assert reason in str(bad.value)
        assert isinstance(bad.value, ValueError)
    assert store.load(game)[1] == []
    with pytest.raises(UnknownGame):
        store.load(header(1).game_id)


# --- races and crashes ---------------------------------------------------------------------


def test_two_threads_appending_the_same_number_one_wins(store: GameStore) -> None:
    game = header().game_id
    store.create(header())
    for seq in range(8):
        barrier = threading.Barrier(2)
        outcomes: list[Entry | StaleAction] = []

        def attempt(
            seat: int, seq: int = seq, barrier: threading.Barrier = barrier, outcomes: list[Any] = outcomes
        ) -> None:
            barrier.wait()
            try:
                outcomes.append(store.append(game, seq, "action", action(seat, seq)))
            except StaleAction as stale:
                outcomes.append(stale)

        threads = [threading.Thread(target=attempt, args=(seat,)) for seat in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        won = [outcome for outcome in outcomes if isinstance(outcome, Entry)]
        assert len(won) == 1 and len(outcomes) == 2, outcomes
        assert store.load(game)[1][seq] == won[0]


def test_threads_that_retry_when_stale_lose_nothing(store: GameStore) -> None:
    game = header().game_id
    store.create(header())
    per_thread = 8

    def play(seat: int) -> None:
        done = 0
        while done < per_thread:
            next_seq = len(store.load(game)[1])
            try:
                store.append(game, next_seq, "action", action(seat, done))
            except StaleAction:
                continue
            done += 1

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = store.load(game)[1]
    assert [entry.seq for entry in entries] == list(range(4 * per_thread))
    for seat in range(4):
        assert [entry.data["action"]["n"] for entry in entries if entry.data["seat"] == seat] == list(
            range(per_thread)
        )


class Worker:
    """A store in another process (tests/store_worker.py), one JSON line each way."""

    def __init__(self, url: str, *options: str) -> None:
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER), url, *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.read() == {"ready": True}

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")

    def read(self, timeout: float = 30.0) -> dict[str, Any]:
        line = self.lines.get(timeout=timeout)
        if not line:
            self.errors.seek(0)
            raise AssertionError(f"the worker ended: {self.errors.read().decode(errors='replace')}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def send(self, line: str | dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
        self.process.stdin.flush()

    def ask(self, command: dict[str, Any]) -> dict[str, Any]:
        self.send(command)
        return self.read()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.errors.close()


@pytest.fixture
def workers() -> Iterator[list[Worker]]:
    """Where a test puts its workers, each killed at its end."""
    started: list[Worker] = []
    yield started
    for worker in started:
        worker.close()


def _append(game: str, seq: int, seat: int) -> dict[str, Any]:
    return {"op": "append", "game_id": game, "seq": seq, "kind": "action", "data": action(seat, seq)}


def test_two_processes_take_turns_and_race_on_one_database(url: str, workers: list[Worker]) -> None:
    """As two service processes behind a load balancer would: each sees the other's
    entries at once, and of two appends of one number exactly one is stored."""
    workers += [Worker(url), Worker(url)]
    for worker in workers:
        worker.send("go")
    assert [worker.read()["opened"] for worker in workers] == [len(MIGRATIONS)] * 2
    game = header().game_id
    assert workers[0].ask({"op": "create", "game_id": game, "replay_id": header().replay_id}) == {"ok": True}
    for seq in range(6):
        me, other = workers[seq % 2], workers[(seq + 1) % 2]
        assert me.ask({"op": "load", "game_id": game})["seqs"] == list(range(seq))
        assert me.ask(_append(game, seq, seq % 2))["ok"]
        assert other.ask(_append(game, seq, 9))["error"] == "StaleAction"  # it lost the turn
    for seq in range(6, 9):
        for seat, worker in enumerate(workers):
            worker.send(_append(game, seq, seat))
        answers = [worker.read() for worker in workers]
        assert sorted("ok" in answer for answer in answers) == [False, True], answers
        assert [answer["error"] for answer in answers if "error" in answer] == ["StaleAction"]
    loaded = workers[1].ask({"op": "load", "game_id": game})
    assert loaded["seqs"] == list(range(9))
    assert [data["seat"] for data in loaded["data"][:6]] == [0, 1, 0, 1, 0, 1]


def test_an_acknowledged_append_survives_kill_9(url: str, workers: list[Worker]) -> None:
    workers.append(Worker(url))
    worker = workers[0]
    worker.send("go")
    worker.read()
    game = header().game_id
    worker.ask({"op": "create", "game_id": game, "replay_id": header().replay_id})
    for seq in range(30):  # sent at once: the worker is still appending when it is killed
        worker.send(_append(game, seq, 0))
    acknowledged = [worker.read()["seq"] for _ in range(10)]
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.wait()
    with opened(url) as again:
        kept = [entry.seq for entry in again.load(game)[1]]
    assert acknowledged == list(range(10))
    assert kept[:10] == acknowledged
    assert kept == list(range(len(kept)))  # whatever else got in, it has no gaps


# --- the schema's versions -----------------------------------------------------------------


def _versions(url: str) -> list[int]:
    engine = raw_engine(url)
    with engine.connect() as connection:
        found = [
            row[0] for row in connection.execute(text("SELECT version FROM schema_version ORDER BY version"))
        ]
    engine.dispose()
    return found


INDEX = Migration(2, "games by date (tests only)", ("CREATE INDEX games_created ON games (created)",))


def test_opening_again_migrates_nothing(url: str) -> None:
    for _ in range(3):
        with opened(url) as kept:
            assert kept.version == 1
    assert _versions(url) == [1]


def test_a_second_migration_is_applied_once_and_keeps_the_games(url: str) -> None:
    with opened(url) as first:
        first.create(header())
        first.append(header().game_id, 0, "action", action(0))
    for _ in range(2):
        with opened(url, migrations=(*MIGRATIONS, INDEX)) as second:
            assert second.version == 2
            assert [entry.data for entry in second.load(header().game_id)[1]] == [action(0)]
    assert _versions(url) == [1, 2]


def test_a_schema_newer_than_the_program_is_refused(url: str) -> None:
    with opened(url, migrations=(*MIGRATIONS, INDEX)):
        pass
    with pytest.raises(StoreUnavailable) as newer:
        open_store(url)
    assert "schema version 2, newer than this program knows (1)" in str(newer.value)
    assert "\n" not in str(newer.value)


def test_a_failing_migration_changes_nothing(url: str) -> None:
    with opened(url):
        pass
    broken = Migration(
        2, "broken (tests only)", ("CREATE TABLE half_done (x INTEGER)", "CREATE TABLE games (x INTEGER)")
    )
    with pytest.raises(StoreUnavailable) as failed:
        open_store(url, migrations=(*MIGRATIONS, broken))
    assert "cannot bring the schema to version 2 (broken (tests only))" in str(failed.value)
    assert _versions(url) == [1]
    engine = raw_engine(url)
    with engine.connect() as connection, pytest.raises(Exception, match="half_done"):
        connection.execute(text("SELECT * FROM half_done"))
    engine.dispose()


def test_migrations_must_be_numbered_in_order(url: str) -> None:
    with pytest.raises(ValueError, match="numbered 1, 2, 3"):
        open_store(url, migrations=(INDEX,))


def test_a_database_with_tables_of_its_own_is_refused(url: str) -> None:
    engine = raw_engine(url)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE games (name TEXT)"))
    engine.dispose()
    with pytest.raises(StoreUnavailable) as refused:
        open_store(url)
    assert "cannot bring the schema to version 1 (games and their numbered entries)" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_two_processes_opening_a_new_database_migrate_it_once(url: str, workers: list[Worker]) -> None:
    """The probe migration takes half a second and counts its runs: without the lock both
    processes would run it (and the second would fail on its table)."""
    workers += [Worker(url, "--probe-migration", "0.5"), Worker(url, "--probe-migration", "0.5")]
    for worker in workers:
        worker.send("go")
    assert [worker.read() for worker in workers] == [{"opened": 2}, {"opened": 2}]
    assert _versions(url) == [1, 2]
    engine = raw_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM probe")).scalar_one() == 1
    engine.dispose()


# --- where the games are, and what happens when they cannot be there -----------------------


def test_unset_keeps_games_in_the_default_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    expected = tmp_path / "home" / ".local" / "share" / "rummy" / "games.sqlite3"
    assert describe(None) == describe("") == f"SQLite file {expected}"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert describe(None) == f"SQLite file {expected}"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = tmp_path / "data" / "rummy" / "games.sqlite3"
    assert describe(None) == f"SQLite file {expected}"
    with opened(None) as kept:
        assert kept.where == f"SQLite file {expected}"
        kept.create(header())
    assert expected.is_file()


def test_sqlite_is_named_by_path_or_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with opened("games.db") as by_path:
        by_path.create(header())
    for same in (f"sqlite:///{tmp_path}/games.db", "sqlite:///games.db", f"  {tmp_path}/games.db  "):
        with opened(same) as kept:
            assert kept.where == f"SQLite file {tmp_path / 'games.db'}"
            assert kept.load(header().game_id)[0] == header()


def test_sqlite_keeps_wal_full_sync_and_waits_when_busy(tmp_path: Path) -> None:
    names = ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
    with opened(str(tmp_path / "games.db")) as kept, kept._engine.connect() as connection:
        pragmas = [connection.exec_driver_sql(f"PRAGMA {name}").scalar_one() for name in names]
    assert pragmas == ["wal", 2, 15000, 1]  # synchronous 2 is FULL


def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the games you are looking for\n" * 200)
    with pytest.raises(StoreUnavailable) as refused:
        open_store(str(path))
    assert str(refused.value) == f"cannot use SQLite file {path}: file is not a database"
    assert path.read_text().startswith("these are not")  # left as it was
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for inside in (blocker / "games.db", blocker / "deeper" / "games.db"):
        with pytest.raises(StoreUnavailable) as refused:
            open_store(str(inside))
        assert str(refused.value) == f"cannot use SQLite file {inside}: {blocker} is a file, not a folder"


def test_an_unreachable_postgresql_is_refused_in_one_line(postgres_server: PostgresServer) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as refused:
        open_store(f"postgresql://rummy:s3cret@127.0.0.1:{port}/games")
    message = str(refused.value)
    assert time.monotonic() - started < 10
    assert message.startswith(
        f"cannot use PostgreSQL database postgresql+psycopg://rummy:***@127.0.0.1:{port}/games: "
    )
    assert "refused" in message and "s3cret" not in message and "\n" not in message
    with pytest.raises(StoreUnavailable, match='database "nowhere" does not exist'):
        open_store(postgres_server.url("nowhere"))


@pytest.mark.parametrize(
    ("setting", "why"),
    [
        ("mysql://root:pw@localhost/games", "unsupported kind of database 'mysql'"),
        ("postgresql+psycopg2://localhost/games", "the driver 'psycopg2' is not used here"),
        ("postgresql://rummy:pw@localhost", "names no database"),
        ("sqlite://", "names no file"),
        ("sqlite:///:memory:", "names no file"),
        ("postgresql:games", "looks like a URL without '//'"),
    ],
)
def test_a_setting_that_names_no_database_says_what_is_accepted(setting: str, why: str) -> None:
    with pytest.raises(StoreConfigError) as refused:
        open_store(setting)
    message = str(refused.value)
    assert isinstance(refused.value, ValueError)
    assert message.startswith("RUMMY_DB=") and why in message
    assert "sqlite:///PATH" in message and "postgresql://USER:PASSWORD@HOST:PORT/DATABASE" in message
    assert ":pw@" not in message and "\n" not in message


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(StoreConfigError, match="is a folder"):
        open_store(str(tmp_path))


def test_where_masks_the_password() -> None:
    assert describe("postgresql://rummy:s3cret@db.example:5433/games") == (
        "PostgreSQL database postgresql+psycopg://rummy:***@db.example:5433/games"
    )
    assert (
        describe("postgres://db.example/games") == "PostgreSQL database postgresql+psycopg://db.example/games"
    )


def test_the_test_server_is_found_in_debian_s_folder_or_its_absence_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/pg_server.py: the newest of Debian's versions; without one, a failure that says
    how to install it (the store's tests fail rather than skip)."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(PostgresMissing) as missing:
        find_bindir(tmp_path / "postgresql")
    assert "apt-get install postgresql" in str(missing.value)
    for version in ("9.6", "13", "15"):
        folder = tmp_path / "postgresql" / version / "bin"
        folder.mkdir(parents=True)
        for program in ("initdb", "pg_ctl"):
            (folder / program).write_text("")
    assert find_bindir(tmp_path / "postgresql") == tmp_path / "postgresql" / "15" / "bin"
