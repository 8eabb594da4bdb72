"""Kept games (issue 33): each game's header and its numbered entries, in SQLite by
default or in PostgreSQL (``RUMMY_DB``), so that a reload, a restart or another server
process continues a game where it was.  The interface is ``service.games.store``."""

from service.games.store import (
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

__all__ = [
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
