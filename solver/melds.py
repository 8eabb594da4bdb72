"""Melds: what makes a group or a sequence legal, canonical order, and the catalogue.

A meld is judged on its *effective* cards: real cards as they are, jokers as their
declared card.  Sequence positions run 1 (ace low) to 13 (king) and 14 (ace high,
when the variant allows it), so an ace can only ever sit at an end: K-A-2 would need
an ace at an interior position, which no position number offers.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from solver.cards import (
    ACE_HIGH_POSITION,
    KING_POSITION,
    Card,
    Joker,
    NotationError,
    Piece,
    Rank,
    Suit,
    effective_card,
    parse_piece,
)
from solver.variants import Variant

__all__ = [
    "ACE_HIGH_POSITION",
    "Meld",
    "MeldFault",
    "MeldKind",
    "MeldProblem",
    "MeldTemplate",
    "arrange",
    "catalogue",
    "formable",
    "indexed_catalogue",
    "join_sequences",
    "position_card",
    "sequence_position",
]

MeldKind = Literal["group", "sequence"]


class MeldFault(enum.Enum):
    """Why pieces are no legal meld, as a code: code that must tell faults apart tests the
    code (``MeldProblem.fault``), never the words, which are for people."""

    TOO_FEW = "too_few"
    UNDECLARED_JOKER = "undeclared_joker"
    ONLY_JOKERS = "only_jokers"
    NEITHER_RANK_NOR_SUIT = "neither_rank_nor_suit"
    GROUP_TOO_LONG = "group_too_long"
    GROUP_REPEATS_SUIT = "group_repeats_suit"
    SEQUENCE_TOO_LONG = "sequence_too_long"
    SEQUENCE_ACES = "sequence_aces"
    SEQUENCE_GAP = "sequence_gap"


@dataclass(frozen=True, slots=True)
class MeldProblem:
    """A fault and the sentence that says it (``Meld.problem`` gives the sentence)."""

    fault: MeldFault
    text: str


def position_card(position: int, suit: Suit) -> Card:
    """The card at sequence position 1..14 of a suit (14 is the high ace)."""
    return Card(Rank.ACE if position == ACE_HIGH_POSITION else Rank(position), suit)


def sequence_position(card: Card, *, last: bool = False) -> int:
    """A card's sequence position: its rank, except an ace that ends a sequence
    (``last=True``), which is the high ace at ``ACE_HIGH_POSITION``."""
    return ACE_HIGH_POSITION if last and card.rank == Rank.ACE else int(card.rank)


@dataclass(frozen=True, slots=True)
class _Shape:
    kind: MeldKind
    ordered: tuple[Piece, ...]
    start: int
    """First sequence position, or the group's rank."""


@lru_cache(maxsize=65536)
def _shape(pieces: tuple[Piece, ...], *, ace_high: bool) -> _Shape | MeldProblem:
    """Arrange ``pieces`` as a legal meld, or say why they cannot be one.

    Cached: the same melds are judged again and again (parsing, validation, the
    referee, the hint engine), and pieces are immutable.
    """
    if len(pieces) < 3:
        return MeldProblem(MeldFault.TOO_FEW, f"a meld needs at least 3 cards, this one has {len(pieces)}")
    cards: list[Card] = []
    for piece in pieces:
        card = effective_card(piece)
        if card is None:
            return MeldProblem(MeldFault.UNDECLARED_JOKER, "a joker in a meld must be declared, e.g. *7h")
        cards.append(card)
    if all(isinstance(piece, Joker) for piece in pieces):
        return MeldProblem(MeldFault.ONLY_JOKERS, "a meld needs at least one real card")
    ranks = {card.rank for card in cards}
    suits = {card.suit for card in cards}
    if len(ranks) == 1:
        return _group_shape(pieces, cards)
    if len(suits) == 1:
        return _sequence_shape(pieces, cards, ace_high=ace_high)
    return MeldProblem(
        MeldFault.NEITHER_RANK_NOR_SUIT,
        "cards are neither all of one rank (a group) nor all of one suit (a sequence)",
    )


def _group_shape(pieces: Sequence[Piece], cards: list[Card]) -> _Shape | MeldProblem:
    if len(pieces) > 4:
        return MeldProblem(
            MeldFault.GROUP_TOO_LONG, f"a group holds 3 or 4 cards, this one has {len(pieces)}"
        )
    seen: set[Suit] = set()
    for card in cards:
        if card.suit in seen:
            return MeldProblem(
                MeldFault.GROUP_REPEATS_SUIT, f"a group holds one card of each suit, {card} appears twice"
            )
        seen.add(card.suit)
    order = sorted(range(len(cards)), key=lambda i: cards[i].suit)
    return _Shape("group", tuple(pieces[i] for i in order), int(cards[0].rank))


