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
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from solver.cli.backend import (
    JobsOption,
    SchedulerFileOption,
    SchedulerOption,
    backend_from_options,
    interruptible,
)
from solver.cli.common import (
    JsonOption,
    PlayersOption,
    VariantOption,
    app,
    choices,
    counted,
    err,
    fail,
    load_variant,
    out,
    print_table,
    styled_meld,
)
from solver.cli.faces import FacesConsole, Verbatim
from solver.cli.paths import OverwriteOption, check_output_file
from solver.flow import summary_lines
from solver.puzzles.grade import BANDS, DIFFICULTIES, MAX_COUNT, parse_difficulty
from solver.variants import MACHIAVELLI_MAX_PLAYERS, Variant

if TYPE_CHECKING:  # the generator (and OR-Tools) loads when puzzles are asked for, not for --help
    from solver.puzzles.generate import Puzzle

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


def _features_text(puzzle: Puzzle, *, solution: bool = True) -> str:
    """The score, and with the solution what it is made of (melds broken, cards moved...:
    a hint a player should not get before trying)."""
    if not solution:
        return f"score {puzzle.score}"
    f = puzzle.features
    return (
        f"score {puzzle.score} = 3*{f.broken} broken + {f.moved} moved + {f.hand} in hand"
        f" + 2*{f.decoys} decoys + 2*{f.jokers} jokers + {f.tangle} tangle"
    )


def deck_words(variant: Variant) -> str:
    """The deck a puzzle is dealt from, e.g. ``2 decks, 2 jokers: the deck of 3-5 players``: a table
    with two 2♠ is no puzzle of the 2-player game's one deck, and the title says so (the
    player counts only where they deal different decks)."""
    jokers = counted(variant.jokers, "joker") if variant.jokers else "no jokers"
    said = f"{counted(variant.decks, 'deck')}, {jokers}"
    if variant.players is not None:
        return f"{said}: the deck of {variant.players} players"
    decks = {}
    for players in range(2, MACHIAVELLI_MAX_PLAYERS + 1):  # the most players any variant takes
        try:
            other = Variant.named(variant.preset, players=players)
        except ValueError:
            continue
        decks[players] = (other.decks, other.jokers)
    same = [players for players, deck in decks.items() if deck == (variant.decks, variant.jokers)]
    if not same or len(same) == len(decks):
        return said
    counts = f"{same[0]}-{same[-1]}" if len(same) > 1 else str(same[0])
    return f"{said}: the deck of {counts} players"


def print_puzzle(
    puzzle: Puzzle, number: int, count: int, *, solution: bool = True, console: Console = out
) -> None:
    """One puzzle for a person: position, grade, then (unless ``solution`` is False) the
    decoys, the solution and its steps."""
    game = f"{puzzle.variant.preset}, {deck_words(puzzle.variant)}"
    title = f"Puzzle {number} of {count}: {puzzle.difficulty} ({game})"
    console.print(Text(title, style="bold underline"))
    print_table("Table", puzzle.position.table, console)
    console.print(Text("Hand  ", style="bold") + styled_meld(puzzle.position.hand.pieces))
    # Notation, to paste back into a command (also for tiles, where it is labelled so).
    tiles = isinstance(console, FacesConsole) and console.faces.tiles
    console.print(Verbatim(f"Position{' (notation)' if tiles else ''}: {puzzle.position}"), markup=False)
    console.print(_features_text(puzzle, solution=solution), markup=False)
    if solution:
        print_solution(puzzle, console)
    console.print()


def print_solution(puzzle: Puzzle, console: Console = out) -> None:
    """The decoys, the solution table, its steps and what the verification proved."""
    from solver.puzzles.describe import decoy_text

    for decoy in puzzle.decoys:
        console.print(f"Decoy: {decoy_text(decoy, puzzle.position, puzzle.plan, pretty=True)}.", markup=False)
    print_table("Solution", puzzle.solution, console)
    console.print(Text("Steps", style="bold"))
    for step, line in enumerate(puzzle.plan.lines(pretty=True), start=1):
        console.print(f"  {step}. {line}", markup=False)
    console.print(Text("Rearrangements", style="bold"))
    for line in summary_lines(puzzle.plan.rearrangements(), pretty=True):
        console.print(f"  - {line}", markup=False)
    console.print(
        "Verified: the referee accepts the solution; no way out keeps every table meld whole; "
        "no other final table (up to how sequences are cut).",
        markup=False,
    )


