"""Exhaustive answers to the puzzle questions for small positions: an oracle for the checks.

It shares no model with ``solver.puzzles`` (no CP-SAT, no catalogue of 3-5 card pieces):

- ``going_out_layouts``: every layout of a table the hand can go out to.  Pieces are
  taken lowest real card first; every group and every sequence of any length through
  that card is tried, each slot filled by a remaining real card or a joker declared as
  it; the rest is solved the same way (memoized on the remaining counts).  One table per
  layout is kept, and the referee must accept it: the referee's verdict depends only on
  meld legality and the count of jokers per declaration, both fixed by the layout.
- ``goes_out_untouched``: whether the hand goes out with every table meld whole: each
  old meld may grow at its ends (or by a fourth suit) with hand pieces, and the rest of
  the hand must form melds of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations, product

from solver.cards import ALL_CARDS, Card, Joker, Piece, Rank, Suit
from solver.melds import Meld, position_card
from solver.position import Position, Table
from solver.puzzles.layout import Layout
from solver.referee import check_play
from solver.variants import Variant

__all__ = ["goes_out_untouched", "going_out_layouts"]

Counts = tuple[int, ...]
"""Real copies per card index 0..51."""


def _positions(card: Card, variant: Variant) -> list[int]:
    if card.rank == Rank.ACE:
        return [1, 14] if variant.ace_high else [1]
    return [int(card.rank)]


def _groups(first: Card, real: Counts, jokers: int) -> Iterator[tuple[Meld, Counter[int], int]]:
    """Groups holding ``first``: (meld, real cards used by index, jokers used)."""
    others = [suit for suit in Suit if suit != first.suit and real[Card(first.rank, suit).index]]
    for size in (3, 4):
        for taken in range(0, min(len(others), size - 1) + 1):
            wild = size - 1 - taken
            if wild > jokers:
                continue
            for suits in combinations(others, taken):
                missing = [s for s in Suit if s != first.suit and s not in suits]
                for declared in combinations(missing, wild):
                    pieces: list[Piece] = [first, *(Card(first.rank, s) for s in suits)]
                    pieces += [Joker(Card(first.rank, s)) for s in declared]
                    used = Counter([first.index, *(Card(first.rank, s).index for s in suits)])
                    yield Meld.of(pieces), used, wild


def _sequences(
    first: Card, real: Counts, jokers: int, variant: Variant
) -> Iterator[tuple[Meld, Counter[int], int]]:
    """Sequences holding ``first`` at one of its positions, every slot real or a joker."""
    top = variant.max_position
    for at in _positions(first, variant):
        for low in range(max(1, at - top + 1), at + 1):
            for high in range(max(at, low + 2), top + 1):
                slots = [p for p in range(low, high + 1) if p != at]
                cards = [position_card(p, first.suit) for p in slots]
                for choice in product((True, False), repeat=len(slots)):
                    wild = choice.count(False)
                    if wild > jokers:
                        continue
                    used = Counter([first.index] + [c.index for c, r in zip(cards, choice, strict=True) if r])
                    if any(real[index] < count for index, count in used.items()):
                        continue
                    pieces: list[Piece] = [first]
                    pieces += [c if r else Joker(c) for c, r in zip(cards, choice, strict=True)]
                    yield Meld.of(pieces), used, wild


def _melds_of(real: Counts, jokers: int, variant: Variant) -> dict[tuple[int, ...], tuple[Meld, ...]]:
    """Every layout vector of a partition of these pieces into legal melds, one witness each."""

    @cache
    def solve(real: Counts, jokers: int) -> dict[tuple[int, ...], tuple[Meld, ...]]:
        lowest = next((i for i, n in enumerate(real) if n), None)
        if lowest is None:
            return {(0,) * 160: ()} if jokers == 0 else {}
        first = ALL_CARDS[lowest]
        found: dict[tuple[int, ...], tuple[Meld, ...]] = {}
        blocks = [*_groups(first, real, jokers), *_sequences(first, real, jokers, variant)]
        for meld, used, wild in blocks:
            if not meld.is_legal(variant):
                continue
            rest = tuple(n - used[i] for i, n in enumerate(real))
            mine = Layout.of([meld], variant).vector
            for vector, melds in solve(rest, jokers - wild).items():
                total = tuple(a + b for a, b in zip(vector, mine, strict=True))
                found.setdefault(total, (meld, *melds))
        return found

    return solve(real, jokers)


def _counts(pieces: tuple[Piece, ...]) -> tuple[Counts, int]:
    real = Counter(p.index for p in pieces if isinstance(p, Card))
    return tuple(real[i] for i in range(52)), sum(isinstance(p, Joker) for p in pieces)


def going_out_layouts(position: Position, variant: Variant) -> dict[Layout, Table]:
    """Every layout of a table the hand can go out to, with a table the referee accepts."""
    real, jokers = _counts(position.table.pieces + position.hand.pieces)
    found: dict[Layout, Table] = {}
    for melds in _melds_of(real, jokers, variant).values():
        table = Table.of(melds)
        if check_play(position, table, variant=variant).ok:
            found[Layout.of(table, variant)] = table
    return found


def _growths(meld: Meld, hand: Counter[Piece], variant: Variant) -> Iterator[tuple[Meld, Counter[Piece]]]:
    """The meld with hand pieces added at its ends (or a fourth suit), and what they took."""
    yield meld, Counter()
    cards = meld.cards
    if meld.kind(variant) == "group":
        if len(cards) == 3:
            (suit,) = (s for s in Suit if s not in {c.suit for c in cards})
            card = Card(cards[0].rank, suit)
            for piece in (card, Joker()):
                if hand[piece]:
                    placed = piece if isinstance(piece, Card) else Joker(card)
                    yield Meld.of((*meld.pieces, placed)), Counter([piece])
        return
    low = 1 if cards[0].rank == Rank.ACE else int(cards[0].rank)
    high = low + len(cards) - 1
    slots = [p for p in range(1, low)] + [p for p in range(high + 1, variant.max_position + 1)]
    for below in range(0, low):
        for above in range(0, variant.max_position - high + 1):
            chosen = [p for p in slots if low - below <= p < low or high < p <= high + above]
            if not chosen:
                continue
            for choice in product((True, False), repeat=len(chosen)):
                taken: Counter[Piece] = Counter()
                added: list[Piece] = []
                for p, real in zip(chosen, choice, strict=True):
                    card = position_card(p, cards[0].suit)
                    taken[card if real else Joker()] += 1
                    added.append(card if real else Joker(card))
                if not taken - hand:
                    grown = Meld.of((*meld.pieces, *added))
                    if grown.is_legal(variant):
                        yield grown, taken


def goes_out_untouched(position: Position, variant: Variant) -> bool:
    """Whether the hand goes out with every table meld whole (grown at its ends only)."""
    hand = Counter(position.hand.pieces)
    options = [list(_growths(meld, hand, variant)) for meld in position.table]
    for combination in product(*options):
        taken: Counter[Piece] = Counter()
        for _, used in combination:
            taken += used
        if taken - hand:
            continue
        rest = tuple((hand - taken).elements())
        real, jokers = _counts(rest)
        if _melds_of(real, jokers, variant):
            return True
    return False
