"""Playing strength across the game family: one variant's cross table, written into the README.

    python -m benchmarks.strength --variant rummikub                 # 400 pairs, 200 deals per cell
    python -m benchmarks.strength --variant rummikub-peer --jobs 2   # the peer's game: 1000 pairs
    python -m benchmarks.strength --variant machiavelli --quick      # 1 pair, 1 deal per cell
    python -m benchmarks.strength --variant rummikub --only pimc-hoarder,pimc-3xhoarder
    python -m benchmarks.strength --variant rummikub --render        # the README block again

For one variant (``manipulation``, ``machiavelli``, ``rummikub`` or the peer's game
``rummikub-peer``) it plays, from one measuring seed (``--seed``, default 1; tune on others):

- **2 players**: the search bot ``pimc`` and the ``oracle`` (which sees the hidden cards:
  the ceiling) each against ``greedy``, ``hoarder`` and ``expert`` (``expert`` only in
  Manipulation Rummy: in first-out games it plays exactly as ``greedy``; and, in the
  peer's game, first ``greedy-tiles``: the peer's greedy rule), ``--pairs`` mirrored
  pairs each;
- **4 players** (where the variant allows 4): ``pimc`` and ``oracle`` each against three
  copies of ``hoarder`` and of ``greedy``, ``--deals`` deals each (every deal once per seat
  rotation: 4 games).

Every cell is a ``solver.strategy.match.run_match`` (intervals: 95% Wilson, pairs or deals
as clusters), so it repeats exactly with the seed whatever ``--jobs``.  The results go to
``benchmarks/results/strength-VARIANT.json`` after every cell (a run cut short keeps its
finished cells; ``--only`` runs some cells and keeps the file's others, each cell with
the date, machine and commit it was measured on), and the table, with the dates, the machines,
the seed, the pairs and the intervals, replaces the block
between ``<!-- strength:VARIANT:begin -->`` and ``<!-- strength:VARIANT:end -->`` in the
README (``--readme``; ``--no-readme`` leaves it alone).  ``--focus`` and ``--opponents``
replace the bots (the tests use them to stay fast); ``--focus pimc,oracle,oracle-others``
adds the bot that sees the other hands but not the stock's order, which splits the
oracle's lead into what the hidden hands are worth and what the coming draws are, at
the search bot's cost per cell.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.speed import RESULTS, machine
from solver.game.settings import PEER_PRESET, PRESET_NAMES, GameSettings
from solver.strategy.match import MatchResult, PairResult, run_match

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FOCUS = ("pimc", "oracle")
"""The rows: the search bot, and the bot that sees the hidden cards (the ceiling)."""
OPPONENTS = ("greedy", "hoarder", "expert")
FIRST_OUT_OPPONENTS = ("greedy", "hoarder")
"""In first-out games (Machiavelli, Rummikub) a draw ends the turn, so ``expert`` melds at
once exactly as ``greedy`` does (tests/test_first_out.py checks it decision by decision):
its column would repeat ``greedy``'s games, and is not played."""
PEER_OPPONENTS = ("greedy-tiles", *FIRST_OUT_OPPONENTS)
CROWDS = ("hoarder", "greedy")
"""The 4-player columns: three copies of each."""
CROWD = 3

Row = dict[str, object]


@dataclass(frozen=True, slots=True)
class Cell:
    """One match of the table: the row bot against the column bot (or its three copies)."""

    focus: str
    other: str
    players: int

    @property
    def key(self) -> str:
        """``pimc-hoarder`` (2 players) or ``pimc-3xhoarder`` (4 players): what ``--only`` takes."""
        return f"{self.focus}-{self.other}" if self.players == 2 else f"{self.focus}-{CROWD}x{self.other}"

    @property
    def bots(self) -> tuple[str, ...]:
        return (self.focus, self.other) if self.players == 2 else (self.focus, *[self.other] * CROWD)


