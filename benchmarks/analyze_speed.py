"""Speed of ``analyze()`` and ``draw_or_meld()`` on seeded mid-game positions.

    python -m benchmarks.analyze_speed             # 60 positions per variant
    python -m benchmarks.analyze_speed --count 20  # quicker

Mid-game means about 40 table cards and 10 in hand (``benchmarks.suite``'s generator,
with table jokers at random), so about 50 kinds of card are unseen and each needs its
own "draw it, then play at best" answer.  Each call is timed whole (validation
included), one position at a time on one core, as wall-clock time and as the process's
CPU time (which a busy machine inflates much less), with the start-up frozen out of
garbage collection as in ``benchmarks.speed``.  ``draw_or_meld`` also reports how
its draws were settled (the points program, the search, a known play, the LP bound, or a
CP-SAT search), and the run compares it with the fast path and the LP screen turned off
(CP-SAT for every draw: what the analysis cost before the points program).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from benchmarks.speed import (
    GC_FROZEN,
    GC_WHOLE_HEAP,
    RESULTS,
    add_collect_all_option,
    freeze_startup,
    machine,
    pin_one_core,
    summarize,
)
from benchmarks.suite import random_big_position
from solver.analysis import analyze, draw_or_meld, unseen_counts
from solver.cards import piece_sort_key
from solver.engine import best_after_draws
from solver.position import Position
from solver.variants import Variant

TABLE_CARDS = 40
HAND_CARDS = 10


def positions(seed: int, count: int, variant: Variant) -> list[Position]:
    rng = random.Random(seed)
    size = {"table_cards": TABLE_CARDS, "hand_cards": HAND_CARDS}
    return [random_big_position(rng, variant, **size) for _ in range(count)]


Times = dict[str, list[float]]


def timed(name: str, call: Callable[[], object], times: Times) -> None:
    """Append the wall-clock and the CPU milliseconds of one call."""
    gc.collect()
    gc.disable()
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    times[name].append((time.perf_counter() - wall) * 1000)
    times[f"{name} (cpu)"].append((time.process_time() - cpu) * 1000)
    gc.enable()


def measure(position: Position, variant: Variant, times: Times, settled: Counter[str]) -> None:
    """Time the three calls on one position and note how its draws were settled."""
    pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
    timed("analyze", lambda: analyze(position, variant=variant), times)
    timed("draw_or_meld", lambda: draw_or_meld(position, variant=variant), times)
    plain = lambda: best_after_draws(  # noqa: E731
        position, variant, pieces, time_limit=10.0, use_lp=False, fast_path=False
    )
    timed("draws, CP-SAT only", plain, times)
    found = best_after_draws(position, variant, pieces, time_limit=10.0)
    settled.update(draw.settled_by for draw in found.draws)


def run(seed: int, count: int, *, collect_all: bool = False) -> dict[str, object]:
    figures: dict[str, object] = {}
    for variant in (Variant.manipulation(), Variant.machiavelli(), Variant.rummikub()):
        draw_or_meld(positions(seed, 1, variant)[0], variant=variant)  # warm imports and caches
    freeze_startup(collect_all=collect_all)
    print(f"{'variant':<13}{'call':<25}{'n':>5}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}   (ms)")
    for variant in (Variant.manipulation(), Variant.machiavelli(), Variant.rummikub()):
        chosen = positions(seed, count, variant)
        kinds = [len(unseen_counts(p, variant)) for p in chosen]
        settled: Counter[str] = Counter()
        calls = ("analyze", "draw_or_meld", "draws, CP-SAT only")
        times: Times = {name: [] for call in calls for name in (call, f"{call} (cpu)")}
        for position in chosen:
            measure(position, variant, times, settled)
        rows = {name: summarize(values) for name, values in times.items()}
        for name, row in rows.items():
            print(
                f"{variant.name:<13}{name:<25}{row['n']:>5}{row['p50']:>9}{row['p95']:>9}"
                f"{row['p99']:>9}{row['max']:>9}"
            )
        total = sum(settled.values())
        shares = {how: round(n / total, 3) for how, n in sorted(settled.items())}
        print(f"{'':<13}unseen kinds {min(kinds)}-{max(kinds)}; draws settled by {shares}")
        spread = [min(kinds), max(kinds)]
        figures[variant.name] = {"times": rows, "unseen_kinds": spread, "settled_by": shares}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=60, help="positions per variant")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=RESULTS / "analyze_speed.json")
    add_collect_all_option(parser)
    args = parser.parse_args(argv)
    core = pin_one_core()
    print(f"{args.count} positions per variant, {TABLE_CARDS} table and {HAND_CARDS} hand cards, core {core}")
    figures = run(args.seed, args.count, collect_all=args.collect_all)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    gc_method = GC_WHOLE_HEAP if args.collect_all else GC_FROZEN
    record = {
        "machine": machine(),
        "seed": args.seed,
        "count": args.count,
        "gc": gc_method,
        "figures": figures,
    }
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
