"""The hint engine's fast path: an exact search in C that answers most hints without CP-SAT.

CP-SAT spends about a millisecond loading a model of this size and solving its root LP
before it searches at all; ``solver/fastpath/_search.c`` instead searches the
partitions of the table and hand directly, memoizing each state (see the file's
header for the method), and on typical positions answers in a fraction of that.  It
finds the same optimum as the CP-SAT model: the fewest points (or most cards) left,
then the fewest old melds broken.

It covers positions whose table jokers can never be freed (no real copy of a table
joker's card is on the table or in the hand: such a joker is a table card of its
declared kind in all but name, so the search takes it for one and prints it back as a
joker; freeing stays with CP-SAT), with the opening rule off, and without
``keep_jokers`` when the hand holds a joker.  Every other position, and any search that
outgrows ``STATE_BUDGET`` states, goes to CP-SAT: ``search`` returns None and the
engine (``solver.engine``) carries on there.

A backend: it returns the neutral ``solver.solution.Solution`` and never imports the
other backend (``solver.cpsat``) or the engine.
"""

from __future__ import annotations

import functools
import time

from solver.cards import ALL_CARDS, CARD_KINDS, Joker, Piece
from solver.fastpath import _search
from solver.melds import Meld, join_sequences
from solver.position import Hand, Position, Table
from solver.solution import Objective, Solution
from solver.variants import Variant

__all__ = ["STATE_BUDGET", "applies", "search"]

STATE_BUDGET = 2_000
"""States the search may expand before it gives the position to CP-SAT (about 2.5 ms).

Measured on the speed suites: the search finishes about four positions in five of those
it covers within this budget, most of them in a few hundred expansions (about 1
microsecond each); a larger budget finishes a few more but makes every position left to
CP-SAT wait longer for it."""

_MAX_MELDS = 63
"""The search keeps the intact old melds in one 64-bit mask."""

_JOKER_FLAG = 64
"""Added to a card index in the search's melds: a joker declared as that card."""


def applies(position: Position, variant: Variant, *, keep_jokers: bool, opened: bool) -> bool:
    """Whether the fast path can answer this (validated, non-empty-handed) position."""
    if not opened and variant.opening_points > 0:
        return False
    if variant.decks > 3:  # a state counts up to 3 copies of a card
        return False
    if keep_jokers and position.hand.joker_count:
        return False
    if len(position.table.melds) > _MAX_MELDS:
        return False
    return _locked_for_good(position) is not None


def _locked_for_good(position: Position) -> frozenset[int] | None:
    """The card indices that table jokers stand for, when none of those jokers can ever
    be freed (no real copy of its card on the table or in the hand); None otherwise."""
    declared: set[int] = set()
    real: set[int] = set()
    for piece in position.table.pieces:
        if isinstance(piece, Joker):
            assert piece.declared is not None  # a valid table declares every joker
            declared.add(piece.declared.index)
        else:
            real.add(piece.index)
    if not declared:
        return frozenset()
    real.update(piece.index for piece in position.hand.pieces if not isinstance(piece, Joker))
    return None if declared & real else frozenset(declared)


def search(
    position: Position, variant: Variant, *, objective: Objective, started: float, budget: int | None = None
) -> Solution | None:
    """The best play by the exact search, or None when it needed more than ``budget``
    expansions (``STATE_BUDGET`` by default).

    For a position the caller has validated and ``applies`` accepts (the engine checks
    both); ``started`` is when the caller's clock started, for ``Solution.build_ms``."""
    hand_counts = [0] * CARD_KINDS
    jokers = 0
    for piece in position.hand.pieces:
        if isinstance(piece, Joker):
            jokers += 1
        else:
            hand_counts[piece.index] += 1
    costs, joker_cost = _costs(variant, objective)
    locked = _locked_for_good(position) or frozenset()
    blocks = [_block(meld) for meld in position.table.melds]
    solve_start = time.perf_counter()
    limit = STATE_BUDGET if budget is None else budget
    status, _, broken, found = _search.search(
        variant.ace_high, hand_counts, costs, jokers, joker_cost, blocks, limit
    )
    solve_end = time.perf_counter()
    if status == _search.OVER_BUDGET:
        return None
    table = position.table
    played: tuple[Piece, ...] = ()
    left = position.hand.pieces
    if status == _search.PLAY:
        assert found is not None
        table = Table.of(_melds(found, locked))
        played, left = _split_hand(position, hand_counts, found, locked)
    else:
        broken = 0
    done = time.perf_counter()
    return Solution(
        status="optimal" if status == _search.PLAY else "no_play",
        table=table,
        played=played,
        hand=Hand.of(left),
        melds_broken=broken,
        build_ms=(solve_start - started) * 1000 + (done - solve_end) * 1000,
        solve_ms=(solve_end - solve_start) * 1000,
    )


