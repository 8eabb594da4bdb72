"""``rummy puzzle --from FILE``: the mistakes of a reviewed game, played again.

Each puzzle shows the position (table and hand), the game facts the review saw, the
move made in the game and the question; with ``--play`` (the default when stdin is a
terminal) it reads an answer per puzzle (``draw``, ``pass``, ``knock``, the table after
a play, ``show`` for the answer, ``skip``), says why an answer that is not a legal move
is refused and asks again, then judges it against the advised answer and shows that
answer with its steps.  Without ``--play`` it prints the puzzles, with their answers
when ``--solutions`` is given (and says how to see them otherwise).  ``--json`` prints
the puzzles' records, checked.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from rich.text import Text

from solver.cli.common import fail, out, print_table, styled_meld, use_faces
from solver.cli.faces import Verbatim
from solver.cli.paths import read_input_text
from solver.position import Table
from solver.strategy.mistakes import MistakePuzzle, PuzzleFileError, judge, read_puzzles

__all__ = ["play_mistakes"]


def _load(path: Path) -> list[MistakePuzzle]:
    try:
        text = read_input_text(path)
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"cannot read {path}: not UTF-8 text")
    try:
        puzzles = read_puzzles(text.splitlines())
    except PuzzleFileError as error:
        fail(f"bad puzzle file {path}: {error}")
    if not puzzles:
        fail(f"bad puzzle file {path}: it holds no puzzle")
    return puzzles


def _facts_line(puzzle: MistakePuzzle) -> str:
    facts = puzzle.facts
    sizes = facts.get("hand_sizes", [])
    others = ", ".join(map(str, sizes[1:])) or "none"
    return (
        f"{puzzle.variant.preset}, {facts['players']} players; other hands {others}; stock {facts['stock']}; "
        f"scores {', '.join(map(str, facts['scores']))} (yours first); draws left {facts['draws_left']}"
    )


def _show_puzzle(puzzle: MistakePuzzle, number: int, count: int) -> None:
    game = puzzle.game
    # The turn as the review's table numbers it (a file written before puzzles had it: the action).
    step = "turn" if game.get("turn") is not None else "action"
    where = [f"{name} {game[name]}" for name in ("round", step, "seat") if game.get(name) is not None]
    origin = f" ({', '.join(where)})" if where else ""  # a hand-written puzzle may not say
    band = f"a {puzzle.band}" if puzzle.band else "a decision"
    out.print(Text(f"Puzzle {number} of {count}: {band}{origin}", style="bold underline"))
    print_table("Table", puzzle.position.table)
    out.print(Text("Hand  ", style="bold") + styled_meld(puzzle.position.hand.pieces))
    # Notation, to paste back into a command (kept as notation for tiles too, and labelled so).
    label = "Position (notation)" if out.faces.tiles else "Position"
    out.print(Verbatim(f"{label}: {puzzle.position}"), markup=False)
    out.print(f"Facts: {_facts_line(puzzle)}", markup=False)
    if puzzle.made:
        out.print(f"In the game: {puzzle.made}", markup=False)
    out.print(puzzle.question(), markup=False)


def _show_answer(puzzle: MistakePuzzle) -> None:
    out.print(
        f"Advised: {puzzle.answer} (the move made lost {puzzle.loss.estimate:.1f} in expected value, "
        f"{puzzle.loss.low:.1f} to {puzzle.loss.high:.1f})",
        markup=False,
    )
    if puzzle.answer_table is not None:
        _show_play(puzzle, puzzle.answer_table)


def _show_play(puzzle: MistakePuzzle, table: Table) -> None:
    from solver.plan import plan_play

    print_table("Table after", table)
    plan = plan_play(puzzle.position, table, variant=puzzle.variant)
    for step, line in enumerate(plan.lines(pretty=True), start=1):
        out.print(f"  {step}. {line}", markup=False)


def play_mistakes(path: Path, *, play: bool, json_output: bool, solutions: bool) -> None:
    """Print or play the puzzles of ``path`` (module docstring)."""
    puzzles = _load(path)
    if json_output:
        if play:
            fail("--json prints the puzzles; it cannot be combined with --play")
        for puzzle in puzzles:
            print(json.dumps(puzzle.to_dict()))
        return
    use_faces(puzzles[0].variant)
    asking = play or sys.stdin.isatty()
    right = 0
    answered = 0
    for number, puzzle in enumerate(puzzles, start=1):
        _show_puzzle(puzzle, number, len(puzzles))
        if not asking:
            if solutions:
                _show_answer(puzzle)
            out.print()
            continue
        while True:
            line = sys.stdin.readline()
            if not line:
                out.print("(no more answers)", markup=False)
                _finish(right, answered, len(puzzles))
                return
            text = line.strip()
            if text.lower() in ("skip", "show"):
                _show_answer(puzzle)
                break
            verdict = judge(puzzle, text)
            if not verdict.legal:
                out.print(f"Not a move here: {verdict.message}. Try again (or show, skip).", markup=False)
                continue
            answered += 1
            right += verdict.right
            out.print(("Right: " if verdict.right else "Not quite: ") + verdict.message, markup=False)
            if not verdict.right:
                _show_answer(puzzle)
            break
        out.print()
    if asking:
        _finish(right, answered, len(puzzles))
    elif not solutions:
        out.print(
            f"Answers hidden. To see them, run: rummy puzzle --from {shlex.quote(str(path))} --solutions"
        )


def _finish(right: int, answered: int, total: int) -> None:
    plural = "" if total == 1 else "s"
    out.print(f"{right} of {answered} answered right ({total} puzzle{plural})", markup=False)
