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

from search_spy import searches  # noqa: E402
from test_fastpath import _agree  # noqa: E402

from benchmarks.midgame import MIDGAME_SUITES  # noqa: E402


def _midgame(stride: int) -> tuple[int, int, int, int, int]:
    """Every ``stride``-th position of each mid-game suite through ``_agree``; returns how
    many positions there were, how many ``hint()`` answered with the search, how many
    the search with prices from the start answered within ``_agree``'s budget, and in
    how many of those (its last configuration) the prices of the program without
    wildcards raised a state's bound, and in how many it re-solved prices for a state."""
    total = searched = priced = settled = resolved = 0
    for spec in MIDGAME_SUITES:
        for entry in spec.load()[::stride]:
            total += 1
            with searches() as made:
                engine, answered = _agree(entry.position, spec.variant, "points")
            searched += engine == "search"
            priced += answered
            settled += answered and made[-1].settled > 0
            resolved += answered and made[-1].resolves > 0
    return total, searched, priced, settled, resolved


def test_search_agrees_with_cp_sat_on_the_midgame_suites() -> None:
    total, searched, priced, settled, resolved = _midgame(10)
    print(
        f"{total} positions: hint() by the search {searched}, priced search {priced} "
        f"({settled} settled, {resolved} re-solved)"
    )
    assert searched > 0.6 * total  # freeable jokers on every table: the search answers most
    assert priced > 0.8 * total
    assert settled > 0.3 * total  # the settled states' prices are checked here too
    assert resolved > 0.05 * total  # and prices re-solved for states (the default policy)


@pytest.mark.slow
def test_search_agrees_with_cp_sat_on_every_midgame_position() -> None:
    _midgame(1)
