"""Random legal positions for cross-checks and fuzzing.

A shuffled deck is dealt into random legal melds (groups and sequences, some with a
table joker standing in for one of their cards) until the table is big enough, and
the hand is drawn from what is left, leaning toward cards that touch the table so
that plays are common.  Every choice goes through the injected ``random.Random``, so
a seed reproduces a position.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from solver.cards import Card, Joker, Piece, Rank, Suit
from solver.melds import Meld, position_card
from solver.position import Hand, Position, PositionError, Table
from solver.variants import Variant

__all__ = [
    "ace_joker_position",
    "own_meld_joker_position",
    "random_options",
    "random_position",
    "twin_joker_position",
]


def _random_meld(rng: random.Random, variant: Variant, stock: Counter[Card]) -> list[Card] | None:
    """Effective cards of one random group or sequence that the stock can supply."""
    if rng.random() < 0.45:
        rank = Rank(rng.randint(1, 13))
        suits = [suit for suit in Suit if stock[Card(rank, suit)]]
        size = rng.choice((3, 3, 4))
        if len(suits) < size:
            return None
        return [Card(rank, suit) for suit in sorted(rng.sample(suits, size))]
    suit = Suit(rng.randrange(4))
    top = variant.max_position
    length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7))
    start = rng.randint(1, top - length + 1)
    cards = [position_card(p, suit) for p in range(start, start + length)]
    needed = Counter(cards)
    if any(stock[card] < count for card, count in needed.items()):
        return None
    return cards


def _near(card: Card) -> list[Card]:
    """Cards that can share a meld with ``card``: same rank, or a neighbour in its suit."""
    found = [Card(card.rank, suit) for suit in Suit]
    for step in (-2, -1, 1, 2):
        rank = (card.rank - 1 + step) % 13 + 1
        found.append(Card(Rank(rank), card.suit))
    return found


def random_position(
    rng: random.Random,
    variant: Variant,
    *,
    max_table_cards: int = 20,
    max_hand: int = 7,
    min_table_cards: int = 0,
    min_hand: int = 1,
) -> Position:
    """A random position that passes ``Position.validate(variant)``.

    The table holds at most ``max_table_cards`` cards in legal melds (sometimes
    none; ``min_table_cards`` raises the random target, which is then usually but
    not always reached); the hand holds ``min_hand``..``max_hand`` pieces, hand
    jokers included when the variant has jokers.
    """
    stock: Counter[Card] = Counter({card: variant.decks for card in (Card(r, s) for r in Rank for s in Suit)})
    jokers = variant.jokers
    target = rng.randint(min(min_table_cards, max_table_cards), max_table_cards)
    melds: list[Meld] = []
    placed = 0
    for _ in range(200):
        if placed >= target:
            break
        cards = _random_meld(rng, variant, stock)
        if cards is None or placed + len(cards) > max_table_cards:
            continue
        stock.subtract(cards)
        pieces: list[Piece] = list(cards)
        if jokers and rng.random() < 0.3:
            # A joker stands in for one card; that card goes back to the stock, so the
            # hand may hold the real one and free the joker.
            slot = rng.randrange(len(pieces))
            stock[cards[slot]] += 1
            pieces[slot] = Joker(cards[slot])
            jokers -= 1
        melds.append(Meld.of(pieces))
        placed += len(pieces)
    table_cards = [piece for meld in melds for piece in meld.pieces if isinstance(piece, Card)]
    hand: list[Piece] = []
    for _ in range(rng.randint(min(min_hand, max_hand), max_hand)):
        if jokers and rng.random() < 0.12:
            hand.append(Joker())
            jokers -= 1
            continue
        choice: Card | None = None
        if table_cards and rng.random() < 0.6:
            candidates = [card for card in _near(rng.choice(table_cards)) if stock[card]]
            if candidates:
                choice = rng.choice(candidates)
        if choice is None:
            choice = rng.choice([card for card, count in stock.items() if count > 0])
        stock[choice] -= 1
        hand.append(choice)
    return Position(Table.of(melds), Hand.of(hand)).validate(variant)


def random_options(rng: random.Random, variant: Variant) -> dict[str, object]:
    """Hint options for a cross-check: mostly the defaults, sometimes the cards objective,
    keep_jokers, or an unopened player (where the variant has those)."""
    options: dict[str, object] = {}
    roll = rng.random()
    if roll < 0.2:
        options["objective"] = "cards"
    elif roll < 0.3 and variant.jokers:
        options["keep_jokers"] = True
    elif roll < 0.45 and variant.opening_points:
        options["opened"] = False
    return options


def _meld_through(rng: random.Random, variant: Variant, card: Card) -> list[Card]:
    """Effective cards of a random group or sequence that holds ``card``."""
    if rng.random() < 0.5:
        others = rng.sample([suit for suit in Suit if suit != card.suit], rng.choice((2, 3)))
        return [Card(card.rank, suit) for suit in sorted([card.suit, *others])]
    length = rng.choice((3, 3, 4, 5))
    at = int(card.rank)
    start = rng.randint(max(1, at - length + 1), min(at, variant.max_position - length + 1))
    return [position_card(p, card.suit) for p in range(start, start + length)]


def _fill_and_deal(
    rng: random.Random,
    variant: Variant,
    stock: Counter[Card],
    melds: list[Meld],
    *,
    max_table_cards: int,
    most_hand: int,
    pick: Callable[[list[Card]], Card | None],
) -> Position | None:
    """Random melds from ``stock`` after ``melds`` up to a random table size, then a hand
    of 1..``most_hand`` cards each chosen by ``pick`` (given the table's real cards; None
    skips one), as a validated position, or None when it is not valid."""
    placed = sum(len(meld.pieces) for meld in melds)
    target = rng.randint(placed, max(placed, max_table_cards))
    for _ in range(100):
        if placed >= target:
            break
        more = _random_meld(rng, variant, stock)
        if more is None or placed + len(more) > max_table_cards:
            continue
        stock.subtract(more)
        melds.append(Meld.of(more))
        placed += len(more)
    table_cards = [piece for meld in melds for piece in meld.pieces if isinstance(piece, Card)]
    hand: list[Piece] = []
    for _ in range(rng.randint(1, most_hand)):
        choice = pick(table_cards)
        if choice is not None:
            stock[choice] -= 1
            hand.append(choice)
    if not hand:
        return None
    try:
        return Position(Table.of(melds), Hand.of(hand)).validate(variant)
    except PositionError:
        return None


def twin_joker_position(
    rng: random.Random, variant: Variant, *, max_table_cards: int = 24
) -> Position | None:
    """A random position whose table holds two jokers declared as the same card X, each
    in its own meld, among other random melds; the hand leans toward X and the table's
    neighbours.  RULES.md's counting rule then lets only as many of the two change as
    real X end on the table, and which of the two melds keeps its joker decides the
    melds broken.  None when the draw does not make a valid position (try again).

    The variant needs two decks and two jokers."""
    stock: Counter[Card] = Counter({card: variant.decks for card in (Card(r, s) for r in Rank for s in Suit)})
    twin = Card(Rank(rng.randint(2, 12)), Suit(rng.randrange(4)))
    melds: list[Meld] = []
    for _ in range(2):
        cards = _meld_through(rng, variant, twin)
        needed = Counter(card for card in cards if card != twin)
        if any(stock[card] < count for card, count in needed.items()):
            return None
        stock.subtract(needed)
        melds.append(Meld.of([Joker(card) if card == twin else card for card in cards]))

    def pick(table_cards: list[Card]) -> Card | None:
        if stock[twin] and rng.random() < 0.15:
            return twin
        if rng.random() < 0.7:
            near = [card for card in _near(rng.choice([*table_cards, twin])) if stock[card]]
            return rng.choice(near) if near else None
        return rng.choice([card for card, count in stock.items() if count > 0])

    return _fill_and_deal(rng, variant, stock, melds, max_table_cards=max_table_cards, most_hand=7, pick=pick)


def ace_joker_position(rng: random.Random, variant: Variant, *, max_table_cards: int = 30) -> Position | None:
    """A random position whose table holds a run with a joker standing for one of its
    aces (low, or high with ace-high), sometimes a long one (up to every position, an
    ace at each end), among other random melds; the hand leans toward aces and the
    table's neighbours, where a real ace may free the joker or the run may grow to the
    other ace.  None when the draw does not make a valid position (try again).

    The variant needs jokers."""
    stock: Counter[Card] = Counter({card: variant.decks for card in (Card(r, s) for r in Rank for s in Suit)})
    suit = Suit(rng.randrange(4))
    top = variant.max_position
    length = rng.choice((3, 3, 4, 5, 8, top - 1, top))
    start = rng.choice((1, top - length + 1)) if top == 14 else 1
    cards = [position_card(p, suit) for p in range(start, start + length)]
    ace = Card(Rank(1), suit)
    at = rng.choice([i for i, card in enumerate(cards) if card == ace])
    needed = Counter(card for i, card in enumerate(cards) if i != at)
    if any(stock[card] < count for card, count in needed.items()):
        return None
    stock.subtract(needed)
    melds = [Meld.of([Joker(card) if i == at else card for i, card in enumerate(cards)])]

    def pick(table_cards: list[Card]) -> Card | None:
        aces = [card for card in stock if card.rank == 1 and stock[card]]
        if aces and rng.random() < 0.3:
            return rng.choice(aces)
        if rng.random() < 0.7:
            near = [card for card in _near(rng.choice(table_cards)) if stock[card]]
            return rng.choice(near) if near else None
        return rng.choice([card for card, count in stock.items() if count > 0])

    return _fill_and_deal(rng, variant, stock, melds, max_table_cards=max_table_cards, most_hand=6, pick=pick)


def own_meld_joker_position(
    rng: random.Random, variant: Variant, *, max_table_cards: int = 20, most_hand: int = 5
) -> Position | None:
    """A random position whose table holds a meld with a table joker (standing for a card
    X at an end or inside a run, or in a group; now and then a second joker in the same
    meld) among other random melds; the hand (now and then with a joker) leans toward X
    and the cards just beyond the meld's ends, so that a real X can free the joker to
    move along its own meld (the meld then stays whole, RULES.md's tie-break), besides
    the table's neighbours.  None when the draw does not make a valid position (try
    again).

    The variant needs jokers."""
    stock: Counter[Card] = Counter({card: variant.decks for card in (Card(r, s) for r in Rank for s in Suit)})
    cards = _random_meld(rng, variant, stock)
    if cards is None:
        return None
    stock.subtract(cards)
    jokers = 2 if variant.jokers >= 2 and rng.random() < 0.15 else 1
    slots = sorted(rng.sample(range(len(cards)), jokers))
    for slot in slots:
        stock[cards[slot]] += 1
    pieces: list[Piece] = [Joker(card) if i in slots else card for i, card in enumerate(cards)]
    meld = Meld.of(pieces)
    if not meld.is_legal(variant):
        return None
    declared = [cards[slot] for slot in slots]
    beyond = _beyond(meld, variant)

    def pick(table_cards: list[Card]) -> Card | None:
        roll = rng.random()
        wanted = [card for card in declared if stock[card]] if roll < 0.35 else []
        if not wanted and roll < 0.7:
            wanted = [card for card in beyond if stock[card]]
        if not wanted and roll < 0.9:
            wanted = [card for card in _near(rng.choice(table_cards)) if stock[card]]
        if not wanted:
            wanted = [card for card, count in stock.items() if count > 0]
        return rng.choice(wanted) if wanted else None

    position = _fill_and_deal(
        rng, variant, stock, [meld], max_table_cards=max_table_cards, most_hand=most_hand, pick=pick
    )
    if position is not None and variant.jokers > jokers and rng.random() < 0.25:
        # A hand joker too: it may stand in the meld beside the table joker.
        position = Position(position.table, Hand.of((*position.hand.pieces, Joker()))).validate(variant)
    return position


def _beyond(meld: Meld, variant: Variant) -> list[Card]:
    """The cards that could lie just beyond a meld's ends: up to two past each end of a
    sequence, the missing suits of a group."""
    cards = meld.cards
    if len({card.rank for card in cards}) == 1:
        suits = {card.suit for card in cards}
        return [Card(cards[0].rank, suit) for suit in Suit if suit not in suits]
    low = 1 if cards[0].rank == Rank.ACE else int(cards[0].rank)
    high = low + len(cards) - 1
    positions = [p for p in (low - 2, low - 1, high + 1, high + 2) if 1 <= p <= variant.max_position]
    return [position_card(p, cards[0].suit) for p in positions]
