"""A game store in memory, with the interface and the rules of the real one (``GameStore``).

For the games API's tests: entries numbered 0, 1, 2, ... with no gaps, ``StaleAction``
when a number is not the next one, ``append_many`` all or nothing, one lock for all.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from service.gamestore import Entry, GameHeader, StaleAction, UnknownGame

__all__ = ["MemoryStore"]


class MemoryStore:
    """Games kept in a dictionary (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, tuple[GameHeader, list[Entry]]] = {}
        self._replays: dict[str, str] = {}
        self.closed = False

    def create(self, header: GameHeader) -> None:
        with self._lock:
            if header.game_id in self._games or header.replay_id in self._replays:
                raise ValueError("a game with this id or replay id is kept already")
            self._games[header.game_id] = (copy.deepcopy(header), [])
            self._replays[header.replay_id] = header.game_id

    def append(self, game_id: str, seq: int, kind: str, data: dict[str, Any]) -> Entry:
        return self.append_many(game_id, seq, [(kind, data)])[0]

    def append_many(
        self, game_id: str, first_seq: int, entries: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[Entry]:
        now = datetime.now(UTC).isoformat()
        with self._lock:
            if game_id not in self._games:
                raise UnknownGame(f"no game {game_id!r}")
            kept = self._games[game_id][1]
            if first_seq != len(kept):
                raise StaleAction(f"entry {first_seq} is not the next one ({len(kept)})", len(kept))
            added = [
                Entry(first_seq + n, kind, copy.deepcopy(data), now) for n, (kind, data) in enumerate(entries)
            ]
            kept.extend(added)
            return copy.deepcopy(added)

    def load(self, game_id: str) -> tuple[GameHeader, list[Entry]]:
        with self._lock:
            if game_id not in self._games:
                raise UnknownGame(f"no game {game_id!r}")
            return copy.deepcopy(self._games[game_id])

    def load_replay(self, replay_id: str) -> tuple[GameHeader, list[Entry]]:
        with self._lock:
            if replay_id not in self._replays:
                raise UnknownGame(f"no replay {replay_id!r}")
            return copy.deepcopy(self._games[self._replays[replay_id]])

    def close(self) -> None:
        self.closed = True
