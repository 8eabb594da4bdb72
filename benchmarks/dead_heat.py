"""Experiment: the search bot deciding dead heats on its first deals, beside the bot that
weighs every deal.

    python -m benchmarks.dead_heat hoarder --pairs 60 --seed 1116 --variant rummikub
    python -m benchmarks.dead_heat greedy,greedy,greedy --pairs 40 --variant machiavelli

Why: most of the search bot's first-out decisions are dead heats (every option worth
exactly the same in every deal: no six-turn rollout sees a hand go out; 78 of 135 searched
decisions against ``hoarder`` in Rummikub with the tie rule), and their cost made the
median decision rise to 90-195 ms.  ``PimcBot.dead_heat_deals`` weighs that many deals
first and decides on them where they are a dead heat, else all 8.  Since 2026-11-29
the search bot stops after one deal (``benchmarks/dead_heat_probe.py`` counts the choices
the stop changes); ``PimcAllDeals`` is the bot before it, which weighs all 8 deals at
every decision.  (Both keep the rule unless the search leads by two standard errors, as
when the stop was adopted: ``pimc`` itself now plays the rule with no search,
``benchmarks/rule_only.py``.)  The script plays ``PimcAllDeals`` and
``benchmarks.rule_only:PimcSearching`` against the same opponents on the same deals
and prints each, their paired difference (``benchmarks.paired_screen``) and
their time; the runs are in ``benchmarks/results/firstout-experiments.md`` (session 29
screened a stop after 4 deals, with the tie rule: +0.0 +- 5.7 points over 60 pairs).
"""

from __future__ import annotations

from benchmarks.paired_screen import arguments, screen
from benchmarks.rule_only import SEARCHING_BOT
from solver.strategy.pimc import PimcBot

ALL_DEALS_BOT = "benchmarks.dead_heat:PimcAllDeals"


class PimcAllDeals(PimcBot):
    """``pimc`` weighing all its deals at every decision (no dead-heat stop)."""

    name = "pimc-all-deals"
    dead_heat_deals = None
    prior_margin = 2.0  # the search as it was screened (``pimc`` now plays the rule alone)


def main() -> None:
    screen(ALL_DEALS_BOT, SEARCHING_BOT, arguments(__doc__.splitlines()[0], seed=1116))


if __name__ == "__main__":
    main()
