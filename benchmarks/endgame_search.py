"""Experiment: the search bot that searches once the stock is empty, beside ``pimc``.

    python -m benchmarks.endgame_search hoarder,hoarder,hoarder --pairs 30 --seed 1150 --variant machiavelli
    python -m benchmarks.endgame_search hoarder --pairs 60 --seed 1151 --variant rummikub

Why: in first-out games ``pimc`` plays the patient rule with no search (hold every card,
play only to open, to go out or at the last chance; ``benchmarks/rule_only.py``).  Once
the stock is empty the rule plays its best play at every turn, and the game is short: every
player must play or pass, and a round where a whole cycle passes is blocked.  There the
search's six-turn rollouts see the end, and the hidden cards are only the other hands (no
stock).  Screened with 4 players in Machiavelli against three hoarders (seeds 1141-1143,
scratch runs): the rule alone won 34.6% of 60 deals' games, the search at an empty stock
60.0%; it passed in about half of those decisions (letting the hoarders, who must meld,
lay the cards its big hand then plays onto).  ``PimcEndgame`` plays the rule while the stock
holds cards and weighs its options with no prior once it is empty (the best mean, ties to
the rule).  The test declared for it passed (+22.9 +- 6.1 points over 60 fresh deals of
that setting, no loss in five others), so since 2026-11-29 ``pimc`` is ``PimcEndgame``
(``Evaluator.prior_until_stock_empty``) and the bot before is
``benchmarks.rule_only:PimcRuleOnly`` (the rule at every turn).  The script plays
``PimcRuleOnly`` and ``PimcEndgame`` on the same deals and prints each and their paired
difference (``benchmarks.paired_screen``); the runs are in
benchmarks/results/firstout-experiments.md.
"""

from __future__ import annotations

from benchmarks.paired_screen import arguments, screen
from benchmarks.rule_only import RULE_ONLY_BOT
from solver.game.view import PlayerView
from solver.strategy.pimc import PimcBot

ENDGAME_BOT = "benchmarks.endgame_search:PimcEndgame"


class PimcEndgame(PimcBot):
    """``pimc`` that searches its meld decisions once the stock is empty (no prior there):
    what ``pimc`` does since the test (``Evaluator.prior_until_stock_empty``), kept as the
    declared test ran it."""

    name = "pimc-endgame"

    def _margin(self, view: PlayerView) -> float | None:
        if view.settings.scoring == "first_out" and view.stock_size == 0:
            return None
        return super()._margin(view)


def main() -> None:
    screen(RULE_ONLY_BOT, ENDGAME_BOT, arguments(__doc__.splitlines()[0], seed=1150))


if __name__ == "__main__":
    main()
