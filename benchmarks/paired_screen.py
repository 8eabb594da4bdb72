"""A paired screen: two versions of a bot against one opponent on the same deals.

Screens decide whether a change to the search bot is worth measuring in the strength
tables: both versions play the same mirrored pairs (``run_match`` with one seed), so the
luck of the deals cancels in their difference, and the script prints each version's win
rate with its interval and the paired difference with its 95% interval (normal
approximation over the pairs).  Screens run on seeds that are not the tables' measuring
seed (1), so that the tables confirm a change on deals it was not chosen on.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from solver.game.settings import GameSettings
from solver.strategy.match import run_match


def screen(baseline: str, changed: str, args: argparse.Namespace) -> None:
    """Play ``baseline`` and ``changed`` (bot names or ``path:Class``) against the opponent
    of ``args`` (``arguments``) on the same mirrored pairs; print both and their paired
    difference."""
    settings = GameSettings.named(args.variant, 2)
    scores: dict[str, list[float]] = {}
    for bot in (baseline, changed):
        started = time.perf_counter()
        found = run_match(
            bot, args.opponent, pairs=args.pairs, seed=args.seed, settings=settings, jobs=args.jobs
        )
        scores[bot] = [pair.score for pair in found.pairs]
        low, high = 100 * found.score.low, 100 * found.score.high
        took = time.perf_counter() - started
        print(f"{bot}: {100 * found.score.estimate:.1f}% ({low:.1f}-{high:.1f}) in {took:.0f} s", flush=True)
    # A pair's score is its two games' sum (0 to 2): half of it is the pair's win rate.
    gains = [new - old for old, new in zip(scores[baseline], scores[changed], strict=True)]
    mean = statistics.fmean(gains) / 2
    spread = 1.96 * statistics.stdev(gains) / 2 / math.sqrt(len(gains))
    changed_pairs = sum(1 for gain in gains if gain)
    said = f"{100 * mean:+.1f} +- {100 * spread:.1f} points over {len(gains)} pairs ({changed_pairs} differ)"
    print(f"paired difference ({changed} - {baseline}): {said}")


def arguments(description: str, *, seed: int) -> argparse.Namespace:
    """The screens' command line: the opponent, pairs, seed, variant and worker processes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("opponent")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.pairs < 2:
        parser.error("--pairs must be at least 2 (the paired difference needs a spread)")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args
