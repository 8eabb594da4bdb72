"""Speed of ``hint()`` on the seeded suites: p50/p95/p99/max per table-size band and variant.

    python -m benchmarks.speed            # every suite in benchmarks/suites (5 x 400 + 2 x 300)
    python -m benchmarks.speed --quick    # every 4th position of each suite, about a minute
    python -m benchmarks.speed --suite manipulation-midgame --suite rummikub-midgame
    python -m benchmarks.speed --collect-all   # the cold-cache method of earlier runs
    python -m benchmarks.speed --cp-sat --suite manipulation-locked   # CP-SAT alone

The whole ``hint()`` call is timed (validation, then the fast path's search, or the
instance, model, solve and extract of CP-SAT; parsing is not), one position at a time on
one core, and which engine answered is counted.  Every play is also checked by the referee,
so a fast wrong answer cannot hide here.  The positions come from ``benchmarks.suite``
(each variant with and without locked jokers) and ``benchmarks.midgame`` (positions
sampled from seeded bot games: tables of 30-100 cards with one or two jokers, one of
them freeable), so the figures are reported per variant, per table band and per joker
kind, and per suite, band and engine.  Results go to ``benchmarks/results/speed.json`` and,
with matplotlib installed (``pip install -e .[bench]``), a PNG plot of time against
table size; ``python -m benchmarks.report`` turns them into the README section.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import time
from datetime import date
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.midgame import MIDGAME_SUITES, MidgameSpec
from benchmarks.suite import SUITES, SuiteSpec, suite_named
from solver import fastpath
from solver.engine import hint
from solver.referee import check_play

BANDS = ((0, 20), (21, 40), (41, 60), (61, 80), (81, 106))
RESULTS = Path(__file__).resolve().parent / "results"
VARIANTS = ("manipulation", "machiavelli", "rummikub")
QUICK_STRIDE = 4
"""``--quick`` measures every 4th position: the suites are ordered by table size, so a
stride keeps the whole spread of tables and hands."""

Row = dict[str, object]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (no interpolation: every figure is a measured time)."""
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


def freeze_startup(*, collect_all: bool = False) -> None:
    """Freeze what the process holds after its start-up and warm-up (``gc.freeze``): the
    collections the benchmarks run before each timed call then walk only the garbage of
    the calls before, as in a program that calls ``hint()`` in a loop.  Walking the whole
    heap instead (over 100,000 objects with OR-Tools loaded) evicts the processor's
    caches, so each call would start cold: about twice the time of a sub-millisecond
    hint.  ``collect_all`` keeps that older method (the runs before 2026-11-25), for
    comparison."""
    gc.collect()
    if not collect_all:
        gc.freeze()


GC_FROZEN = "startup frozen"
GC_WHOLE_HEAP = "whole heap collected before each call"
"""How a run collected garbage between timed calls, as its results file records it."""


def add_collect_all_option(parser: argparse.ArgumentParser) -> None:
    """The ``--collect-all`` option every timed benchmark takes (``freeze_startup``)."""
    parser.add_argument(
        "--collect-all",
        action="store_true",
        help="collect the whole heap before each call, as the runs before 2026-11-25 did "
        "(every call then starts with cold caches)",
    )


def pin_one_core() -> int | None:
    """Run on one core, so that figures do not depend on how many the machine has."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def machine() -> dict[str, object]:
    """What the figures were measured on, for the results files and the README."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": str(date.today()),
        "cores_used": 1,
        "machine_cores": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "ortools": _version("ortools"),
    }


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


Spec = SuiteSpec | MidgameSpec
ALL_SUITES: tuple[Spec, ...] = (*SUITES, *MIDGAME_SUITES)


def spec_named(name: str) -> Spec:
    for spec in MIDGAME_SUITES:
        if spec.name == name:
            return spec
    return suite_named(name)


def run(specs: list[Spec], stride: int, *, collect_all: bool = False, fast_path: bool = True) -> list[Row]:
    """Time ``hint()`` on every ``stride``-th position of each suite (``fast_path=False``:
    the CP-SAT model alone, as ``hint(..., fast_path=False)`` answers).

    Before each call the garbage of the calls before is collected and the collector is
    off during the call, so that no collection pause lands in one hint's time; what the
    process holds from its start is frozen first (``freeze_startup``; ``collect_all``
    collects the whole heap before each call instead, as the runs before 2026-11-25 did)."""
    rows: list[Row] = []
    loaded = [(spec, spec.load()[::stride]) for spec in specs]
    for spec, entries in loaded:
        for entry in entries[-3:]:
            # Warm the catalogue cache and both engines' imports (OR-Tools loads on the
            # first CP-SAT call, about 0.3 s, which is start-up, not a hint's time).
            hint(entry.position, variant=spec.variant)
            hint(entry.position, variant=spec.variant, fast_path=False)
    freeze_startup(collect_all=collect_all)
    for spec, entries in loaded:
        variant = spec.variant
        for number, entry in enumerate(entries, start=1):
            gc.collect()
            gc.disable()
            started = time.perf_counter()
            result = hint(entry.position, variant=variant, fast_path=fast_path)
            elapsed = (time.perf_counter() - started) * 1000
            gc.enable()
            if result.played and not check_play(entry.position, result.table, variant=variant).ok:
                raise SystemExit(f"referee rejected the hint for {entry.position}")
            rows.append(
                {
                    "suite": spec.name,
                    "variant": variant.name,
                    "table_cards": entry.table_cards,
                    "hand_cards": entry.hand_cards,
                    "table_jokers": entry.table_jokers,
                    "hand_jokers": entry.hand_jokers,
                    "ms": round(elapsed, 3),
                    "build_ms": round(result.build_ms, 3),
                    "solve_ms": round(result.solve_ms, 3),
                    "status": result.status,
                    "engine": result.engine,
                }
            )
            if number % 100 == 0:
                print(f"  {spec.name}: {number}/{len(entries)}", flush=True)
    return rows


