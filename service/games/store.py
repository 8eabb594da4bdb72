"""The game store's interface: what a kept game is, and the errors a store raises.

A game is its header (who plays, with which settings and seed) and its entries, numbered
0, 1, 2, ... with no gaps: the actions of every seat, the help and the advice the human
asked for.  The game's state is rebuilt by replaying the entries, so the store never
holds a position; appending the entry with the next number is how a move is made, and
the number doubles as the client's turn counter, so a request that was overtaken (its
number is taken) is refused with ``StaleAction`` and changes nothing.

``open_store(url)`` opens the SQL store (``service.games.sql``): SQLite by default,
PostgreSQL when ``url`` says so (``service.games.location`` reads the setting).  The
interface is loaded without SQLAlchemy; opening a store loads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from service.games.schema import Migration

__all__ = [
    "ENTRY_KINDS",
    "SOURCES",
    "BadEntry",
    "Entry",
    "GameExists",
    "GameHeader",
    "GameStore",
    "StaleAction",
    "StoreConfigError",
    "StoreError",
    "StoreUnavailable",
    "UnknownGame",
    "describe",
    "open_store",
]

ENTRY_KINDS = frozenset({"action", "help", "advice", "quit"})
"""What an entry may record: a seat's action, a help level or advice the human asked for,
the human leaving the game."""
SOURCES = frozenset({"played", "imported"})
"""Where a game came from: played here, or imported from a JSONL log (read-only)."""


class StoreError(Exception):
    """Anything the store refuses or cannot do; the message is one line a person can act on."""


class StaleAction(StoreError):
    """The entry's number was not the game's next one: taken (someone acted first) or
    ahead of the game (a gap).  ``next_seq`` is the game's next number when known."""

    def __init__(self, message: str, next_seq: int | None = None) -> None:
        super().__init__(message)
        self.next_seq = next_seq


class UnknownGame(StoreError, LookupError):
    """No game has this id (or no game has this replay id)."""


class GameExists(StoreError):
    """A game with this id or this replay id is kept already."""


class BadEntry(StoreError, ValueError):
    """An entry or a header the store cannot keep (an unknown kind, data that is not a
    JSON object, a negative number...)."""


class StoreConfigError(StoreError, ValueError):
    """``RUMMY_DB`` names no database the store can use."""


class StoreUnavailable(StoreError):
    """The database cannot be used: a file that is not a SQLite database, a PostgreSQL
    server that cannot be reached, a schema newer than this program..."""


@dataclass(frozen=True)
class GameHeader:
    """What a game is, fixed when it is created."""

    game_id: str
    """The secret id that acts (22+ characters from ``secrets.token_urlsafe(16)``)."""
    replay_id: str
    """The read-only id of the shared replay link; distinct, also secret-random."""
    created: str
    """ISO-8601 UTC."""
    settings: dict[str, Any]
    """``GameSettings.describe()``."""
    seed: int
    players: list[str]
    """One name per seat: "you" for the human seat, bot names otherwise."""
    human_seat: int
    source: str
    """"played" or "imported"."""


@dataclass(frozen=True)
class Entry:
    """One numbered record of a game."""

    seq: int
    """0, 1, 2, ... per game, no gaps."""
    kind: str
    """One of ``ENTRY_KINDS``."""
    data: dict[str, Any]
    """JSON: for "action" ``{"seat", "action": Action.to_dict(), "ms"}``; for "help"
    ``{"level", "turn"}``; for "advice" ``{"turn"}``."""
    at: str
    """When it was stored, ISO-8601 UTC."""


class GameStore(Protocol):
    """Where games are kept.  Every method is safe to call from several threads, and
    several processes (or machines, on PostgreSQL) may share one database."""

    def create(self, header: GameHeader) -> None:
        """Keep a new game (``GameExists`` when its id or replay id is taken)."""
        ...

    def append(self, game_id: str, seq: int, kind: str, data: dict[str, Any]) -> Entry:
        """Add the game's entry number ``seq``, atomically and durably (stored when this
        returns).  ``StaleAction`` unless ``seq`` is exactly the next number,
        ``UnknownGame`` when no game has this id."""
        ...

    def append_many(
        self, game_id: str, first_seq: int, entries: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[Entry]:
        """Add ``entries`` (kind, data) numbered from ``first_seq``: all of them or none,
        with ``append``'s rules."""
        ...

    def load(self, game_id: str) -> tuple[GameHeader, list[Entry]]:
        """The game and its entries in order (``UnknownGame``)."""
        ...

    def load_replay(self, replay_id: str) -> tuple[GameHeader, list[Entry]]:
        """The game whose replay id this is, and its entries (``UnknownGame``)."""
        ...

    def close(self) -> None:
        """Let go of the database (connections, files)."""
        ...


def open_store(url: str | None, *, migrations: Sequence[Migration] | None = None) -> GameStore:
    """The store that ``url`` (the ``RUMMY_DB`` setting) names, its schema brought up to
    date: ``None`` or empty for the default SQLite file, a path or ``sqlite:///path`` for
    SQLite, ``postgresql://...`` for PostgreSQL.

    ``StoreConfigError`` for a setting that names no database, ``StoreUnavailable`` when
    the database cannot be used.  ``migrations`` replaces the schema's (tests only)."""
    from service.games.location import parse_location
    from service.games.sql import SqlStore

    return SqlStore(parse_location(url), migrations=migrations)


def describe(url: str | None) -> str:
    """Where the games of ``url`` are kept, in words, with any password masked
    ("SQLite file /home/me/.local/share/rummy/games.sqlite3"); for ``rummy serve`` to
    say on start.  ``StoreConfigError`` as ``open_store``."""
    from service.games.location import parse_location

    return parse_location(url).description
