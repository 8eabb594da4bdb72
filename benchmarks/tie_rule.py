"""Experiment: the search bot with the hoarder's choice on ties beside ``pimc``.

    python -m benchmarks.tie_rule hoarder --pairs 100 --seed 1112 --variant rummikub
    rummy match benchmarks.tie_rule:PimcTies greedy --variant rummikub

Why: early in a first-out round the six-turn rollouts see nobody go out, so every option
is worth exactly the same and ``pimc`` plays the first listed, the best play (it lays
everything at once), where the hoarder's rule, the stronger against ``greedy``, would
draw.  ``PimcTies`` weighs with ``Evaluator.hoarder_breaks_ties`` on: such ties go to
the hoarder's choice (decline unless the hand must meld); a better mean still wins.  The
script plays ``PimcFirstListed`` (ties to the first listed option, the best play) and
``PimcTies`` against one opponent on the same deals, whichever of the two ``pimc`` is,
and prints each and their paired difference (``benchmarks.paired_screen``); the runs and the test
declared for adopting the rule are in ``benchmarks/results/firstout-experiments.md``.
"""

from __future__ import annotations

from dataclasses import replace

from benchmarks.paired_screen import arguments, screen
from solver.strategy.choice_rules import hoarders_choice
from solver.strategy.evaluator import EVALUATOR, Evaluator
from solver.strategy.pimc import PimcBot

TIES_BOT = "benchmarks/tie_rule.py:PimcTies"
FIRST_LISTED_BOT = "benchmarks/tie_rule.py:PimcFirstListed"

TIES: Evaluator = replace(EVALUATOR, hoarder_breaks_ties=True, tie_rule=hoarders_choice, prior_margin=None)
"""The search bot's evaluator with the hoarder's choice on ties."""

FIRST_LISTED: Evaluator = replace(EVALUATOR, hoarder_breaks_ties=False, prior_margin=None)
"""The search bot's evaluator with ties going to the first listed option (the best play)."""


class PimcTies(PimcBot):
    """``pimc`` weighing its candidates with ``TIES``."""

    name = "pimc-ties"
    evaluator = TIES
    dead_heat_deals = None  # every deal weighed, as when the experiment was run


class PimcFirstListed(PimcBot):
    """``pimc`` weighing its candidates with ``FIRST_LISTED``."""

    name = "pimc-first-listed"
    evaluator = FIRST_LISTED
    dead_heat_deals = None  # every deal weighed, as when the experiment was run


def main() -> None:
    screen(FIRST_LISTED_BOT, TIES_BOT, arguments(__doc__.splitlines()[0], seed=1112))


if __name__ == "__main__":
    main()
