"""Seeded random positions of any size, for benchmarks (tables of 0 to 106 cards).

Each deck copy is laid out as a random legal table: some ranks become groups, the
rest of every suit is cut into sequences of 3-5 cards (ace low or high), and some
cards of melds become jokers declared as them.  A position takes a random subset of
these melds as its table and deals the hand from the cards left over.  Everything
goes through one ``random.Random(seed)``, so a suite is rebuilt exactly from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from solver.cards import Card, Joker, Piece, Rank, Suit
from solver.melds import Meld, position_card
from solver.position import Hand, Position, Table
from solver.variants import Variant

__all__ = ["SuiteEntry", "random_big_position", "suite"]


def _deck_layout(rng: random.Random, variant: Variant) -> list[list[Piece]]:
    """One deck copy cut into legal melds; cards that fit no meld are dropped."""
    group_ranks = set(rng.sample(range(1, 14), rng.randint(0, 4)))
    melds: list[list[Piece]] = []
    for rank in sorted(group_ranks):
        suits = list(Suit)
        if rng.random() < 0.5:
            suits.remove(rng.choice(suits))
        melds.append([Card(Rank(rank), suit) for suit in suits])
    for suit in Suit:
        high = variant.ace_high and rng.random() < 0.3
        positions = [p for p in range(2, 15 if high else 14) if (p if p <= 13 else 1) not in group_ranks]
        if not high and 1 not in group_ranks:
            positions.insert(0, 1)
        if high and 1 in group_ranks:
            positions = [p for p in positions if p != 14]
        run: list[int] = []
        for p in [*positions, 99]:
            if run and p != run[-1] + 1:
                melds.extend(_cut_run(rng, run, suit))
                run = []
            run.append(p)
    return melds


def _cut_run(rng: random.Random, run: list[int], suit: Suit) -> list[list[Piece]]:
    pieces: list[list[Piece]] = []
    start = 0
    while len(run) - start >= 3:
        rest = len(run) - start
        length = rest if rest <= 5 else rng.randint(3, min(5, rest - 3))
        pieces.append([position_card(p, suit) for p in run[start : start + length]])
        start += length
    return pieces


@dataclass(frozen=True, slots=True)
class SuiteEntry:
    position: Position
    table_cards: int
    hand_cards: int
    table_jokers: int


def random_big_position(
    rng: random.Random,
    variant: Variant,
    *,
    table_cards: int,
    hand_cards: int,
    joker_rate: float = 0.5,
) -> Position:
    """A legal position with about ``table_cards`` on the table and ``hand_cards`` in hand."""
    melds: list[list[Piece]] = []
    for _ in range(variant.decks):
        melds.extend(_deck_layout(rng, variant))
    rng.shuffle(melds)
    table: list[list[Piece]] = []
    size = 0
    loose: list[Piece] = []
    for meld in melds:
        if size + len(meld) <= table_cards:
            table.append(meld)
            size += len(meld)
        else:
            loose.extend(meld)
    jokers_left = variant.jokers
    for meld in table:
        if jokers_left and rng.random() < joker_rate / max(1, len(table)) * 4:
            slot = rng.randrange(len(meld))
            card = meld[slot]
            if isinstance(card, Card) and sum(isinstance(p, Card) for p in meld) > 1:
                meld[slot] = Joker(card)
                loose.append(card)
                jokers_left -= 1
    loose = [card for card in loose if isinstance(card, Card)]
    loose.extend(_missing_copies(variant, table, loose))
    rng.shuffle(loose)
    hand: list[Piece] = list(loose[:hand_cards])
    for _ in range(jokers_left):
        if len(hand) < hand_cards + 1 and rng.random() < joker_rate:
            hand.append(Joker())
    position = Position(Table.of(Meld.of(meld) for meld in table), Hand.of(hand))
    return position.validate(variant)


def _all_cards(variant: Variant) -> list[Card]:
    return [Card(rank, suit) for rank in Rank for suit in Suit]


def _missing_copies(variant: Variant, table: list[list[Piece]], loose: list[Piece]) -> list[Card]:
    """Copies of the full deck that are neither on the table nor loose yet."""
    counts: dict[Card, int] = {}
    for piece in [*[p for meld in table for p in meld], *loose]:
        if isinstance(piece, Card):
            counts[piece] = counts.get(piece, 0) + 1
    missing: list[Card] = []
    for card in _all_cards(variant):
        missing.extend([card] * max(0, variant.decks - counts.get(card, 0)))
    return missing


def suite(seed: int, count: int, variant: Variant, *, max_table: int = 106) -> Iterator[SuiteEntry]:
    """``count`` positions with table sizes spread over 0..max_table and hands of 1-20."""
    rng = random.Random(seed)
    for n in range(count):
        target = round(max_table * n / max(1, count - 1))
        hand_cards = rng.randint(1, 20)
        target = min(target, variant.deck_size - hand_cards - variant.jokers)
        position = random_big_position(rng, variant, table_cards=target, hand_cards=hand_cards)
        jokers = sum(isinstance(p, Joker) for p in position.table.pieces)
        yield SuiteEntry(position, position.table.card_count(), len(position.hand), jokers)
