"""The best play after each possible draw, for the draw-or-meld analysis, across backends.

Each draw is settled by the first of these that can:

1. the fast path's points program (``solver.fastpath.points``): the fewest points after
   each draw, exactly, all draws in one call, where it covers the position (no opening
   rule, at most two jokers) and finishes within its state budget;
2. the fast path's search, within ``DRAW_BUDGET`` expansions per draw;
3. CP-SAT's draw model (``solver.cpsat.draws``), built once for all that are left.

The current position's best play is part of the answer: the caller's (``now``, e.g.
``analyze``'s hint), else the search's, else CP-SAT's: its single-position model when
the first two settled every draw (much cheaper than the draw model, which is built for
every draw), else the draw model's.  When the fast path settles everything, OR-Tools is
never imported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

import solver.fastpath as fastpath
from solver.cards import Joker, Piece
from solver.engine.result import Hint
from solver.fastpath import points as points_program
from solver.position import Hand, Position
from solver.solution import DrawResults, DrawValue, Solution
from solver.variants import Variant

__all__ = ["DRAW_BUDGET", "PointsLeft", "best_after_draws", "points_left"]

DRAW_BUDGET = 500
"""Expansions the search may spend on one draw (about 0.6 ms) before the draw goes to the
model: an analysis tries some 40 draws, and a draw the search cannot finish soon is
cheaper for the model, which is built once for all of them."""


def best_after_draws(
    position: Position,
    variant: Variant,
    pieces: Sequence[Piece],
    *,
    time_limit: float,
    use_lp: bool = True,
    fast_path: bool = True,
    now: Hint | None = None,
) -> DrawResults:
    """The current best play and, for each distinct piece in ``pieces`` (a joker is
    ``Joker()``), the fewest hand points after drawing it and playing at best.

    The position must be valid for the variant and hold no more than two jokers with
    any one draw (as ``hint()`` requires).  ``use_lp=False`` settles the model's draws
    by CP-SAT alone and ``fast_path=False`` skips the fast path, both the points program
    and the search (both for cross-checks).  ``now`` is the position's best play when
    the caller has it already (``hint()``'s answer for this position and variant, points
    objective): it is not solved again.  ``time_limit`` bounds each solve.
    """
    started = time.perf_counter()
    distinct: list[Piece] = []
    for piece in pieces:
        normal = Joker() if isinstance(piece, Joker) else piece
        if normal not in distinct:
            distinct.append(normal)
    current = _given(now, position, variant) if now is not None else None
    if current is None and fast_path:
        current = _searched_now(position, variant, started)
    # A known best play's points bound the program: should it outgrow its budget on the
    # position, it tries again under that bound, where it usually fits and settles most
    # draws (those that leave no more), which the search and the draw model would each
    # take far longer over.
    bound = None if current is None else current.now_points
    by_points: list[DrawValue] = []
    outgrown = False
    if fast_path:
        by_points, outgrown = _points_draws(position, variant, distinct, bound=bound)
    if outgrown and current is None and len(position.hand):
        current = _solved_now(position, variant, started, time_limit)
        by_points, _ = _points_draws(position, variant, distinct, bound=current.now_points)
    if current is None and len(by_points) == len(distinct) and len(position.hand):
        current = _solved_now(position, variant, started, time_limit)
    searched = current
    if fast_path:
        searched = _search_draws(position, variant, distinct, started, by_points, current)
    if searched is not None and len(searched.draws) == len(distinct):
        return searched
    from solver.cpsat import draws

    return draws.solve_draws(
        position,
        variant,
        distinct,
        time_limit=time_limit,
        use_lp=use_lp,
        settled=searched,
        known_draws=by_points,
        started=started,
    )


class PointsLeft(NamedTuple):
    """The fewest points a hand keeps after one play, and whether that takes a play."""

    points: int
    has_play: bool


def points_left(position: Position, variant: Variant) -> PointsLeft | None:
    """The fewest points an opened hand can keep after one play, and whether that takes a
    play, by the points program alone (exact, all cards worth points: no points left is
    going out), for a validated position; None where it does not answer (no hand, the
    position outside ``points.covers``, a layer too big).  The rollouts ask it where they
    need the number and not the play (``solver.strategy.rollout.rollout_points``)."""
    if not len(position.hand) or not points_program.covers(position, variant):
        return None
    answer = points_program.fewest_points(position, variant, [None])[0]
    return None if answer is None else PointsLeft(answer.points, answer.has_play)


def _points_draws(
    position: Position, variant: Variant, pieces: list[Piece], *, bound: int | None = None
) -> tuple[list[DrawValue], bool]:
    """The draws the points program settles, and whether it outgrew its budget on the
    position as it is (then it settles none: its draws would not finish either, unless
    it is asked again with ``bound``, the points of a play of the position; see
    ``points.fewest_points``).  None are settled where it does not cover the position."""
    if not len(position.hand) or not points_program.covers(position, variant):
        return [], False
    answers = points_program.fewest_points(position, variant, [None, *pieces], bound=bound)
    if answers[0] is None:
        return [], True
    return [
        DrawValue(piece, answer.points, answer.has_play, True, "points")
        for piece, answer in zip(pieces, answers[1:], strict=True)
        if answer is not None
    ], False


def _current(found: Solution | Hint, variant: Variant, started: float) -> DrawResults:
    """The current position's answer as a DrawResults with no draws settled yet."""
    timings = {"build_ms": 0.0, "solve_ms": (time.perf_counter() - started) * 1000}
    exact = found.status in ("optimal", "no_play")
    return DrawResults(found.hand.points(variant), bool(found.played), found.table, exact, (), timings)


