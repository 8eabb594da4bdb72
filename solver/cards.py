"""Cards and jokers: the smallest value types, and their one notation.

A real card is a rank and a suit (``7h``, ``10s``, ``Qd``, ``Ac``).  A joker is
written ``*`` in a hand and ``*7h`` on the table, where it stands for a declared
card.  Parsing is lenient (``T`` for 10, ranks ``1``-``13``, either case, the
suit symbols), formatting is canonical, so ``Card.parse(str(c)) == c`` always.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Self

__all__ = [
    "ACE_HIGH_POSITION",
    "ALL_CARDS",
    "CARD_KINDS",
    "KING_POSITION",
    "Card",
    "Joker",
    "NotationError",
    "Piece",
    "Rank",
    "Suit",
    "effective_card",
    "parse_piece",
    "piece_face",
    "piece_sort_key",
    "tile_text",
]


class NotationError(ValueError):
    """Malformed notation; the message names the bad token and where it stands."""

    def __init__(self, message: str, *, token: str | None = None, where: str | None = None) -> None:
        self.token = token
        self.where = where
        self.bare_message = message
        super().__init__(message if where is None else f"{message} ({where})")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the constructor's own arguments (the default passes ``args`` only,
        which would drop ``token`` and ``where``), so the error survives a process pool."""
        return (_rebuild_notation_error, (self.bare_message, self.token, self.where))


def _rebuild_notation_error(message: str, token: str | None, where: str | None) -> NotationError:
    return NotationError(message, token=token, where=where)


class Suit(enum.IntEnum):
    """The four suits, in the canonical output order spades, hearts, diamonds, clubs."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "shdc"[self.value]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``s h d c`` (either case) or a suit symbol."""
        found = _SUIT_BY_TEXT.get(text.lower())
        if found is None:
            raise NotationError(f"unknown suit {text!r}; use s, h, d, c or ♠ ♥ ♦ ♣", token=text)
        return found


_SUIT_BY_TEXT: dict[str, Suit] = {}
for _suit in Suit:
    _SUIT_BY_TEXT[_suit.letter] = _suit
    _SUIT_BY_TEXT[_suit.symbol] = _suit
_SUIT_BY_TEXT["♤"] = Suit.SPADES
_SUIT_BY_TEXT["♡"] = Suit.HEARTS
_SUIT_BY_TEXT["♢"] = Suit.DIAMONDS
_SUIT_BY_TEXT["♧"] = Suit.CLUBS
_PRESENTATION_SELECTORS = "\ufe0e\ufe0f"
"""Variation selectors 15 and 16 (text and emoji presentation): phone keyboards put one
after a suit symbol (``K♥️`` is ``K``, ``♥``, U+FE0F); the card is the same."""


class Rank(enum.IntEnum):
    """Ranks 1 (ace) to 13 (king).  Ace-high is a position in a sequence, not a rank."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return _RANK_LABELS[self.value]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``A 2..10 J Q K``, ``T`` for ten, or a number ``1``-``13``."""
        found = _RANK_BY_TEXT.get(text.upper())
        if found is None:
            raise NotationError(f"unknown rank {text!r}; use A, 2-10, J, Q, K, T or 1-13", token=text)
        return found


_RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
_RANK_BY_TEXT: dict[str, Rank] = {str(r.value): r for r in Rank}
_RANK_BY_TEXT.update({"A": Rank.ACE, "T": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING})


_TILE = re.compile(r"([krbo])(1[0-3]|[1-9])", re.IGNORECASE)
"""A Rummikub tile as the commands print it: its colour's letter and its number."""
TILE_NOTATION = "its colour (k black, r red, b blue, o orange) and its number 1-13, e.g. k13 or r1"
"""How to write a tile, for messages."""
TILE_LETTERS = {Suit.SPADES: "k", Suit.HEARTS: "r", Suit.DIAMONDS: "b", Suit.CLUBS: "o"}
"""A Rummikub tile's colour letter for each suit of the notation (s black, h red, d blue,
c orange): how tiles are printed (``solver.cli.faces``) and typed."""
_TILE_SUITS = {letter: int(suit) for suit, letter in TILE_LETTERS.items()}
"""A tile colour's letter -> the suit's index."""

