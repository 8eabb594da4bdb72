"""A fingerprint of the fast path's C search: every call it makes on the suites, and its work.

    python -m benchmarks.search_fingerprint --save fp.jsonl.gz     # record (gzip when FILE ends .gz)
    python -m benchmarks.search_fingerprint --compare fp.jsonl.gz  # re-run; exit 1 on any difference
    python -m benchmarks.search_fingerprint --compare fp.jsonl.gz --suite rummikub-midgame

A change to ``solver/fastpath/_search.c`` meant to keep the answers and the work (a
refactor, a new way of returning its counters) should leave every call the fast path makes
to ``solver.fastpath._search.search`` the same: the same arguments, the same status,
primary and broken counts, the same melds in the same order, and the same work counters
(expansions, splits, priced, settled, resolves, points asked) and freed jokers.  Speed
figures cannot show that (a search that does more work may still be as fast), and the
engine's answers alone hide a change of work; this script records all of it, so a
before/after comparison says exactly which calls changed and how.

Every position of every suite (the 2,600 positions of ``benchmarks.speed``: the five
``benchmarks.suite`` suites and the two ``benchmarks.midgame`` ones, and the reference
positions in ``tests/data/*.jsonl``) goes to ``solver.fastpath.search`` as ``hint()`` asks
it (validated, non-empty hand, ``applies``; points objective, default budget and
options), with ``_search.search`` wrapped so that each call is recorded.  CP-SAT never
runs: a position the search gives up on is recorded as such.

The counters are read the way the C module offers them: as attributes of the result
(``expansions``, ``splits``, ``priced``, ``settled``, ``resolves``, ``points_asked``,
``freed``: the struct-sequence API) where present, else from the module's ``last_*``
functions (the API before it); values are normalized (booleans as 0/1, tuples as lists),
so recordings of either API compare equal.

The file is JSON Lines: a ``meta`` record, then per position a ``position`` record (its
id ``SUITE:N``, notation, whether the search applies, the fast path's answer, how many
calls) followed by its ``call`` records (the position's id, the call's index, a hash of
the arguments and the arguments themselves, and the result).  Progress goes to stderr;
Ctrl-C stops a run cleanly (``--save`` then writes nothing, ``--compare`` reports what it
compared so far).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import IO, Any

import solver
import solver.fastpath as fastpath
from benchmarks.speed import ALL_SUITES, Spec
from solver.position import Position
from solver.variants import Variant

Record = dict[str, Any]
"""One JSON Lines record."""

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
"""The reference positions with outside optima (``reference_VARIANT_*.jsonl``)."""

COUNTERS = ("expansions", "splits", "priced", "settled", "resolves", "points_asked", "freed")
"""The work counters of a call: attributes of the result in the struct-sequence API,
``last_NAME()`` functions of the module before it."""

CALL_FIELDS = ("args_hash", "status", "primary", "broken", "melds", *COUNTERS)
"""What must match for a call to match (``args`` itself is kept to explain a hash change)."""

POSITION_FIELDS = ("position", "applies", "answer", "calls")
"""What must match for a position's own record to match."""

PROGRESS_EVERY = 100
"""Positions between progress lines."""


@dataclass(frozen=True, slots=True)
class Source:
    """A named list of positions and the variant they are played in."""

    name: str
    variant: Variant
    load: Callable[[], list[Position]]


def sources() -> dict[str, Source]:
    """Every suite by name: ``benchmarks.speed``'s suites (as that benchmark loads them),
    then each ``tests/data/reference_VARIANT_*.jsonl`` (its variant from the name)."""
    found: dict[str, Source] = {}
    for spec in ALL_SUITES:
        found[spec.name] = Source(spec.name, spec.variant, _spec_loader(spec))
    for path in sorted(REFERENCE_DIR.glob("reference_*.jsonl")):
        variant = Variant.named(path.stem.split("_")[1])
        found[path.stem] = Source(path.stem, variant, _reference_loader(path))
    return found


def _spec_loader(spec: Spec) -> Callable[[], list[Position]]:
    return lambda: [entry.position for entry in spec.load()]


def _reference_loader(path: Path) -> Callable[[], list[Position]]:
    def load() -> list[Position]:
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        return [Position.parse(json.loads(line)["position"]) for line in lines]

    return load