def _given(now: Hint, position: Position, variant: Variant) -> DrawResults:
    """The caller's best play, checked to be about this position and variant."""
    if now.position != position or now.variant != variant or now.objective != "points":
        raise ValueError("the best play given is not hint()'s answer for this position and variant")
    return _current(now, variant, time.perf_counter())


def _searched_now(position: Position, variant: Variant, started: float) -> DrawResults | None:
    """The current position by the fast path's search, None where it does not answer."""
    if not len(position.hand) or not fastpath.applies(position, variant, keep_jokers=False, opened=True):
        return None
    found = fastpath.search(position, variant, objective="points", started=started)
    return None if found is None else _current(found, variant, started)


def _solved_now(position: Position, variant: Variant, started: float, time_limit: float) -> DrawResults:
    """The current position by CP-SAT's single-position model (every draw is settled)."""
    from solver import cpsat

    found = cpsat.solve(
        position,
        variant,
        objective="points",
        keep_jokers=False,
        opened=True,
        time_limit=time_limit,
        started=started,
    )
    return _current(found, variant, started)


def _search_draws(
    position: Position,
    variant: Variant,
    pieces: list[Piece],
    started: float,
    settled: list[DrawValue],
    current: DrawResults | None,
) -> DrawResults | None:
    """The current position (``current``) and each draw by the fast path's search, as far
    as it goes: None when the current position is not known; otherwise the draws the
    search finished and the ``settled`` ones, in the order of ``pieces`` (the rest are
    left to the model)."""
    if current is None:
        return None
    known = {value.piece: value for value in settled}
    values: list[DrawValue] = []
    for piece in pieces:
        if piece in known:
            values.append(known[piece])
            continue
        after = Position(position.table, Hand.of((*position.hand.pieces, piece)))
        if not fastpath.applies(after, variant, keep_jokers=False, opened=True):
            continue  # the drawn card could free a table joker: the model's part
        found = fastpath.search(after, variant, objective="points", started=started, budget=DRAW_BUDGET)
        if found is not None:
            points = found.hand.points(variant)
            values.append(DrawValue(piece, points, bool(found.played), True, "search"))
    timings = {"build_ms": 0.0, "solve_ms": (time.perf_counter() - started) * 1000}
    return replace(current, draws=tuple(values), timings=timings)
