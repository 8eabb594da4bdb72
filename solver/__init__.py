"""Manipulation Rummy hint and analysis engine: notation, rules, referee and solver.

``from solver import Position, hint`` is the usual start.  The hint engine's names
(``hint``, ``Hint``, ``HintStatus``, ``Objective``) are loaded on first use, so that
``import solver`` (and the notation, rules, referee and plan layers) never imports
OR-Tools or the compiled search.  ``__version__`` is read on first use too (the package
metadata takes a while to load, and every ``rummy`` command starts by importing this).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from solver.cards import Card, Joker, NotationError, Piece, Rank, Suit
from solver.melds import Meld
from solver.position import Hand, Position, PositionError, Table
from solver.referee import Verdict, check_play
from solver.variants import Variant

if TYPE_CHECKING:
    from solver.engine import Hint, HintStatus, Objective, hint

    __version__: str

_ENGINE_NAMES = frozenset({"Hint", "HintStatus", "Objective", "hint"})

__all__ = [
    "Card",
    "Hand",
    "Hint",
    "HintStatus",
    "Joker",
    "Meld",
    "NotationError",
    "Objective",
    "Piece",
    "Position",
    "PositionError",
    "Rank",
    "Suit",
    "Table",
    "Variant",
    "Verdict",
    "__version__",
    "check_play",
    "hint",
]


def __getattr__(name: str) -> object:
    """Load the engine's names and the version on first use (PEP 562)."""
    if name in _ENGINE_NAMES:
        return getattr(import_module("solver.engine"), name)
    if name == "__version__":
        return _version()
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the lazily loaded ones, so completion offers ``hint``."""
    return sorted({*globals(), *__all__})


def _version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("manipulation-rummy")
    except PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
        return "0+unknown"
