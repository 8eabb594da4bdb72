"""How fast the review is: seconds per 2-round game and decisions per second, at the defaults.

    python -m benchmarks.review_speed                # 6 games, the review's default settings
    python -m benchmarks.review_speed --games 3 --no-luck

Plays seeded 2-player Manipulation Rummy games (``expert`` against ``hoarder``, seats
alternating), keeps the first two rounds of each (the issue's yardstick: reviewing a
2-round, 2-player game takes at most 5 s on one core) and reviews every seat of each, in
this process, one game after another, each in a fresh rollout cache (a review done twice
in one process reuses its rollout hints, which would flatter the figure).  Prints the
seconds per game (median, max), the decisions reviewed and the decisions per second.
Results go to ``benchmarks/results/review_speed.json``.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time

from benchmarks.review_calibration import first_rounds
from benchmarks.speed import RESULTS, machine
from solver.game import GameSettings
from solver.game.log import LogWriter, read_log
from solver.game.runner import play_game
from solver.runs import item_seed
from solver.strategy import rollout
from solver.strategy.registry import make_bots
from solver.strategy.review import DEFAULT_SAMPLES, review

BOTS = ("expert", "hoarder")


def game_log(seed: int, index: int, rounds: int) -> list[dict[str, object]]:
    settings = GameSettings.manipulation(2)
    bots = list(BOTS) if index % 2 == 0 else list(reversed(BOTS))
    game_seed = item_seed(seed, index, "review-speed")
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=game_seed, players=bots)
    play_game(settings, make_bots(bots, game_seed), seed=game_seed, listeners=[writer])
    return read_log(first_rounds(stream.getvalue().splitlines(), rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="root seed of the games (default 1)")
    parser.add_argument("--games", type=int, default=6, help="games to review (default 6)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each game (default 2)")
    parser.add_argument("--no-luck", action="store_true", help="review without the luck of the draws")
    args = parser.parse_args()
    seconds: list[float] = []
    decisions = 0
    for index in range(args.games):
        records = game_log(args.seed, index, args.rounds)
        rollout.clear_cache()
        started = time.perf_counter()
        found = review(records, luck=not args.no_luck)
        spent = time.perf_counter() - started
        seconds.append(spent)
        decisions += len(found.decisions)
        print(f"game {index + 1}: {len(found.decisions)} decisions, {spent:.2f} s", flush=True)
    total = sum(seconds)
    figures = {
        "games": args.games,
        "rounds": args.rounds,
        "luck": not args.no_luck,
        "samples": DEFAULT_SAMPLES,
        "seconds_per_game": {
            "median": round(statistics.median(seconds), 2),
            "max": round(max(seconds), 2),
        },
        "decisions": decisions,
        "decisions_per_second": round(decisions / total, 2),
    }
    print(
        f"review of a {args.rounds}-round game: median {figures['seconds_per_game']['median']} s, "
        f"max {figures['seconds_per_game']['max']} s; {decisions} decisions, "
        f"{figures['decisions_per_second']} decisions/s (luck {'on' if not args.no_luck else 'off'})"
    )
    (RESULTS / "review_speed.json").write_text(
        json.dumps({"machine": machine(), "seed": args.seed, "figures": figures}, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
