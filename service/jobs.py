"""The work that runs on a pool worker: one library call each, returning the answer's JSON.

Each job builds its endpoint's response model (``service.schemas``) from the library's
JSON form and returns it encoded, as bytes: the model checks on the worker that the
answer is exactly what the contract states (a field the library adds, drops or retypes
is an error here, not an undocumented answer), the bytes cross the process boundary
cheaper than a pickled dict, and the server sends them as they are (``EncodedJSON``).

These are top-level functions of plain arguments so that a worker *process* can
unpickle and run them.  A position travels as its notation: the route has parsed and
checked it already, and a string pickles in microseconds where a parsed ``Position``
(a dataclass per card) costs the server process a tenth of a millisecond.  Inputs
arrive validated.  The library's own errors (``NotationError``, ``PositionError``)
pickle whole, so they come back from a worker as they were raised and the app's
handlers answer them; any other ``ValueError`` the library raises becomes an
``InputError`` here.

OR-Tools is loaded by the jobs that need it, never by importing this module: the app
imports it (for the job functions it hands to the pool) and must start without
OR-Tools, and a worker process loads it in its warm-up anyway.  The engine loads CP-SAT
only when a position needs it; the puzzle generator, which always does, is imported in
``puzzles_job``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from service.errors import InputError
from service.schemas import AdviseResponse, AnalyzeResponse, CheckResponse, HintResponse, PuzzlesResponse
from service.timing import phase
from solver.analysis import UnseenError, analyze
from solver.cards import NotationError, Piece
from solver.engine import Objective, alternatives, hint
from solver.facts import EmptyHandError
from solver.position import Position, PositionError, Table
from solver.puzzles.grade import Difficulty
from solver.referee import check_play
from solver.report import hint_payload
from solver.strategy.advice import Decision, advise
from solver.variants import Variant

__all__ = ["advise_job", "analyze_job", "check_job", "hint_job", "puzzles_job"]


def _input_error(error: ValueError) -> Exception:
    """The error to raise for a ValueError from the library: its own error types as they
    are, anything else as an ``InputError`` (422) naming the problem."""
    if isinstance(error, NotationError | PositionError):
        return error
    if isinstance(error, EmptyHandError):
        return InputError(str(error), kind="empty_hand", field="position")
    field = "unseen" if isinstance(error, UnseenError) else getattr(error, "field", None)
    return InputError(str(error), field=field)


def hint_job(
    position_text: str,
    variant: Variant,
    *,
    objective: Objective,
    keep_jokers: bool,
    opened: bool,
    time_limit: float,
    others: int = 0,
) -> bytes:
    """The best play, as the shared hint JSON with its ``moves``; with ``others``, up to
    that many next-best plays (other played sets) under ``alternatives``, which is
    absent otherwise.

    ``position_text`` is the position as entered (``edge.entered_of``): the engine gets
    it in canonical order, the steps number old melds in the order written."""
    options: dict[str, Any] = {
        "variant": variant,
        "objective": objective,
        "keep_jokers": keep_jokers,
        "opened": opened,
        "time_limit": time_limit,
    }
    try:
        with phase("engine"):
            entered = Position.parse(position_text, keep_order=True)
            if not len(entered.hand):
                raise EmptyHandError  # the one answer of an empty hand (422 empty_hand)
            ranked = alternatives(entered.canonical(), count=others + 1, **options) if others else ()
            found = ranked[0] if ranked else hint(entered.canonical(), **options)
    except ValueError as error:
        raise _input_error(error) from None
    with phase("plan"):
        payload = hint_payload(found, before=entered)
        if others:
            payload["alternatives"] = [hint_payload(other, before=entered) for other in ranked[1:]]
    with phase("encode"):
        answer = HintResponse.model_validate(payload)
        return answer.model_dump_json(exclude=None if others else {"alternatives"}).encode()


def analyze_job(
    position_text: str,
    variant: Variant,
    *,
    unseen: Sequence[Piece] | None,
    play_count_cap: int,
    time_limit: float,
    players_assumed: bool = False,
) -> bytes:
    """The analysis of a position, as ``Analysis.to_dict()``; its best play's steps
    number old melds as entered (``position_text`` as in ``hint_job``); ``players_assumed``:
    the request gave no player count (its facts say so)."""
    try:
        with phase("engine"):
            entered = Position.parse(position_text, keep_order=True)
            found = analyze(
                entered.canonical(),
                variant=variant,
                unseen=unseen,
                time_limit=time_limit,
                play_count_cap=play_count_cap,
            )
    except ValueError as error:
        raise _input_error(error) from None
    found = replace(found, players_assumed=players_assumed)
    with phase("plan"):
        payload = {**found.to_dict(), "best": hint_payload(found.best, before=entered)}
    with phase("encode"):
        return AnalyzeResponse.model_validate(payload).model_dump_json().encode()


def check_job(position_text: str, after_text: str, variant: Variant, *, opened: bool) -> bytes:
    """The referee's verdict on turning the position's table into ``after``."""
    with phase("engine"):
        before = Position.parse(position_text)
        after = Table.parse(after_text)
        verdict = check_play(before, after, variant=variant, opened=opened)
    with phase("encode"):
        payload = {"position": str(before), "after": str(after), **verdict.to_dict()}
        return CheckResponse.model_validate(payload).model_dump_json().encode()


def advise_job(
    position_text: str,
    variant: Variant,
    *,
    players: int | None,
    hand_sizes: Sequence[int] | None,
    stock: int | None,
    scores: Sequence[int] | None,
    draws_left: int | None,
    unseen: Sequence[Piece] | None,
    budget_seconds: float,
    samples: int,
    seed: int,
    decision: Decision = "meld",
) -> bytes:
    """The options of the turn (or of its knock ``decision``) ranked, as
    ``Advice.to_dict()``; a fact that does not fit the position is an ``InputError``."""
    try:
        with phase("engine"):
            found = advise(
                Position.parse(position_text).canonical(),
                variant=variant,
                players=players,
                hand_sizes=hand_sizes,
                stock=stock,
                scores=scores,
                draws_left=draws_left,
                unseen=unseen,
                budget_seconds=budget_seconds,
                samples=samples,
                seed=seed,
                decision=decision,
            )
    except ValueError as error:
        raise _input_error(error) from None
    with phase("encode"):
        return AdviseResponse.model_validate(found.to_dict()).model_dump_json().encode()


def puzzles_job(count: int, difficulty: Difficulty, variant: Variant, seed: int) -> bytes:
    """``count`` verified puzzles of ``difficulty`` from ``seed``, numbered from 1, each as
    ``Puzzle.to_dict()``, with the seed (the request's or the route's random one) to
    replay them; a difficulty the generator cannot reach is an ``InputError`` of kind
    ``unreachable``."""
    # Imported here, not at the top: the generator's models load OR-Tools (see the module docstring).
    from solver.puzzles.generate import GenerationError, generate_puzzles

    try:
        with phase("engine"):
            found = generate_puzzles(count, difficulty, rng=random.Random(seed), variant=variant)
    except GenerationError as error:
        raise InputError(str(error), kind="unreachable", field="difficulty") from None
    except ValueError as error:
        raise InputError(str(error)) from None
    with phase("encode"):
        puzzles = [{"number": number, **puzzle.to_dict()} for number, puzzle in enumerate(found, start=1)]
        payload = {"seed": seed, "difficulty": difficulty, "variant": variant.name, "puzzles": puzzles}
        return PuzzlesResponse.model_validate(payload).model_dump_json().encode()
