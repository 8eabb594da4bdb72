"""``benchmarks/coached_bots.py``: the bots corrected by the coach load by name and play."""

from __future__ import annotations

import pytest

from solver.strategy.match import run_match


@pytest.mark.parametrize(
    ("bot", "against"),
    [
        ("benchmarks.coached_bots:CoachedHoarder", "hoarder"),
        ("benchmarks.coached_bots:CoachedExpert", "expert"),
    ],
)
def test_a_coached_bot_plays_a_mirrored_pair(bot: str, against: str) -> None:
    played = run_match(bot, against, pairs=1, seed=5)
    assert len(played.pairs[0].games) == 2
    assert played.entries[0].bot == bot and played.entries[0].games == 2
