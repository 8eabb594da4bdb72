"""Hints per second in 1 and 2 threads of one process: what releasing the GIL buys.

    python -m benchmarks.threads              # every 2nd suite position, 3 rounds each
    python -m benchmarks.threads --stride 8   # quicker

The fast path's C search runs without the GIL (``solver/fastpath/search/module.c``), so
two threads can search at once on two cores; the rest of ``hint()`` (validation, turning
the search's answer into a ``Hint``, CP-SAT's model building) is Python and holds it.
Two figures, each with 1 and 2 threads over the same positions (the suites of
``benchmarks.speed``):

- ``hint()``: the whole library call, positions handed out to a thread pool;
- the C search alone: the exact ``_search.search`` calls those hints made (recorded once
  by wrapping the function), replayed in the pool; the upper bound of what threads can
  give the library as it is.

Each figure is the median of ``--rounds`` timed rounds (after one warm-up round), with
the ratio of 2 threads to 1.  Every round's answers are compared with the first serial
round's (the table of each hint; the whole result and work counters of each search):
threads must not change an answer.  Results go to ``benchmarks/results/threads.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from benchmarks.speed import ALL_SUITES, RESULTS, machine
from solver.engine import hint
from solver.fastpath import _search
from solver.position import Position
from solver.variants import Variant

THREAD_COUNTS = (1, 2)


@dataclass(frozen=True)
class SearchCall:
    """One recorded call of the C search, to replay."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def load_positions(stride: int) -> list[tuple[Position, Variant]]:
    """Every ``stride``-th position of each suite of ``benchmarks.speed``, with its variant."""
    return [(entry.position, spec.variant) for spec in ALL_SUITES for entry in spec.load()[::stride]]


def record_calls(positions: Sequence[tuple[Position, Variant]]) -> list[SearchCall]:
    """The C search calls the hints of ``positions`` make, in order."""
    calls: list[SearchCall] = []
    real = _search.search

    def spy(*args: Any, **kwargs: Any) -> _search.SearchResult:
        calls.append(SearchCall(args, dict(kwargs)))
        return real(*args, **kwargs)

    _search.search = spy
    try:
        for position, variant in positions:
            hint(position, variant=variant)
    finally:
        _search.search = real
    return calls


def hint_table(item: tuple[Position, Variant]) -> str:
    position, variant = item
    return str(hint(position, variant=variant).table)


def replay(call: SearchCall) -> tuple[object, ...]:
    found = _search.search(*call.args, **call.kwargs)
    return (
        *found,
        found.freed,
        found.expansions,
        found.splits,
        found.priced,
        found.resolves,
        found.points_asked,
    )


def timed_rounds(
    work: Callable[[Any], object], items: Sequence[Any], threads: int, rounds: int
) -> tuple[list[float], list[object]]:
    """Seconds of each of ``rounds`` passes over ``items`` in a pool of ``threads`` (after one
    warm-up pass), and the answers of the last pass in order."""
    answers: list[object] = []
    seconds: list[float] = []
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(work, items, chunksize=8))
        for _ in range(rounds):
            start = time.perf_counter()
            answers = list(pool.map(work, items, chunksize=8))
            seconds.append(time.perf_counter() - start)
    return seconds, answers


def measure(
    name: str, work: Callable[[Any], object], items: Sequence[Any], rounds: int
) -> tuple[dict[str, object], bool]:
    """The per-second rate of ``work`` over ``items`` in 1 and 2 threads, and whether every
    round's answers equal the serial ones."""
    figures: dict[str, object] = {"items": len(items)}
    serial: list[object] | None = None
    rates: dict[int, float] = {}
    agree = True
    for threads in THREAD_COUNTS:
        seconds, answers = timed_rounds(work, items, threads, rounds)
        if serial is None:
            serial = answers
        same = answers == serial
        agree = agree and same
        rate = len(items) / statistics.median(seconds)
        rates[threads] = rate
        figures[f"{threads}_threads"] = {
            "per_second_median": round(rate, 1),
            "seconds": [round(value, 3) for value in seconds],
            "answers_equal_to_serial": same,
        }
        print(
            f"  {name}: {threads} thread(s): {rate:8.1f}/s (median of {rounds}), answers equal: {same}",
            flush=True,
        )
        if not same:
            print(f"  {name}: ANSWERS DIFFER with {threads} threads", file=sys.stderr)
    figures["ratio_2_to_1"] = round(rates[2] / rates[1], 2)
    print(f"  {name}: 2 threads / 1 thread = {figures['ratio_2_to_1']}", flush=True)
    return figures, agree


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stride", type=int, default=2, help="every N-th position of each suite (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per figure (default 3)")
    args = parser.parse_args(argv)
    if args.stride < 1 or args.rounds < 1:
        parser.error("--stride and --rounds must be at least 1")
    positions = load_positions(args.stride)
    print(f"{len(positions)} positions; recording their search calls ...", flush=True)
    calls = record_calls(positions)
    about = machine() | {"cores_used": max(THREAD_COUNTS)}
    print(f"{about['date']}, {about['cpu']}, {about['machine_cores']} cores", flush=True)
    results: dict[str, object] = {"machine": about, "stride": args.stride, "rounds": args.rounds}
    try:
        results["hint"], hints_agree = measure("hint()", hint_table, positions, args.rounds)
        results["search"], searches_agree = measure("C search", replay, calls, args.rounds)
    except KeyboardInterrupt:
        print("interrupted: nothing written", file=sys.stderr)
        return 130
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "threads.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"written to {RESULTS / 'threads.json'}")
    return 0 if hints_agree and searches_agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
