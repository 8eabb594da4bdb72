"""How fast the plan of a hint is: ``hint_payload`` per position, as ``POST /v1/hint`` answers.

    python -m benchmarks.plan_speed                       # the load benchmark's 400 positions
    python -m benchmarks.plan_speed --positions 100 --seed 7

The HTTP service answers a hint with ``solver.report.hint_payload(hint(...))``: the hint's
JSON plus its step-by-step plan (``moves``, judged by the referee first) and its
``rearrangements``.  This script times that call alone, on the positions the load
benchmark sends (``benchmarks.load.positions``: Manipulation Rummy, about 40 table cards
and 10 in hand).  The hints are computed first and not timed; then, after a warm-up on
a few of them and with what the process holds frozen (``benchmarks.speed.freeze_startup``),
each position's ``hint_payload`` is timed on its own (``time.perf_counter``), one core,
the melds of the old table in canonical order.  Positions without a play are timed too
(their payload has no plan) and counted apart.  Prints p50/p90/p99/mean/max in
milliseconds with the date and the processor; results go to
``benchmarks/results/plan_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from benchmarks.load import positions
from benchmarks.speed import RESULTS, freeze_startup, machine, percentile, pin_one_core
from solver.engine import Hint, hint
from solver.position import Position
from solver.report import hint_payload
from solver.variants import Variant

WARM_UP = 20
"""Payloads built before timing starts (imports, SciPy's first call, caches)."""


def figures(times: list[float]) -> dict[str, float]:
    """p50/p90/p99/mean/max of ``times`` (milliseconds), rounded to microseconds."""
    return {
        "n": len(times),
        "p50": round(percentile(times, 50), 3),
        "p90": round(percentile(times, 90), 3),
        "p99": round(percentile(times, 99), 3),
        "mean": round(statistics.fmean(times), 3),
        "max": round(max(times), 3),
    }


def time_payloads(hints: list[Hint]) -> list[float]:
    """Milliseconds of ``hint_payload`` for each hint, in order (one call each)."""
    times: list[float] = []
    for found in hints:
        started = time.perf_counter()
        hint_payload(found)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400, help="positions to time (default 400)")
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the positions (default 1, as the load benchmark)"
    )
    args = parser.parse_args(argv)
    core = pin_one_core()
    variant = Variant.manipulation()
    hints = [hint(Position.parse(text), variant=variant) for text in positions(args.seed, args.positions)]
    for found in hints[:WARM_UP]:
        hint_payload(found)
    freeze_startup()
    times = time_payloads(hints)
    played = [ms for ms, found in zip(times, hints, strict=True) if found.has_play]
    about = machine()
    result = {
        "machine": {**about, "core": core},
        "seed": args.seed,
        "positions": args.positions,
        "with_play": len(played),
        "all_ms": figures(times),
        "with_play_ms": figures(played) if played else None,
    }
    shown = result["all_ms"]
    assert isinstance(shown, dict)
    print(f"hint_payload on {args.positions} load positions (seed {args.seed}), {len(played)} with a play")
    print(f"{about['date']}, {about['cpu']}, one core, gc frozen after warm-up")
    print("  ".join(f"{key} {shown[key]:.3f} ms" for key in ("p50", "p90", "p99", "mean", "max")))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "plan_speed.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
