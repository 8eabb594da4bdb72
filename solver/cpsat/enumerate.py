"""Questions about all the legal plays of a position, not just the best one.

- ``count_optimal_plays``: how many distinct sets of played cards reach the best
  points, up to a cap.  Each solve fixes the points left at the optimum and forbids
  the played multisets already found (a table constraint on the ``play`` counts and
  the hand jokers played), until CP-SAT proves no other exists.
- ``ranked_plays``: the best plays with distinct sets of played cards, best first.
  Each solve keeps the hint model's objective and forbids the played multisets already
  found, so the next answer is the best play that plays something else.
- ``playable_pieces``: which hand pieces some legal play uses.  Each solve asks for a
  play using at least one piece not yet seen played; when none exists, the rest can
  never be played.  At most one solve per distinct hand piece, usually two or three.

All use the hint model as it is (``build_instance`` and ``build_model``; the counting
ones with its objective removed), so they answer for exactly the plays ``hint()``
chooses among.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cards import ALL_CARDS, Joker, Piece
from solver.cpsat.extract import extract_play
from solver.cpsat.instance import build_instance
from solver.cpsat.model import HintModel, build_model
from solver.cpsat.params import new_solver, set_domain
from solver.position import Position
from solver.solution import Objective, Solution, SolveStatus
from solver.variants import Variant

__all__ = ["PlayCount", "Playable", "count_optimal_plays", "playable_pieces", "ranked_plays"]


@dataclass(frozen=True, slots=True)
class PlayCount:
    count: int
    """Distinct played multisets that leave the best points (at most the cap)."""
    capped: bool
    """More than ``count`` exist: the cap stopped the count."""
    exact: bool
    """False when a time limit stopped a solve (the count is then a lower bound)."""


@dataclass(frozen=True, slots=True)
class Playable:
    playable: tuple[Piece, ...]
    """Distinct hand pieces (a hand joker as ``*``) that some legal play uses."""
    never: tuple[Piece, ...]
    """Distinct hand pieces that no legal play uses."""
    exact: bool
    """False when a time limit stopped a solve: pieces not proven playable are in ``never``."""


def _feasibility_model(position: Position, variant: Variant) -> HintModel:
    built = build_model(build_instance(position, variant))
    built.model.clear_objective()  # type: ignore[no-untyped-call]
    return built


def _play_vars(built: HintModel) -> list[tuple[Piece, cp_model.IntVar]]:
    """The play counts per distinct hand piece, in a fixed order (cards by index, joker last)."""
    found: list[tuple[Piece, cp_model.IntVar]] = [
        (ALL_CARDS[c], built.variable(index)) for c, index in sorted(built.play.items())
    ]
    if built.hand_jokers_played is not None:
        found.append((Joker(), built.variable(built.hand_jokers_played)))
    return found


def count_optimal_plays(
    position: Position,
    variant: Variant,
    *,
    best_points: int,
    cap: int,
    time_limit: float,
) -> PlayCount:
    """Distinct played multisets (cards with their counts, hand jokers by number) of the
    plays that leave exactly ``best_points`` in the hand, counted up to ``cap``."""
    if cap < 1:
        raise ValueError(f"the play count cap must be at least 1, not {cap}")
    built = _feasibility_model(position, variant)
    model = built.model
    model.add(built.primary == best_points)
    variables = [var for _, var in _play_vars(built)]
    solver = new_solver(time_limit)
    found = 0
    while found <= cap:
        code = solver.solve(model)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return PlayCount(found, False, code == cp_model.INFEASIBLE)
        found += 1
        model.add_forbidden_assignments(variables, [[int(solver.value(var)) for var in variables]])
    return PlayCount(cap, True, True)


def ranked_plays(
    position: Position,
    variant: Variant,
    *,
    count: int,
    objective: Objective,
    keep_jokers: bool,
    opened: bool,
    time_limit: float,
    exclude: Sequence[Sequence[Piece]] = (),
) -> list[Solution]:
    """Up to ``count`` best plays whose played multisets (cards with their counts, hand
    jokers by number) differ from each other and from every one in ``exclude``, best
    first by the hint's objective (primary, then melds broken).  Stops early when no
    other play exists or a solve finds nothing within ``time_limit``."""
    instance = build_instance(position, variant, objective=objective, keep_jokers=keep_jokers, opened=opened)
    built = build_model(instance)
    model = built.model
    pieces = _play_vars(built)
    variables = [var for _, var in pieces]

    def forbid(played: Sequence[Piece]) -> None:
        counts = Counter(Joker() if isinstance(p, Joker) else p for p in played)
        model.add_forbidden_assignments(variables, [[counts[piece] for piece, _ in pieces]])

    for played in exclude:
        forbid(played)
    solver = new_solver(time_limit)
    found: list[Solution] = []
    while len(found) < count and variables:
        start = time.perf_counter()
        code = solver.solve(model)
        end = time.perf_counter()
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        play = extract_play(instance, built, solver)
        status: SolveStatus = "optimal" if code == cp_model.OPTIMAL else "feasible"
        found.append(
            play.solution(status, build_ms=(time.perf_counter() - end) * 1000, solve_ms=(end - start) * 1000)
        )
        forbid(play.played)
    return found


def playable_pieces(
    position: Position,
    variant: Variant,
    *,
    time_limit: float,
    known: Iterable[Piece] = (),
) -> Playable:
    """Split the distinct hand pieces into those some legal play uses and the rest.
    ``known`` pieces are already known to be playable (e.g. the best play's)."""
    built = _feasibility_model(position, variant)
    model = built.model
    pieces = _play_vars(built)
    wanted: dict[Piece, cp_model.IntVar] = {}
    for piece, var in pieces:
        chosen = model.new_bool_var(f"uses_{piece}")
        model.add(var >= 1).only_enforce_if(chosen)
        wanted[piece] = chosen
    model.add_bool_or(list(wanted.values()))
    seen = {Joker() if isinstance(p, Joker) else p for p in known}
    solver = new_solver(time_limit)
    exact = True
    while True:
        for piece in seen & wanted.keys():
            set_domain(model, wanted[piece].index, 0, 0)
        if seen >= wanted.keys():
            break
        code = solver.solve(model)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            exact = code == cp_model.INFEASIBLE
            break
        seen |= {piece for piece, var in pieces if solver.value(var) >= 1}
    order = [piece for piece, _ in pieces]
    return Playable(
        tuple(p for p in order if p in seen),
        tuple(p for p in order if p not in seen),
        exact,
    )
