"""Experiment: the search bot with its own hoarding continuation forced to meld by its
hand's size (the line it used before 2026-11-28) beside ``pimc``, which weighs with the
patient line in every game.

    python -m benchmarks.unforced_continuation hoarder --pairs 100 --seed 77 --variant rummikub
    rummy match benchmarks/unforced_continuation.py:PimcForced hoarder --variant rummikub

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

import argparse
import math
import statistics
import time
from dataclasses import replace

from solver.game.settings import GameSettings
from solver.strategy.evaluator import EVALUATOR, Evaluator
from solver.strategy.match import run_match
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    settings = GameSettings.named(args.variant, 2)
    scores: dict[str, list[float]] = {}
    for bot in (FORCED_BOT, "pimc"):
        started = time.perf_counter()
        found = run_match(
            bot, args.opponent, pairs=args.pairs, seed=args.seed, settings=settings, jobs=args.jobs
        )
        scores[bot] = [pair.score for pair in found.pairs]
        low, high = 100 * found.score.low, 100 * found.score.high
        took = time.perf_counter() - started
        print(f"{bot}: {100 * found.score.estimate:.1f}% ({low:.1f}-{high:.1f}) in {took:.0f} s", flush=True)
    gains = [new - old for old, new in zip(scores[FORCED_BOT], scores["pimc"], strict=True)]
    mean = statistics.fmean(gains) / 2
    spread = 1.96 * statistics.stdev(gains) / 2 / math.sqrt(len(gains))
    changed = sum(1 for gain in gains if gain)
    said = f"pimc {100 * mean:+.1f} +- {100 * spread:.1f} points over {len(gains)} pairs ({changed} differ)"
    print(f"paired difference: {said}")


if __name__ == "__main__":
    main()
