"""The deck of a variant, the deal, and what a player cannot see.

Every card the game uses comes from ``full_deck``; the conservation invariant of the
tests (each card in the stock, a hand or the table, exactly once) is checked against it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from solver.cards import ALL_CARDS, Card, Joker, Piece, piece_sort_key
from solver.variants import Variant

__all__ = ["deal", "full_deck", "piece_counts", "unseen_pieces"]


def full_deck(variant: Variant) -> list[Piece]:
    """Every card of the variant's deck in a fixed order: each card ``decks`` times, then jokers."""
    pieces: list[Piece] = [card for card in ALL_CARDS for _ in range(variant.decks)]
    pieces.extend(Joker() for _ in range(variant.jokers))
    return pieces


def piece_counts(pieces: Iterable[Piece]) -> Counter[Card | None]:
    """Copies of each real card, with every joker (declared or not) counted under ``None``."""
    return Counter(piece if isinstance(piece, Card) else None for piece in pieces)


def deal(variant: Variant, players: int, rng: random.Random) -> tuple[list[list[Piece]], list[Piece]]:
    """Shuffle the deck with ``rng`` and deal ``hand_size`` cards to each player, one at a time.

    Returns the hands and the stock; the stock's top card is its last element.
    """
    deck = full_deck(variant)
    rng.shuffle(deck)
    hands: list[list[Piece]] = [[] for _ in range(players)]
    for _ in range(variant.hand_size):
        for hand in hands:
            hand.append(deck.pop())
    return hands, deck


def unseen_pieces(variant: Variant, seen: Iterable[Piece]) -> tuple[Piece, ...]:
    """The deck minus ``seen`` (a player's own hand and the table): what that player cannot see.

    Jokers come back undeclared; the result is sorted like a hand.
    """
    left = piece_counts(full_deck(variant))
    left.subtract(piece_counts(seen))
    pieces: list[Piece] = []
    for card, count in left.items():
        pieces.extend([Joker() if card is None else card] * max(count, 0))
    return tuple(sorted(pieces, key=piece_sort_key))
