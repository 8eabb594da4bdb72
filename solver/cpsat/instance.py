"""The prepared data of one hint problem: everything the model needs, as plain counts.

Cards are identified by ``Card.index`` (0..51).  The instance is built completely
before any model exists (CP-SAT Primer: data, model, solve and extract apart), and
is the place where the catalogue is pruned to the melds the cards could form.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from solver.cards import ALL_CARDS, CARD_KINDS, Card, Joker, Suit
from solver.melds import Meld, MeldTemplate, formable, indexed_catalogue, position_card
from solver.position import Position
from solver.solution import Objective
from solver.variants import Variant

__all__ = ["Instance", "OldMeld", "build_instance"]


MAX_SEQUENCE_PIECE = 5
"""Sequences longer than this are unions of shorter ones; the model uses pieces of 3-5."""

EXTENSION_REACH = 2
"""Cards a kept sequence may grow at each end.  Three or more cards beyond an end form
a meld of their own, which leaves the old meld just as whole, so two is enough."""


@dataclass(frozen=True, slots=True)
class OldMeld:
    """A meld of the table before the play, with the slots it may grow into if kept whole.

    ``extensions`` are chains of card indices outward from each end of a sequence
    (nearest first), or the one missing suit of a three-card group.
    """

    meld: Meld
    real: tuple[tuple[int, int], ...]
    """(card index, count) of its real cards."""
    jokers: tuple[tuple[int, int], ...]
    """(declared card index, count) of its jokers."""
    extension_chains: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Instance:
    """Counts and candidate melds for one position under one variant."""

    position: Position
    variant: Variant
    objective: Objective
    keep_jokers: bool
    opened: bool
    table_real: tuple[int, ...]
    """Real table cards per card index."""
    hand_real: tuple[int, ...]
    hand_jokers: int
    table_jokers: tuple[int, ...]
    """Table jokers per declared card index."""
    templates: tuple[MeldTemplate, ...]
    template_cards: tuple[tuple[int, ...], ...]
    old_melds: tuple[OldMeld, ...]

    @property
    def total_jokers(self) -> int:
        return self.hand_jokers + sum(self.table_jokers)

    @property
    def opening_required(self) -> bool:
        return not self.opened and self.variant.opening_points > 0

    def hand_weight(self, index: int) -> int:
        """What one hand card of this index counts toward the objective."""
        if self.objective == "cards":
            return 1
        return self.variant.card_points(ALL_CARDS[index])

    @property
    def joker_weight(self) -> int:
        return 1 if self.objective == "cards" else self.variant.joker_points


def build_instance(
    position: Position,
    variant: Variant,
    *,
    objective: Objective = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> Instance:
    """Count the cards and keep only the candidate melds the available cards could form."""
    table_real = [0] * CARD_KINDS
    table_jokers = [0] * CARD_KINDS
    for piece in position.table.pieces:
        if isinstance(piece, Joker):
            if piece.declared is not None:
                table_jokers[piece.declared.index] += 1
        else:
            table_real[piece.index] += 1
    hand_real = [0] * CARD_KINDS
    for piece in position.hand:
        if isinstance(piece, Card):
            hand_real[piece.index] += 1
    hand_jokers = position.hand.joker_count
    total_jokers = hand_jokers + sum(table_jokers)

    available = [table_real[i] + hand_real[i] + table_jokers[i] for i in range(CARD_KINDS)]
    templates: list[MeldTemplate] = []
    template_cards: list[tuple[int, ...]] = []
    for template, indices in indexed_catalogue(variant, max_sequence=MAX_SEQUENCE_PIECE):
        if not formable(indices, available, total_jokers):
            continue
        templates.append(template)
        template_cards.append(indices)

    old_melds = tuple(_old_meld(meld, variant, available, total_jokers) for meld in position.table)
    return Instance(
        position=position,
        variant=variant,
        objective=objective,
        keep_jokers=keep_jokers,
        opened=opened,
        table_real=tuple(table_real),
        hand_real=tuple(hand_real),
        hand_jokers=hand_jokers,
        table_jokers=tuple(table_jokers),
        templates=tuple(templates),
        template_cards=tuple(template_cards),
        old_melds=old_melds,
    )


def _old_meld(meld: Meld, variant: Variant, available: list[int], total_jokers: int) -> OldMeld:
    real, jokers, chains = _meld_outline(meld, meld.kind(variant), variant.max_position)

    def reachable(chain: tuple[int, ...]) -> tuple[int, ...]:
        # Cut a chain at the first card that neither exists nor could be a joker.
        if total_jokers:
            return chain
        for at, index in enumerate(chain):
            if available[index] == 0:
                return chain[:at]
        return chain

    trimmed = tuple(c for c in (reachable(chain) for chain in chains) if c)
    return OldMeld(meld, real, jokers, trimmed)


@lru_cache(maxsize=4096)
def _meld_outline(
    meld: Meld, shape: str | None, max_position: int
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    """A table meld's real cards and jokers as (index, count), and its extension chains
    before trimming (cached: the same melds lie on the table turn after turn)."""
    real = Counter(card.index for card in meld.real_cards)
    jokers = Counter(j.declared.index for j in meld.jokers if j.declared is not None)
    chains: list[tuple[int, ...]] = []
    cards = meld.cards
    if shape == "group" and len(cards) == 3:
        suits = {card.suit for card in cards}
        missing = [Card(cards[0].rank, suit).index for suit in Suit if suit not in suits]
        chains.append(tuple(missing))
    elif shape == "sequence":
        suit = cards[0].suit
        low = _first_position(meld)
        high = low + len(cards) - 1
        down = tuple(
            position_card(p, suit).index for p in range(low - 1, max(0, low - 1 - EXTENSION_REACH), -1)
        )
        top = min(max_position, high + EXTENSION_REACH)
        up = tuple(position_card(p, suit).index for p in range(high + 1, top + 1))
        chains.extend(chain for chain in (down, up) if chain)
    return tuple(sorted(real.items())), tuple(sorted(jokers.items())), tuple(chains)


def _first_position(meld: Meld) -> int:
    """Sequence position of a legal sequence's first card (an ace first is low)."""
    first = meld.cards[0]
    return 1 if first.rank == 1 else int(first.rank)
