"""A game store in a process of its own, driven line by line (for tests/test_game_store.py).

    python tests/store_worker.py URL [--probe-migration SECONDS]

It imports the store, prints ``{"ready": true}``, waits for a line ``go`` (so that several
workers can be made to open the database at the same moment), opens the store (with
``--probe-migration``, the schema's migrations and a test-only one after them that takes
SECONDS and records that it ran), prints ``{"opened": VERSION}``, then answers one JSON
command per line with one JSON line:

- ``{"op": "create", "game_id", "replay_id"}`` -> ``{"ok": true}``
- ``{"op": "append", "game_id", "seq", "kind", "data"}`` -> ``{"ok": true, "seq", "at"}``
- ``{"op": "load", "game_id"}`` -> ``{"ok": true, "seqs": [...], "data": [...]}``

and ``{"error": "StaleAction", "message": ...}`` when the store refuses.  Each answer is
printed after the store's call has returned, which is what the durability test needs.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from sqlalchemy import Connection

from service.games.schema import MIGRATIONS, Migration
from service.games.store import GameHeader, GameStore, StoreError, open_store


def _say(answer: dict[str, Any]) -> None:
    print(json.dumps(answer), flush=True)


def probe_migrations(seconds: float) -> tuple[Migration, ...]:
    """The schema's migrations and a slow test-only one that counts how often it ran."""

    def slow_step(connection: Connection) -> None:
        connection.exec_driver_sql("INSERT INTO probe (ran) VALUES (1)")
        time.sleep(seconds)

    probe = Migration(
        len(MIGRATIONS) + 1, "probe (tests only)", ("CREATE TABLE probe (ran INTEGER NOT NULL)", slow_step)
    )
    return (*MIGRATIONS, probe)


def _answer(store: GameStore, command: dict[str, Any]) -> dict[str, Any]:
    op = command["op"]
    if op == "create":
        header = GameHeader(
            command["game_id"],
            command["replay_id"],
            "2026-01-01T00:00:00+00:00",
            {},
            1,
            ["you", "pimc"],
            0,
            "played",
        )
        store.create(header)
        return {"ok": True}
    if op == "append":
        entry = store.append(command["game_id"], command["seq"], command["kind"], command["data"])
        return {"ok": True, "seq": entry.seq, "at": entry.at}
    if op == "load":
        _, entries = store.load(command["game_id"])
        return {
            "ok": True,
            "seqs": [entry.seq for entry in entries],
            "data": [entry.data for entry in entries],
        }
    raise ValueError(f"unknown op {op!r}")


def main(argv: list[str]) -> int:
    url = argv[0]
    migrations = probe_migrations(float(argv[2])) if argv[1:2] == ["--probe-migration"] else None
    _say({"ready": True})
    if sys.stdin.readline().strip() != "go":
        return 2
    try:
        store = open_store(url, migrations=migrations)
    except StoreError as error:
        _say({"error": type(error).__name__, "message": str(error)})
        return 1
    _say({"opened": getattr(store, "version", None)})
    for line in sys.stdin:
        try:
            _say(_answer(store, json.loads(line)))
        except StoreError as error:
            _say({"error": type(error).__name__, "message": str(error)})
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
