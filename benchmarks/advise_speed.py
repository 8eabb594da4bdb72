"""Time of ``advise()`` at its default budget on mid-game positions, and how stable its ranking is.

    python -m benchmarks.advise_speed              # 8 positions, advise's defaults
    python -m benchmarks.advise_speed --count 4    # quicker

Mid-game positions come from real rounds: 2-player Manipulation Rummy dealt from a seed
and played by the ``expert`` bot for both seats until the player to move has a legal
play and at least ``--turns`` turns have passed; the advice gets that player's position
and every game fact of the round (the other hand's size, the stock, the draws left), so
it assumes nothing but the unseen cards.

For each position ``advise`` runs twice at its defaults, with seeds 1 and 2 (the deals
differ): the wall-clock time of each call, the deals played (the default number, more
where sequential sampling found the runner-up undecided), whether the two calls agree,
and Kendall's tau between their two rankings of the options (1: the same order).  Two
calls *agree* when they name the same best option, or when both report the same tie
(the same set of options about as good as the best: the issue's measure of a decisive
advice, done when at least 95% of the positions agree).  The defaults fix the deals,
so machine load changes the time only (unless the budget cap cuts the deals, which the
script reports).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from scipy.stats import kendalltau  # type: ignore[import-untyped]

from benchmarks.speed import RESULTS, machine, summarize
from solver.engine import hint
from solver.game import GameSettings, RoundState
from solver.game.deck import deal
from solver.game.view import PlayerView
from solver.strategy import make_bot
from solver.strategy.advice import DEFAULT_BUDGET, DEFAULT_SAMPLES, Advice, advise


def mid_game_views(seed: int, count: int, turns: int) -> list[PlayerView]:
    """``count`` decision points with a legal play, each from its own seeded round."""
    settings = GameSettings.manipulation(2)
    views: list[PlayerView] = []
    game = 0
    while len(views) < count:
        rng = random.Random(f"advise-speed:{seed}:{game}")
        game += 1
        hands, stock = deal(settings.variant, settings.players, rng)
        state = RoundState(settings, hands, stock, dealer=1)
        bots = [make_bot("expert", rng=random.Random(rng.random())) for _ in range(settings.players)]
        while not state.over:
            view = state.view(state.to_move)
            ready = state.turns > turns and view.phase == "meld" and not view.final_turn
            if ready and hint(view.position, variant=view.variant).has_play:
                views.append(view)
                break
            state.apply(bots[state.to_move].act(view))
    return views


def advise_view(view: PlayerView, seed: int) -> Advice:
    return advise(
        view.position,
        variant=view.variant,
        players=view.settings.players,
        hand_sizes=view.hand_sizes[view.seat + 1 :] + view.hand_sizes[: view.seat],
        stock=view.stock_size,
        scores=view.totals[view.seat :] + view.totals[: view.seat],
        draws_left=view.draws_left,
        seed=seed,
    )


def ranking(found: Advice) -> list[str]:
    return [option.label for option in found.options]


def run(seed: int, count: int, turns: int) -> dict[str, object]:
    views = mid_game_views(seed, count, turns)
    seconds: list[float] = []
    deals: list[float] = []
    agree = 0
    same_best = 0
    close = 0
    cut = 0
    taus: list[float] = []
    print(f"{'#':>3}{'options':>9}{'s (seed 1)':>12}{'s (seed 2)':>12}{'deals':>12}  best 1 / best 2   tau")
    for number, view in enumerate(views, start=1):
        runs = []
        for run_seed in (1, 2):
            started = time.perf_counter()
            found = advise_view(view, run_seed)
            seconds.append(time.perf_counter() - started)
            deals.append(found.samples)
            runs.append(found)
        first, second = ranking(runs[0]), ranking(runs[1])
        same = first[0] == second[0]
        same_best += same
        ties = [frozenset(o.label for o in run.options if o.about_as_good) for run in runs]
        agreed = same or (len(ties[0]) > 1 and ties[0] == ties[1])
        agree += agreed
        cut += sum(run.stopped_by_budget for run in runs)
        # A different best that seed 1 cannot tell from its own best (its loss interval reaches 0).
        rival = next(option for option in runs[0].options if option.label == second[0])
        close += (not same) and rival.loss.low <= 0
        tau = (
            1.0
            if len(first) < 2
            else float(kendalltau(range(len(first)), [second.index(x) for x in first])[0])
        )
        taus.append(tau)
        print(
            f"{number:>3}{len(first):>9}{seconds[-2]:>12.2f}{seconds[-1]:>12.2f}"
            f"{f'{runs[0].samples}/{runs[1].samples}':>12}  {first[0]} / {second[0]}   {tau:.2f}"
            f"  ties {sorted(ties[0])} / {sorted(ties[1])}{'' if agreed else '  DISAGREE'}"
        )
    times = summarize([s * 1000 for s in seconds])
    print(f"time per call (ms): {times}")
    middle = sorted(deals)[len(deals) // 2]
    print(f"deals per call: median {middle:.0f}, min {min(deals):.0f}, max {max(deals):.0f}")
    share = agree / len(views)
    print(f"seeds 1 and 2 agree (same best, or the same tie): {agree}/{len(views)} ({share:.0%}; target 95%)")
    mean_tau = sum(taus) / len(taus)
    print(
        f"same best option: {same_best}/{len(views)} (else within seed 1's loss interval: {close}); "
        f"mean Kendall tau {mean_tau:.2f}; calls the budget cap cut: {cut}"
    )
    return {
        "positions": len(views),
        "budget_seconds": DEFAULT_BUDGET,
        "samples": DEFAULT_SAMPLES,
        "agree": agree,
        "agree_share": round(share, 3),
        "cut_by_budget": cut,
        "time_ms": times,
        "deals": {"median": sorted(deals)[len(deals) // 2], "min": min(deals), "max": max(deals)},
        "best_agrees": same_best,
        "best_differs_within_interval": close,
        "kendall_tau": [round(t, 3) for t in taus],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=8, help="positions")
    parser.add_argument("--turns", type=int, default=6, help="turns played before a position is taken")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=RESULTS / "advise_speed.json")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    print(
        f"{args.count} positions, {DEFAULT_SAMPLES} deals (cap {DEFAULT_BUDGET} s), load average {load:.1f}"
    )
    figures = run(args.seed, args.count, args.turns)
    figures["load_before"] = round(load, 1)
    figures["load_after"] = round(os.getloadavg()[0], 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    record = {"machine": machine(), "seed": args.seed, "count": args.count, "figures": figures}
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
