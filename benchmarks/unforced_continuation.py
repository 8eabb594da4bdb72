"""Experiment: the search bot with its own hoarding continuation forced to meld by its
hand's size (the line it used before 2026-11-28) beside ``pimc``, which weighs with the
patient line in every game.

    python -m benchmarks.unforced_continuation hoarder --pairs 100 --seed 77 --variant rummikub
    rummy match benchmarks.unforced_continuation:PimcForced hoarder --variant rummikub

Why: ``rollout.hoarder_action`` melds once the hand holds ``hand_size + HOARD_MARGIN``
cards.  As the player's own continuation that threshold made a value depend on where the
forced meld fell against the rollouts' horizon (a 10-card Manipulation hand valued -13.4,
the same hand with a dead ace -41.6: README, Advice).  ``rollout.patient_hoarder_action``
melds only to go out, to knock or at the last chance.  This script's screens (100 pairs,
against ``hoarder``): Manipulation Rummy 98.0% and 97.0% with the patient line where the
forced one won 80.5% and 77.5% (seeds 77 and 78); Rummikub 53.5% against 47.0% and
Machiavelli 60.0% against 50.5% (seed 77).  The patient line became the bot's in
Manipulation Rummy and then in first-out games (``evaluator.EVALUATOR``).  The other
players modelled as hoarders keep ``hoarder_action`` (real hoarders are forced by size).
The script plays ``PimcForced`` and ``pimc`` against one opponent on the same deals and
prints each and their paired difference (``benchmarks/results/coach-experiments.md``
has the runs).
"""

from __future__ import annotations

from dataclasses import replace

from benchmarks.paired_screen import arguments, screen
from solver.strategy.evaluator import EVALUATOR, Evaluator
from solver.strategy.pimc import PimcBot
from solver.strategy.rollout import greedy_action, hoarder_action

FORCED_BOT = "benchmarks/unforced_continuation.py:PimcForced"

FORCED: Evaluator = replace(
    EVALUATOR,
    continuations=(greedy_action, hoarder_action),
    first_out_continuations=None,
)
"""The search bot's evaluator with the forced hoarding line in every game."""


class PimcForced(PimcBot):
    """``pimc`` weighing its candidates with ``FORCED``."""

    name = "pimc-forced"
    evaluator = FORCED


def main() -> None:
    screen(FORCED_BOT, "pimc", arguments(__doc__.splitlines()[0], seed=77))


if __name__ == "__main__":
    main()
