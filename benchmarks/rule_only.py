"""Experiment: the search bot that keeps the patient rule's choice with no search, beside
``pimc``.

    python -m benchmarks.rule_only hoarder --pairs 60 --seed 1133 --variant rummikub
    python -m benchmarks.rule_only hoarder,hoarder,hoarder --pairs 20 --variant machiavelli

Why: since the patient rule became the search bot's prior in first-out games
(``Evaluator.prior_margin`` 2), its search overrules the rule at 0.4-6% of the searched
decisions (``benchmarks/dead_heat_probe.py``), and on the same deals the rule alone won
as much or more: 100.0% against `pimc`'s 96.7% and 95.0% in Rummikub (seeds 1125 and
1126, 30 pairs), 50.0% against 34.4% with 4 players against three hoarders (8 deals).
``PimcRuleOnly`` has an infinite margin: where the rule answers it plays the rule's
choice without weighing anything (``PimcBot._rule_alone``).  The script plays ``pimc``
and ``PimcRuleOnly`` on the same deals and prints each and their paired difference
(``benchmarks.paired_screen``); the runs are in benchmarks/results/firstout-experiments.md.
"""

from __future__ import annotations

import math

from benchmarks.paired_screen import arguments, screen
from solver.strategy.pimc import PimcBot

RULE_ONLY_BOT = "benchmarks.rule_only:PimcRuleOnly"


class PimcRuleOnly(PimcBot):
    """``pimc`` keeping the patient rule's choice in first-out games, with no search."""

    name = "pimc-rule-only"
    prior_margin = math.inf


def main() -> None:
    screen("pimc", RULE_ONLY_BOT, arguments(__doc__.splitlines()[0], seed=1133))


if __name__ == "__main__":
    main()