def cells(variant: str, focus: tuple[str, ...], opponents: tuple[str, ...] | None) -> list[Cell]:
    """Every cell of a variant's table, 2-player ones first."""
    settings = GameSettings.named(variant, 2)
    two = opponents or _opponents(settings)
    found = [Cell(bot, other, 2) for bot in focus for other in two]
    if _allows(variant, CROWD + 1):
        found += [Cell(bot, other, CROWD + 1) for bot in focus for other in (opponents or CROWDS)]
    return found


def _opponents(settings: GameSettings) -> tuple[str, ...]:
    """The 2-player columns of a variant by default."""
    if settings.preset == PEER_PRESET:
        return PEER_OPPONENTS
    return FIRST_OUT_OPPONENTS if settings.scoring == "first_out" else OPPONENTS


def _allows(variant: str, players: int) -> bool:
    try:
        GameSettings.named(variant, players)
    except ValueError:
        return False
    return True


def summarize(cell: Cell, result: MatchResult) -> Row:
    """What the table needs of one cell's match."""
    data = result.to_dict()
    focus = result.shares[0]
    return {
        "key": cell.key,
        "focus": cell.focus,
        "other": cell.other,
        "players": cell.players,
        "units": len(result.pairs),
        "games": result.games,
        "score": result.score.to_dict(),
        "chance": focus.chance,
        "mean_points": round(focus.mean_points, 2),
        "median_ms": round(focus.median_ms, 2),
        "p90_ms": round(focus.p90_ms, 2),
        "timeouts": result.timeouts,
        "counters": result.entries[0].counters,
        "seconds": round(result.seconds, 1),
        "elo": data.get("elo"),
    }


def _pct(value: object) -> str:
    return f"{float(str(value)) * 100:.1f}%"


def _ci(score: object) -> str:
    assert isinstance(score, dict)
    return f"{_pct(score['estimate'])} ({_pct(score['low'])}-{_pct(score['high'])})"


def _table(rows: list[Row], players: int, columns: list[str], heading: str) -> list[str]:
    """One markdown table: a row per focus bot, a column per opponent."""
    by_key = {(str(row["focus"]), str(row["other"])): row for row in rows if row["players"] == players}
    focus = list(dict.fromkeys(str(row["focus"]) for row in rows if row["players"] == players))
    label = (lambda name: name) if players == 2 else (lambda name: f"{CROWD}x {name}")
    lines = [heading, "", "| | " + " | ".join(map(label, columns)) + " |", "|---|" + "---|" * len(columns)]
    for bot in focus:
        found = [by_key.get((bot, other)) for other in columns]
        lines.append(f"| **{bot}** | " + " | ".join(_ci(row["score"]) if row else "" for row in found) + " |")
    return lines


def _estimate(row: Row) -> float:
    score = row["score"]
    assert isinstance(score, dict)
    return float(score["estimate"])


SEERS = {"oracle": "The oracle's", "oracle-others": "`oracle-others`'"}
"""The measurement bots whose lead over the search bot the block states (the oracle sees
every hidden card, ``oracle-others`` the other hands but not the stock's order)."""


def _gap(rows: list[Row], players: int, seer: str = "oracle") -> str | None:
    """``seer``'s lead over the search bot, column by column, in percentage points."""
    by_key = {(str(row["focus"]), str(row["other"])): row for row in rows if row["players"] == players}
    parts = []
    for (bot, other), row in by_key.items():
        fair = by_key.get(("pimc", other))
        if bot == seer and fair is not None:
            parts.append(f"{other} {(_estimate(row) - _estimate(fair)) * 100:+.1f} points")
    return ", ".join(parts) or None


HEADINGS = {
    2: "2 players: win rate of the row bot against the column bot (a shared win or a timeout "
    "counts half), 95% Wilson interval, pairs as clusters:",
    CROWD + 1: f"{CROWD + 1} players: win share of the row bot against {CROWD} copies of the column "
    f"bot (chance {1 / (CROWD + 1):.0%}), 95% interval, deals as clusters:",
}


