"""Hypothesis strategies shared by the test files: random valid positions.

Positions are built from the meld catalogue of ``Variant.manipulation()`` (groups,
sequences including ace-high ones and the 14-card A..K..A run), with some cards
replaced by declared jokers, and a hand of real cards plus undeclared jokers; the
deck counts (2 copies of each card, 2 jokers) are respected throughout.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import strategies as st

from solver.cards import ALL_CARDS, Card, Joker, Piece, Rank, Suit
from solver.melds import Meld, catalogue
from solver.position import Hand, Position, Table
from solver.variants import Variant

DECK = Variant.manipulation()
TEMPLATES = catalogue(DECK)

RANK_SPELLINGS: dict[Rank, list[str]] = {rank: [rank.label, str(rank.value)] for rank in Rank}
for _rank, _letter in [(Rank.ACE, "a"), (Rank.JACK, "j"), (Rank.QUEEN, "q"), (Rank.KING, "k")]:
    RANK_SPELLINGS[_rank].append(_letter)
RANK_SPELLINGS[Rank.TEN] += ["T", "t"]
SUIT_SPELLINGS: dict[Suit, list[str]] = {
    suit: [suit.letter, suit.letter.upper(), suit.symbol] for suit in Suit
}


class _Stock:
    """What is left of the deck while a position is being built."""

    def __init__(self, variant: Variant) -> None:
        self.copies = variant.decks
        self.used: Counter[Card] = Counter()
        self.jokers = variant.jokers

    def can_take(self, cards: Counter[Card], jokers: int) -> bool:
        return jokers <= self.jokers and all(self.used[c] + n <= self.copies for c, n in cards.items())

    def take(self, cards: Counter[Card], jokers: int) -> None:
        self.used.update(cards)
        self.jokers -= jokers


@st.composite
def legal_melds(draw: st.DrawFn, stock: _Stock) -> Meld | None:
    """One legal meld taken from ``stock`` (None when the stock cannot supply the drawn one)."""
    template = draw(st.sampled_from(TEMPLATES))
    wanted = [draw(st.integers(0, 4)) == 0 for _ in template.cards]
    if all(wanted):
        wanted[draw(st.integers(0, len(wanted) - 1))] = False
    pieces: list[Piece] = [Joker(c) if j else c for c, j in zip(template.cards, wanted, strict=True)]
    real = Counter(p for p in pieces if isinstance(p, Card))
    jokers = len(pieces) - sum(real.values())
    if not stock.can_take(real, jokers):
        return None
    stock.take(real, jokers)
    return Meld.of(pieces)


@st.composite
def positions(draw: st.DrawFn, *, max_melds: int = 6, max_hand: int = 12) -> Position:
    """A random position valid under ``Variant.manipulation()``."""
    stock = _Stock(DECK)
    melds = [draw(legal_melds(stock)) for _ in range(draw(st.integers(0, max_melds)))]
    hand: list[Piece] = []
    for card in draw(st.lists(st.sampled_from(ALL_CARDS), max_size=max_hand)):
        if stock.can_take(Counter([card]), 0):
            stock.take(Counter([card]), 0)
            hand.append(card)
    hand_jokers = draw(st.integers(0, stock.jokers))
    stock.take(Counter(), hand_jokers)
    hand += [Joker()] * hand_jokers
    return Position(Table.of(m for m in melds if m is not None), Hand.of(hand))


def lenient(piece: Piece, rnd: random.Random) -> str:
    """``piece`` spelled in any of the accepted input forms."""
    card = piece.declared if isinstance(piece, Joker) else piece
    if card is None:
        return "*"
    text = rnd.choice(RANK_SPELLINGS[card.rank]) + rnd.choice(SUIT_SPELLINGS[card.suit])
    return "*" + text if isinstance(piece, Joker) else text


def scrambled_text(position: Position, rnd: random.Random, *, respell: bool = False) -> str:
    """The position written with melds and cards in random order (and random spellings)."""

    def spell(piece: Piece) -> str:
        return lenient(piece, rnd) if respell else str(piece)

    melds = [[spell(p) for p in meld.pieces] for meld in position.table]
    for meld in melds:
        rnd.shuffle(meld)
    rnd.shuffle(melds)
    hand = [spell(p) for p in position.hand]
    rnd.shuffle(hand)
    table = " | ".join(" ".join(meld) for meld in melds)
    return f"{table} / {' '.join(hand)}"
