"""Table, Hand and Position, in the one-line notation ``table / hand``.

Parsing checks syntax only; ``Position.problems(variant)`` checks the position
against a variant's deck (card copies, jokers, declarations, legal melds).  Both
print canonically: melds sorted (sequences by suit and start, then groups by
rank), hands sorted by suit then rank with jokers last, so equal positions print
equal strings and ``Position.parse(str(p)) == p``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from solver.cards import CARD_KINDS, Card, Joker, NotationError, Piece, parse_piece, piece_sort_key
from solver.echo import named_pieces
from solver.melds import Meld, MeldFault
from solver.variants import Variant

__all__ = [
    "Hand",
    "Position",
    "PositionError",
    "Table",
    "as_position",
    "as_table",
    "count_real",
    "declared_jokers",
]


PROBLEMS_SAID = 8
"""The problems a PositionError's message lists (all are in ``problems``): a pasted
table of thousands of bad melds made a message of megabytes."""


class PositionError(ValueError):
    """A position that the variant's deck or rules cannot produce; lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        said = problems[:PROBLEMS_SAID]
        more = len(problems) - len(said)
        super().__init__("; ".join(said) + (f"; and {more:,} more problem(s)" if more else ""))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the list of problems: the default would pass the joined message as
        ``problems`` and come back as a list of characters."""
        return (type(self), (list(self.problems),))


def count_real(pieces: Iterable[Piece]) -> Counter[Card]:
    """How many of each real card the pieces hold (jokers are not counted)."""
    return Counter(piece for piece in pieces if isinstance(piece, Card))


def declared_jokers(pieces: Iterable[Piece]) -> Counter[Card]:
    """How many jokers stand for each card."""
    return Counter(p.declared for p in pieces if isinstance(p, Joker) and p.declared is not None)


@dataclass(frozen=True, slots=True)
class Table:
    """The melds on the table, in canonical order."""

    melds: tuple[Meld, ...] = ()

    @classmethod
    def of(cls, melds: Iterable[Meld]) -> Table:
        return cls(tuple(sorted(melds, key=Meld.sort_key)))

    @classmethod
    def parse(cls, text: str, *, keep_order: bool = False) -> Table:
        """Parse ``Kh Kd Kc | Qh Qd Qc``; blank text is the empty table.

        ``keep_order=True`` keeps the melds in the order they were written (each meld
        still canonical inside), so that "meld 2" means the second meld the user typed;
        such a table prints in that order.  Plans and step texts number old melds this
        way; the engine itself always works on the canonical table."""
        if not text.strip():
            return cls()
        melds = []
        for number, chunk in enumerate(text.split("|"), start=1):
            if not chunk.strip():
                raise NotationError(f"meld {number} of the table is empty (two '|' in a row?)")
            melds.append(Meld.parse(chunk, where=f"table meld {number}"))
        return cls(tuple(melds)) if keep_order else cls.of(melds)

    def __str__(self) -> str:
        return " | ".join(map(str, self.melds))

    def __repr__(self) -> str:
        return f"Table.parse({str(self)!r})"

    def __iter__(self) -> Iterator[Meld]:
        return iter(self.melds)

    def __len__(self) -> int:
        return len(self.melds)

    @property
    def pretty(self) -> str:
        return " | ".join(meld.pretty for meld in self.melds)

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return tuple(piece for meld in self.melds for piece in meld.pieces)

    def card_count(self) -> int:
        return sum(len(meld) for meld in self.melds)


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards in a player's hand, sorted by suit then rank, jokers last."""

    pieces: tuple[Piece, ...] = ()

    @classmethod
    def of(cls, pieces: Iterable[Piece]) -> Hand:
        return cls(tuple(sorted(pieces, key=piece_sort_key)))

    @classmethod
    def parse(cls, text: str, *, label: str = "hand card") -> Hand:
        """Cards written like a hand (``7h 8h *``); a bad one is named as ``label`` and
        its number (``unseen card 2`` for a list of unseen cards)."""
        pieces: list[Piece] = []
        for number, token in enumerate(text.split(), start=1):
            try:
                pieces.append(parse_piece(token))
            except NotationError as error:
                raise NotationError(
                    f"bad card {token!r}: {error}", token=token, where=f"{label} {number}"
                ) from None
        return cls.of(pieces)

    def __str__(self) -> str:
        return " ".join(map(str, self.pieces))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    @property
    def pretty(self) -> str:
        return " ".join(piece.pretty for piece in self.pieces)

    @property
    def joker_count(self) -> int:
        return sum(isinstance(piece, Joker) for piece in self.pieces)

    def points(self, variant: Variant) -> int:
        """Points this hand counts at the end of a round."""
        return sum(variant.piece_points(piece) for piece in self.pieces)


