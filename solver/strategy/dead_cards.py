"""A quick lower bound on the points a hand keeps after any play: its dead cards.

A card of the hand is *dead* when no meld could hold it even if every card on the table
and in the hand, and every joker among them, were free to be laid out anew: no group
(three cards of its rank, jokers filling in) and no sequence (three consecutive ranks of
its suit around it, jokers filling the gaps, an ace counted low and high) can be formed
from that pool.  Every legal play leaves the dead cards in the hand, so the hand keeps at
least their points.  A card that only a joker could meld needs a joker in its meld, and
each joker lies in one meld of one rank or one suit: of those cards, all but what the
jokers' melds could hold stay in the hand too.

The hoarding policies of the rollouts (``rollout.hoarding_action``) decline unless the
best play goes out or lets the hand knock; when the dead cards alone keep more points
than that allows, they decline without asking for the best play.  The bound only rules
out what no play can reach, so every decision stays the one the best play gives (the
tests compare the policies with one that asks for the best play every turn); it saves
the search on big hoarded hands, where it costs most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from solver.cards import Card, Joker, Piece
from solver.variants import Variant

__all__ = ["dead_points", "hopeless"]

MELD_SIZE = 3
"""The fewest cards of a group or a sequence."""
ACE_HIGH = 14
"""An ace's place above the king in a sequence."""


def dead_points(table: Iterable[Piece], hand: Iterable[Piece], variant: Variant) -> int:
    """A lower bound on what the hand keeps after any legal play on ``table`` (module
    docstring): the points of its dead cards, and of the cards only a joker could meld
    beyond what the jokers' melds could hold (each joker lies in one meld, and a meld
    holds one rank or one suit)."""
    cards = list(hand)
    pool: Counter[tuple[int, int]] = Counter()
    ranks: Counter[int] = Counter()
    jokers = 0
    for piece in (*table, *cards):
        if isinstance(piece, Joker):
            jokers += 1
            continue
        pool[(piece.rank, piece.suit)] += 1
        ranks[piece.rank] += 1
    dead = 0
    by_rank: Counter[int] = Counter()  # the cards only a joker could meld, by rank and by suit
    by_suit: Counter[int] = Counter()
    for piece in cards:
        if not isinstance(piece, Card) or _live(piece, pool, ranks, 0):
            continue
        points = variant.piece_points(piece)
        if jokers and _live(piece, pool, ranks, jokers):
            by_rank[piece.rank] += points
            by_suit[piece.suit] += points
        else:
            dead += points
    held = sorted((*by_rank.values(), *by_suit.values()), reverse=True)[:jokers]
    return dead + max(0, sum(by_rank.values()) - sum(held))


def hopeless(table: Iterable[Piece], hand: Iterable[Piece], variant: Variant) -> bool:
    """Whether the dead cards alone keep the hand from going out and from knocking."""
    allowed = variant.knock_threshold if variant.knock_threshold is not None else 0
    return dead_points(table, hand, variant) > allowed


def _live(card: Card, pool: Counter[tuple[int, int]], ranks: Counter[int], jokers: int) -> bool:
    """Whether some group or sequence of the pool could hold ``card``."""
    if ranks[card.rank] + jokers >= MELD_SIZE:
        return True
    places = (card.rank, ACE_HIGH) if card.rank == 1 else (card.rank,)
    for place in places:
        for start in range(place - MELD_SIZE + 1, place + 1):
            if start < 1 or start + MELD_SIZE - 1 > ACE_HIGH:
                continue
            missing = sum(
                1
                for other in range(start, start + MELD_SIZE)
                if other != place and not pool[(1 if other == ACE_HIGH else other, card.suit)]
            )
            if missing <= jokers:
                return True
    return False
