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
SUITS = 4


def dead_points(table: Iterable[Piece], hand: Iterable[Piece], variant: Variant) -> int:
    """A lower bound on what the hand keeps after any legal play on ``table`` (module
    docstring): the points of its dead cards, and of the cards only a joker could meld
    beyond what the jokers' melds could hold (each joker lies in one meld, and a meld
    holds one rank or one suit)."""
    cards = list(hand)
    present = [False] * (SUITS * (ACE_HIGH + 1))  # by place in a sequence (1-14) and suit
    ranks = [0] * (ACE_HIGH + 1)
    jokers = 0
    for piece in (*table, *cards):
        if isinstance(piece, Joker):
            jokers += 1
            continue
        present[piece.rank * SUITS + piece.suit] = True
        if piece.rank == 1:
            present[ACE_HIGH * SUITS + piece.suit] = True
        ranks[piece.rank] += 1
    dead = 0
    by_rank: Counter[int] = Counter()  # the cards only a joker could meld, by rank and by suit
    by_suit: Counter[int] = Counter()
    for piece in cards:
        if isinstance(piece, Joker):
            continue
        need = _jokers_needed(piece, present, ranks)
        if need == 0:
            continue
        points = variant.piece_points(piece)
        if need <= jokers:
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


def _jokers_needed(card: Card, present: list[bool], ranks: list[int]) -> int:
    """The fewest jokers some group or sequence of the pool needs to hold ``card`` (0: the
    pool's cards alone can)."""
    fewest = max(0, MELD_SIZE - ranks[card.rank])
    suit = card.suit
    places = (card.rank, ACE_HIGH) if card.rank == 1 else (card.rank,)
    for place in places:
        for start in range(max(1, place - MELD_SIZE + 1), min(place, ACE_HIGH - MELD_SIZE + 1) + 1):
            missing = 0
            for other in range(start, start + MELD_SIZE):
                if other != place and not present[other * SUITS + suit]:
                    missing += 1
            fewest = min(fewest, missing)
    return fewest
