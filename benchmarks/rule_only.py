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
choice without weighing anything (``PimcBot._rule_alone``).  The test declared for it
passed (seven runs on fresh seeds, every paired estimate at least -2 points, +2.2 on average),
so on 2026-11-29 ``pimc`` became ``PimcRuleOnly`` and ``PimcSearching`` is the bot before
(margin 2); later that day ``pimc`` came to search once the stock is empty
(``benchmarks/endgame_search.py``), and ``PimcRuleOnly`` (the rule at every turn) is its
baseline there.  The script plays ``PimcSearching`` and ``PimcRuleOnly`` on the same deals and
prints each and their paired difference (``benchmarks.paired_screen``); the runs are in
benchmarks/results/firstout-experiments.md.
"""

from __future__ import annotations

import math

from benchmarks.paired_screen import arguments, screen
from solver.strategy.pimc import PimcBot

RULE_ONLY_BOT = "benchmarks.rule_only:PimcRuleOnly"
SEARCHING_BOT = "benchmarks.rule_only:PimcSearching"


class PimcSearching(PimcBot):
    """``pimc`` as it was before the rule alone (2026-11-29, 07:32-08:25 UTC): the patient
    rule kept unless the search leads by two standard errors, the dead-heat stop after one
    deal: the baseline."""

    name = "pimc-searching"
    prior_margin = 2.0


class PimcRuleOnly(PimcBot):
    """``pimc`` keeping the patient rule's choice in first-out games, with no search."""

    name = "pimc-rule-only"
    prior_margin = math.inf


def main() -> None:
    screen(SEARCHING_BOT, RULE_ONLY_BOT, arguments(__doc__.splitlines()[0], seed=1133))


if __name__ == "__main__":
    main()
