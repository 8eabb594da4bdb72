"""Fuzzing the fast path's C entry points with hostile arguments.

``_search.search`` and ``_points.fewest_points`` are called by the library with checked
arguments, but they are a module anyone can import: whatever a caller hands them (wrong
types, wrong lengths, counts and costs out of range, impossible melds, objects whose
``__index__`` raises), each call must either answer or raise ``TypeError``,
``ValueError`` or ``OverflowError``: never crash, hang or corrupt memory.  The sanitizer
job of ``.ci/run`` (``.ci/c_checks.py``) runs this file against a build with
AddressSanitizer and UndefinedBehaviorSanitizer, with more examples
(``RUMMY_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.fastpath import _points, _search

EXAMPLES = int(os.environ.get("RUMMY_FUZZ_EXAMPLES", "150"))
EXPECTED = (TypeError, ValueError, OverflowError)


class _BadIndex:
    """An int-like whose conversion fails."""

    def __index__(self) -> int:
        raise ValueError("no index")


def _counts(size: int, low: int, high: int) -> st.SearchStrategy[Any]:
    """Mostly lists of ``size`` ints in ``low..high``; sometimes the wrong length, a
    value far out of range, a float, a bad object, or not a sequence at all."""
    good = st.lists(st.integers(low, high), min_size=size, max_size=size)
    hostile = st.one_of(
        st.lists(st.integers(-(2**70), 2**70), min_size=0, max_size=size + 3),
        st.lists(
            st.one_of(st.integers(low, high), st.floats(), st.just(_BadIndex()), st.none()),
            min_size=size,
            max_size=size,
        ),
        st.none(),
        st.integers(),
        st.text(max_size=3),
    )
    return st.one_of(good, good, hostile)


_blocks = st.lists(
    st.one_of(
        st.tuples(st.integers(0, 1), st.integers(-1, 14), st.integers(-1, 16), st.integers(-1, 15)),
        st.tuples(
            st.integers(0, 1),
            st.integers(0, 13),
            st.integers(0, 15),
            st.integers(0, 15),
            st.integers(0, 2**64 - 1),
        ),
        st.tuples(st.integers(0, 1), st.integers(0, 3)),
        st.lists(st.integers(0, 5), max_size=5),
        st.none(),
    ),
    max_size=8,
)


@settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))
@given(
    ace_high=st.booleans(),
    hand=_counts(52, 0, 3),
    costs=_counts(52, 0, 10),
    jokers=st.integers(-2, 5),
    joker_cost=st.integers(-5, 2**40),
    blocks=_blocks,
    budget=st.integers(-10, 2000),
    forced=st.one_of(st.none(), _counts(52, 0, 1)),
    free=st.one_of(st.none(), _counts(52, 0, 2)),
    wild=st.integers(-1, 4),
    need=st.integers(-1, 70),
    cap=st.integers(-2, 1000),
    lp_after=st.integers(-1, 50),
)
def test_search_answers_or_refuses_hostile_arguments(
    ace_high: bool,
    hand: Any,
    costs: Any,
    jokers: int,
    joker_cost: int,
    blocks: Any,
    budget: int,
    forced: Any,
    free: Any,
    wild: int,
    need: int,
    cap: int,
    lp_after: int,
) -> None:
    try:
        found = _search.search(
            ace_high,
            hand,
            costs,
            jokers,
            joker_cost,
            blocks,
            budget,
            forced=forced,
            free=free,
            wild=wild,
            need=need,
            cap=cap,
            lp_after=lp_after,
        )
    except EXPECTED:
        return
    status, primary, broken, melds = found
    assert status in (_search.PLAY, _search.NO_PLAY, _search.OVER_BUDGET)
    assert (melds is not None) == (status == _search.PLAY)
    if status == _search.PLAY:
        assert primary >= 0 and broken >= 0
        assert melds is not None and all(isinstance(meld[0], bool) and len(meld) >= 4 for meld in melds)
    assert found.expansions >= 0 and len(found.freed) <= _search.MAX_JOKERS


@settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))
@given(
    ace_high=st.booleans(),
    table=_counts(52, 0, 3),
    hand=_counts(52, 0, 3),
    points=_counts(52, 0, 10),
    hand_jokers=st.integers(-1, 3),
    joker_points=st.integers(-1, 2**40),
    table_jokers=st.lists(st.one_of(st.integers(-2, 60), st.just(_BadIndex())), max_size=3),
    draws=st.lists(st.one_of(st.integers(-3, 160), st.just(_BadIndex())), max_size=6),
    bound=st.integers(-2, 200),
)
def test_points_answers_or_refuses_hostile_arguments(
    ace_high: bool,
    table: Any,
    hand: Any,
    points: Any,
    hand_jokers: int,
    joker_points: int,
    table_jokers: Any,
    draws: Any,
    bound: int,
) -> None:
    try:
        answers = _points.fewest_points(
            ace_high, table, hand, points, hand_jokers, joker_points, table_jokers, draws, bound
        )
    except EXPECTED:
        return
    assert len(answers) == len(draws)
    assert all(answer >= _points.UNKNOWN for answer in answers)