@dataclass(frozen=True, slots=True)
class Position:
    """A table and the hand of the player to move."""

    table: Table = Table()
    hand: Hand = Hand()
    in_order: bool = field(default=False, compare=False, repr=False)
    """Known to be in canonical order (``parse`` without ``keep_order``, ``canonical``), so
    ``canonical`` returns it as it is without checking; a position built from the
    constructors is checked.  Not part of equality or the hash."""

    def __post_init__(self) -> None:
        # Position("Kh Kd Kc / Ac") would otherwise build an object that prints as notation
        # yet holds a string: say what to write instead.
        if not isinstance(self.table, Table) or not isinstance(self.hand, Hand):
            raise TypeError(
                "Position(table, hand) takes a Table and a Hand; "
                "for notation use Position.parse('Kh Kd Kc / Ac')"
            )

    @classmethod
    def parse(cls, text: str, *, keep_order: bool = False) -> Position:
        """Parse ``table / hand``, e.g. ``Kh Kd Kc | Qh Qd Qc / Ac`` or ``/ 7h 8h 9h``.

        ``keep_order=True``: the table's melds stay in the order written (see ``Table.parse``)."""
        if text.count("/") != 1:
            raise NotationError(f"a position is 'table / hand' with exactly one '/', found {text.count('/')}")
        table_text, hand_text = text.split("/")
        return cls(Table.parse(table_text, keep_order=keep_order), Hand.parse(hand_text), not keep_order)

    def canonical(self) -> Position:
        """The same position in canonical order: each meld's pieces arranged (``Meld.of``),
        the melds and the hand sorted.  ``self`` when it already is (every parsed position
        but one parsed with ``keep_order``); a position built from the constructors may
        hold a meld as ``8h *9h 7h``, which the engines read in order."""
        if self.in_order:
            return self
        table = Table.of(Meld.of(meld.pieces) for meld in self.table.melds)
        hand = Hand.of(self.hand.pieces)
        if table == self.table and hand == self.hand:
            table, hand = self.table, self.hand
        return Position(table, hand, True)

    def __str__(self) -> str:
        table, hand = str(self.table), str(self.hand)
        return (f"{table} " if table else "") + "/" + (f" {hand}" if hand else "")

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        return f"table: {self.table.pretty or '(empty)'}\nhand:  {self.hand.pretty or '(empty)'}"

    def problems(self, variant: Variant) -> list[str]:
        """Every reason the variant's deck and rules cannot produce this position."""
        if _plainly_valid(self, variant):  # most positions: decided without words
            return []
        return self.every_problem(variant)

    def every_problem(self, variant: Variant) -> list[str]:
        """``problems`` worked out in full, piece by piece (the reasons' words and order)."""
        faults = [(meld, meld.fault(variant)) for meld in self.table]
        found = [
            f"table meld {named_pieces(meld.pieces)}: {fault.text}"
            for meld, fault in faults
            if fault is not None and fault.fault is not MeldFault.UNDECLARED_JOKER
        ]
        for meld in self.table:  # after every other meld's reason
            if meld.has_undeclared_joker:
                found.append(
                    f"table meld {named_pieces(meld.pieces)}: a joker on the table must be declared, e.g. *7h"
                )
        for piece in self.hand:
            if isinstance(piece, Joker) and piece.declared is not None:
                found.append(f"hand joker {piece}: a joker in the hand is written * without a card")
        found.extend(deck_problems(self.table.pieces + self.hand.pieces, variant))
        return found

    def validate(self, variant: Variant) -> Position:
        """The position in canonical order (``canonical``: ``self`` for a parsed one), or
        PositionError listing every problem.  The engines take what this returns."""
        found = self.problems(variant)
        if found:
            raise PositionError(found)
        return self.canonical()


