"""The engine's tie-break (fewest old melds broken) against a naive brute force.

The exhaustive oracle (``solver.exact``) settles the primary objective only: it counts
cards, not which old meld a card came from.  Here ``tests/bruteforce.py`` tries every
partition of the tiny positions' pieces, piece by piece, so it knows which old melds a
table keeps whole; the engine must match its (value, fewest broken) pair exactly, and
the table the engine returns must really keep that many old melds whole.  Both engines
are checked: ``hint()`` as users call it (the fast path's search where it applies) and
the CP-SAT model alone (``fast_path=False``).
"""

from __future__ import annotations

import random

import pytest
from bruteforce import broken_in, brute_force_best
from randpos import random_options, random_position

from solver.cards import Card, Joker
from solver.engine import hint
from solver.position import Position
from solver.referee import check_play
from solver.variants import Variant

VARIANTS = [
    Variant.manipulation(),
    Variant.machiavelli(),
    Variant.rummikub(),
    Variant.manipulation(players=2),
]


def _check(position: Position, variant: Variant, options: dict[str, object]) -> tuple[int, int] | None:
    """Compare engine and brute force on one position; return the engine's pair."""
    expected = brute_force_best(position, variant, **options)  # type: ignore[arg-type]
    pairs: set[tuple[int, int] | None] = set()
    for fast_path in (True, False):
        found = hint(position, variant=variant, fast_path=fast_path, **options)  # type: ignore[arg-type]
        where = (str(position), options, found.engine)
        if found.status == "no_play":
            assert expected is None, (*where, expected)
            pairs.add(None)
            continue
        assert found.status == "optimal", (*where, found.status)
        opened = bool(options.get("opened", True))
        verdict = check_play(position, found.table, variant=variant, opened=opened)
        assert verdict.ok, (*where, str(found.table))
        value = len(found.hand) if options.get("objective") == "cards" else found.hand_points
        assert (value, found.melds_broken) == expected, (*where, str(found.table))
        assert broken_in(position.table, found.table) == found.melds_broken, (*where, str(found.table))
        pairs.add((value, found.melds_broken))
    (pair,) = pairs
    return pair


def test_worked_tie_breaks() -> None:
    # Playing 8h: extending the sequence keeps both melds whole.
    assert _check(Position.parse("5h 6h 7h | 9s 9d 9c / 8h"), Variant.manipulation(), {}) == (0, 0)
    # Playing 4h needs the 5h: the group of fives keeps three suits and stays whole,
    # the sequence gives up nothing either (4h 5h 6h 7h); nothing is broken.
    assert _check(Position.parse("5h 6h 7h | 5s 5d 5c / 4h"), Variant.manipulation(), {}) == (0, 0)
    # Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac: all three groups become sequences.
    assert _check(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"), Variant.manipulation(), {}) == (0, 3)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_tie_break_agrees_with_brute_force(variant: Variant) -> None:
    rng = random.Random(31 + variant.decks + 3 * variant.jokers + variant.opening_points)
    plays = broken = 0
    for _ in range(40):
        position = random_position(rng, variant, max_table_cards=6, max_hand=3, min_table_cards=6)
        pair = _check(position, variant, random_options(rng, variant))
        plays += pair is not None
        broken += pair is not None and pair[1] > 0
    assert plays >= 5 and broken >= 1  # the positions do exercise the tie-break


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_many_tie_breaks_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(5000 + seed)
    broken = 0
    for _ in range(120):
        variant = rng.choice(VARIANTS)
        position = random_position(rng, variant, max_table_cards=7, max_hand=3, min_table_cards=6)
        pair = _check(position, variant, random_options(rng, variant))
        broken += pair is not None and pair[1] > 0
    assert broken >= 10


def _freeable(position: Position) -> bool:
    """Whether a real copy of a table joker's card is on the table or in the hand."""
    declared = {piece.declared for piece in position.table.pieces if isinstance(piece, Joker)}
    real = {piece for piece in position.table.pieces + position.hand.pieces if isinstance(piece, Card)}
    return bool(declared & real)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_tie_breaks_with_freeable_jokers_agree_with_brute_force(seed: int) -> None:
    # Each table holds a joker that a real card could free: the search answers these now,
    # and whether the joker's meld counts as broken depends on where the joker ends.
    rng = random.Random(7000 + seed)
    with_jokers = [variant for variant in VARIANTS if variant.jokers]
    checked = broken = 0
    while checked < 60:
        variant = rng.choice(with_jokers)
        position = random_position(rng, variant, max_table_cards=7, max_hand=3, min_table_cards=6)
        if not _freeable(position):
            continue
        checked += 1
        pair = _check(position, variant, random_options(rng, variant))
        broken += pair is not None and pair[1] > 0
    assert broken >= 10
