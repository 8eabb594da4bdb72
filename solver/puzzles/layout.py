"""The canonical form of a table, which defines when two solutions of a puzzle are the same.

A ``Layout`` forgets exactly two things about a table:

1. how the sequence cards of one suit are cut into sequences (``3h..8h`` is the same as
   ``3h 4h 5h | 6h 7h 8h``, and so are ``Ah..5h | 3h..8h`` and ``Ah..8h | 3h 4h 5h``);
2. which copy of a card a joker stands in for: a joker declared ``7h`` and a real ``7h``
   may swap melds (``7s 7d *7h | 5h 6h 7h`` is the same as ``7s 7d 7h | 5h 6h *7h``).

Everything else counts: which cards sit in groups and which in sequences, where each
sequence card sits (an ace low at position 1 or high at 14), and what every joker is
declared as.  In numbers, a layout is three count vectors: *group slots* per card, *sequence
slots* per (suit, position 1..14), and *jokers* per declared card.

The groups themselves need no more than their slot counts: the groups of one rank are
fixed by how many slots each suit has.  (With ``a_x`` three-card groups leaving out suit
``x`` and ``b`` four-card groups, suit ``s`` has ``b + sum(a) - a_s`` slots, so the counts
fix everything once ``b`` is fixed, and two answers differ by trading four three-card
groups for three four-card groups: twelve slots of one rank, more than two decks and
two jokers hold.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from solver.cards import ACE_HIGH_POSITION, CARD_KINDS, Joker, Rank
from solver.melds import Meld
from solver.position import Table
from solver.variants import Variant

__all__ = ["POSITIONS", "Layout", "sequence_slot"]

POSITIONS = ACE_HIGH_POSITION
"""Sequence positions 1 (ace low) to 14 (ace high)."""


def sequence_slot(suit: int, position: int) -> int:
    """Index of (suit, position 1..14) in ``Layout.sequence``."""
    return suit * POSITIONS + position - 1


@dataclass(frozen=True, slots=True)
class Layout:
    """A table up to how sequences are cut and where jokers sit among copies of their card."""

    groups: tuple[int, ...]
    """Group slots per card index 0..51 (real cards and jokers declared as the card)."""
    sequence: tuple[int, ...]
    """Sequence slots per ``sequence_slot(suit, position)``, 56 entries."""
    jokers: tuple[int, ...]
    """Jokers declared as each card index 0..51."""

    @classmethod
    def of(cls, table: Table | Iterable[Meld], variant: Variant) -> Layout:
        """The layout of a table of legal melds; a ValueError names an illegal meld."""
        groups = [0] * CARD_KINDS
        sequence = [0] * (4 * POSITIONS)
        jokers = [0] * CARD_KINDS
        for meld in table:
            kind = meld.kind(variant)
            if kind is None:
                raise ValueError(f"meld {meld} is illegal under {variant.name}: {meld.problem(variant)}")
            cards = Meld.of(meld.pieces).cards
            for piece in meld.pieces:
                if isinstance(piece, Joker) and piece.declared is not None:
                    jokers[piece.declared.index] += 1
            if kind == "group":
                for card in cards:
                    groups[card.index] += 1
                continue
            # Canonical order lists a legal sequence by position; it starts at 1 only with a low ace.
            first = 1 if cards[0].rank == Rank.ACE else int(cards[0].rank)
            for offset, card in enumerate(cards):
                sequence[sequence_slot(card.suit, first + offset)] += 1
        return cls(tuple(groups), tuple(sequence), tuple(jokers))

    def differences(self, other: Layout) -> int:
        """How many coordinates of the three vectors differ (0: the same layout)."""
        pairs = zip(self.vector, other.vector, strict=True)
        return sum(a != b for a, b in pairs)

    @property
    def vector(self) -> tuple[int, ...]:
        """The three count vectors joined: groups, then sequence slots, then jokers."""
        return self.groups + self.sequence + self.jokers
