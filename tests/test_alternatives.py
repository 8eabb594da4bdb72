"""Alternatives to the best play (``solver.engine.alternatives``): ranked, distinct by the
cards played, each legal, and the same ranking as a naive brute force that tries every
selection of hand pieces and every partition of the pieces (tests/bruteforce.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from bruteforce import brute_force_ranked
from randpos import random_options, random_position

from solver.cards import Joker, Piece
from solver.engine import MAX_ALTERNATIVES, alternatives, hint
from solver.position import Position
from solver.referee import check_play
from solver.variants import Variant

VARIANTS = [
    Variant.manipulation(),
    Variant.machiavelli(),
    Variant.rummikub(),
    Variant.manipulation(players=2),
]


def _multiset(pieces: tuple[Piece, ...]) -> Counter[Piece]:
    return Counter(Joker() if isinstance(p, Joker) else p for p in pieces)


def _check(position: Position, variant: Variant, options: dict[str, object], count: int) -> int:
    """Compare the alternatives with the brute force's ranking; returns how many came."""
    found = alternatives(position, variant=variant, count=count, **options)  # type: ignore[arg-type]
    expected = brute_force_ranked(position, variant, **options)  # type: ignore[arg-type]
    where = (str(position), options)
    assert len(found) == min(count, len(expected)), where
    objective = options.get("objective", "points")
    legal = {tuple(sorted(key, key=str)): (value, broken) for value, broken, key in expected}
    seen: list[Counter[Piece]] = []
    for rank, play in enumerate(found):
        assert play.has_play and play.status == "optimal", (*where, rank)
        opened = bool(options.get("opened", True))
        assert check_play(position, play.table, variant=variant, opened=opened).ok, (*where, str(play.table))
        value = len(play.hand) if objective == "cards" else play.hand_points
        pair = (value, play.melds_broken)
        # The k-th play has the brute force's k-th (value, broken), and its own played set
        # really reaches that pair.
        assert pair == expected[rank][:2], (*where, rank, str(play.table), expected[:count])
        key = tuple(sorted((Joker() if isinstance(p, Joker) else p for p in play.played), key=str))
        assert legal[key] == pair, (*where, rank)
        played = _multiset(play.played)
        assert played not in seen, (*where, rank)
        seen.append(played)
    return len(found)


def test_worked_alternatives() -> None:
    found = alternatives("5h 6h 7h | 9s 9d 9c / 8h 9h Kc Kd Ks 4h", count=4)
    assert [h.hand_points for h in found] == [0, 4, 8, 9]
    best = hint("5h 6h 7h | 9s 9d 9c / 8h 9h Kc Kd Ks 4h")
    assert (found[0].table, found[0].played) == (best.table, best.played)  # the first is the hint
    assert alternatives("5h 6h 7h / Kc") == ()  # no play, no alternative
    assert len(alternatives("/ 7h 8h 9h", count=5)) == 1  # only one thing to play


def test_bad_counts_are_refused() -> None:
    for bad in (0, MAX_ALTERNATIVES + 1, True, 2.5):
        with pytest.raises(ValueError, match="number of alternatives"):
            alternatives("/ 7h 8h 9h", count=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_alternatives_agree_with_brute_force(variant: Variant) -> None:
    rng = random.Random(77 + variant.decks + 3 * variant.jokers + variant.opening_points)
    many = 0
    for _ in range(20):
        position = random_position(rng, variant, max_table_cards=5, max_hand=5, min_table_cards=3)
        many += _check(position, variant, random_options(rng, variant), rng.randint(2, 6)) >= 2
    assert many >= 1  # some positions do have several plays to rank


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_many_alternatives_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(9100 + seed)
    for _ in range(100):
        variant = rng.choice(VARIANTS)
        position = random_position(rng, variant, max_table_cards=7, max_hand=4, min_table_cards=3)
        _check(position, variant, random_options(rng, variant), rng.randint(2, 8))
