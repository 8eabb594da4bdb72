"""Experiment: the search bot weighing 4 deals a decision with 3-4 players, beside ``pimc``.

    python -m benchmarks.crowded_deals greedy,greedy,greedy --pairs 100 --seed 1119 --variant machiavelli

Why: with 4 players a first-out decision's rollouts play every other hand, and its median
decision (194.8 ms in Machiavelli against three ``greedy`` players) is twice the 100 ms
target.  ``PimcCrowded`` weighs 4 deals in first-out games of 3 or more players
(``PimcBot.crowded_samples``) and 8 elsewhere.  The script plays ``pimc`` and
``PimcCrowded`` against the same opponents on the same deals and prints each, their paired
difference (``benchmarks.paired_screen``) and their time; the runs are in
``benchmarks/results/firstout-experiments.md``.
"""

from __future__ import annotations

from benchmarks.paired_screen import arguments, screen
from solver.strategy.pimc import PimcBot

CROWDED_BOT = "benchmarks/crowded_deals.py:PimcCrowded"


class PimcCrowded(PimcBot):
    """``pimc`` weighing 4 deals a decision in first-out games of 3 or more players."""

    name = "pimc-crowded"
    crowded_samples = 4


def main() -> None:
    screen("pimc", CROWDED_BOT, arguments(__doc__.splitlines()[0], seed=1119))


if __name__ == "__main__":
    main()
