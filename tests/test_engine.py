"""The public engine: ``from solver import hint``, what it accepts, what it returns.

The engine's backends are held to the exact oracle in test_crosscheck, test_tiebreak and
test_fastpath; here is the surface a user touches first.
"""

from __future__ import annotations

import pickle
import typing

import pytest

import solver
from solver import Hint, Position, Table, Variant, check_play, hint
from solver.cards import NotationError
from solver.engine import Engine, HintStatus, Objective
from solver.position import PositionError

EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"


def test_the_readme_example_from_the_package() -> None:
    found = hint(Position.parse(EXAMPLE))
    assert str(found.table) == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"
    assert isinstance(found, Hint) and found.engine == "search" and found.goes_out


def test_notation_and_variant_names_are_accepted() -> None:
    by_text, by_position = hint(EXAMPLE), hint(Position.parse(EXAMPLE))
    assert (by_text.position, by_text.table) == (by_position.position, by_position.table)
    rummikub = hint("/ 10s 11s 12s 13s", variant="rummikub")
    assert rummikub.variant == Variant.rummikub() and rummikub.goes_out
    assert hint("/ 10s 11s 12s 13s", variant=" Rummikub ").variant.name == "rummikub"
    position = Position.parse("Kh Kd Kc / Ks")
    assert check_play(position, "Kh Kd Kc Ks").ok
    assert check_play("Kh Kd Kc / Ks", Table.parse("Ks Kh Kd Kc"), variant="machiavelli").ok
    assert not check_play(position, "Kh Kd Kc | Ks").ok


def test_wrong_kinds_of_argument_say_what_to_pass() -> None:
    with pytest.raises(TypeError, match="expected a Position or its notation"):
        hint(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a Variant or one of the names manipulation"):
        hint(EXAMPLE, variant=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown variant 'poker'"):
        hint(EXAMPLE, variant="poker")
    with pytest.raises(TypeError, match="expected a Table or its notation"):
        check_play(EXAMPLE, ["Kh", "Kd", "Kc"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"use Position\.parse"):
        Position("Kh Kd Kc / Ac")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="time limit must be a number"):
        hint(EXAMPLE, time_limit="1")  # type: ignore[arg-type]
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="positive number of seconds"):
            hint(EXAMPLE, time_limit=bad)


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        check_play(EXAMPLE, "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac", Variant.manipulation())  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        hint(EXAMPLE, Variant.manipulation())  # type: ignore[call-arg]


def test_a_hints_steps_come_from_the_presentation() -> None:
    """The steps are the presentation's (``solver.report``), so the engine never imports
    the plan (DESIGN.md; issue 37: ``Hint.plan`` imported it at run time)."""
    from solver.report import moves_of, plan_of

    found = hint(EXAMPLE)
    plan = plan_of(found)
    assert plan is not None and Table.of(plan.replay().table.melds) == found.table
    moves = moves_of(found)
    assert moves == plan.lines() and len(moves) == 3
    assert "A♣" not in moves[2] and "Ac from your hand" in moves[2]
    nothing = hint("5h 6h 7h / Kc")
    assert nothing.status == "no_play" and plan_of(nothing) is None and moves_of(nothing) == []


def test_result_fields_are_literal_types() -> None:
    hints = typing.get_type_hints(Hint)
    assert hints["objective"] == Objective == typing.Literal["points", "cards"]
    assert hints["engine"] == Engine == typing.Literal["search", "cp-sat"]
    assert hints["status"] == HintStatus
    assert typing.get_args(HintStatus) == ("optimal", "feasible", "no_play", "timeout")
    assert not hasattr(hint(EXAMPLE), "extra")


def test_library_errors_survive_pickling() -> None:
    # A worker process sends its exceptions back pickled (the service's pool does).
    with pytest.raises(PositionError) as caught:
        hint("Kh Kh Kh Kh / Ac")
    error = pickle.loads(pickle.dumps(caught.value))
    assert isinstance(error, PositionError)
    assert error.problems == caught.value.problems and str(error) == str(caught.value)
    assert len(error.problems) == 2 and error.problems[-1].startswith("4 copies of Kh")
    with pytest.raises(NotationError) as bad:
        Position.parse("Kh Kx / Ac")
    again = pickle.loads(pickle.dumps(bad.value))
    assert isinstance(again, NotationError)
    assert (str(again), again.token, again.where) == (str(bad.value), bad.value.token, bad.value.where)


def test_the_package_has_a_version() -> None:
    assert solver.__version__.count(".") >= 2