@functools.lru_cache(maxsize=32)
def _costs(variant: Variant, objective: Objective) -> tuple[tuple[int, ...], int]:
    """What leaving each card, and a joker, costs: its points, or 1 for the cards objective
    (the same for every hint of a variant, so worked out once)."""
    if objective == "cards":
        return (1,) * CARD_KINDS, 1
    return tuple(variant.card_points(card) for card in ALL_CARDS), variant.joker_points


def _block(meld: Meld) -> tuple[int, int, int, int]:
    """A table meld as the search reads it: (1, suit, first, last) or (0, rank, suits, 0).
    A joker counts as the card it stands for."""
    cards = meld.cards
    if cards[0].rank == cards[1].rank:
        suits = 0
        for card in cards:
            suits |= 1 << card.suit
        return (0, int(cards[0].rank), suits, 0)
    # Canonical order puts a sequence's cards by position; an ace is first only at position 1.
    first = int(cards[0].rank)
    return (1, int(cards[0].suit), first, first + len(cards) - 1)


def _melds(found: list[tuple[int, ...]], locked: frozenset[int]) -> list[Meld]:
    """The search's melds as Melds (a card in ``locked`` is a table joker standing for
    it).  New sequences of one suit that meet end to end are joined into one by
    ``join_sequences``, as CP-SAT's extraction does (the search lays long runs in pieces);
    melds that keep an old meld stay as they are."""
    melds: list[Meld] = []
    new_runs: list[tuple[Piece, ...]] = []
    for kept, *codes in found:
        pieces = tuple(_piece(code + _JOKER_FLAG if code in locked else code) for code in codes)
        cards = [code % _JOKER_FLAG for code in codes]
        if not kept and cards[0] // 4 != cards[-1] // 4:  # a new sequence (two ranks)
            new_runs.append(pieces)
        else:
            melds.append(Meld.of(pieces))
    if len(new_runs) > 1:
        return melds + join_sequences(new_runs)
    return melds + [Meld.of(pieces) for pieces in new_runs]


def _piece(code: int) -> Piece:
    if code >= _JOKER_FLAG:
        return Joker(ALL_CARDS[code - _JOKER_FLAG])
    return ALL_CARDS[code]


def _split_hand(
    position: Position, hand_counts: list[int], found: list[tuple[int, ...]], locked: frozenset[int]
) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """Which hand pieces the new table uses: real cards beyond the table's, and jokers
    (the table's own jokers, the ``locked`` cards, stay out of it)."""
    placed = [0] * CARD_KINDS
    jokers_played = 0
    for _, *codes in found:
        for code in codes:
            if code >= _JOKER_FLAG:
                jokers_played += 1
            elif code not in locked:
                placed[code] += 1
    for piece in position.table.pieces:
        if not isinstance(piece, Joker):
            placed[piece.index] -= 1
    played: list[Piece] = []
    left: list[Piece] = []
    for index, count in enumerate(hand_counts):
        if count:
            used = placed[index]
            played.extend([ALL_CARDS[index]] * used)
            left.extend([ALL_CARDS[index]] * (count - used))
    played.extend([Joker()] * jokers_played)
    left.extend([Joker()] * (position.hand.joker_count - jokers_played))
    return tuple(played), tuple(left)
