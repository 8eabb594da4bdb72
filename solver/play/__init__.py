"""A game against the bots, played one request at a time (the page's Play tab, issue #33).

A game's state is its entries: the actions of every seat, the helps and advice asked
for; nothing else is kept.  Each request rebuilds the game from them (``session``:
``Session(setup, entries)`` replays them on ``solver.game.Game``), moves it on (the
human's action, then the bots' turns up to the human's next decision) and hands back
the new entries to keep.  Modules, each using only those before it: ``errors`` (the
refusals, in the player's words), ``session``, ``state`` (the game as the human sees it,
as plain data), ``helps`` (graded help from the exact engine), ``logs`` (the
JSON-lines log of ``rummy replay``, out and in), ``coach`` (advice, and the review at
the end).

Pure library: the rules (``solver.game``) and the strategy (``solver.strategy``), no
service; the HTTP API (``service.routes.games``) runs these on its worker pool and keeps
the entries in its store.  The names below are loaded on first use (PEP 562).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.play.coach import give_advice, review_game
    from solver.play.errors import PlayError
    from solver.play.helps import give_help
    from solver.play.logs import export_log, import_log
    from solver.play.session import Entry, GameSetup, Session
    from solver.play.state import game_state

_HOMES: dict[str, str] = {
    **dict.fromkeys(("give_advice", "review_game"), "coach"),
    "PlayError": "errors",
    "give_help": "helps",
    **dict.fromkeys(("export_log", "import_log"), "logs"),
    **dict.fromkeys(("Entry", "GameSetup", "Session"), "session"),
    "game_state": "state",
}
"""Each public name and the module it lives in."""

__all__ = [
    "Entry",
    "GameSetup",
    "PlayError",
    "Session",
    "export_log",
    "game_state",
    "give_advice",
    "give_help",
    "import_log",
    "review_game",
]


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver.play' has no attribute {name!r}")
    return getattr(import_module(f"solver.play.{home}"), name)
