"""Experiment: how many of the search bot's choices the dead-heat stop would change.

    python -m benchmarks.dead_heat_probe hoarder --pairs 30 --seed 1125 --variant rummikub
    python -m benchmarks.dead_heat_probe greedy,greedy,greedy --pairs 8 --seed 1129 --variant machiavelli

Why: the stop (``PimcBot.dead_heat_deals``) decides a first-out decision on its first k
deals where they are a dead heat (every option worth exactly the same in each), and then
the rule of thumb's choice stands.  The full search would choose otherwise only where the
later deals overrule the prior (``Evaluator.prior_margin``); a game whose choices are
all the same is the same game (the deals' seeds are drawn before any is played), so the
share of changed choices bounds what the stop can change, at a fraction of a paired
game test's cost.  ``PimcStopProbe`` weighs every deal and plays that choice, and at each
searched first-out decision counts whether the first 1, 2 and 4 deals were a dead heat and
whether the stop's choice then differs.  The script prints the match and the counts; the
test declared with it is in ``benchmarks/results/firstout-experiments.md`` (session 33).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence

from solver.game.settings import GameSettings
from solver.game.view import PlayerView
from solver.strategy.evaluator import Outcomes
from solver.strategy.match import run_match
from solver.strategy.pimc import PimcBot

PROBE_BOT = "benchmarks.dead_heat_probe:PimcStopProbe"
PREFIXES = (1, 2, 4)
"""The stops counted: after this many deals."""
COUNTED = ("decisions", "searched", "prior_overruled")
"""The search bot's own counters printed beside the probe's."""


def dead_heat_over(weighed: Sequence[Outcomes], deals: int) -> bool:
    """Whether every line (a candidate with a continuation) is worth the same in each of
    the first ``deals`` deals (``evaluator.dead_heat`` over that prefix)."""
    lines = [line[:deals] for outcome in weighed for line in outcome.lines]
    if any(len(line) < deals for line in lines):
        return False
    return all(line == lines[0] for line in lines)


class PimcStopProbe(PimcBot):
    """``pimc`` weighing every deal, counting what the dead-heat stop would have chosen."""

    name = "pimc-stop-probe"
    dead_heat_deals = None
    prior_margin = 2.0  # the search as it was probed (``pimc`` now plays the rule alone)

    def prior_choice(self, view: PlayerView, weighed: list[Outcomes]) -> int:
        """``pimc``'s choice; first-out decisions also count, per stop, a dead heat over the
        first deals and whether the stop's choice (the rule's, as a tie gives it) differs."""
        chosen = super().prior_choice(view, weighed)
        if view.settings.scoring != "first_out":
            return chosen
        prefer = self.evaluator.tie_rule(view, [outcome.candidate for outcome in weighed])
        stops_on = prefer if prefer is not None else 0  # a tie goes to the first otherwise
        self.counters["probe_searched"] += 1
        for deals in PREFIXES:
            if dead_heat_over(weighed, deals):
                self.counters[f"probe_dead_heat_{deals}"] += 1
                if stops_on != chosen:
                    self.counters[f"probe_changed_{deals}"] += 1
        return chosen


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", help="one bot (mirrored pairs) or 2-3 comma-separated")
    parser.add_argument("--pairs", type=int, default=30, help="pairs, or deals with 3-4 players")
    parser.add_argument("--seed", type=int, default=1125)
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.pairs < 1 or args.jobs < 1:
        parser.error("--pairs and --jobs must be at least 1")
    try:
        GameSettings.named(args.variant, 1 + len(args.opponents.split(",")))
    except ValueError as error:
        parser.error(str(error))
    return args


def main() -> None:
    args = _arguments()
    opponents = tuple(args.opponents.split(","))
    settings = GameSettings.named(args.variant, 1 + len(opponents))
    started = time.perf_counter()
    found = run_match(
        PROBE_BOT, *opponents, pairs=args.pairs, seed=args.seed, settings=settings, jobs=args.jobs
    )
    totals: Counter[str] = Counter()
    for pair in found.pairs:
        for game in pair.games:
            for counters in game.counters:
                totals.update({k: v for k, v in counters.items() if k.startswith("probe_") or k in COUNTED})
    rate = found.score
    print(
        f"{args.variant} {args.opponents} seed {args.seed}, {args.pairs} pairs: "
        f"{100 * rate.estimate:.1f}% ({100 * rate.low:.1f}-{100 * rate.high:.1f}) in "
        f"{time.perf_counter() - started:.0f} s, median decision {found.entries[0].median_ms:.1f} ms"
    )
    searched = totals["probe_searched"]
    for deals in PREFIXES:
        heats, changed = totals[f"probe_dead_heat_{deals}"], totals[f"probe_changed_{deals}"]
        share = 100 * changed / searched if searched else 0.0
        said = f"{heats} dead heats of {searched} searched, {changed} choices changed ({share:.2f}%)"
        print(f"stop after {deals}: {said}")
    print(f"prior overruled: {totals['prior_overruled']}; decisions: {totals['decisions']}")


if __name__ == "__main__":
    main()
