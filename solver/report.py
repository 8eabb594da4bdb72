"""Presentation of results apart from the solving: a hint with its plan, as text and JSON.

The engine answers with a ``Hint`` (plain data: the position, the new table, the figures);
how to get there step by step is the plan's (``solver.plan``), and putting the two
together for a person or a client is this module's job, so that the engine never imports
the plan (DESIGN.md's layers).  ``hint_payload`` is the shared hint JSON with its steps
(the CLI's ``--json``, ``POST /v1/hint``); ``plan_of`` and ``moves_of`` give the steps of a
hint structured and in plain English.
"""

from __future__ import annotations

from solver.engine.result import Hint
from solver.plan import Plan, plan_play
from solver.position import Position

__all__ = ["hint_payload", "moves_of", "plan_of"]


def plan_of(h: Hint) -> Plan | None:
    """The steps from the old table to the new one (``solver.plan.plan_play``: the referee
    judges the play first), or None when there is no play.  ``plan_of(h).lines()`` reads
    them in plain English."""
    if not h.has_play:
        return None
    return plan_play(h.position, h.table, variant=h.variant)


def moves_of(h: Hint) -> list[str]:
    """The plan's steps in plain English, one line each (empty without a play)."""
    found = plan_of(h)
    return [] if found is None else found.lines()


def hint_payload(h: Hint, *, before: Position | None = None) -> dict[str, object]:
    """``h.to_dict()`` plus ``moves``: the plan's steps (structured, each with ``text``),
    and ``rearrangements``: the steps grouped into independent rearrangements
    (``solver.flow``); empty lists when the hint has no play.

    ``before`` is the hint's position as the user entered it (``Position.parse(text,
    keep_order=True)``): the steps then number old melds in the order they were typed,
    and ``old_table`` gives that table, so "meld 1" is the first meld the user wrote.
    Without it, old melds are numbered in canonical order.

    The plan is built by ``plan_play``, so the referee judges the hint's play first: the
    engine does not judge its own answers, and a ``Hint`` is a plain dataclass that may
    have been built or changed by hand."""
    entered = h.position if before is None else before
    if entered is not h.position and entered.canonical() != h.position.canonical():
        raise ValueError(f"'before' ({entered}) is not the hint's position ({h.position})")
    moves: list[dict[str, object]] = []
    groups: list[dict[str, object]] = []
    if h.has_play:
        plan = plan_play(entered, h.table, variant=h.variant)
        moves = plan.to_dicts()
        groups = [group.to_dict() for group in plan.rearrangements()]
    return {**h.to_dict(), "old_table": str(entered.table), "moves": moves, "rearrangements": groups}
