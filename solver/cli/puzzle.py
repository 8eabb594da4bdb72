"""``rummy puzzle``: verified puzzles, each with its one solution, its moves and its grade.

Human output shows, per puzzle, the position (also in notation, to paste into
``rummy hint``), the measured features and score, the decoys, the solution table, the
steps of the plan and what the verification proved.  ``--json`` prints one JSON object
per puzzle per line (JSON lines, in order), nothing else.  The seed is always reported:
``--seed`` with the same value reproduces the same puzzles.
"""

from __future__ import annotations

import json
import random
import time
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from solver.cli.common import (
    JsonOption,
    PlayersOption,
    VariantOption,
    app,
    choices,
    err,
    fail,
    load_variant,
    out,
    print_table,
    styled_meld,
)
from solver.flow import summary_lines
from solver.puzzles import MAX_COUNT, GenerationError, Puzzle, generate_puzzles, parse_difficulty
from solver.puzzles.describe import decoy_text
from solver.puzzles.grade import BANDS, DIFFICULTIES

PROGRESS_AFTER = 1.0
"""Seconds of generation before the progress bar appears (on a terminal only)."""


def _bands_help() -> str:
    return ", ".join(
        f"{name} {low}+" if high is None else f"{name} {low}-{high}" for name, (low, high) in BANDS.items()
    )


class _LateProgress:
    """A progress bar on stderr that appears only once generation has taken a second."""

    def __init__(self, total: int, label: str) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self.started = time.perf_counter()
        self.bar: Progress | None = None

    def advance(self, _: Puzzle | None = None) -> None:
        self.done += 1
        if self.bar is None and err.is_terminal and time.perf_counter() - self.started > PROGRESS_AFTER:
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            )
            self.bar.start()
            self.bar.add_task(self.label, total=self.total, completed=self.done)
        elif self.bar is not None:
            self.bar.update(self.bar.task_ids[0], completed=self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _features_text(puzzle: Puzzle) -> str:
    f = puzzle.features
    return (
        f"score {puzzle.score} = 3*{f.broken} broken + {f.moved} moved + {f.hand} in hand"
        f" + 2*{f.decoys} decoys + 2*{f.jokers} jokers + {f.tangle} tangle"
    )


def print_puzzle(puzzle: Puzzle, number: int, count: int) -> None:
    """One puzzle for a person: position, grade, decoys, then the solution and its steps."""
    title = f"Puzzle {number} of {count}: {puzzle.difficulty} ({puzzle.variant.name})"
    out.print(Text(title, style="bold underline"))
    print_table("Table", puzzle.position.table)
    out.print(Text("Hand  ", style="bold") + styled_meld(puzzle.position.hand.pieces))
    out.print(f"Position: {puzzle.position}", markup=False)
    out.print(_features_text(puzzle), markup=False)
    for decoy in puzzle.decoys:
        out.print(f"Decoy: {decoy_text(decoy, puzzle.position, puzzle.plan, pretty=True)}.", markup=False)
    print_table("Solution", puzzle.solution)
    out.print(Text("Steps", style="bold"))
    for step, line in enumerate(puzzle.plan.lines(pretty=True), start=1):
        out.print(f"  {step}. {line}", markup=False)
    out.print(Text("Rearrangements", style="bold"))
    for line in summary_lines(puzzle.plan.rearrangements(), pretty=True):
        out.print(f"  - {line}", markup=False)
    out.print(
        "Verified: the referee accepts the solution; no way out keeps every table meld whole; "
        "no other final table (up to how sequences are cut).",
        markup=False,
    )
    out.print()


@app.command(name="puzzle")
def puzzle_command(
    count: Annotated[int, typer.Option(help=f"How many puzzles (1-{MAX_COUNT}).")] = 1,
    difficulty: Annotated[
        str, typer.Option(metavar=choices(DIFFICULTIES), help=f"Score bands: {_bands_help()}.")
    ] = "medium",
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    seed: Annotated[
        int | None, typer.Option(help="Random seed: the same seed gives the same puzzles (default: random).")
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Generate puzzles whose whole hand can be played only by rearranging the table, one way.

    Every puzzle is verified (referee, rearrangement needed, unique solution) and graded.

    --json prints one JSON object per puzzle per line.  Exit 1: no puzzle found; 2: bad input.
    """
    try:
        level = parse_difficulty(difficulty)
    except ValueError as error:
        fail(str(error))
    if not 1 <= count <= MAX_COUNT:
        fail(f"--count must be between 1 and {MAX_COUNT}, not {count}")
    rules = load_variant(variant, players)
    chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    progress = _LateProgress(count, f"{level} puzzles")
    try:
        puzzles = generate_puzzles(
            count, level, rng=random.Random(chosen_seed), variant=rules, progress=progress.advance
        )
    except GenerationError as error:
        fail(str(error), code=1)
    except ValueError as error:
        fail(str(error))
    finally:
        progress.close()
    if json_output:
        for number, found in enumerate(puzzles, start=1):
            print(json.dumps({"number": number, "seed": chosen_seed, **found.to_dict()}))
        return
    out.print(f"{count} {level} {rules.name} puzzle(s), seed {chosen_seed}", markup=False)
    out.print()
    for number, found in enumerate(puzzles, start=1):
        print_puzzle(found, number, count)
