"""``leaves_at_most``: the search with its cost capped, asked whether some play leaves the
hand at most so many points.  Checked against the best play of each backend (the C
search and CP-SAT) and against the exact method written apart (``solver.exact``), on
random positions of every variant, with jokers, unopened hands and every threshold
around the answer."""

from __future__ import annotations

import random

import pytest
from randpos import random_position

from solver import fastpath
from solver.engine import hint, leaves_at_most
from solver.exact import best_value
from solver.position import Position
from solver.variants import Variant

VARIANTS = [
    Variant.manipulation(players=2),
    Variant.manipulation(players=4),
    Variant.rummikub(),
    Variant.machiavelli(),
]


def _truth(position: Position, variant: Variant, points: int, *, opened: bool) -> bool:
    """From the exact method: some play leaves at most ``points``."""
    least = best_value(position, variant=variant, opened=opened)
    return least is not None and least <= points


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_the_capped_search_agrees_with_the_exact_least_points(variant: Variant) -> None:
    rng = random.Random(f"leaves-at-most:{variant.name}:{variant.decks}")
    asked = yes = 0
    for _ in range(60):
        position = random_position(rng, variant, max_table_cards=18, max_hand=8)
        opened = rng.random() < 0.8
        least = best_value(position, variant=variant, opened=opened)
        thresholds = {0, 10, rng.randint(0, 60)}
        if least is not None:
            thresholds |= {max(least - 1, 0), least, least + 1}
        for points in sorted(thresholds):
            answer = leaves_at_most(position, variant, points, opened=opened)
            if answer is None:
                assert not fastpath.applies(position, variant, keep_jokers=False, opened=opened)
                continue
            asked += 1
            yes += answer
            assert answer == (least is not None and least <= points), (str(position), points, opened)
    assert asked >= 150 and 0 < yes < asked


@pytest.mark.parametrize("variant", VARIANTS[:3], ids=lambda v: f"{v.name}-{v.decks}")
def test_the_capped_search_agrees_with_both_backends_best_play_on_big_tables(variant: Variant) -> None:
    """Mid-game sizes, where the cap saves the most: the answer is what the best play of
    the search and of CP-SAT leave (the exact method is too slow at this size)."""
    rng = random.Random(f"leaves-at-most-big:{variant.name}:{variant.decks}")
    asked = 0
    for _ in range(25):
        most = 45 if variant.decks > 1 else 32
        position = random_position(rng, variant, max_table_cards=most, min_table_cards=20, max_hand=12)
        for points in (0, 10, 25):
            answer = leaves_at_most(position, variant, points, opened=True)
            if answer is None:
                continue
            asked += 1
            for fast_path in (True, False):
                best = hint(position, variant=variant, fast_path=fast_path)
                assert answer == (best.has_play and best.hand_points <= points), (str(position), points)
    assert asked >= 40


def test_no_hand_and_positions_outside_the_search_are_not_answered() -> None:
    variant = Variant.manipulation(players=2)
    assert leaves_at_most(Position.parse("As 2s 3s /"), variant, 10, opened=True) is None
    assert leaves_at_most(Position.parse("As 2s 3s / 4s"), variant, 0, opened=True) is True
    assert leaves_at_most(Position.parse("As 2s 3s / Kd"), variant, 9, opened=True) is False
    assert leaves_at_most(Position.parse("As 2s 3s / Kd 4s"), variant, 10, opened=True) is True
    assert leaves_at_most(Position.parse("As 2s 3s / Kd 4s"), variant, 9, opened=True) is False


def test_an_unopened_hand_must_open_to_count() -> None:
    """Rummikub's opening: 30 points from the hand alone; a play below that is no play."""
    rummikub = Variant.rummikub()
    position = Position.parse("1s 2s 3s / 4s 5s 6s 13d")
    assert _truth(position, rummikub, 13, opened=True) and not _truth(position, rummikub, 13, opened=False)
    assert leaves_at_most(position, rummikub, 13, opened=True) is True
    assert leaves_at_most(position, rummikub, 13, opened=False) is False