def normalize(value: object) -> Any:
    """A value as plain JSON data, the same whichever API produced it: booleans as 0/1,
    tuples, lists and other sequences as lists, mappings with sorted string keys."""
    if isinstance(value, bool):
        return int(value)
    if value is None or isinstance(value, int | float | str):
        return value
    if isinstance(value, dict):
        return {str(key): normalize(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, tuple | list):
        return [normalize(item) for item in value]
    try:
        return [normalize(item) for item in value]  # type: ignore[attr-defined]
    except TypeError:
        return repr(value)


def args_hash(args: Record) -> str:
    """A short, stable hash of a call's normalized arguments."""
    text = json.dumps(args, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Recorder:
    """Wraps ``_search.search`` (the module attribute ``solver.fastpath`` calls) and keeps a
    record of each call made for the current position."""

    def __init__(self) -> None:
        self.module = fastpath._search
        self.original: Callable[..., Any] = self.module.search
        self.position = ""
        self.calls: list[Record] = []
        self.api: set[str] = set()
        """Which way the counters were read: ``attributes`` or ``functions``."""

    @contextlib.contextmanager
    def installed(self) -> Iterator[Recorder]:
        """The wrapper in place for the duration, the original put back after."""
        # setattr: the stub declares ``search`` a function, which mypy will not let be assigned.
        setattr(self.module, "search", self.wrapper)  # noqa: B010
        try:
            yield self
        finally:
            setattr(self.module, "search", self.original)  # noqa: B010

    def wrapper(self, *args: object, **kwargs: object) -> Any:
        """The original call, unchanged, with its arguments and result recorded."""
        result = self.original(*args, **kwargs)
        status, primary, broken, melds = result
        call_args = {"args": normalize(args), "kwargs": normalize(kwargs)}
        record: Record = {
            "kind": "call",
            "pos": self.position,
            "i": len(self.calls),
            "args_hash": args_hash(call_args),
            "status": normalize(status),
            "primary": normalize(primary),
            "broken": normalize(broken),
            "melds": normalize(melds),
        }
        for name in COUNTERS:
            if hasattr(result, name):
                value = getattr(result, name)
                self.api.add("attributes")
            else:
                value = getattr(self.module, f"last_{name}")()
                self.api.add("functions")
            record[name] = normalize(value)
        record["args"] = call_args
        self.calls.append(record)
        return result


def fingerprint(recorder: Recorder, source: Source, number: int, position: Position) -> list[Record]:
    """The position's record and its calls' records: the fast path asked as ``hint()``
    asks it (``solver.engine.dispatch``: a validated position with a hand, where
    ``applies``; points, default budget, no keep_jokers, opened), CP-SAT never."""
    recorder.position = f"{source.name}:{number}"
    recorder.calls = []
    variant = source.variant
    where = position.validate(variant)
    applies = len(where.hand) > 0 and fastpath.applies(where, variant, keep_jokers=False, opened=True)
    answer: Record | None = None
    if applies:
        found = fastpath.search(
            where, variant, objective="points", started=time.perf_counter(), keep_jokers=False, opened=True
        )
        if found is not None:
            answer = {
                "status": found.status,
                "table": str(found.table),
                "played": [str(piece) for piece in found.played],
                "melds_broken": found.melds_broken,
            }
    head: Record = {
        "kind": "position",
        "pos": recorder.position,
        "suite": source.name,
        "n": number,
        "position": str(position),
        "applies": int(applies),
        "answer": answer,
        "calls": len(recorder.calls),
    }
    return [head, *recorder.calls]


def run(chosen: list[Source], recorder: Recorder) -> Iterator[list[Record]]:
    """Each position's records in turn, with progress on stderr."""
    started = time.perf_counter()
    calls = 0
    for source in chosen:
        positions = source.load()
        for number, position in enumerate(positions):
            records = fingerprint(recorder, source, number, position)
            calls += len(records) - 1
            yield records
            done = number + 1
            if done % PROGRESS_EVERY == 0 or done == len(positions):
                elapsed = time.perf_counter() - started
                print(
                    f"  {source.name}: {done}/{len(positions)} positions "
                    f"({calls} calls in all, {elapsed:.1f} s)",
                    file=sys.stderr,
                    flush=True,
                )


def open_text(path: Path, *, write: bool = False, gz: bool | None = None) -> IO[str]:
    """A text file to read or write, gzip-compressed when ``gz`` (by default when its name
    ends in ``.gz``)."""
    if path.name.endswith(".gz") if gz is None else gz:
        return gzip.open(path, "wt" if write else "rt", encoding="utf-8")
    return path.open("w" if write else "r", encoding="utf-8")


def meta(chosen: list[Source]) -> Record:
    """Where a recording came from: the solver package it imported and its commit."""
    folder = solver_folder()
    commit: str | None = None
    dirty: bool | None = None
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        commit = _git(folder, "rev-parse", "HEAD").strip()
        dirty = bool(_git(folder, "status", "--porcelain", "--untracked-files=no").strip())
    return {
        "kind": "meta",
        "date": str(date.today()),
        "solver": str(folder),
        "commit": commit,
        "dirty": dirty,
        "suites": [source.name for source in chosen],
        "state_budget": fastpath.STATE_BUDGET,
        "lp_after": fastpath.LP_AFTER,
        "prices_available": fastpath.prices_available(),
    }


def _git(folder: Path, *args: str) -> str:
    """What a git command in ``folder`` prints (CalledProcessError when it fails)."""
    command = ["git", "-C", str(folder), *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def save(path: Path, chosen: list[Source]) -> int:
    """Record every chosen position into ``path`` (written whole or not at all)."""
    recorder = Recorder()
    partial = path.with_name(path.name + ".partial")
    started = time.perf_counter()
    positions = calls = 0
    try:
        with open_text(partial, write=True, gz=path.name.endswith(".gz")) as out, recorder.installed():
            out.write(json.dumps(meta(chosen)) + "\n")
            for records in run(chosen, recorder):
                for record in records:
                    out.write(json.dumps(record, separators=(",", ":")) + "\n")
                positions += 1
                calls += len(records) - 1
    except KeyboardInterrupt:
        partial.unlink(missing_ok=True)
        print(f"interrupted after {positions} positions: nothing saved", file=sys.stderr)
        return 130
    os.replace(partial, path)
    elapsed = time.perf_counter() - started
    print(
        f"saved {positions} positions and {calls} calls to {path} in {elapsed:.1f} s "
        f"(counters read as {', '.join(sorted(recorder.api)) or 'no call'}; solver from {solver_folder()})"
    )
    return 0


def solver_folder() -> Path:
    """The folder the ``solver`` package was imported from (a work tree's ``solver/``)."""
    return Path(solver.__file__).resolve().parent


@dataclass(slots=True)
class Baseline:
    """A saved recording: its meta record, and per position its record and its calls."""

    meta: Record
    positions: dict[str, tuple[Record, list[Record]]]

    @staticmethod
    def read(path: Path) -> Baseline:
        """The recording in ``path`` (as ``save`` writes it)."""
        header: Record = {}
        positions: dict[str, tuple[Record, list[Record]]] = {}
        with open_text(path) as lines:
            for number, line in enumerate(lines, start=1):
                record = json.loads(line)
                if record["kind"] == "meta":
                    header = record
                elif record["kind"] == "position":
                    positions[record["pos"]] = (record, [])
                elif record["pos"] in positions:
                    positions[record["pos"]][1].append(record)
                else:
                    raise SystemExit(f"{path}:{number}: a call of {record['pos']} before its position")
        return Baseline(header, positions)


def _short(value: object, width: int = 60) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= width else text[: width - 3] + "..."


def _arg_changes(before: Record, after: Record) -> str:
    """Which arguments differ between two calls' recorded arguments."""
    changes: list[str] = []
    old_args, new_args = before.get("args", {}), after.get("args", {})
    for part in ("args", "kwargs"):
        old, new = old_args.get(part), new_args.get(part)
        if isinstance(old, list) and isinstance(new, list):
            keys: list[Any] = list(range(max(len(old), len(new))))
            get_old = dict(enumerate(old)).get
            get_new = dict(enumerate(new)).get
        elif isinstance(old, dict) and isinstance(new, dict):
            keys = sorted(set(old) | set(new))
            get_old, get_new = old.get, new.get
        else:
            changes.append(f"{part} {_short(old)} -> {_short(new)}")
            continue
        for key in keys:
            if get_old(key) != get_new(key):
                label = f"#{key}" if part == "args" else str(key)
                changes.append(f"{label} {_short(get_old(key), 30)} -> {_short(get_new(key), 30)}")
    return ", ".join(changes)


def call_differences(before: Record, after: Record) -> list[str]:
    """The fields in which two records of one call differ, described."""
    found: list[str] = []
    for name in CALL_FIELDS:
        if before.get(name) != after.get(name):
            if name == "args_hash":
                found.append(f"arguments ({_arg_changes(before, after)})")
            else:
                found.append(f"{name} {_short(before.get(name))} -> {_short(after.get(name))}")
    return found


@dataclass(slots=True)
class Comparison:
    """The running tally of a ``--compare``."""

    show: int
    positions: int = 0
    positions_same: int = 0
    calls_before: int = 0
    calls_now: int = 0
    calls_same: int = 0
    differences: int = 0
    listed: list[str] = field(default_factory=list)
    """The first ``show`` differences, described."""

    def differ(self, text: str) -> None:
        self.differences += 1
        if len(self.listed) < self.show:
            self.listed.append(text)

    def add(self, records: list[Record], baseline: Baseline) -> None:
        """Compare one position's fresh records with the baseline's."""
        head, calls = records[0], records[1:]
        pos = head["pos"]
        self.positions += 1
        self.calls_now += len(calls)
        if pos not in baseline.positions:
            self.differ(f"{pos}: not in the baseline")
            return
        old_head, old_calls = baseline.positions[pos]
        self.calls_before += len(old_calls)
        same = True
        for name in POSITION_FIELDS:
            if old_head.get(name) != head.get(name):
                same = False
                self.differ(f"{pos}: {name} {_short(old_head.get(name))} -> {_short(head.get(name))}")
        for index in range(max(len(calls), len(old_calls))):
            if index >= len(calls) or index >= len(old_calls):
                where = "the baseline" if index >= len(calls) else "this run"
                same = False
                self.differ(f"{pos} call {index}: only in {where}")
                continue
            found = call_differences(old_calls[index], calls[index])
            if found:
                same = False
                self.differ(f"{pos} call {index}: " + "; ".join(found))
            else:
                self.calls_same += 1
        self.positions_same += same

    def report(self, missing: list[str]) -> None:
        for pos in missing:
            self.differ(f"{pos}: in the baseline, not in this run")
        print(f"positions: {self.positions_same} of {self.positions} identical", end="")
        print(f" ({len(missing)} of the baseline's not run)" if missing else "")
        print(
            f"calls: {self.calls_same} of {self.calls_before} in the baseline identical "
            f"({self.calls_now} made in this run)"
        )
        if self.differences:
            print(f"{self.differences} differences; the first {len(self.listed)}:")
            for text in self.listed:
                print(f"  {text}")
        else:
            print("no differences")


def compare(path: Path, baseline: Baseline, chosen: list[Source], show: int) -> int:
    """Re-run the chosen positions and compare each with ``baseline`` (read from ``path``)."""
    print(
        f"baseline {path}: {len(baseline.positions)} positions, "
        f"commit {baseline.meta.get('commit')}, solver {baseline.meta.get('solver')}; "
        f"this run: solver {solver_folder()}",
        file=sys.stderr,
    )
    recorder = Recorder()
    tally = Comparison(show)
    seen: set[str] = set()
    started = time.perf_counter()
    interrupted = False
    try:
        with recorder.installed():
            for records in run(chosen, recorder):
                seen.add(records[0]["pos"])
                tally.add(records, baseline)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the figures below cover the positions compared so far", file=sys.stderr)
    names = {source.name for source in chosen}
    missing: list[str] = []
    if not interrupted:
        missing = [pos for pos, (head, _) in baseline.positions.items() if head["suite"] in names]
        missing = [pos for pos in missing if pos not in seen]
    tally.report(missing)
    api = ", ".join(sorted(recorder.api)) or "no call"
    print(f"({time.perf_counter() - started:.1f} s; counters read as {api})")
    if interrupted:
        return 130
    return 1 if tally.differences else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, metavar="FILE", help="record every call into FILE (.gz: gzip)")
    mode.add_argument("--compare", type=Path, metavar="FILE", help="re-run and compare with FILE")
    parser.add_argument(
        "--suite",
        action="append",
        default=None,
        metavar="NAME",
        help="suite name (repeatable; default: every suite, or with --compare every suite in FILE)",
    )
    parser.add_argument("--show", type=int, default=20, help="differences to list (default 20)")
    args = parser.parse_args(argv)
    known = sources()
    names: list[str] = args.suite or []
    baseline = None if args.compare is None else Baseline.read(args.compare)
    if not names and baseline is not None:
        names = list(baseline.meta.get("suites") or known)
    unknown = [name for name in names if name not in known]
    if unknown:
        parser.error(f"unknown suite {', '.join(unknown)}; choose from {', '.join(known)}")
    chosen = [known[name] for name in names] if names else list(known.values())
    if baseline is None:
        return save(args.save, chosen)
    return compare(args.compare, baseline, chosen, args.show)


if __name__ == "__main__":
    sys.exit(main())