def _dated(rows: list[Row], meta: Row) -> str:
    """When and on what the cells were measured: one date and machine, or each with its
    cells (``--only`` measures some cells again, maybe elsewhere; a cell without a date or
    machine of its own has the file's)."""
    by_run: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        run = (str(row.get("date", meta["date"])), str(row.get("cpu", meta["cpu"])))
        by_run.setdefault(run, []).append(str(row["key"]))
    if len(by_run) == 1:
        day, cpu = next(iter(by_run))
        return f"{day}, {cpu}"
    return "; ".join(f"{day} on {cpu} ({', '.join(keys)})" for (day, cpu), keys in sorted(by_run.items()))


def _cell_order(row: Row) -> tuple[int, int, int]:
    """A row's place in the tables: 2 players first, the row bots and the columns in the
    order ``cells`` lists them, whatever order the cells were measured in."""
    focus = (*FOCUS, "oracle-others")
    others = (*PEER_OPPONENTS, "expert") if row["players"] == 2 else CROWDS

    def rank(name: object, names: tuple[str, ...]) -> int:
        return names.index(str(name)) if str(name) in names else len(names)

    return int(str(row["players"])), rank(row["focus"], focus), rank(row["other"], others)


def render(rows: list[Row], meta: Row) -> str:
    """The README block of one variant (without its markers)."""
    rows = sorted(rows, key=_cell_order)
    units = {int(str(row["players"])): int(str(row["units"])) for row in rows}
    lines = [
        f"Measured {_dated(rows, meta)}, {meta['jobs']} worker processes on "
        f"{meta.get('machine_cores', '?')} shared cores, seed {meta['seed']}, variant `{meta['variant']}`"
        + (f", {units[2]} mirrored pairs per 2-player cell" if 2 in units else "")
        + (f", {units[CROWD + 1]} deals per 4-player cell (4 games each)" if CROWD + 1 in units else "")
        + ".",
        "",
    ]
    for players, heading in HEADINGS.items():
        chosen = [row for row in rows if row["players"] == players]
        if not chosen:
            continue
        ordered = sorted(chosen, key=lambda row: _cell_order(row)[::-1])  # by column first
        columns = list(dict.fromkeys(str(row["other"]) for row in ordered))
        lines += [*_table(rows, players, columns, heading), ""]
        for seer, whose in SEERS.items():
            gap = _gap(rows, players, seer)
            if gap:
                lines += [f"{whose} lead over pimc: {gap}.", ""]
    first_out = GameSettings.named(str(meta["variant"]), 2).scoring == "first_out"
    if first_out and not any(row["other"] == "expert" for row in rows):
        lines += [
            "`expert` melds at once here, exactly as `greedy` does (a draw ends the turn), so it "
            "has no column of its own: its games would be `greedy`'s.",
            "",
        ]
    lines += _timing(rows)
    goals = targets(rows, str(meta["variant"]))
    if goals:
        lines += ["", "Targets of issue 36 (pimc):", "", *goals]
    return "\n".join(lines).rstrip() + "\n"


def _low(row: Row) -> float:
    score = row["score"]
    assert isinstance(score, dict)
    return float(score["low"])