def _sequence_shape(pieces: Sequence[Piece], cards: list[Card], *, ace_high: bool) -> _Shape | MeldProblem:
    top = ACE_HIGH_POSITION if ace_high else KING_POSITION
    if len(pieces) > top:
        return MeldProblem(
            MeldFault.SEQUENCE_TOO_LONG, f"a sequence holds at most {top} cards, this one has {len(pieces)}"
        )
    # Real aces before jokers declared as aces, so that a real ace and a joker standing for
    # the same ace always take the same ends (canonical order must not depend on input order).
    aces = sorted(
        (i for i, card in enumerate(cards) if card.rank == Rank.ACE),
        key=lambda i: isinstance(pieces[i], Joker),
    )
    others = [i for i, card in enumerate(cards) if card.rank != Rank.ACE]
    if len(aces) > 2:
        return MeldProblem(MeldFault.SEQUENCE_ACES, "a sequence holds at most two aces, one at each end")
    if len(aces) == 2 and not ace_high:
        return MeldProblem(
            MeldFault.SEQUENCE_ACES, "a sequence holds one ace here: this variant has no ace-high"
        )
    choices: list[tuple[int, ...]] = []
    if len(aces) == 0:
        choices.append(())
    elif len(aces) == 1:
        choices.append((1,))
        if ace_high:
            choices.append((ACE_HIGH_POSITION,))
    else:
        choices.append((1, ACE_HIGH_POSITION))
    problems: list[tuple[int, str]] = []
    for ace_positions in choices:
        position_of = {i: int(cards[i].rank) for i in others}
        position_of.update(zip(aces, ace_positions, strict=True))
        order = sorted(range(len(cards)), key=lambda i: position_of[i])
        positions = [position_of[i] for i in order]
        found = _sequence_gap(positions, cards[0].suit)
        if found is None:
            return _Shape("sequence", tuple(pieces[i] for i in order), positions[0])
        problems.append((_missing(positions), found))
    # Name the gap of the reading that lacks the fewest cards (J-K-A lacks Q, not 2 to 10).
    problem = min(problems, key=lambda pair: pair[0])[1]
    if len(aces) == 1 and problem.startswith("gap"):
        return _ace_problem(cards, problem, ace_high=ace_high)
    return MeldProblem(MeldFault.SEQUENCE_GAP, problem)


def _missing(positions: list[int]) -> int:
    """Cards missing between the lowest and the highest of sorted sequence positions."""
    return positions[-1] - positions[0] + 1 - len(set(positions))


def _ace_problem(cards: list[Card], gap: str, *, ace_high: bool) -> MeldProblem:
    """Blame the one ace only when it is at fault: the cards would make a sequence with the
    ace after the king in a variant without ace-high, or around the corner (K-A-2), where an
    ace may never sit.  Otherwise ``gap`` stands: ``Ad 2d 4d`` lacks 3d whatever the ace does."""
    positions = sorted({int(card.rank) for card in cards})
    if len(positions) != len(cards):
        return MeldProblem(MeldFault.SEQUENCE_GAP, gap)
    if not ace_high:
        high = [*positions[1:], ACE_HIGH_POSITION]
        high_gap = _sequence_gap(high, cards[0].suit)
        # Only Rummikub has no ace-high: its tiles' numbers beside the cards' names.
        no_ace_high = "an ace (1) cannot follow a king (13) here: this variant has no ace-high"
        if high_gap is None:
            return MeldProblem(MeldFault.SEQUENCE_ACES, no_ace_high)
        if _missing(high) < _missing(positions):
            return MeldProblem(MeldFault.SEQUENCE_ACES, f"{high_gap}; and {no_ace_high}")
    # Counted around the corner (ranks modulo 13) the cards make one unbroken run: only the
    # ace's place between the king and the two breaks it.
    breaks = sum(
        (after - before) % 13 != 1 for before, after in itertools.pairwise([*positions, positions[0]])
    )
    if breaks <= 1 and ace_high:
        text = "an ace only ends a sequence (A-2-3 or Q-K-A), never sits inside it (K-A-2)"
        return MeldProblem(MeldFault.SEQUENCE_ACES, text)
    if breaks <= 1:
        text = (
            "an ace only starts a sequence (A-2-3), never sits inside it (K-A-2): no ace-high here "
            "(as tiles: 1-2-3, never 13-1-2)"
        )
        return MeldProblem(MeldFault.SEQUENCE_ACES, text)
    return MeldProblem(MeldFault.SEQUENCE_GAP, gap)