_NOT_SEPARATORS = frozenset(",;/")
"""Characters people type between cards that the notation does not use there (cards are
separated by spaces, melds by ``|``, the table from the hand by one ``/``)."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A real card.  Ordered by rank, then suit (s h d c); hashable, immutable."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        """A dense index 0..51 (``CARD_KINDS - 1``): ``(rank - 1) * 4 + suit``."""
        return (self.rank - 1) * 4 + self.suit

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of a dense index 0..51 (``Card.index``); anything else is a ValueError
        (a tuple index would read -1 as the king of clubs)."""
        if not 0 <= index < CARD_KINDS:
            raise ValueError(f"a card index is 0-{CARD_KINDS - 1}, not {index}")
        return ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one real card such as ``7h``, ``10s``, ``Td``, ``13c`` or ``Q♠`` (or a
        Rummikub tile as printed, ``k13``)."""
        found = _CARD_BY_TEXT.get(text)
        if found is not None:  # every spelling of every card, looked up (a position parses 50)
            return found
        token = text.strip()
        symbol_shown_as_emoji = token[-1:] in tuple(_PRESENTATION_SELECTORS) and not token[-2:-1].isascii()
        if len(token) >= 3 and symbol_shown_as_emoji and token[-2] in _SUIT_BY_TEXT:
            return cls.parse(token[:-1])  # K♥️: a suit symbol with its emoji (or text) selector
        separator = next((char for char in token if char in _NOT_SEPARATORS), None)
        if separator is not None:  # "10h," would be blamed on its rank "10h"
            raise NotationError(
                f"{separator!r} is not part of a card: separate cards with spaces and melds with '|'",
                token=text,
            )
        tile = _TILE.fullmatch(token)
        if tile is not None:  # Rummikub's tile as printed: colour letter and number (k13, r1)
            colour, number = tile.groups()
            return ALL_CARDS[(int(number) - 1) * 4 + _TILE_SUITS[colour.lower()]]
        if token[:1].lower() in _TILE_SUITS and token[1:].isdigit():
            raise NotationError(f"a tile is {TILE_NOTATION}", token=text)
        if len(token) < 2 or token.isdigit():  # "10" was read as rank 1 with the suit "0"
            raise NotationError("a card needs a rank and a suit", token=text)
        rank_text, suit_text = token[:-1], token[-1]
        rank, suit = Rank.parse(rank_text), Suit.parse(suit_text)
        # The one object per card (ALL_CARDS): equal cards are then the same object, so
        # comparing melds and hands, and finding them in caches, rarely calls __eq__.
        return ALL_CARDS[(rank - 1) * 4 + suit]

    def __hash__(self) -> int:
        """The dense index (equal cards, equal indices): cards are hashed in every meld,
        hand and cache lookup, and the generated hash of two enums is slower."""
        return (self.rank - 1) * 4 + self.suit

    def __str__(self) -> str:
        return _CARD_TEXT[(self.rank - 1) * 4 + self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        return f"{self.rank.label}{self.suit.symbol}"


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""Every distinct card, by its index (``Card.index``)."""
_CARD_BY_TEXT: dict[str, Card] = {
    rank_spelling + suit_spelling: ALL_CARDS[(rank - 1) * 4 + suit]
    for rank_text, rank in _RANK_BY_TEXT.items()
    for rank_spelling in {rank_text, rank_text.lower()}
    for suit_text, suit in _SUIT_BY_TEXT.items()
    for suit_spelling in {suit_text, suit_text.upper()}
} | {
    colour + str(number): ALL_CARDS[(number - 1) * 4 + suit]
    for letter, suit in _TILE_SUITS.items()
    for colour in (letter, letter.upper())
    for number in range(1, 14)
}
"""Every way of writing every card that ``Card.parse`` accepts, to the card: the common
case is a dictionary lookup; ``Card.parse``'s own steps read the rest and explain errors."""
CARD_KINDS = len(ALL_CARDS)
"""How many distinct cards a deck holds (52): the length of every per-card count array."""

KING_POSITION = int(Rank.KING)
"""The highest sequence position without ace-high (13): positions are ranks, ace low at 1."""
ACE_HIGH_POSITION = KING_POSITION + 1
"""The sequence position of a high ace (Q-K-A, 14), where a variant allows it."""
_CARD_TEXT: tuple[str, ...] = tuple(f"{card.rank.label}{card.suit.letter}" for card in ALL_CARDS)
"""Notation by card index: cards are printed constantly (melds, tables, sort keys)."""


@dataclass(frozen=True, slots=True)
class Joker:
    """A joker: undeclared in a hand (``*``), declared on the table (``*7h``)."""

    declared: Card | None = None

    def declare(self, card: Card) -> Self:
        return type(self)(card)

    def __str__(self) -> str:
        return "*" if self.declared is None else f"*{self.declared}"

    def __repr__(self) -> str:
        """``Joker()`` or ``Joker(Card.parse('7h'))``: names ``solver`` exports."""
        return "Joker()" if self.declared is None else f"Joker({self.declared!r})"

    @property
    def pretty(self) -> str:
        return "★" if self.declared is None else f"★{self.declared.pretty}"


Piece = Card | Joker
"""Anything that sits in a hand or a meld."""


def parse_piece(text: str) -> Piece:
    """Parse a real card or a joker (``*`` or ``*7h``; ``★`` and ``★Q♥`` too, and Rummikub
    tiles as printed: ``k13``, ``★b12``)."""
    token = text.strip()
    if token.startswith(("*", "★")):  # ★ as the commands print a joker
        rest = token[1:]
        return Joker(Card.parse(rest) if rest else None)
    return Card.parse(token)


def tile_text(card: Card) -> str:
    """A Rummikub tile as printed and typed: its colour's letter and its number, e.g.
    ``b12`` for ``Qd`` (``TILE_LETTERS``)."""
    return f"{TILE_LETTERS[card.suit]}{int(card.rank)}"


def piece_face(piece: Piece, *, tiles: bool = False) -> str:
    """One piece as a person reads it: with card faces ``Q♥``, ``★Q♥``, ``★`` (``pretty``);
    with tile faces (Rummikub) ``r12``, ``★r12``, ``★``.  The one way the commands
    (``solver.cli.faces``) and the game's state for the page (``solver.play``) write a
    piece for people; ``Card.parse`` and the page's parser read both back."""
    if not tiles:
        return piece.pretty
    card = piece.declared if isinstance(piece, Joker) else piece
    star = "★" if isinstance(piece, Joker) else ""
    return star + (tile_text(card) if card is not None else "")


def effective_card(piece: Piece) -> Card | None:
    """The card a piece counts as: itself, or a joker's declaration (None if undeclared)."""
    if isinstance(piece, Joker):
        return piece.declared
    return piece


def piece_sort_key(piece: Piece) -> tuple[int, int, int]:
    """Hand order: by suit (s h d c), then rank; jokers last."""
    if isinstance(piece, Joker):
        card = piece.declared
        return (5, 0, 0) if card is None else (4, card.suit, card.rank)
    return (piece.suit, piece.rank, 0)
