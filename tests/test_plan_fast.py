"""The fast plan (issue #35) says exactly what the first, straightforward one said, and the
payload path still builds plans only for plays the referee accepts.

``tests/plan_reference.py`` keeps the plan as first written (Counters, networkx); here
both build plans for random positions of every variant (table jokers, two jokers of one
card, jokers standing for aces, jokers freed inside their own meld, hand jokers, unopened
Rummikub players), with the old melds in canonical order and shuffled as a user might
type them, and every step, count and rearrangement must be equal.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from plan_reference import reference_plan
from randpos import (
    ace_joker_position,
    own_meld_joker_position,
    random_options,
    random_position,
    twin_joker_position,
)

from solver.engine import hint
from solver.plan import PlanError, plan_play
from solver.position import Position, Table
from solver.report import hint_payload
from solver.variants import Variant

Maker = Callable[[random.Random, Variant], Position | None]

MAKERS: dict[str, Maker] = {
    "random": lambda rng, variant: random_position(rng, variant, max_table_cards=40, max_hand=10),
    # Tables as big as the service's load benchmark: copies of a card that two old melds
    # must both shed, where the choice of source is tested.
    "big": lambda rng, variant: random_position(
        rng, variant, min_table_cards=40, max_table_cards=60, min_hand=6, max_hand=12
    ),
    "twin": lambda rng, variant: twin_joker_position(rng, variant, max_table_cards=30),
    "ace": lambda rng, variant: ace_joker_position(rng, variant, max_table_cards=30),
    "own": lambda rng, variant: own_meld_joker_position(rng, variant, max_table_cards=24),
}
"""Position makers by name; all but ``random`` need jokers (and ``twin`` two decks)."""

CASES = [
    (Variant.manipulation(), "random"),
    (Variant.manipulation(), "big"),
    (Variant.machiavelli(), "big"),
    (Variant.manipulation(), "twin"),
    (Variant.manipulation(), "ace"),
    (Variant.manipulation(), "own"),
    (Variant.manipulation(players=2), "random"),
    (Variant.machiavelli(), "random"),
    (Variant.rummikub(), "random"),
    (Variant.rummikub(), "own"),
]


def _shuffled(position: Position, rng: random.Random) -> Position:
    melds = list(position.table.melds)
    rng.shuffle(melds)
    return Position(Table(tuple(melds)), position.hand)


@pytest.mark.parametrize(("variant", "maker"), CASES, ids=lambda v: v if isinstance(v, str) else v.name)
def test_fast_plan_equals_the_reference_plan(variant: Variant, maker: str) -> None:
    rng = random.Random(3500 + len(maker) + variant.decks)
    wanted = 150 if maker == "big" else 40
    checked = jokers_freed = 0
    for _ in range(4 * wanted):
        if checked >= wanted:
            break
        position = MAKERS[maker](rng, variant)
        if position is None:
            continue
        found = hint(position, variant=variant, **random_options(rng, variant))  # type: ignore[arg-type]
        if not found.has_play:
            continue
        for before in (found.position, _shuffled(found.position, rng)):
            plan = plan_play(before, found.table, variant=variant)
            steps, moved, kept, groups = reference_plan(before, found.table)
            assert plan.steps == steps, str(before)
            assert (plan.moved, plan.kept) == (moved, kept), str(before)
            assert plan.rearrangements() == groups, str(before)
            assert plan.flow().rearrangements(plan.step_numbers()) == groups, str(before)
        jokers_freed += any(move["action"] == "joker" for move in plan.to_dicts())
        checked += 1
    assert checked >= wanted
    if maker in ("twin", "ace", "own"):
        assert jokers_freed >= 3  # the joker-making positions do free jokers


def test_hint_payload_judges_a_hint_whose_table_was_replaced() -> None:
    """A Hint is a plain dataclass: one whose table (or position) was swapped for another
    is judged again, and an illegal play gets no plan."""
    found = hint(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"))
    assert found.has_play
    illegal = Table.parse("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc")  # the ace is not played
    with pytest.raises(PlanError, match="not a legal play"):
        hint_payload(dataclasses.replace(found, table=illegal))
    stolen = Table.parse("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac | 2s 3s 4s")  # cards from nowhere
    with pytest.raises(PlanError, match="neither on the table nor in the hand"):
        hint_payload(dataclasses.replace(found, table=stolen))
    other = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / 2c")
    with pytest.raises(PlanError, match="not a legal play"):
        hint_payload(dataclasses.replace(found, position=other))
    # The hint as the engine made it has its plan.
    moves = hint_payload(found)["moves"]
    assert isinstance(moves, list) and len(moves) == 3
