"""Random candidates: a solution table first, then the hand and the start table taken from it.

1. **Solution.**  Melds are drawn at random from a window of a few ranks and suits (so
   that their cards overlap and can be rearranged), one at a time; a meld is kept only
   when the cards drawn so far still have exactly one layout (``partition`` with the
   layout excluded answers ``no``, jokers free to take any card).  Uniqueness is global
   and not monotone, so it is checked at every step: a meld that opens a second layout
   is put back and another is drawn, until the table is big enough or patience ends.
2. **Hand and start table.**  One solve of the partition model with ``spare`` pieces
   left off the table picks the hand (the pieces left off) and the start table (a
   legal table of the rest) together.  Random costs make both random; melds that sit
   inside a meld of the solution cost extra, so the start table tends to cut across the
   solution and going out needs a rearrangement.  A table joker may not be declared a
   card that would lock it away from the solution: per card X, start-table jokers
   declared X are at most the solution's jokers declared X plus the real X cards.

The candidates are only candidates: ``solver.puzzles.checks`` decides.  Every random
choice goes through the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from solver.cards import ALL_CARDS, Card, Joker, Piece, Suit
from solver.melds import Meld, MeldTemplate, position_card
from solver.position import Hand, Position, Table, count_real, declared_jokers
from solver.puzzles.layout import Layout
from solver.puzzles.partition import PartitionProblem, partition
from solver.variants import Variant

__all__ = ["INSIDE_SOLUTION_COST", "RANDOM_COST", "Recipe", "deal_start", "solution_table"]

INSIDE_SOLUTION_COST = 30
"""Extra cost of a start-table meld whose cards all sit in one meld of the solution."""

RANDOM_COST = 10
"""Random costs are drawn from 0..RANDOM_COST-1."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Recipe:
    """How big and how dense the candidates of one difficulty are."""

    melds: tuple[int, int]
    """Melds of the solution table: at least, at most."""
    width: tuple[int, int]
    """Ranks in the window the melds are drawn from."""
    suits: int
    """Suits the window's sequences use (groups may use all four)."""
    group_rate: float
    """Chance that a drawn meld is a group."""
    jokers: int
    """Jokers the solution may hold (at most the variant's)."""
    joker_rate: float
    """Chance that a drawn meld has a joker in place of one of its cards."""
    hand: tuple[int, int]
    """Pieces in the hand: at least, at most."""
    patience: int = 12
    """Rejected meld draws before a solution table is given up."""
    starts: int = 4
    """Hands and start tables tried per solution table."""

    def __post_init__(self) -> None:
        if not 1 <= self.melds[0] <= self.melds[1]:
            raise ValueError(f"bad meld range {self.melds}")
        if not 3 <= self.width[0] <= self.width[1]:
            raise ValueError(f"bad window width range {self.width}")
        if not 1 <= self.hand[0] <= self.hand[1]:
            raise ValueError(f"bad hand size range {self.hand}")
        if not 1 <= self.suits <= 4:
            raise ValueError(f"a window uses 1-4 suits, not {self.suits}")


def _random_meld(
    rng: random.Random,
    variant: Variant,
    stock: Counter[Card],
    window: range,
    suits: list[Suit],
    recipe: Recipe,
) -> list[Card] | None:
    """Effective cards of one random group or sequence inside the window that the stock holds."""
    if rng.random() < recipe.group_rate:
        position = rng.choice(window)
        rank = position_card(position, Suit.SPADES).rank
        size = rng.choice((3, 3, 4))
        free = [suit for suit in Suit if stock[Card(rank, suit)]]
        if len(free) < size:
            return None
        return [Card(rank, suit) for suit in sorted(rng.sample(free, size))]
    suit = rng.choice(suits)
    length = rng.randint(3, min(5, len(window)))
    start = rng.randint(window.start, window.stop - length)
    cards = [position_card(p, suit) for p in range(start, start + length)]
    if any(stock[card] < count for card, count in Counter(cards).items()):
        return None
    return cards


def _has_one_layout(melds: list[Meld], variant: Variant) -> bool:
    pieces = [piece for meld in melds for piece in meld.pieces]
    real = count_real(pieces)
    jokers = sum(isinstance(piece, Joker) for piece in pieces)
    problem = PartitionProblem(tuple(real[card] for card in ALL_CARDS), jokers)
    return partition(problem, variant, exclude=[Layout.of(melds, variant)]).answer == "no"


def solution_table(rng: random.Random, variant: Variant, recipe: Recipe) -> Table | None:
    """A random table with exactly one layout (step 1 of the module docstring), or None when
    patience ran out before it reached the recipe's smallest size."""
    width = rng.randint(*recipe.width)
    low = rng.randint(1, variant.max_position - width + 1)
    window = range(low, low + width)
    suits = sorted(rng.sample(list(Suit), recipe.suits))
    stock = Counter({card: variant.decks for card in ALL_CARDS})
    jokers = min(recipe.jokers, variant.jokers)
    target = rng.randint(*recipe.melds)
    melds: list[Meld] = []
    failures = 0
    while len(melds) < target and failures < recipe.patience:
        cards = _random_meld(rng, variant, stock, window, suits, recipe)
        if cards is None:
            failures += 1
            continue
        pieces: list[Piece] = list(cards)
        if jokers and rng.random() < recipe.joker_rate:
            slot = rng.randrange(len(pieces))
            pieces[slot] = Joker(cards[slot])
        meld = Meld.of(pieces)
        if not _has_one_layout([*melds, meld], variant):
            failures += 1
            continue
        melds.append(meld)
        stock.subtract(piece for piece in pieces if isinstance(piece, Card))
        jokers -= len(meld.jokers)
    return Table.of(melds) if len(melds) >= recipe.melds[0] else None


def deal_start(rng: random.Random, variant: Variant, solution: Table, hand_size: int) -> Position | None:
    """A hand of ``hand_size`` pieces and a start table of the rest (step 2), or None when the
    solution's pieces leave no such pair."""
    pieces = solution.pieces
    if hand_size >= len(pieces):
        return None
    real = count_real(pieces)
    jokers = sum(isinstance(piece, Joker) for piece in pieces)
    solution_jokers = declared_jokers(pieces)
    joker_max = tuple(solution_jokers[card] + real[card] for card in ALL_CARDS)
    inside = [frozenset(meld.cards) for meld in solution]

    def cost(template: MeldTemplate) -> int:
        # A candidate meld never holds one card twice, so "inside" is a subset test.
        extra = INSIDE_SOLUTION_COST if any(meld.issuperset(template.cards) for meld in inside) else 0
        return rng.randrange(RANDOM_COST) + extra

    def spare_cost(_: Piece) -> int:
        return rng.randrange(RANDOM_COST)

    problem = PartitionProblem(
        tuple(real[card] for card in ALL_CARDS), jokers, joker_max=joker_max, spare=hand_size
    )
    found = partition(problem, variant, cost=cost, spare_cost=spare_cost)
    if found.table is None:
        return None
    return Position(found.table, Hand.of(found.spare))
