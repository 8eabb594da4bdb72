"""A fingerprint of the plans: ``hint_payload`` JSON for thousands of hints, to prove a change keeps them.

    python -m benchmarks.plan_fingerprint --save /tmp/plans.pickle.gz     # hints + payloads
    python -m benchmarks.plan_fingerprint --compare /tmp/plans.pickle.gz  # exit 1 on any difference

A change meant to make ``solver.plan`` (or ``solver.flow``) faster without changing what
it says should leave every payload the service sends identical: the same steps with the
same words, the same rearrangements.  ``--save`` computes the hints once (the slow part:
several thousand hints, a few minutes), builds each one's payload and writes both to
FILE (a gzip'd pickle: the hints themselves are kept, so ``--compare`` rebuilds the
payloads of exactly the same hints, whatever a time-limited CP-SAT solve would answer
today); ``--compare`` rebuilds every payload with the code as it is now and names each
case that differs.  The file is this machine's scratch data: load only a file you wrote.

The cases: the load benchmark's positions (``benchmarks.load.positions(1, 400)``) and every
position of every suite (``benchmarks.speed.ALL_SUITES``: all variants, hand and locked
jokers, mid-game tables), each with the default options; every 4th one also with the
cards objective, every 4th with ``keep_jokers`` where the variant has jokers, and every
Rummikub position also unopened (``opened=False``, its opening rule).  Each hint's payload
is built twice: with the old melds in canonical order, and with them in a seeded shuffled
order as a user may type them (``before=``, as ``service.jobs.hint_job`` passes it), so
the meld numbering of the steps is covered too.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.load import positions
from benchmarks.speed import ALL_SUITES
from solver.cards import Joker
from solver.engine import Hint, hint
from solver.position import Position, Table
from solver.report import hint_payload
from solver.variants import Variant


@dataclass(frozen=True, slots=True)
class Case:
    """One hint and the position as a user entered it (melds in their typed order)."""

    name: str
    found: Hint
    entered: Position


def _shuffled(position: Position, rng: random.Random) -> Position:
    melds = list(position.table.melds)
    rng.shuffle(melds)
    return Position(Table(tuple(melds)), position.hand)


def _options(variant: Variant, number: int) -> list[tuple[str, dict[str, Any]]]:
    """The option sets a suite position is hinted with (see the module docstring)."""
    chosen: list[tuple[str, dict[str, Any]]] = [("", {})]
    if number % 4 == 1:
        chosen.append(("cards", {"objective": "cards"}))
    if number % 4 == 2 and variant.jokers:
        chosen.append(("keep_jokers", {"keep_jokers": True}))
    if variant.opening_points:
        chosen.append(("unopened", {"opened": False}))
    return chosen


def cases(*, progress: bool = True) -> list[Case]:
    """Every case of the fingerprint, its hint computed now."""
    rng = random.Random(35)
    found: list[Case] = []
    manipulation = Variant.manipulation()
    sources: list[tuple[str, Variant, list[Position]]] = [
        ("load", manipulation, [Position.parse(text) for text in positions(1, 400)])
    ]
    sources.extend(
        (spec.name, spec.variant, [entry.position for entry in spec.load()]) for spec in ALL_SUITES
    )
    started = time.perf_counter()
    for label, variant, items in sources:
        for number, position in enumerate(items):
            for option_name, options in _options(variant, number) if label != "load" else [("", {})]:
                answer = hint(position, variant=variant, **options)
                name = f"{label}:{number}" + (f":{option_name}" if option_name else "")
                found.append(Case(name, answer, _shuffled(answer.position, rng)))
        if progress:
            print(f"{label}: hinted, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return found


def payloads(case: Case) -> str:
    """Both payloads of a case (canonical and entered meld order) as one JSON text."""
    both = [hint_payload(case.found), hint_payload(case.found, before=case.entered)]
    return json.dumps(both, sort_keys=True)


def coverage(saved: list[tuple[Case, str]]) -> dict[str, int]:
    """How many cases hold what the fingerprint means to cover."""
    counts = {"cases": len(saved), "with_play": 0, "joker_steps": 0, "table_jokers": 0, "unopened": 0}
    for case, text in saved:
        counts["with_play"] += case.found.has_play
        counts["joker_steps"] += '"action": "joker"' in text
        counts["table_jokers"] += any(isinstance(piece, Joker) for piece in case.found.position.table.pieces)
        counts["unopened"] += case.name.endswith(":unopened") and case.found.has_play
    return counts


def save(path: Path, saved: list[tuple[Case, str]]) -> None:
    """Write the cases and their payloads; a case as a plain tuple, so that the file loads
    whichever module runs (``python -m`` makes this one ``__main__``)."""
    with gzip.open(path, "wb") as stream:
        pickle.dump([((case.name, case.found, case.entered), text) for case, text in saved], stream)


def load(path: Path) -> list[tuple[Case, str]]:
    """The cases and payloads ``save`` wrote (the user's own file: see the docstring)."""
    with gzip.open(path, "rb") as stream:
        rows: list[tuple[tuple[str, Hint, Position], str]] = pickle.load(stream)
    return [(Case(*fields), text) for fields, text in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, metavar="FILE", help="hint every case, write hints and payloads")
    mode.add_argument("--compare", type=Path, metavar="FILE", help="rebuild the payloads of FILE's hints")
    args = parser.parse_args(argv)
    if args.save is not None:
        saved = [(case, payloads(case)) for case in cases()]
        save(args.save, saved)
        print(json.dumps(coverage(saved)))
        return 0
    recorded = load(args.compare)
    started = time.perf_counter()
    differ = [case.name for case, text in recorded if payloads(case) != text]
    spent = time.perf_counter() - started
    for name in differ[:20]:
        print(f"differs: {name}")
    same = len(recorded) - len(differ)
    print(f"{same} of {len(recorded)} cases identical ({spent:.1f} s); {json.dumps(coverage(recorded))}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