def _sequence_gap(positions: list[int], suit: Suit) -> str | None:
    for before, after in itertools.pairwise(positions):
        if after == before:
            return f"a sequence holds {position_card(after, suit)} twice"
        if after != before + 1:
            low, high = position_card(before, suit), position_card(after, suit)
            missing = [str(position_card(p, suit)) for p in range(before + 1, after)]
            verb = "is" if len(missing) == 1 else "are"
            return f"gap between {low} and {high}: {' '.join(missing)} {verb} missing"
    return None


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld as it lies on the table, in canonical order when it is legal.

    ``Meld.parse`` accepts the cards in any order; ``str()`` prints them sorted
    (sequences by position, groups by suit), so equal melds print equal strings.
    """

    pieces: tuple[Piece, ...]

    @classmethod
    def of(cls, pieces: Iterable[Piece]) -> Meld:
        """Put ``pieces`` in canonical order (legality is checked by ``problem``)."""
        return cls(arrange(tuple(pieces)))

    @classmethod
    def parse(cls, text: str, *, where: str | None = None) -> Meld:
        """Parse ``7h 8h *9h 10h``; every joker on the table must carry its declaration."""
        tokens = text.split()
        if not tokens:
            raise NotationError("empty meld", where=where)
        pieces: list[Piece] = []
        for number, token in enumerate(tokens, start=1):
            token_where = f"card {number}" if where is None else f"{where}, card {number}"
            try:
                pieces.append(parse_piece(token))
            except NotationError as error:
                raise NotationError(f"bad card {token!r}: {error}", token=token, where=token_where) from None
        return cls.of(pieces)

    def __str__(self) -> str:
        return " ".join(map(str, self.pieces))

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.pieces)

    @property
    def pretty(self) -> str:
        return " ".join(piece.pretty for piece in self.pieces)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Effective cards (jokers as their declaration); undeclared jokers are skipped."""
        return tuple(card for piece in self.pieces if (card := effective_card(piece)) is not None)

    @property
    def real_cards(self) -> tuple[Card, ...]:
        return tuple(piece for piece in self.pieces if isinstance(piece, Card))

    @property
    def jokers(self) -> tuple[Joker, ...]:
        return tuple(piece for piece in self.pieces if isinstance(piece, Joker))

    def problem(self, variant: Variant) -> str | None:
        """Why this meld is illegal under ``variant``, or None when it is legal."""
        return self.problem_where(ace_high=variant.ace_high)

    def problem_where(self, *, ace_high: bool) -> str | None:
        """``problem`` under the one rule of a variant a meld's legality depends on:
        whether an ace may end a sequence high."""
        found = self.fault_where(ace_high=ace_high)
        return None if found is None else found.text

    @property
    def has_undeclared_joker(self) -> bool:
        """Whether a joker in it stands for no card (``*``): never legal on a table, and said
        apart from the meld's other faults (the position and the referee name it so)."""
        return any(isinstance(piece, Joker) and piece.declared is None for piece in self.pieces)

    def fault(self, variant: Variant) -> MeldProblem | None:
        """Why this meld is illegal under ``variant``, as a code and its sentence, or None."""
        return self.fault_where(ace_high=variant.ace_high)

    def fault_where(self, *, ace_high: bool) -> MeldProblem | None:
        """``fault`` under whether an ace may end a sequence high."""
        shape = _shape(self.pieces, ace_high=ace_high)
        return shape if isinstance(shape, MeldProblem) else None

    def is_legal(self, variant: Variant) -> bool:
        return self.problem(variant) is None

    def kind(self, variant: Variant | None = None) -> MeldKind | None:
        """``group`` or ``sequence`` (None when illegal under the variant, ace-high by default)."""
        shape = _shape(self.pieces, ace_high=True if variant is None else variant.ace_high)
        return None if isinstance(shape, MeldProblem) else shape.kind

    def sort_key(self) -> tuple[int, int, int, int, str]:
        """Canonical meld order: sequences by suit then start, then groups by rank."""
        return _sort_key(self.pieces)


