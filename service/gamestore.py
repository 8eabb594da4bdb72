"""The game store's interface as the games API uses it (temporary, until ``service.games`` lands).

The store itself (``service.games.store``: SQLite by default, PostgreSQL by URL) is built
on its own branch; this module states the part of its interface the API uses, with the
same names and shapes, so the API and its tests are written against it now and switch
to ``service.games`` by changing one import.  ``open_store`` and ``describe`` here refuse:
no store is built into this branch yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "Entry",
    "GameHeader",
    "GameStore",
    "StaleAction",
    "StoreError",
    "StoreUnavailable",
    "UnknownGame",
    "describe",
    "open_store",
]


class StoreError(Exception):
    """Anything the store refuses or cannot do."""


class StaleAction(StoreError):
    """The entry's number was not the game's next one (someone acted first)."""

    def __init__(self, message: str, next_seq: int | None = None) -> None:
        super().__init__(message)
        self.next_seq = next_seq


class UnknownGame(StoreError, LookupError):
    """No game has this id (or this replay id)."""


class StoreUnavailable(StoreError):
    """The database cannot be used."""


@dataclass(frozen=True)
class GameHeader:
    """What a game is, fixed when it is created."""

    game_id: str
    replay_id: str
    created: str
    settings: dict[str, Any]
    seed: int
    players: list[str]
    human_seat: int
    source: str


@dataclass(frozen=True)
class Entry:
    """One numbered record of a game."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: str


class GameStore(Protocol):
    """Where games are kept (``service.games.store.GameStore``)."""

    def create(self, header: GameHeader) -> None: ...

    def append(self, game_id: str, seq: int, kind: str, data: dict[str, Any]) -> Entry: ...

    def append_many(
        self, game_id: str, first_seq: int, entries: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[Entry]: ...

    def load(self, game_id: str) -> tuple[GameHeader, list[Entry]]: ...

    def load_replay(self, replay_id: str) -> tuple[GameHeader, list[Entry]]: ...

    def close(self) -> None: ...


def open_store(url: str | None) -> GameStore:
    """The store ``url`` names: not built into this branch yet."""
    raise StoreUnavailable("no game store is built into this version of the service yet")


def describe(url: str | None) -> str:
    """Where the games of ``url`` are kept, in words."""
    return "nowhere yet (no game store is built into this version)"
