"""A paired screen: two versions of a bot against the same opponents on the same deals.

Screens decide whether a change to the search bot is worth measuring in the strength
tables: both versions play the same deals (``run_match`` with one seed: mirrored pairs
against one opponent, or with 3-4 players each deal once per seat rotation against the
comma-separated opponents, e.g. ``greedy,greedy,greedy``), so the luck of the deals
cancels in their difference, and the script prints each version's win rate (or win
share) with its interval and the paired difference with its 95% interval (normal
approximation over the deals).  Screens run on seeds that are not the tables' measuring
seed (1), so that the tables confirm a change on deals it was not chosen on.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence

from solver.game.settings import GameSettings
from solver.strategy.match import run_match
from solver.strategy.registry import make_bot


def screen(baseline: str, changed: str, args: argparse.Namespace) -> None:
    """Play ``baseline`` and ``changed`` (bot names or ``path:Class``) against the
    opponents of ``args`` (``arguments``) on the same deals; print both and their paired
    difference."""
    opponents = tuple(args.opponent.split(","))
    settings = GameSettings.named(args.variant, 1 + len(opponents))
    scores: dict[str, list[float]] = {}
    for bot in (baseline, changed):
        started = time.perf_counter()
        try:
            found = run_match(
                bot, *opponents, pairs=args.pairs, seed=args.seed, settings=settings, jobs=args.jobs
            )
        except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (the lines above stand)
            print(f"interrupted during {bot}: no paired difference", file=sys.stderr)
            raise SystemExit(130) from None
        # A deal's score sums the focus's shares of its games: per game, it is the share.
        scores[bot] = [pair.score / len(pair.games) for pair in found.pairs]
        took = time.perf_counter() - started
        rate, median = found.score, found.entries[0].median_ms
        said = f"{100 * rate.estimate:.1f}% ({100 * rate.low:.1f}-{100 * rate.high:.1f}) in {took:.0f} s"
        said += f", median decision {median:.1f} ms"
        print(f"{bot}: {said}", flush=True)
    gains = [new - old for old, new in zip(scores[baseline], scores[changed], strict=True)]
    mean = statistics.fmean(gains)
    spread = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
    unit = "pairs" if len(opponents) == 1 else "deals"
    changed_deals = sum(1 for gain in gains if gain)
    said = f"{100 * mean:+.1f} +- {100 * spread:.1f} points over {len(gains)} {unit} ({changed_deals} differ)"
    print(f"paired difference ({changed} - {baseline}): {said}")


def arguments(description: str, *, seed: int, bots: Sequence[str] = ()) -> argparse.Namespace:
    """The screens' command line: the opponent, pairs, seed, variant and worker processes
    (and ``--bot``, one of ``bots``, the first by default, where a script offers several)."""
    parser = argparse.ArgumentParser(description=description)
    if bots:
        parser.add_argument("--bot", choices=list(bots), default=bots[0], help="the version to screen")
    parser.add_argument(
        "opponent", help="one bot (mirrored pairs), or 2-3 comma-separated (one game per rotation)"
    )
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.pairs < 2:
        parser.error("--pairs must be at least 2 (the paired difference needs a spread)")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    opponents = args.opponent.split(",")
    try:  # a bad variant, seat count or bot name: one line and exit 2, not a traceback
        GameSettings.named(args.variant, 1 + len(opponents))
        for name in opponents:
            make_bot(name)
    except (ValueError, ImportError) as error:
        parser.error(str(error))
    return args
