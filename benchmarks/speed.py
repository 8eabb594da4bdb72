"""Speed of ``hint()`` on seeded suites: p50/p95/p99/max per table-size band and variant.

    python -m benchmarks.speed            # 600 positions per variant
    python -m benchmarks.speed --quick    # 150 per variant, about a minute

The whole ``hint()`` call is timed (instance, model, solve, extract; parsing is not),
one position at a time on one core.  Every play is also checked by the referee, so a
fast wrong answer cannot hide here.  Results go to ``benchmarks/results/speed.json``
and, when matplotlib is installed (``pip install -e .[bench]``), a PNG plot.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import date
from pathlib import Path

from benchmarks.suite import suite
from solver.cpsat import hint
from solver.referee import check_play
from solver.variants import Variant

BANDS = ((0, 20), (21, 40), (41, 60), (61, 80), (81, 106))
RESULTS = Path(__file__).resolve().parent / "results"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]


def summarize(times: list[float]) -> dict[str, float]:
    return {
        "n": len(times),
        "p50": round(percentile(times, 50), 2),
        "p95": round(percentile(times, 95), 2),
        "p99": round(percentile(times, 99), 2),
        "max": round(max(times), 2) if times else float("nan"),
        "mean": round(statistics.fmean(times), 2) if times else float("nan"),
    }


def run(count: int, seed: int) -> dict[str, object]:
    rows: list[dict[str, object]] = []
    variants = (Variant.manipulation(), Variant.machiavelli(), Variant.rummikub())
    for variant in variants:
        entries = list(suite(seed, count, variant))
        hint(entries[0].position, variant=variant)  # warm the catalogue cache and imports
        for number, entry in enumerate(entries, start=1):
            started = time.perf_counter()
            result = hint(entry.position, variant=variant)
            elapsed = (time.perf_counter() - started) * 1000
            if result.played and not check_play(entry.position, result.table, variant).ok:
                raise SystemExit(f"referee rejected the hint for {entry.position}")
            rows.append(
                {
                    "variant": variant.name,
                    "table_cards": entry.table_cards,
                    "hand_cards": entry.hand_cards,
                    "table_jokers": entry.table_jokers,
                    "ms": round(elapsed, 3),
                    "build_ms": round(result.build_ms, 3),
                    "solve_ms": round(result.solve_ms, 3),
                    "status": result.status,
                }
            )
            if number % 50 == 0:
                print(f"  {variant.name}: {number}/{len(entries)}", flush=True)
    return {"rows": rows}


def report(rows: list[dict[str, object]]) -> dict[str, object]:
    summary: dict[str, object] = {}
    header = f"{'variant':<13}{'table':>9}{'n':>6}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}   (ms)"
    print(header)
    for name in ("manipulation", "machiavelli", "rummikub", "all"):
        chosen = [r for r in rows if name in ("all", r["variant"])]
        bands: dict[str, object] = {}
        for low, high in (*BANDS, (0, 106)):
            times = [float(r["ms"]) for r in chosen if low <= int(str(r["table_cards"])) <= high]  # type: ignore[arg-type]
            if not times:
                continue
            label = "all" if (low, high) == (0, 106) else f"{low}-{high}"
            figures = summarize(times)
            bands[label] = figures
            print(
                f"{name:<13}{label:>9}{figures['n']:>6}{figures['p50']:>9}{figures['p95']:>9}"
                f"{figures['p99']:>9}{figures['max']:>9}"
            )
        summary[name] = bands
    statuses: dict[str, int] = {}
    for r in rows:
        statuses[str(r["status"])] = statuses.get(str(r["status"]), 0) + 1
    print("statuses:", statuses)
    summary["statuses"] = statuses
    return summary


def plot(rows: list[dict[str, object]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install -e .[bench])")
        return False
    figure, axis = plt.subplots(figsize=(8, 5))
    for name, colour in (("manipulation", "tab:blue"), ("machiavelli", "tab:green"), ("rummikub", "tab:red")):
        chosen = [r for r in rows if r["variant"] == name]
        axis.scatter(
            [r["table_cards"] for r in chosen], [r["ms"] for r in chosen], s=8, alpha=0.5, c=colour, label=name
        )
    axis.set_yscale("log")
    axis.set_xlabel("table cards")
    axis.set_ylabel("hint() time, ms (log)")
    axis.set_title(f"hint() time against table size, {date.today()}")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="150 positions per variant (about a minute)")
    parser.add_argument("--count", type=int, default=None, help="positions per variant (default 600)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    count = args.count or (150 if args.quick else 600)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"hint() speed, {count} positions per variant, seed {args.seed}, one core, {date.today()}")
    data = run(count, args.seed)
    rows = data["rows"]
    assert isinstance(rows, list)
    summary = report(rows)
    RESULTS.mkdir(exist_ok=True)
    meta = {
        "date": str(date.today()),
        "cores_used": 1,
        "machine_cores": os.cpu_count(),
        "python": platform.python_version(),
        "count_per_variant": count,
        "seed": args.seed,
    }
    (RESULTS / "speed.json").write_text(json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1))
    if plot(rows, RESULTS / "speed.png"):
        print(f"wrote {RESULTS / 'speed.json'} and {RESULTS / 'speed.png'}")
    else:
        print(f"wrote {RESULTS / 'speed.json'}")


if __name__ == "__main__":
    main()
