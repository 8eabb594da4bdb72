"""Experiment: the search bot deciding dead heats on its first deals, beside ``pimc``.

    python -m benchmarks.dead_heat hoarder --pairs 60 --seed 1116 --variant rummikub
    python -m benchmarks.dead_heat greedy,greedy,greedy --pairs 40 --variant machiavelli

Why: with the tie rule, most of the search bot's first-out decisions are dead heats
(every option worth exactly the same in every deal: no six-turn rollout sees a hand go
out; 78 of 135 searched decisions against ``hoarder`` in Rummikub), and their cost made
the median decision rise to 90-195 ms.  ``PimcDeadHeat`` weighs 4 deals first and decides
on them where they are a dead heat (``PimcBot.dead_heat_deals``), else all 8 as ``pimc``.
The script plays ``pimc`` and ``PimcDeadHeat`` against the same opponents on the same
deals and prints each, their paired difference (``benchmarks.paired_screen``) and their
time; the runs are in ``benchmarks/results/firstout-experiments.md``.
"""

from __future__ import annotations

from benchmarks.paired_screen import arguments, screen
from solver.strategy.pimc import PimcBot

DEAD_HEAT_BOT = "benchmarks/dead_heat.py:PimcDeadHeat"


class PimcDeadHeat(PimcBot):
    """``pimc`` deciding on its first 4 deals where they are a dead heat."""

    name = "pimc-dead-heat"
    dead_heat_deals = 4


def main() -> None:
    screen("pimc", DEAD_HEAT_BOT, arguments(__doc__.splitlines()[0], seed=1116))


if __name__ == "__main__":
    main()