def _ms(rows: list[Row]) -> list[float]:
    return [float(str(row["ms"])) for row in rows]


def _table(row: Row) -> int:
    return int(str(row["table_cards"]))


def report(rows: list[Row]) -> dict[str, object]:
    """Print and return the figures: per variant and table band, then per joker kind."""
    summary: dict[str, object] = {}
    print(f"{'variant':<13}{'table':>9}{'n':>6}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}   (ms)")
    for name in (*VARIANTS, "all"):
        chosen = [r for r in rows if name in ("all", r["variant"])]
        bands: dict[str, object] = {}
        for low, high in (*BANDS, (0, 106)):
            times = _ms([r for r in chosen if low <= _table(r) <= high])
            if not times:
                continue
            label = "all" if (low, high) == (0, 106) else f"{low}-{high}"
            bands[label] = figures = summarize(times)
            print(
                f"{name:<13}{label:>9}{figures['n']:>6}{figures['p50']:>9}{figures['p95']:>9}"
                f"{figures['p99']:>9}{figures['max']:>9}"
            )
        summary[name] = bands
    print()
    print(f"{'variant':<13}{'jokers':>9}{'n':>6}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}   (ms)")
    by_jokers: dict[str, dict[str, object]] = {}
    for name in VARIANTS:
        for kind, locked in (("free", False), ("locked", True)):
            times = _ms(
                [r for r in rows if r["variant"] == name and (int(str(r["table_jokers"])) > 0) == locked]
            )
            if not times:
                continue
            by_jokers.setdefault(name, {})[kind] = figures = summarize(times)
            print(
                f"{name:<13}{kind:>9}{figures['n']:>6}{figures['p50']:>9}{figures['p95']:>9}"
                f"{figures['p99']:>9}{figures['max']:>9}"
            )
    summary["by_jokers"] = by_jokers
    statuses: dict[str, int] = {}
    for r in rows:
        statuses[str(r["status"])] = statuses.get(str(r["status"]), 0) + 1
    print("statuses:", statuses)
    summary["statuses"] = statuses
    engines: dict[str, int] = {}
    for r in rows:
        engines[str(r.get("engine", "cp-sat"))] = engines.get(str(r.get("engine", "cp-sat")), 0) + 1
    print("answered by:", engines)
    summary["engines"] = engines
    summary["by_suite"] = by_suite(rows)
    return summary


def by_suite(rows: list[Row]) -> dict[str, object]:
    """Per suite and table band: how many positions each engine answered, and its times."""
    print()
    print(
        f"{'suite':<22}{'table':>8}{'n':>5}{'search':>8}{'p50 s':>8}{'p50 cp':>8}{'p50':>8}{'p99':>8}   (ms)"
    )
    out: dict[str, object] = {}
    for suite_name in dict.fromkeys(str(r["suite"]) for r in rows):
        chosen = [r for r in rows if r["suite"] == suite_name]
        bands: dict[str, object] = {}
        for low, high in (*BANDS, (0, 106)):
            band = [r for r in chosen if low <= _table(r) <= high]
            if not band:
                continue
            label = "all" if (low, high) == (0, 106) else f"{low}-{high}"
            search = _ms([r for r in band if r["engine"] == "search"])
            model = _ms([r for r in band if r["engine"] != "search"])
            figures = summarize(_ms(band))
            bands[label] = {
                **figures,
                "search": len(search),
                "cp_sat": len(model),
                "search_p50": round(percentile(search, 50), 2) if search else None,
                "cp_sat_p50": round(percentile(model, 50), 2) if model else None,
            }
            print(
                f"{suite_name:<22}{label:>8}{len(band):>5}{len(search):>8}"
                f"{percentile(search, 50):>8.2f}{percentile(model, 50):>8.2f}"
                f"{figures['p50']:>8}{figures['p99']:>8}"
            )
        out[suite_name] = bands
    return out