def as_position(value: Position | str, *, keep_order: bool = False) -> Position:
    """A Position as given, or parsed from its notation (``'Kh Kd Kc / Ac'``; with
    ``keep_order`` its melds stay as written): library calls accept either.  A TypeError
    says what to pass for anything else."""
    if isinstance(value, Position):
        return value
    if isinstance(value, str):
        return Position.parse(value, keep_order=keep_order)
    raise TypeError(
        f"expected a Position or its notation such as 'Kh Kd Kc / Ac', not {type(value).__name__}"
    )


def as_table(value: Table | str, *, keep_order: bool = False) -> Table:
    """A Table as given, or parsed from its notation (``'Kh Kd Kc | 7h 8h 9h'``; with
    ``keep_order`` its melds stay as written)."""
    if isinstance(value, Table):
        return value
    if isinstance(value, str):
        return Table.parse(value, keep_order=keep_order)
    raise TypeError(
        f"expected a Table or its notation such as 'Kh Kd Kc | 7h 8h 9h', not {type(value).__name__}"
    )


def _plainly_valid(position: Position, variant: Variant) -> bool:
    """Whether ``position.problems(variant)`` finds nothing, decided from each table meld's
    cached facts (``_legal_meld``) and one count of the cards: legal melds (which declares
    their jokers), undeclared hand jokers, and no more copies or jokers than the deck holds."""
    if type(position.hand.pieces) is not tuple:  # the full check says what is wrong with it
        return False
    copies = [0] * CARD_KINDS
    jokers = 0
    for meld in position.table:
        facts = _legal_meld(meld.pieces, variant.ace_high)
        if facts is None:
            return False
        real, meld_jokers = facts
        for index in real:
            copies[index] += 1
        jokers += meld_jokers
    for piece in position.hand.pieces:
        if isinstance(piece, Joker):
            if piece.declared is not None:
                return False
            jokers += 1
        elif isinstance(piece, Card):
            copies[piece.index] += 1
    return jokers <= variant.jokers and max(copies) <= variant.decks


@lru_cache(maxsize=65536)
def _legal_meld(pieces: tuple[Piece, ...], ace_high: bool) -> tuple[tuple[int, ...], int] | None:
    """A legal meld's real cards (indices) and jokers, or None when the meld is not legal
    under the ace-high rule given (an undeclared joker makes it illegal).  Cached: a game's
    table melds come back turn after turn, and pieces are immutable."""
    if Meld(pieces).problem_where(ace_high=ace_high) is not None:
        return None
    real = tuple(piece.index for piece in pieces if isinstance(piece, Card))
    return real, len(pieces) - len(real)


def deck_problems(pieces: Iterable[Piece], variant: Variant) -> list[str]:
    """Card copies and jokers beyond what the variant's deck holds."""
    pieces = tuple(pieces)
    found = []
    # The player count picks Manipulation Rummy's deck: name it, or a reader who knows the
    # game of more players (two decks) cannot see why one copy too many is refused.
    name = variant.preset  # the peer's jokerless Rummikub says so: "rummikub-peer"
    deck = (
        f"{variant.players}-player {name} deck"
        if variant.players and name == variant.name
        else f"{name} deck"
    )
    # With more copies than the game's largest deck holds, no player count would help.
    largest = variant if variant.players is None else Variant.named(variant.preset)
    most = max(largest.decks, variant.decks), max(largest.jokers, variant.jokers)
    too_many = [(card, count) for card, count in count_real(pieces).items() if count > variant.decks]
    for card, count in sorted(too_many):
        if count > most[0] and most[0] > variant.decks:
            found.append(f"{count} copies of {card}, but no {name} deck holds more than {most[0]}")
        else:
            found.append(f"{count} copies of {card}, but the {deck} holds {variant.decks}")
    jokers = sum(isinstance(piece, Joker) for piece in pieces)
    said = f"{jokers} joker{'s' if jokers != 1 else ''}"
    if jokers > most[1] and most[1] > variant.jokers:
        found.append(f"{said}, but no {name} deck holds more than {most[1]}")
    elif jokers > variant.jokers:
        found.append(f"{said}, but the {deck} holds {variant.jokers}")
    return found