def targets(rows: list[Row], variant: str) -> list[str]:
    """The targets of issue 36 for the search bot, each met or not with its figure (none
    when the table has no pimc cells)."""
    found: list[str] = []
    by_key = {str(row["key"]): row for row in rows}
    goals = [("pimc-hoarder", 0.70, 0.65, 400), ("pimc-greedy", 0.80, 0.75, 400)]
    goals += [(f"pimc-{CROWD}x{other}", 0.40, 0.0, 0) for other in CROWDS]
    if variant == PEER_PRESET:
        goals.append(("pimc-greedy-tiles", 0.75, 0.0, 1000))
    for key, least, low, units in goals:
        row = by_key.get(key)
        if row is None:
            continue
        count = int(str(row["units"]))
        met = _estimate(row) >= least and _low(row) > low and count >= units
        demand = f">= {least:.0%}" + (f", interval above {low:.0%}" if low else "")
        demand += f", over >= {units} {'pairs' if row['players'] == 2 else 'deals'}" if units else ""
        found.append(f"- {key}: {demand}: **{'met' if met else 'not met'}** ({_ci(row['score'])}, {count})")
    medians = [float(str(row["median_ms"])) for row in rows if row["focus"] == "pimc"]
    if medians:
        slowest = max(medians)
        found.append(
            f"- pimc's median decision <= 100 ms in every cell: **{'met' if slowest <= 100 else 'not met'}** "
            f"(at most {slowest:.1f} ms)"
        )
    return found


def _timing(rows: list[Row]) -> list[str]:
    """Each row bot's decision times and the games that reached a turn limit."""
    lines = []
    for bot in dict.fromkeys(str(row["focus"]) for row in rows):
        own = [row for row in rows if row["focus"] == bot]
        medians = [float(str(row["median_ms"])) for row in own]
        lines.append(
            f"- {bot}: median decision {min(medians):.1f}-{max(medians):.1f} ms over its cells "
            f"(p90 up to {max(float(str(row['p90_ms'])) for row in own):.1f} ms; wall clock, shared machine)"
        )
    timeouts = sum(int(str(row["timeouts"])) for row in rows)
    if timeouts:
        games = sum(int(str(row["games"])) for row in rows)
        lines.append(f"- {timeouts} of {games} games reached the turn limit (no winner)")
    return lines


def write_readme(path: Path, variant: str, block: str) -> None:
    """Replace the text between the variant's markers in ``path``; SystemExit when they are missing."""
    begin, end = f"<!-- strength:{variant}:begin -->", f"<!-- strength:{variant}:end -->"
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{path} has no {begin} ... {end} markers: add them where the table goes")
    path.write_text(pattern.sub(lambda _m: f"{begin}\n{block}{end}", text, count=1), encoding="utf-8")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.strength --variant V",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--variant", required=True, choices=PRESET_NAMES)
    parser.add_argument(
        "--pairs", type=int, default=None, help="pairs per 2-player cell (400; peer 1000; quick 1)"
    )
    parser.add_argument("--deals", type=int, default=None, help="deals per 4-player cell (200; quick 1)")
    parser.add_argument("--quick", action="store_true", help="1 pair and 1 deal per cell")
    parser.add_argument("--seed", type=int, default=1, help="the measuring seed (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--focus", default=",".join(FOCUS), help="the row bots (default pimc,oracle)")
    parser.add_argument("--opponents", default=None, help="the column bots (default per variant)")
    parser.add_argument("--only", default=None, help="only these cells, e.g. pimc-hoarder,pimc-3xgreedy")
    parser.add_argument("--results", type=Path, default=None, help="results file (strength-VARIANT.json)")
    parser.add_argument("--readme", type=Path, default=README, help="the README to write the block into")
    parser.add_argument("--no-readme", action="store_true", help="print the block, leave the README alone")
    parser.add_argument("--render", action="store_true", help="render the results file again, play nothing")
    return parser