def pyplot() -> Any | None:
    """matplotlib's pyplot on the file-only Agg backend, or None (with a message) when absent."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install -e .[bench])")
        return None
    return plt


def plot(rows: list[Row], path: Path, title: str) -> bool:
    """Scatter of time against table size, one colour per variant, log time axis."""
    plt = pyplot()
    if plt is None:
        return False
    figure, axis = plt.subplots(figsize=(8, 5))
    for name, colour in zip(VARIANTS, ("tab:blue", "tab:green", "tab:red"), strict=True):
        for locked, marker in ((False, "o"), (True, "x")):
            chosen = [r for r in rows if r["variant"] == name and (int(str(r["table_jokers"])) > 0) == locked]
            if chosen:
                label = f"{name}, {'locked jokers' if locked else 'no locked jokers'}"
                xs, ys = [_table(r) for r in chosen], _ms(chosen)
                axis.scatter(xs, ys, s=10, alpha=0.5, c=colour, marker=marker, label=label)
    axis.set_yscale("log")
    axis.set_xlabel("table cards")
    axis.set_ylabel("hint() time, ms (log scale)")
    axis.set_title(title)
    axis.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"every {QUICK_STRIDE}th position (about a minute)"
    )
    parser.add_argument("--stride", type=int, default=None, help="measure every N-th position of each suite")
    parser.add_argument(
        "--suite", action="append", default=None, help="suite name (repeatable; default: every suite)"
    )
    add_collect_all_option(parser)
    parser.add_argument(
        "--prices-after",
        type=int,
        default=None,
        help="expansions before the search takes the linear relaxation's prices (-1: never); "
        f"default the engine's, {fastpath.LP_AFTER}.  Results go to speed-prices-after-N.json "
        "(N 'never' for -1)",
    )
    parser.add_argument(
        "--cp-sat",
        action="store_true",
        help="time the CP-SAT model alone (hint(..., fast_path=False)); results go to speed-cp-sat.json",
    )
    args = parser.parse_args(argv)
    if args.cp_sat and args.prices_after is not None:
        parser.error("--prices-after sets the fast path's search, which --cp-sat leaves out")
    if args.prices_after is not None:
        if args.prices_after < -1:
            parser.error("--prices-after must be -1 (never) or a number of expansions")
        fastpath.LP_AFTER = args.prices_after
    stride = args.stride or (QUICK_STRIDE if args.quick else 1)
    specs = [spec_named(name) for name in args.suite] if args.suite else list(ALL_SUITES)
    pin_one_core()
    called = "hint(fast_path=False)" if args.cp_sat else "hint()"
    print(
        f"{called} speed on {', '.join(s.name for s in specs)}, "
        f"every {stride}. position, one core, {date.today()}"
    )
    rows = run(specs, stride, collect_all=args.collect_all, fast_path=not args.cp_sat)
    summary = report(rows)
    print(overall(rows))
    RESULTS.mkdir(exist_ok=True)
    meta = {
        **machine(),
        "quick": stride != 1,
        "stride": stride,
        "gc": GC_WHOLE_HEAP if args.collect_all else GC_FROZEN,
        "suites": {s.name: _describe(s) for s in specs},
        "objective": "points",
        "prices_after": fastpath.LP_AFTER,
        "fast_path": not args.cp_sat,
    }
    data = json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1)
    if args.cp_sat:
        out = RESULTS / "speed-cp-sat.json"
        out.write_text(data)
        print(f"wrote {out}")
        return
    if args.prices_after is not None:
        label = "never" if args.prices_after < 0 else str(args.prices_after)
        out = RESULTS / f"speed-prices-after-{label}.json"
        out.write_text(data)
        print(f"wrote {out}")
        return
    (RESULTS / "speed.json").write_text(data)
    title = f"hint() time against table size, one core, {date.today()}"
    if plot(rows, RESULTS / "speed.png", title):
        print(f"wrote {RESULTS / 'speed.json'} and {RESULTS / 'speed.png'}")
    else:
        print(f"wrote {RESULTS / 'speed.json'}")


def overall(rows: list[Row]) -> str:
    """One line over every measured position: the percentiles of the whole call, and how
    many the search answered (of them the mid-game suites')."""
    figures = summarize(_ms(rows))
    midgame = [row for row in rows if str(row["suite"]).endswith("-midgame")]
    searched = sum(row["engine"] == "search" for row in rows)
    return (
        f"all suites: {len(rows)} positions, p50 {figures['p50']:.2f} ms, p99 {figures['p99']:.2f} ms, "
        f"max {figures['max']:.2f} ms; the search answered {searched} "
        f"({sum(row['engine'] == 'search' for row in midgame)} of {len(midgame)} mid-game)"
    )


def _describe(spec: Spec) -> dict[str, object]:
    if isinstance(spec, MidgameSpec):
        return {
            "variant": spec.variant.name,
            "jokers": "bot games",
            "bots": list(spec.bots),
            "seed": spec.seed,
        }
    return {"variant": spec.variant_name, "jokers": spec.jokers, "seed": spec.seed}


if __name__ == "__main__":
    main()
