"""Manipulation Rummy hint and analysis engine: notation, rules, referee and solver."""

from solver.cards import Card, Joker, NotationError, Piece, Rank, Suit
from solver.melds import Meld, MeldError
from solver.position import Hand, Position, PositionError, Table
from solver.referee import Verdict, check_play
from solver.variants import Variant

__all__ = [
    "Card",
    "Hand",
    "Joker",
    "Meld",
    "MeldError",
    "NotationError",
    "Piece",
    "Position",
    "PositionError",
    "Rank",
    "Suit",
    "Table",
    "Variant",
    "Verdict",
    "check_play",
]