@lru_cache(maxsize=65536)
def _sort_key(pieces: tuple[Piece, ...]) -> tuple[int, int, int, int, str]:
    """``Meld.sort_key`` by the pieces, cached: every table is sorted by it, and the same
    melds come back in every hint of a game."""
    meld = Meld(pieces)
    shape = _shape(pieces, ace_high=True)
    if isinstance(shape, MeldProblem):
        return (2, 0, 0, 0, str(meld))
    if shape.kind == "sequence":
        return (0, int(meld.cards[0].suit), shape.start, len(meld), str(meld))
    return (1, shape.start, len(meld), 0, str(meld))


def arrange(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Canonical order of a meld's pieces; an illegal meld is sorted by rank then suit."""
    shape = _shape(pieces, ace_high=True)
    if not isinstance(shape, MeldProblem):
        return shape.ordered

    def key(piece: Piece) -> tuple[int, int, int]:
        card = effective_card(piece)
        if card is None:
            return (99, 0, 0)
        return (int(card.rank), int(card.suit), int(isinstance(piece, Joker)))

    return tuple(sorted(pieces, key=key))


@dataclass(frozen=True, slots=True)
class MeldTemplate:
    """A candidate meld as effective cards only: the unit the hint engine counts."""

    kind: MeldKind
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def catalogue(variant: Variant, *, max_sequence: int | None = None) -> tuple[MeldTemplate, ...]:
    """Every group (3 or 4 suits of a rank) and every sequence of length 3..``max_sequence``
    (default: the longest the variant allows), in a fixed order.

    Any longer sequence is a union of sequences of length 3 to 5, so the hint engine
    uses ``max_sequence=5`` and merges the pieces back for output.
    """
    top = variant.max_position
    longest = top if max_sequence is None else min(max_sequence, top)
    templates: list[MeldTemplate] = []
    for rank in Rank:
        suits = list(Suit)
        for left_out in [None, *suits]:
            chosen = tuple(Card(rank, suit) for suit in suits if suit != left_out)
            templates.append(MeldTemplate("group", chosen))
    for suit in Suit:
        for length in range(3, longest + 1):
            for start in range(1, top - length + 2):
                cards = tuple(position_card(p, suit) for p in range(start, start + length))
                templates.append(MeldTemplate("sequence", cards))
    return tuple(templates)


@lru_cache(maxsize=8)
def indexed_catalogue(
    variant: Variant, *, max_sequence: int | None = None
) -> tuple[tuple[MeldTemplate, tuple[int, ...]], ...]:
    """``catalogue`` with each template's card indices, worked out once per variant and
    length (the CP-SAT instance and the puzzle partition model read it on every call)."""
    return tuple(
        (template, tuple(card.index for card in template.cards))
        for template in catalogue(variant, max_sequence=max_sequence)
    )


def formable(card_indices: Sequence[int], available: Sequence[int], jokers: int) -> bool:
    """Whether a candidate meld (its cards' indices) could be formed from the cards
    ``available`` (copies per card index, real or as a locked joker) and ``jokers`` free
    jokers: every missing card needs a joker, and a meld keeps at least one real card.

    Every user of the catalogue (the CP-SAT instance, the puzzle partition model) prunes
    it with this one rule."""
    missing = 0
    for index in card_indices:
        if not available[index]:
            missing += 1
    return missing <= jokers and missing < len(card_indices)


def join_sequences(runs: Iterable[Sequence[Piece]]) -> list[Meld]:
    """Sequence pieces joined back into whole sequences: runs of one suit whose positions
    meet end to end become one meld (greedily, lowest first).

    The backends lay long sequences as pieces (CP-SAT's catalogue stops at five cards,
    the search builds runs card by card); a table prints each sequence whole."""

    def span(run: Sequence[Piece]) -> tuple[int, int, int]:
        # Runs come in position order: their ends are the first and the last piece.
        first, last = effective_card(run[0]), effective_card(run[-1])
        assert first is not None and last is not None, "a table piece declares its card"
        return int(first.suit), int(first.rank), sequence_position(last, last=len(run) > 1)

    pending = sorted((tuple(run) for run in runs), key=lambda run: (span(run), [str(p) for p in run]))
    merged: list[Meld] = []
    while pending:
        chain = list(pending.pop(0))
        suit, _, end = span(chain)
        grown = True
        while grown:
            grown = False
            for k, run in enumerate(pending):
                run_suit, run_start, run_end = span(run)
                if run_suit == suit and run_start == end + 1:
                    chain.extend(run)
                    end = run_end
                    pending.pop(k)
                    grown = True
                    break
        merged.append(Meld.of(chain))
    return merged
