"""``rummy hint``: the best play for one position, or a batch of them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.text import Text

from solver.batch import MAX_CHUNK as BATCH_CHUNK
from solver.batch import HintJob, describe_record, hint_lines
from solver.cli.backend import (
    JobsOption,
    SchedulerFileOption,
    SchedulerOption,
    backend_from_options,
    interruptible,
)
from solver.cli.common import (
    JsonOption,
    NotOpenedOption,
    PlayersOption,
    VariantOption,
    app,
    check_not_opened,
    check_time_limit,
    choices,
    err,
    fail,
    in_game_words,
    load_position,
    load_variant,
    out,
    print_table,
    say_empty_hand,
    styled_meld,
    styled_played,
)
from solver.cli.faces import Verbatim
from solver.cli.paths import read_input_stream, read_input_text
from solver.engine import (
    DEFAULT_TIME_LIMIT,
    MAX_ALTERNATIVES,
    OBJECTIVES,
    Hint,
    Objective,
    alternatives,
    hint,
)
from solver.facts import EMPTY_HAND
from solver.flow import summary_lines
from solver.plan import plan_play
from solver.position import Position
from solver.report import hint_payload
from solver.runs import Backend, iter_indexed


def _read_lines(path: str) -> list[str]:
    """The batch's lines, from the file ``path`` or stdin (``-``); exit 2 naming the problem."""
    where = "the batch from stdin" if path == "-" else f"batch file {path!r}"
    if not path:
        fail("--batch needs a file name, or - for stdin")
    try:
        # A byte-order mark is not a card.
        if path == "-":
            return read_input_stream(sys.stdin.buffer, "utf-8-sig").splitlines()
        return read_input_text(Path(path), "utf-8-sig").splitlines()
    except OSError as error:
        fail(f"cannot read {where}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"cannot read {where}: not UTF-8 text")


def _hint_lines(path: str) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines; lines starting with # are comments."""
    for number, line in enumerate(_read_lines(path), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line.strip()


def _batch(path: str, job: HintJob, backend: Backend, json_output: bool) -> None:
    """Answer every line in input order (JSON lines or one readable line each), bad lines
    included; exit 2 at the end if any line was bad."""
    lines = list(_hint_lines(path))
    bad = 0
    with (
        interruptible("batch", "the lines printed so far are complete"),
        Progress(console=err, transient=True, disable=not err.is_terminal) as progress,
    ):
        task = progress.add_task("hints", total=len(lines))
        records = iter_indexed(
            hint_lines,
            job,
            lines,
            backend=backend,
            max_chunk=BATCH_CHUNK,
            on_chunk=lambda chunk, _done: progress.advance(task, len(chunk)),
        )
        with closing(records):  # Ctrl-C while printing ends the workers at once too
            for record in records:
                bad += "error" in record
                if json_output:
                    print(json.dumps(record), flush=True)
                elif "error" in record:  # the bad line echoed as typed, the words the game's
                    out.print(Verbatim(in_game_words(describe_record(record))))
                else:
                    out.print(describe_record(record), markup=False)
    if bad:
        err.print(f"{bad} of {len(lines)} lines had bad input", markup=False)
        raise typer.Exit(2)


def print_hint(result: Hint, before: Position | None = None, *, opened: bool = True) -> None:
    """The hint in words; ``before`` is the position as typed, so that the old melds are
    numbered in the order the user wrote them (the steps use the same numbers); a player
    not ``opened`` is told why no play counts (the opening's points from the hand)."""
    pos = result.position if before is None else before
    print_table("Table before", pos.table)
    out.print(Text("Hand  ", style="bold") + styled_meld(pos.hand.pieces))
    out.print()
    if not result.has_play:
        if not len(pos.hand):
            out.print(Text(EMPTY_HAND[0].upper() + EMPTY_HAND[1:] + ".", style="bold yellow"))
        elif result.status == "timeout":
            out.print(Text("No play found within the time limit.", style="bold yellow"))
        elif not opened and result.variant.opening_points:
            out.print(
                Text(
                    f"No opening meld: it needs {result.variant.opening_points} points from the "
                    "hand alone, in melds of its own. Draw.",
                    style="bold yellow",
                )
            )
        else:
            out.print(Text("No legal play: draw.", style="bold yellow"))
        return
    out.print(Text("Play ", style="bold green") + styled_played(result.played))
    print_table("Table after", result.table)
    out.print(Text("Hand left  ", style="bold") + styled_meld(result.hand.pieces))
    out.print(Text("Steps", style="bold"))
    plan = plan_play(pos, result.table, variant=result.variant)  # old melds numbered as typed
    for number, line in enumerate(plan.lines(pretty=True), start=1):
        out.print(f"  {number}. {line}", markup=False)
    out.print(Text("Rearrangements", style="bold"))
    for line in summary_lines(plan.rearrangements(), pretty=True):
        out.print(f"  - {line}", markup=False)
    notes = [f"hand points {result.hand_points}"]
    if result.goes_out:
        notes.append("goes out")
    elif result.can_knock:
        notes.append("can knock")
    notes.append(f"{result.melds_broken} old meld(s) broken")
    if result.status != "optimal":
        notes.append("time limit reached: best found, not proven optimal")
    out.print(", ".join(notes))


@app.command(name="hint")
def hint_command(
    position: Annotated[str | None, typer.Argument(help="Position 'table / hand'.")] = None,
    batch: Annotated[
        str | None, typer.Option(help="File with one position per line ('-' for stdin).")
    ] = None,
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    objective: Annotated[
        Objective,
        typer.Option(
            metavar=choices(OBJECTIVES),
            case_sensitive=False,
            help="points: fewest points left; cards: most cards played.",
        ),
    ] = "points",
    keep_jokers: Annotated[bool, typer.Option(help="Play a hand joker only to go out.")] = False,
    time_limit: Annotated[float, typer.Option(help="Seconds per position.")] = DEFAULT_TIME_LIMIT,
    not_opened: NotOpenedOption = False,
    others: Annotated[
        int,
        typer.Option(
            "--alternatives",
            metavar="N",
            help=f"Also show up to N other plays (0-{MAX_ALTERNATIVES - 1}), next best first, each "
            "playing a different set of cards.",
        ),
    ] = 0,
    json_output: JsonOption = False,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    scheduler_file: SchedulerFileOption = None,
) -> None:
    """Find the best play.  Exit 1 when there is no play, 2 for bad input.

    --batch answers every line in order (bad lines as errors, exit 2 at the end).
    --jobs, --scheduler or --scheduler-file spread a batch over processes or Dask.
    --alternatives N also shows the N next-best plays (one position only).
    """
    if not 0 <= others < MAX_ALTERNATIVES:
        fail(f"--alternatives must be 0 to {MAX_ALTERNATIVES - 1}, not {others}")
    rules = load_variant(variant, players)
    check_not_opened(not_opened, rules)
    check_time_limit(time_limit)
    solve = partial(
        hint,
        variant=rules,
        objective=objective,
        keep_jokers=keep_jokers,
        time_limit=time_limit,
        opened=not not_opened,
    )
    if batch is not None:
        if position is not None:
            fail("give a POSITION or --batch FILE, not both")
        if others:
            fail("--alternatives works on one POSITION, not with --batch")
        backend = backend_from_options(jobs, scheduler, scheduler_file)
        job = HintJob(rules, objective, keep_jokers, time_limit, opened=not not_opened)
        _batch(batch, job, backend, json_output)
        return
    if jobs is not None or scheduler is not None or scheduler_file is not None:
        fail("--jobs, --scheduler and --scheduler-file go with --batch FILE")
    if position is None:
        fail("missing POSITION (or --batch FILE)")
    pos = load_position(position, rules)
    if not len(pos.hand):
        say_empty_hand(pos, json_output=json_output)
    entered = Position.parse(position, keep_order=True)
    try:
        ranked = alternatives(pos, count=others + 1, **solve.keywords) if others else ()
        result = ranked[0] if ranked else solve(pos)
    except ValueError as error:
        fail(str(error))
    if json_output:
        payload = hint_payload(result, before=entered)
        if others:
            payload["alternatives"] = [hint_payload(other, before=entered) for other in ranked[1:]]
        print(json.dumps(payload))
    else:
        print_hint(result, entered, opened=not not_opened)
        if others and result.has_play:
            _print_alternatives(ranked[1:])
    raise typer.Exit(0 if result.has_play else 1)


def _print_alternatives(others: tuple[Hint, ...]) -> None:
    """The other plays, one line each, numbered after the best (which is 1)."""
    out.print()
    out.print(Text("Alternatives", style="bold"))
    if not others:
        out.print("  none: no other set of cards can be played")
    for rank, other in enumerate(others, start=2):
        notes = f"hand points {other.hand_points}, {other.melds_broken} old meld(s) broken"
        out.print(Text(f"  {rank}. play ") + styled_played(other.played) + Text(f"  ({notes})"))
        out.print(f"     table: {other.table.pretty}", markup=False)