def _chosen(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[Cell]:
    focus = tuple(part.strip() for part in args.focus.split(",") if part.strip())
    opponents = tuple(part.strip() for part in args.opponents.split(",")) if args.opponents else None
    found = cells(args.variant, focus, opponents)
    if args.only is not None:
        wanted = {part.strip() for part in args.only.split(",")}
        unknown = wanted - {cell.key for cell in found}
        if unknown:
            parser.error(f"unknown cells {sorted(unknown)}; choose from {', '.join(c.key for c in found)}")
        found = [cell for cell in found if cell.key in wanted]
    return found


def _progress(key: str, count: int, players: int, started: float) -> Callable[[PairResult], None]:
    """A line on stderr about every twentieth of a cell (a cell runs for an hour): deals
    done, the focus bot's share so far and the time, so a long run shows it is alive."""
    step = max(1, count // 20)
    done = 0
    shares = 0.0

    def report(pair: PairResult) -> None:
        nonlocal done, shares
        done += 1
        shares += pair.score / len(pair.games)
        if done % step == 0 or done == count:
            unit = "pairs" if players == 2 else "deals"
            elapsed = time.perf_counter() - started
            print(
                f"  {key}: {done}/{count} {unit}, {shares / done:.1%} so far, {elapsed:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    return report


def _git(*args: str) -> str | None:
    """A git command's output in the checkout, or None where git or the checkout is missing."""
    try:
        found = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return found.stdout.strip() if found.returncode == 0 else None


def _commit() -> str | None:
    """The checkout's commit, marked ``-dirty`` when code differs from it (what played the
    cell; the results files a run writes do not count), or None outside a git checkout."""
    head = _git("rev-parse", "--short", "HEAD")
    if not head:
        return None
    changed = _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)benchmarks/results")
    return f"{head}-dirty" if changed else head


def _play(
    args: argparse.Namespace, chosen: list[Cell], path: Path, kept: list[Row], kept_meta: Row
) -> tuple[list[Row], Row]:
    pairs = args.pairs or (1 if args.quick else 1000 if args.variant == PEER_PRESET else 400)
    deals = args.deals or (1 if args.quick else 200)
    if pairs < 1 or deals < 1 or args.jobs < 1:
        raise SystemExit("--pairs, --deals and --jobs must be at least 1")
    meta: Row = {**machine(), "jobs": args.jobs, "seed": args.seed, "variant": args.variant}
    commit = _commit()  # the code this run loaded, read before the cells (the checkout may move on)
    # A kept cell keeps the date it was measured on (the file's, if it has none of its own).
    again = {cell.key for cell in chosen}
    rows = [
        {**row, "date": row.get("date", kept_meta.get("date")), "cpu": row.get("cpu", kept_meta.get("cpu"))}
        for row in kept
        if row["key"] not in again
    ]
    for cell in chosen:
        started = time.perf_counter()
        settings = GameSettings.named(args.variant, cell.players)
        count = pairs if cell.players == 2 else deals
        result = run_match(
            *cell.bots,
            pairs=count,
            seed=args.seed,
            settings=settings,
            jobs=args.jobs,
            on_pair_done=_progress(cell.key, count, cell.players, started),
        )
        rows.append({**summarize(cell, result), "date": meta["date"], "cpu": meta["cpu"], "commit": commit})
        score = result.score
        print(
            f"{cell.key}: {count} {'pairs' if cell.players == 2 else 'deals'}, {score.estimate:.1%} "
            f"({score.low:.1%}-{score.high:.1%}), {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        path.write_text(json.dumps({"meta": meta, "cells": rows}, indent=1) + "\n")
    return rows, meta


def main(argv: list[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    path: Path = args.results or RESULTS / f"strength-{args.variant}.json"
    saved = json.loads(path.read_text()) if path.exists() else None
    if args.render:
        if saved is None:
            parser.error(f"no results file {path}")
        rows, meta = saved["cells"], saved["meta"]
    else:
        chosen = _chosen(args, parser)
        same = saved is not None and saved["meta"].get("seed") == args.seed and args.only is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        kept, kept_meta = (saved["cells"], saved["meta"]) if same and saved else ([], {})
        rows, meta = _play(args, chosen, path, kept, kept_meta)
    block = render(rows, meta)
    print(block)
    if not args.no_readme:
        write_readme(args.readme, args.variant, block)
        print(f"wrote the {args.variant} table into {args.readme}")
