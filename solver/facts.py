"""The game facts a position implies: one place for the defaults every command shows.

A position alone does not say how many players sit at the table, and in Manipulation
Rummy the player count picks the deck (two players: one deck and one joker; three to
five: two decks and two jokers), so it changes the unseen cards and every figure built
on them.  ``analyze``, ``advise``, the HTTP service and the page all take the count the
user gives or, without one, ``implied_players``: two players, the game the strength
table and the bots are measured in, unless the position holds more copies of a card (or
more jokers) than the two-player deck has; then the fewest players whose deck holds it.
Whatever is assumed is said (``describe``).

An empty hand has one answer everywhere (``EMPTY_HAND``): the player has gone out, the
round is over, there is nothing to play or weigh.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.cards import Piece
from solver.position import Position, deck_problems
from solver.variants import Variant

__all__ = [
    "DEFAULT_PLAYERS",
    "EMPTY_HAND",
    "MAX_PLAYERS",
    "EmptyHandError",
    "describe",
    "implied_players",
    "variant_for",
]

DEFAULT_PLAYERS = 2
MAX_PLAYERS = 5
EMPTY_HAND = "the hand is empty: the player has gone out, so the round is over and there is nothing to play"


class EmptyHandError(ValueError):
    """A question about a turn asked of an empty hand (``EMPTY_HAND``)."""

    def __init__(self) -> None:
        super().__init__(EMPTY_HAND)


def implied_players(name: str, position: Position | None = None, unseen: Sequence[Piece] = ()) -> int:
    """The player count to assume for ``position`` (and the ``unseen`` cards, when the
    user lists them) in the variant called ``name`` (module docstring); ValueError for
    an unknown variant."""
    for players in range(DEFAULT_PLAYERS, MAX_PLAYERS + 1):
        try:
            variant = Variant.named(name, players=players)
        except ValueError:
            if players == DEFAULT_PLAYERS:
                raise
            continue
        fits = position is None or not position.problems(variant)
        if fits and unseen and position is not None:
            fits = not deck_problems([*position.table.pieces, *position.hand.pieces, *unseen], variant)
        if fits:
            return players
    return DEFAULT_PLAYERS


def variant_for(
    name: str, players: int | None, position: Position | None = None, unseen: Sequence[Piece] = ()
) -> tuple[Variant, bool]:
    """The variant for the given player count, or for the implied one; and whether the
    count was assumed.  ValueError for an unknown variant or a count it does not allow."""
    if players is not None:
        return Variant.named(name, players=players), False
    return Variant.named(name, players=implied_players(name, position, unseen)), True


def describe(variant: Variant, *, assumed: bool) -> str:
    """``2 players (assumed): 1 deck, 1 joker``."""
    decks = f"{variant.decks} deck{'s' if variant.decks != 1 else ''}"
    jokers = (
        f", {variant.jokers} joker{'s' if variant.jokers != 1 else ''}" if variant.jokers else ", no jokers"
    )
    count = f"{variant.players} players" if variant.players is not None else "any number of players"
    return f"{count}{' (assumed)' if assumed else ''}: {decks}{jokers}"
