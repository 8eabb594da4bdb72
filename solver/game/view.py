"""What one player sees when it is their move: the only thing a bot is given.

A ``PlayerView`` holds the table, the player's own hand and public facts (hand sizes,
stock size, scores).  It never holds another hand or the order of the stock, so a bot
cannot peek; ``unseen()`` is the deck minus what this player can see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.cards import Piece
from solver.game import rules
from solver.game.actions import Action, ActionKind
from solver.game.deck import unseen_pieces
from solver.game.settings import GameSettings
from solver.position import Hand, Position, Table
from solver.variants import Variant

__all__ = ["Phase", "PlayerView"]

Phase = Literal["meld", "knock", "wait", "over"]
"""``meld``: play or decline (draw, or pass in a final turn); ``knock``: the turn is over and
the hand may knock (knock or pass); ``wait``: another player is to move; ``over``: the
round has ended."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's view of the round at a decision point (see the module docstring)."""

    settings: GameSettings
    seat: int
    phase: Phase
    table: Table
    hand: Hand
    opened: bool
    """Whether this player has made the opening meld (always True without an opening rule)."""
    final_turn: bool
    """A turn after the stock ran out: meld or pass, no drawing."""
    draws: int
    """Cards drawn (or due and not drawn, with the stock empty) so far this turn."""
    melded: bool
    """Whether this player melded this turn."""
    drawn: tuple[Piece, ...]
    """The cards this player drew this turn, in order."""
    stock_size: int
    hand_sizes: tuple[int, ...]
    totals: tuple[int, ...]
    """Game scores before this round."""
    round_number: int

    @property
    def variant(self) -> Variant:
        return self.settings.variant

    @property
    def position(self) -> Position:
        """The table and this player's hand, ready for ``hint`` or ``check_play``."""
        return Position(self.table, self.hand)

    @property
    def hand_points(self) -> int:
        return self.hand.points(self.variant)

    @property
    def draws_left(self) -> int:
        """Draws still due this turn if the player keeps declining to meld."""
        if self.final_turn or self.phase != "meld":
            return 0
        return self.settings.draws_per_turn - self.draws

    def legal_kinds(self) -> tuple[ActionKind, ...]:
        """The kinds of action allowed now (a play must also pass the referee)."""
        return rules.legal_kinds(self)

    def problems(self, action: Action) -> list[str]:
        """Every rule ``action`` breaks now; empty when it is legal."""
        return rules.problems(self, action)

    def decline(self) -> Action:
        """The action that makes no meld and no knock now: draw, or pass."""
        return rules.decline(self)

    def unseen(self) -> tuple[Piece, ...]:
        """The cards this player cannot see: the deck minus the table and the own hand."""
        return unseen_pieces(self.variant, self.table.pieces + self.hand.pieces)
