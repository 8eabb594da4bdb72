"""Is the review calibrated? Accuracy, loss and error share per bot, against the strength table.

    python -m benchmarks.review_calibration --seed 11 --games 4          # 4 games a pairing
    python -m benchmarks.review_calibration --seed 12 --games 2 --jobs 2
    python -m benchmarks.review_calibration --seed 11 --games 6 --duplicate   # shared deals
    python -m benchmarks.review_calibration --random-bot benchmarks.coach_screens:CoinlessRandom

Plays seeded 2-player Manipulation Rummy games between every pairing of the five bots
(``--games`` a pairing, seats alternating), keeps the first ``--rounds`` rounds of each
(2 by default: a review's cost grows with the decisions), reviews every seat at the
review's default settings (``solver.strategy.review``) and prints, per bot: the decisions
reviewed, the accuracy (the review's 0-100 score, over all its decisions), the mean
expected loss per decision and the share of decisions that are an inaccuracy or worse.

A calibrated review orders the bots as their measured strength does (the README's
strength table: random < greedy < expert < hoarder < pimc); the script prints Spearman's
rank correlation between accuracy and that order (1.0: the same order).  Games run
through ``solver.runs`` (``--jobs``): each game's seed comes from the root seed and its
index, so the figures do not depend on the backend; with ``--duplicate`` every pairing plays
the same deals, each from both seats (``game_seed``; ``--games`` must then be even).
``--random-bot`` plays ``random``'s seats with another bot (a ``module:Class`` spec), still
reported as ``random``.  Results go to ``benchmarks/results/review_calibration-<seed>.json``
(``-<seed>-duplicate.json``; ``-<seed>-<Class>.json`` with another random bot).
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import sys
import time
from dataclasses import dataclass

from benchmarks.speed import RESULTS, machine
from solver.game import GameSettings
from solver.game.log import LogWriter, read_log
from solver.game.runner import play_game
from solver.runs import Chunk, item_seed, run_indexed
from solver.strategy.registry import make_bot, make_bots
from solver.strategy.review import decision_accuracy, review

STRENGTH_ORDER = ("random", "greedy", "expert", "hoarder", "pimc")
"""Weakest first, as the README's strength table measures them."""


@dataclass(frozen=True)
class CalibrationJob:
    seed: int
    games: int
    rounds: int
    duplicate: bool = False
    random_bot: str = "random"


def first_rounds(lines: list[str], rounds: int) -> list[str]:
    """The log cut after ``rounds`` rounds (up to and with the next deal line, as a game
    still in progress is logged)."""
    deals = [i for i, line in enumerate(lines) if '"type": "deal"' in line]
    return lines[: deals[rounds] + 1] if len(deals) > rounds else lines


