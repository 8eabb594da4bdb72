"""Playing strength: every pairing of the five bots in mirrored pairs, with intervals.

    python -m benchmarks.strength                         # 400 pairs pimc-expert, 200 for the rest
    python -m benchmarks.strength --pairs 100 --other-pairs 40 --jobs 2
    python -m benchmarks.strength --quick                 # 40 and 20 pairs
    python -m benchmarks.strength --render                # print the tables of the last run again
    python -m benchmarks.strength --pairings pimc-expert --results a.json    # one pairing only
    python -m benchmarks.strength --render --merge a.json b.json            # tables of runs side by side
    python -m benchmarks.strength --variant rummikub       # one variant's table across the family

Each pairing is a ``solver.strategy.match.run_match`` of 2-player Manipulation Rummy from the
same measuring seed (``--seed``, default 1; tune on other seeds).  The script prints and
writes (``--markdown``) the README's tables: the cross table (the row bot's win rate
against the column bot, with its 95% Wilson interval, pairs as clusters), every pairing
with its Elo interval, points per round and decision times, what the search bot chose,
and the strength targets of issue 17.  Results go to ``benchmarks/results/strength.json``
after every pairing, so a run cut short still leaves its finished pairings.

With ``--variant V`` it measures one variant of the family instead (``pimc`` and the
``oracle`` against ``greedy``, ``hoarder`` and ``expert``, 2 and 4 players) and writes
that variant's table into the README: see ``benchmarks.strength_family`` (its options
with ``--variant V --help``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

from benchmarks.speed import RESULTS, machine
from solver.game import GameSettings
from solver.strategy.match import MatchResult, run_match

BOTS = ("pimc", "expert", "hoarder", "greedy", "random")
SEARCH = "pimc"
FOCUS = ("pimc", "expert")
"""The pairing the main target is about: it gets ``--pairs``, the others ``--other-pairs``."""

Row = dict[str, object]


def pairings() -> list[tuple[str, str]]:
    """Every pair of bots once, the stronger-looking one (earlier in ``BOTS``) as A."""
    return list(itertools.combinations(BOTS, 2))


def _order(a: str, b: str) -> tuple[bool, int, int]:
    """The focus pairing first, then the rest in ``BOTS`` order."""
    return (a, b) != FOCUS, BOTS.index(a), BOTS.index(b)


def summarize(result: MatchResult) -> Row:
    """The figures of one pairing that the tables need."""
    data = result.to_dict()
    a, b = result.entries
    return {
        "a": result.bots[0],
        "b": result.bots[1],
        "pairs": len(result.pairs),
        "games": result.games,
        "a_won": a.won,
        "b_won": b.won,
        "a_score": data["a_score"],
        "elo": data["elo"],
        "pair_scores": data["pair_scores"],
        "points_per_round": [round(a.points_per_round, 2), round(b.points_per_round, 2)],
        "rounds": a.rounds,
        "actions": [a.actions, b.actions],
        "counters": [a.counters, b.counters],
        "median_ms": [round(a.median_ms, 2), round(b.median_ms, 2)],
        "p90_ms": [round(a.p90_ms, 2), round(b.p90_ms, 2)],
        "seconds": round(result.seconds, 1),
    }


def _pct(value: object) -> str:
    return f"{float(str(value)) * 100:.1f}%"


def _ci(score: dict[str, float]) -> str:
    return f"{_pct(score['estimate'])} ({_pct(score['low'])}-{_pct(score['high'])})"


def _elo(elo: dict[str, float | None], score: dict[str, float]) -> str:
    """Elo and its interval; JSON keeps an infinite Elo (a 0% or 100% score) as null."""

    def one(value: float | None, sign: str) -> str:
        return f"{sign}inf" if value is None else f"{round(value) + 0:+d}"

    middle = one(elo["estimate"], "+" if score["estimate"] > 0.5 else "-")
    return f"{middle} ({one(elo['low'], '-')} to {one(elo['high'], '+')})"


def _flip(score: dict[str, float]) -> dict[str, float]:
    return {"estimate": 1 - score["estimate"], "low": 1 - score["high"], "high": 1 - score["low"]}


def render(rows: list[Row], meta: Row) -> str:
    """The markdown tables of the README section."""
    lines = [
        f"Measured {meta['date']}, {meta['cpu']}, {meta.get('jobs', 1)} worker processes on "
        f"{meta.get('machine_cores', '?')} shared cores, seed {meta['seed']}, 2-player Manipulation Rummy "
        f"(games to 150), mirrored pairs.",
        "",
        "Win rate of the row bot against the column bot (shared wins count half), with its 95%",
        "Wilson interval (pairs as clusters):",
        "",
        "| | " + " | ".join(BOTS) + " |",
        "|---|" + "---|" * len(BOTS),
    ]
    cell: dict[tuple[str, str], str] = {}
    for row in rows:
        a, b = str(row["a"]), str(row["b"])
        score = row["a_score"]
        assert isinstance(score, dict)
        cell[a, b] = _ci(score)
        cell[b, a] = _ci(_flip(score))
    for bot in BOTS:
        lines.append(f"| **{bot}** | " + " | ".join(cell.get((bot, other), "") for other in BOTS) + " |")
    lines += [
        "",
        "| A | B | pairs | A's win rate (95% CI) | Elo A-B (95% CI) | pts/round A, B "
        "| median ms A, B | p90 ms A, B |",
        "|---|---|--:|---|---|---|---|---|",
    ]
    for row in rows:
        score, elo = row["a_score"], row["elo"]
        assert isinstance(score, dict) and isinstance(elo, dict)
        ppr, med, p90 = row["points_per_round"], row["median_ms"], row["p90_ms"]
        assert isinstance(ppr, list) and isinstance(med, list) and isinstance(p90, list)
        lines.append(
            f"| {row['a']} | {row['b']} | {row['pairs']} | {_ci(score)} | {_elo(elo, score)} | "
            f"{ppr[0]}, {ppr[1]} | {med[0]}, {med[1]} | {p90[0]}, {p90[1]} |"
        )
    lines += [
        "",
        "What the search bot chose (share of its meld decisions with a play available, and of its",
        "knock decisions; *hoarding line*: share of its searched decisions, meld and knock, where",
        "the winning candidate was worth most with its own later turns played hoarding):",
        "",
        "| against | meld decisions | best play | held back | drew instead | knock decisions | knocked "
        "| hoarding line |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        if SEARCH not in (row["a"], row["b"]):
            continue
        side = 0 if row["a"] == SEARCH else 1
        counters = row["counters"]
        assert isinstance(counters, list)
        c: dict[str, int] = counters[side]
        melds = c.get("meld_choices", 0) or 1
        knocks = c.get("knock_choices", 0) or 1
        searched = c.get("searched", 0) + c.get("knock_choices", 0)
        hoarding = f"{c['hoarding_line'] / searched:.1%}" if "hoarding_line" in c and searched else "-"
        other = row["b"] if side == 0 else row["a"]
        lines.append(
            f"| {other} | {c.get('meld_choices', 0)} | {c.get('played_best', 0) / melds:.1%} | "
            f"{c.get('held_back', 0) / melds:.1%} | {c.get('drew_with_play', 0) / melds:.1%} | "
            f"{c.get('knock_choices', 0)} | {c.get('knocked', 0) / knocks:.1%} | {hoarding} |"
        )
    lines += ["", *targets(rows)]
    return "\n".join(lines)


def targets(rows: list[Row]) -> list[str]:
    """The targets of issue 17, each met or missed with its figure."""
    found: list[str] = ["Targets:", ""]
    by_pair = {(str(row["a"]), str(row["b"])): row for row in rows}

    def score_of(other: str) -> tuple[dict[str, float], int] | None:
        row = by_pair.get((SEARCH, other))
        if row is None:
            return None
        score = row["a_score"]
        assert isinstance(score, dict)
        return score, int(str(row["pairs"]))

    expert = score_of("expert")
    if expert is not None:
        score, pairs = expert
        met = score["estimate"] >= 0.60 and score["low"] > 0.55 and pairs >= 400
        note = "" if pairs >= 400 else f"; only {pairs} pairs, the target asks for 400"
        found.append(
            f"- pimc against expert: win rate >= 60% with the interval above 55%, over >= 400 pairs: "
            f"**{'met' if met else 'not met'}** ({_ci(score)}{note})"
        )
    for other in ("greedy", "hoarder"):
        result = score_of(other)
        if result is not None:
            score, pairs = result
            found.append(
                f"- pimc against {other}: >= 70%: **{'met' if score['estimate'] >= 0.70 else 'not met'}** "
                f"({_ci(score)}, {pairs} pairs)"
            )
    times = [
        float(row["median_ms"][0 if row["a"] == SEARCH else 1])  # type: ignore[index]
        for row in rows
        if SEARCH in (row["a"], row["b"])
    ]
    if times:
        worst = max(times)
        found.append(
            f"- pimc median decision time <= 0.5 s: **{'met' if worst <= 500 else 'not met'}** "
            f"({worst:.0f} ms, the highest median over its pairings, wall clock on a shared machine)"
        )
    return found


def main(argv: list[str] | None = None) -> None:
    given = sys.argv[1:] if argv is None else argv
    if any(arg == "--variant" or arg.startswith("--variant=") for arg in given):
        from benchmarks.strength_family import main as family

        family(given)
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--pairs", type=int, default=None, help="pairs of pimc against expert (400; quick 40)"
    )
    parser.add_argument(
        "--other-pairs", type=int, default=None, help="pairs of every other pairing (200; quick 20)"
    )
    parser.add_argument("--quick", action="store_true", help="40 and 20 pairs")
    parser.add_argument("--seed", type=int, default=1, help="the measuring seed (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--markdown", type=Path, default=None, help="also write the tables to this file")
    parser.add_argument("--render", action="store_true", help="print the tables of the results file")
    parser.add_argument(
        "--pairings", default=None, help="only these pairings, e.g. pimc-expert,greedy-random (default all)"
    )
    parser.add_argument(
        "--results", type=Path, default=RESULTS / "strength.json", help="the results file to write or render"
    )
    parser.add_argument(
        "--merge", type=Path, nargs="+", default=None, help="results files merged into --results first"
    )
    args = parser.parse_args(argv)
    path: Path = args.results
    if args.merge:
        runs = [json.loads(Path(part).read_text()) for part in args.merge]
        merged = {"meta": runs[0]["meta"], "pairings": [row for run in runs for row in run["pairings"]]}
        merged["pairings"].sort(key=lambda row: _order(str(row["a"]), str(row["b"])))
        path.write_text(json.dumps(merged, indent=1) + "\n")
    if args.render:
        saved = json.loads(path.read_text())
        text = render(saved["pairings"], saved["meta"])
        print(text)
        if args.markdown is not None:
            args.markdown.write_text(text + "\n")
        return
    chosen = pairings()
    if args.pairings is not None:
        wanted = {tuple(part.strip().split("-", 1)) for part in args.pairings.split(",")}
        unknown = wanted - set(chosen)
        if unknown:
            parser.error(
                f"unknown pairings {sorted(unknown)}; write them as A-B from {', '.join(BOTS)} in order"
            )
        chosen = [pair for pair in chosen if pair in wanted]
    focus = args.pairs or (40 if args.quick else 400)
    others = args.other_pairs or (20 if args.quick else 200)
    if focus < 1 or others < 1 or args.jobs < 1:
        parser.error("--pairs, --other-pairs and --jobs must be at least 1")
    meta: Row = {
        **machine(),
        "cores_used": args.jobs,
        "jobs": args.jobs,
        "seed": args.seed,
        "load_average_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
    rows: list[Row] = []
    settings = GameSettings.manipulation(2)
    RESULTS.mkdir(exist_ok=True)
    for a, b in sorted(chosen, key=lambda pair: _order(*pair)):
        pairs = focus if (a, b) == FOCUS else others
        started = time.perf_counter()
        result = run_match(a, b, pairs=pairs, seed=args.seed, settings=settings, jobs=args.jobs)
        rows.append(summarize(result))
        score = result.score
        print(
            f"{a} vs {b}: {pairs} pairs, win rate {score.estimate:.1%} ({score.low:.1%}-{score.high:.1%}), "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        path.write_text(json.dumps({"meta": meta, "pairings": rows}, indent=1) + "\n")
    text = render(rows, meta)
    print()
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(text + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
