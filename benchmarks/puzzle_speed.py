"""Puzzle generation speed: verified puzzles per second for each difficulty, on one core.

    python -m benchmarks.puzzle_speed            # 60 puzzles per difficulty, plus hard in every variant
    python -m benchmarks.puzzle_speed --quick    # 15 puzzles per difficulty, Manipulation only

Each run generates puzzles from fixed seeds with ``solver.puzzles.generate_puzzles``, so
every figure covers everything a user waits for: candidates, the hint engine, plans,
decoys and the three verification checks.  The process is pinned to one core.  Both
wall time and the process's CPU time are recorded: on a machine busy with other work
the CPU-time rate is what one free core would give.  Results go to
``benchmarks/results/puzzles.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

from benchmarks.speed import RESULTS, machine, pin_one_core
from solver.puzzles import DIFFICULTIES, Difficulty, GenerationStats, generate_puzzles
from solver.puzzles.grade import WEIGHTS
from solver.variants import Variant

SEEDS = (1, 2, 3)
"""Each difficulty is measured as a few runs from these seeds, their counts split evenly."""

Row = dict[str, object]


def measure(difficulty: Difficulty, variant: Variant, count: int) -> Row:
    """Generate ``count`` puzzles (spread over ``SEEDS``) and time it."""
    stats = GenerationStats()
    per_seed = [count // len(SEEDS) + (1 if k < count % len(SEEDS) else 0) for k in range(len(SEEDS))]
    features: dict[str, list[int]] = {name: [] for name in WEIGHTS}
    scores: list[int] = []
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    for seed, n in zip(SEEDS, per_seed, strict=True):
        if n == 0:
            continue
        for puzzle in generate_puzzles(n, difficulty, rng=random.Random(seed), variant=variant, stats=stats):
            scores.append(puzzle.score)
            for name, value in puzzle.features.to_dict().items():
                features[name].append(value)
    wall, cpu = time.perf_counter() - wall_start, time.process_time() - cpu_start
    return {
        "variant": variant.name,
        "difficulty": difficulty,
        "puzzles": count,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "per_s_wall": round(count / wall, 2),
        "per_s_cpu": round(count / cpu, 2),
        "candidates": stats.candidates,
        "rejected": dict(sorted(stats.rejected.items())),
        "mean_score": round(statistics.fmean(scores), 2),
        "mean_features": {name: round(statistics.fmean(values), 2) for name, values in features.items()},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="15 puzzles per difficulty, Manipulation only")
    parser.add_argument(
        "--count", type=int, default=None, help="puzzles per difficulty (default 60, quick 15)"
    )
    args = parser.parse_args(argv)
    count = args.count or (15 if args.quick else 60)
    if count < 1:
        parser.error("--count must be at least 1")
    core = pin_one_core()
    runs: list[tuple[Difficulty, Variant]] = [(d, Variant.manipulation()) for d in DIFFICULTIES]
    if not args.quick:
        runs += [("hard", Variant.machiavelli()), ("hard", Variant.rummikub())]
    generate_puzzles(1, "easy", rng=random.Random(0))  # warm imports and catalogue caches
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    print(f"puzzle generation on core {core}, {count} puzzles per run, load average {load}")
    columns = ("per s (wall)", "per s (cpu)", "cand/puzzle")
    print(f"{'variant':<14}{'difficulty':<11}" + "".join(f"{c:>13}" for c in columns) + f"{'score':>7}")
    rows: list[Row] = []
    for difficulty, variant in runs:
        row = measure(difficulty, variant, count)
        rows.append(row)
        per_puzzle = int(str(row["candidates"])) / count
        print(
            f"{variant.name:<14}{difficulty:<11}{row['per_s_wall']:>13}{row['per_s_cpu']:>13}"
            f"{per_puzzle:>13.1f}{row['mean_score']:>7}",
            flush=True,
        )
    RESULTS.mkdir(exist_ok=True)
    path = Path(RESULTS / "puzzles.json")
    meta = {**machine(), "load_average_1min": load, "seeds": list(SEEDS), "count": count, "quick": args.quick}
    path.write_text(json.dumps({"meta": meta, "runs": rows}, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