def game_seed(job: CalibrationJob, index: int) -> int:
    """The game's seed (its deal and the bots' own randomness).  With ``duplicate`` the
    deals are shared: games ``2k`` and ``2k + 1`` of every pairing play deal ``k`` with the
    seats swapped, so every bot meets every deal from both seats against every other bot
    (duplicate bridge's way to take the luck of the cards out of a comparison)."""
    if job.duplicate:
        return item_seed(job.seed, (index % job.games) // 2, "calibration-deal")
    return item_seed(job.seed, index, "calibration")


def game_bots(index: int, games: int) -> tuple[str, str]:
    pairings = list(itertools.combinations(STRENGTH_ORDER, 2))
    a, b = pairings[index // games]
    return (a, b) if index % 2 == 0 else (b, a)


def review_game(job: CalibrationJob, chunk: Chunk[int]) -> list[list[dict[str, object]]]:
    """Per game of the chunk: each seat's bot and its reviewed decisions (loss, band)."""
    results = []
    settings = GameSettings.manipulation(2)
    for index in chunk.items:
        bots = game_bots(index, job.games)
        seed = game_seed(job, index)
        stream = io.StringIO()
        writer = LogWriter(stream, settings, seed=seed, players=list(bots))
        specs = [job.random_bot if bot == "random" else bot for bot in bots]
        play_game(settings, make_bots(specs, seed), seed=seed, listeners=[writer])
        records = read_log(first_rounds(stream.getvalue().splitlines(), job.rounds))
        found = review(records, luck=False)
        results.append(
            [
                {
                    "bot": bots[decision.seat],
                    "game": index,
                    "seat": decision.seat,
                    "round": decision.round_number,
                    "loss": decision.loss.estimate,
                    "low": decision.loss.low,
                    "high": decision.loss.high,
                    "band": decision.band,
                    "phase": decision.phase,
                    "made": decision.made.split(" ")[0],
                    "advised": decision.advised_kind,
                    "samples": decision.samples,
                }
                for decision in found.decisions
            ]
        )
    return results


def summarize(decisions: list[dict[str, object]]) -> dict[str, dict[str, float]]:
    from solver.strategy.stats import Interval

    table: dict[str, dict[str, float]] = {}
    for bot in STRENGTH_ORDER:
        mine = [d for d in decisions if d["bot"] == bot]
        losses = [Interval(float(d["loss"]), float(d["low"]), float(d["high"])) for d in mine]  # type: ignore[arg-type]
        n = len(mine)
        table[bot] = {
            "decisions": n,
            "accuracy": sum(decision_accuracy(x) for x in losses) / n if n else 0.0,
            "mean_loss": sum(x.estimate for x in losses) / n if n else 0.0,
            "error_share": sum(d["band"] != "ok" for d in mine) / n if n else 0.0,
        }
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11, help="root seed of the games (default 11)")
    parser.add_argument("--games", type=int, default=4, help="games per pairing (default 4)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each game reviewed (default 2)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--duplicate", action="store_true", help="every pairing plays the same deals, each from both seats"
    )
    parser.add_argument(
        "--random-bot", default="random", help="the bot that plays random's seats (default random)"
    )
    args = parser.parse_args()
    try:  # a bot that cannot be made: one line and exit 2
        make_bot(args.random_bot)
    except (ValueError, ImportError) as error:
        parser.error(str(error))
    if min(args.games, args.rounds, args.jobs) < 1:
        parser.error("--games, --rounds and --jobs must be at least 1")
    if args.duplicate and args.games % 2:
        parser.error("--duplicate plays each deal from both seats: --games must be even")
    from scipy.stats import spearmanr  # type: ignore[import-untyped]

    started = time.perf_counter()
    job = CalibrationJob(args.seed, args.games, args.rounds, args.duplicate, args.random_bot)
    total = args.games * len(list(itertools.combinations(STRENGTH_ORDER, 2)))
    try:
        per_game = run_indexed(review_game, job, range(total), jobs=args.jobs)
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback; nothing is written
        print("interrupted: no calibration table", file=sys.stderr)
        raise SystemExit(130) from None
    decisions = [decision for game in per_game for decision in game]
    table = summarize(decisions)
    rho = float(spearmanr([table[bot]["accuracy"] for bot in STRENGTH_ORDER], range(len(STRENGTH_ORDER)))[0])
    print(f"Review calibration: seed {args.seed}, {args.games} games a pairing, first {args.rounds} rounds")
    print("| bot | decisions | accuracy | loss per decision | inaccuracy or worse |")
    print("|---|--:|--:|--:|--:|")
    for bot in STRENGTH_ORDER:
        row = table[bot]
        print(
            f"| {bot} | {row['decisions']:.0f} | {row['accuracy']:.1f} | {row['mean_loss']:.2f} | "
            f"{row['error_share']:.1%} |"
        )
    print(f"Spearman (accuracy against the strength order {' < '.join(STRENGTH_ORDER)}): {rho:.2f}")
    seconds = time.perf_counter() - started
    print(f"{len(decisions)} decisions in {total} games, {seconds:.0f} s")
    suffix = ("-duplicate" if args.duplicate else "") + (
        "" if args.random_bot == "random" else "-" + args.random_bot.rsplit(":", 1)[-1]
    )
    out = RESULTS / f"review_calibration-{args.seed}{suffix}.json"
    out.write_text(
        json.dumps(
            {
                "machine": machine(),
                "seed": args.seed,
                "games_per_pairing": args.games,
                "rounds": args.rounds,
                "duplicate": args.duplicate,
                "random_bot": args.random_bot,
                "table": table,
                "decisions": decisions,
                "spearman": rho,
                "seconds": round(seconds, 1),
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