def _save_solutions(path: Path, puzzles: list[Puzzle], heading: str) -> None:
    """Every puzzle with its solution, as printed, into ``path`` (to read later)."""
    try:
        with path.open("w", encoding="utf-8") as stream:
            console = FacesConsole(
                file=stream, highlight=False, soft_wrap=True, no_color=True, width=100, faces=out.faces
            )
            console.print(heading, markup=False)
            console.print()
            for number, found in enumerate(puzzles, start=1):
                print_puzzle(found, number, len(puzzles), console=console)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")


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
    solutions: Annotated[
        bool,
        typer.Option(
            "--solutions/--no-solutions",
            help="Show the solutions, decoys and what the score is made of (hidden by default; "
            "the same --seed shows them later).",
        ),
    ] = False,
    solutions_to: Annotated[
        Path | None,
        typer.Option("--solutions-to", metavar="<file>", help="Also write the solutions to this file."),
    ] = None,
    json_output: JsonOption = False,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    scheduler_file: SchedulerFileOption = None,
    from_file: Annotated[
        Path | None,
        typer.Option(
            "--from",
            metavar="<file>",
            help="Play the puzzles of this file (rummy review --puzzles writes one) instead of generating.",
        ),
    ] = None,
    play: Annotated[
        bool,
        typer.Option("--play", help="With --from: ask for each answer on stdin (the default on a terminal)."),
    ] = False,
    overwrite: OverwriteOption = False,
) -> None:
    """Generate puzzles whose whole hand can be played only by rearranging the table, one way.

    Every puzzle is verified (referee, rearrangement needed, unique solution) and graded.
    The answers are kept for later: rerun with the same seed and --solutions, or read the
    file of --solutions-to.
    The same seed gives the same puzzles whatever --jobs, --scheduler or --scheduler-file.

    --from FILE plays the mistakes of a review (rummy review LOG --puzzles FILE) again: each
    position with its game facts, your answer judged against the advised one.

    --json prints one JSON object per puzzle per line.  Exit 1: no puzzle found; 2: bad input.
    """
    if from_file is not None:
        from solver.cli.mistakes import play_mistakes

        if play and json_output:
            fail("--json prints the puzzles; it cannot be combined with --play")
        if count != 1 or seed is not None or difficulty != "medium":
            fail("--count, --difficulty and --seed make new puzzles; --from plays the puzzles of a file")
        if variant.lower() != "manipulation" or players is not None:
            fail("--variant and --players choose the game of new puzzles; a puzzle file names its own")
        if (
            solutions_to is not None
            or overwrite
            or jobs is not None
            or scheduler is not None
            or scheduler_file is not None
        ):
            fail(
                "--solutions-to, --overwrite, --jobs, --scheduler and --scheduler-file go with new puzzles, "
                "not --from"
            )

        play_mistakes(from_file, play=play, json_output=json_output, solutions=solutions)
        return
    if play:
        fail("--play needs --from FILE: generated puzzles are printed, not played")
    try:
        level = parse_difficulty(difficulty)
    except ValueError as error:
        fail(str(error))
    if not 1 <= count <= MAX_COUNT:
        fail(f"--count must be between 1 and {MAX_COUNT}, not {count}")
    if seed is not None and seed < 0:
        fail(f"--seed must be 0 or more, not {seed}")  # as every other command: -5 gave 5's puzzles
    rules = load_variant(variant, players)
    if solutions_to is not None:
        check_output_file(solutions_to, "--solutions-to", overwrite=overwrite)
    backend = backend_from_options(jobs, scheduler, scheduler_file)
    chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    progress = _LateProgress(count, f"{level} puzzles")
    from solver.puzzles.generate import GenerationError, generate_puzzles

    try:
        with interruptible("puzzle generation"):
            puzzles = generate_puzzles(
                count,
                level,
                rng=random.Random(chosen_seed),
                variant=rules,
                progress=progress.advance,
                backend=backend,
            )
    except GenerationError as error:
        fail(str(error), code=1)
    except ValueError as error:
        fail(str(error))
    finally:
        progress.close()
    heading = f"{count} {level} {rules.preset} puzzle(s), seed {chosen_seed}"
    if solutions_to is not None:
        _save_solutions(solutions_to, puzzles, heading)
    if json_output:
        for number, found in enumerate(puzzles, start=1):
            record = found.to_dict(solution=solutions)
            print(json.dumps({"number": number, "seed": chosen_seed, **record}))
        return
    out.print(heading, markup=False)
    out.print()
    for number, found in enumerate(puzzles, start=1):
        print_puzzle(found, number, count, solution=solutions)
    if not solutions:
        again = _same_puzzles_command(count, level, variant, players, chosen_seed)
        where = f"read {solutions_to}, or run: " if solutions_to is not None else "run: "
        out.print(f"Solutions hidden. To see them, {where}{again}", markup=False)


def _same_puzzles_command(count: int, level: str, variant: str, players: int | None, seed: int) -> str:
    """The ``rummy puzzle`` command that prints the same puzzles with their solutions."""
    parts = ["rummy", "puzzle", "--count", str(count), "--difficulty", level]
    if variant != "manipulation":
        parts += ["--variant", variant]
    if players is not None:
        parts += ["--players", str(players)]
    return shlex.join([*parts, "--seed", str(seed), "--solutions"])
