"""The mid-game suites (positions from seeded bot games, every table with a joker a real
card could free): ``hint()`` as users call it against CP-SAT alone, on the value, the
melds broken and the referee's verdict, and how many the search answers.

``benchmarks`` is not an installed package, so the repository root goes on ``sys.path``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from test_fastpath import _agree  # noqa: E402

from benchmarks.midgame import MIDGAME_SUITES  # noqa: E402


def _midgame(stride: int) -> tuple[int, int]:
    """Every ``stride``-th position of each mid-game suite through ``_agree``; returns how
    many positions there were and how many the search answered."""
    total = searched = 0
    for spec in MIDGAME_SUITES:
        for entry in spec.load()[::stride]:
            total += 1
            searched += _agree(entry.position, spec.variant, "points") == "search"
    return total, searched


def test_search_agrees_with_cp_sat_on_the_midgame_suites() -> None:
    total, searched = _midgame(10)
    assert searched > 0.3 * total  # freeable jokers on every table: the search answers many


@pytest.mark.slow
def test_search_agrees_with_cp_sat_on_every_midgame_position() -> None:
    _midgame(1)
