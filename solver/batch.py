"""Hints for a batch of positions (``rummy hint --batch``), as a task for ``solver.runs``.

Each line of a batch is answered by a record in the machine-readable shape of
DESIGN.md: ``{"line": N, **hint payload}`` for a good line, ``{"line": N, "input": TEXT,
"error": MESSAGE}`` for a line that is not a valid position, and for an empty hand the one
answer it gets everywhere (``solver.facts.EMPTY_HAND``): ``{"line": N, "position": TEXT,
"empty_hand": true, "message": ...}``.  ``hint_lines`` answers one
chunk of lines; the run layer merges the chunks in line order, so the answers are the
same in this process, in a local pool or on a Dask cluster.  ``describe_record`` is the
one-line human form of a record.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.echo import echoed
from solver.engine import DEFAULT_TIME_LIMIT, Objective, hint
from solver.facts import EMPTY_HAND
from solver.position import Position
from solver.report import hint_payload
from solver.runs import Chunk
from solver.variants import Variant

__all__ = ["MAX_CHUNK", "BatchLine", "HintJob", "describe_record", "hint_lines"]

MAX_CHUNK = 100
"""Most lines in one task: a hint takes about a millisecond, so do many per task."""

BatchLine = tuple[int, str]
"""A line of a batch file: its number (1-based) and its text."""


@dataclass(frozen=True, slots=True)
class HintJob:
    """The options every line of a batch is hinted with."""

    variant: Variant
    objective: Objective = "points"
    keep_jokers: bool = False
    time_limit: float = DEFAULT_TIME_LIMIT
    opened: bool = True


def hint_line(job: HintJob, line: BatchLine) -> dict[str, object]:
    """The record answering one line: the hint, or the error that names what is wrong."""
    number, text = line
    try:
        position = Position.parse(text).validate(job.variant)
        entered = Position.parse(text, keep_order=True)  # the steps number melds as typed
    except ValueError as error:  # NotationError, PositionError, an illegal table meld
        return {"line": number, "input": text, "error": str(error)}
    if not len(position.hand):  # the one answer of an empty hand, as ``rummy hint`` gives it
        return {"line": number, "position": str(position), "empty_hand": True, "message": EMPTY_HAND}
    found = hint(
        position,
        variant=job.variant,
        objective=job.objective,
        keep_jokers=job.keep_jokers,
        time_limit=job.time_limit,
        opened=job.opened,
    )
    return {"line": number, **hint_payload(found, before=entered)}


def hint_lines(job: HintJob, chunk: Chunk[BatchLine]) -> list[dict[str, object]]:
    """The records of one chunk of lines, in order (the task ``solver.runs`` runs)."""
    return [hint_line(job, line) for line in chunk.items]


def _cards(cards: object) -> str:
    return " ".join(str(card) for card in cards) if isinstance(cards, list) and cards else "(empty)"


def describe_record(record: dict[str, object]) -> str:
    """One readable line for a record, starting with its line number, e.g.
    ``3: play Ac -> Jh Qh Kh | ...; hand (empty), 0 points, goes out``."""
    number = record["line"]
    if "error" in record:
        return f"{number}: error: bad position {echoed(str(record['input']))}: {record['error']}"
    if record.get("empty_hand"):
        return f"{number}: {EMPTY_HAND}"
    points = record["hand_points"]
    hand = f"hand {_cards(record['hand'])}, {points} point{'' if points == 1 else 's'}"
    status = record["status"]
    if status == "timeout":
        return f"{number}: no play found within the time limit; {hand}"
    if status == "no_play":
        return f"{number}: no play: the table stays {record['table'] or '(empty)'}; {hand}"
    notes = [hand]
    if record["goes_out"]:
        notes.append("goes out")
    elif record["can_knock"]:
        notes.append("can knock")
    if status != "optimal":
        notes.append("not proven optimal (time limit)")
    return f"{number}: play {_cards(record['played'])} -> {record['table']}; {', '.join(notes)}"
