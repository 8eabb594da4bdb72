"""The hint engine's fast path: an exact search in C that answers most hints without CP-SAT.

CP-SAT spends about a millisecond loading a model of this size and solving its root LP
before it searches at all; ``solver/fastpath/_search.c`` instead searches the
partitions of the table and hand directly, memoizing each state (see the file's
header for the method), and on typical positions answers in a fraction of that.  It
finds the same optimum as the CP-SAT model: the fewest points (or most cards) left,
then the fewest old melds broken.

It covers positions without jokers on the table (the locking and freeing rules stay
with CP-SAT), with the opening rule off, and without ``keep_jokers`` when the hand
holds a joker.  Every other position, and any search that outgrows ``STATE_BUDGET``
states, goes to CP-SAT: ``fast_hint`` returns None and ``hint()`` carries on there.
"""

from __future__ import annotations

import time
from collections import Counter

from solver.cards import ALL_CARDS, Card, Joker, Piece
from solver.cpsat.result import Hint
from solver.melds import Meld
from solver.position import Hand, Position, Table
from solver.variants import Variant

from . import _search

__all__ = ["STATE_BUDGET", "applies", "fast_hint"]

STATE_BUDGET = 40_000
"""States the search may memoize before it gives the position to CP-SAT.

Measured on the speed suites: most searches need a few hundred states (well under a
millisecond); past this many, CP-SAT is usually the faster of the two."""

_MAX_MELDS = 63
"""The search keeps the intact old melds in one 64-bit mask."""

_JOKER_FLAG = 64
"""Added to a card index in the search's melds: a joker declared as that card."""


def applies(position: Position, variant: Variant, *, keep_jokers: bool, opened: bool) -> bool:
    """Whether the fast path can answer this (validated, non-empty-handed) position."""
    if not opened and variant.opening_points > 0:
        return False
    if keep_jokers and position.hand.joker_count:
        return False
    if len(position.table.melds) > _MAX_MELDS:
        return False
    return not any(isinstance(piece, Joker) for piece in position.table.pieces)


def fast_hint(
    position: Position, variant: Variant, *, objective: str, started: float, budget: int = STATE_BUDGET
) -> Hint | None:
    """The best play by the exact search, or None when it needed more than ``budget`` states."""
    hand_counts = [0] * 52
    jokers = 0
    for piece in position.hand.pieces:
        if isinstance(piece, Joker):
            jokers += 1
        else:
            hand_counts[piece.index] += 1
    if objective == "cards":
        costs = [1] * 52
        joker_cost = 1
    else:
        costs = [variant.card_points(card) for card in ALL_CARDS]
        joker_cost = variant.joker_points
    blocks = [_block(meld) for meld in position.table.melds]
    solve_start = time.perf_counter()
    status, total, found = _search.search(
        variant.ace_high, hand_counts, costs, jokers, joker_cost, blocks, budget
    )
    solve_end = time.perf_counter()
    if status == 2:
        return None
    if status == 1:
        table, played, left, broken = position.table, (), position.hand.pieces, 0
    else:
        melds = [Meld.of(_piece(code) for code in meld) for meld in found]
        table = Table.of(melds)
        played, left = _split_hand(position, melds)
        broken = total % (len(blocks) + 1)
    done = time.perf_counter()
    return Hint(
        status="optimal" if status == 0 else "no_play",
        position=position,
        variant=variant,
        objective=objective,
        table=table,
        played=played,
        hand=Hand.of(left),
        melds_broken=broken,
        build_ms=(solve_start - started) * 1000 + (done - solve_end) * 1000,
        solve_ms=(solve_end - solve_start) * 1000,
    )


def _block(meld: Meld) -> tuple[int, int, int, int]:
    """A table meld as the search reads it: (1, suit, first, last) or (0, rank, suits, 0)."""
    cards = meld.real_cards
    if len({card.rank for card in cards}) == 1:
        suits = 0
        for card in cards:
            suits |= 1 << card.suit
        return (0, int(cards[0].rank), suits, 0)
    # Canonical order puts a sequence's cards by position; an ace is first only at position 1.
    first = int(cards[0].rank)
    return (1, int(cards[0].suit), first, first + len(cards) - 1)


def _piece(code: int) -> Piece:
    if code >= _JOKER_FLAG:
        return Joker(ALL_CARDS[code - _JOKER_FLAG])
    return ALL_CARDS[code]


def _split_hand(position: Position, melds: list[Meld]) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """Which hand pieces the new table uses (real cards beyond the table's, and jokers)."""
    on_table: Counter[Card] = Counter(card for meld in melds for card in meld.real_cards)
    on_table.subtract(position.table.pieces)  # type: ignore[arg-type]  # no jokers on this table
    jokers_played = sum(len(meld.jokers) for meld in melds)
    played: list[Piece] = []
    left: list[Piece] = []
    for card in sorted(card for card in position.hand.pieces if isinstance(card, Card)):
        if on_table[card] > 0:
            on_table[card] -= 1
            played.append(card)
        else:
            left.append(card)
    played.extend([Joker()] * jokers_played)
    left.extend([Joker()] * (position.hand.joker_count - jokers_played))
    return tuple(played), tuple(left)
