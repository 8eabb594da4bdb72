"""``rummy review``: a logged game's decisions against the advised ones, with bands and a summary."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable
from rich.text import Text

from solver.cli.backend import (
    JobsOption,
    SchedulerFileOption,
    SchedulerOption,
    backend_from_options,
    check_jobs,
    interruptible,
)
from solver.cli.common import JsonOption, app, err, fail, out, use_faces
from solver.cli.paths import OverwriteOption, check_output_file, read_input_text
from solver.game import GameSettings
from solver.game.log import LogError, read_log, replay
from solver.runs import Backend, run_indexed
from solver.strategy.advice import MAX_BUDGET, MAX_SAMPLES, MIN_SAMPLES
from solver.strategy.mistakes import PUZZLE_MIN_DEALS
from solver.strategy.review import (
    ACCURACY_SCALE,
    BANDS,
    DEFAULT_SAMPLES,
    Review,
    ReviewJob,
    review,
    review_logs,
)

__all__ = ["print_review", "review_command"]

BAND_STYLES = {"ok": "green", "inaccuracy": "yellow", "mistake": "bold yellow", "blunder": "bold red"}


def print_review(found: Review) -> None:
    """Human output: each reviewed decision in game order, then the summary per seat."""
    table = RichTable(title="Decisions", title_justify="left")
    for heading in ("round", "turn", "seat", "made", "advised", "loss", "band"):
        table.add_column(heading, justify="right" if heading in ("round", "turn", "seat", "loss") else "left")
    for decision in found.decisions:
        table.add_row(
            str(decision.round_number),
            str(decision.turn),
            str(decision.seat),
            out.faces.pieces(decision.made),
            Text("")
            if decision.band == "ok" and decision.loss.estimate == 0
            else out.faces.pieces(decision.advised),
            ("≈ " if decision.loss.low <= 0 else "") + f"{decision.loss.estimate:.1f}",
            Text(decision.band, style=BAND_STYLES[decision.band]),
        )
    out.print(table)
    summary = RichTable(title="Summary", title_justify="left")
    headings = ("seat", "player", "n", "acc", "ok", "inacc", "mist", "blund", "err", "loss/n", "luck")
    for heading in headings:
        summary.add_column(
            heading,
            justify="left" if heading == "player" else "right",
            overflow="fold" if heading == "player" else "ellipsis",
        )
    for seat in found.summaries:
        bands = seat.to_dict()["bands"]
        summary.add_row(
            str(seat.seat),
            seat.player,
            str(seat.decisions),
            # A seat with no decision has no accuracy, error share or loss to show (not 100).
            f"{seat.accuracy:.0f}" if seat.decisions else "-",
            *(str(bands[band]) for band in ("ok", "inaccuracy", "mistake", "blunder")),
            f"{100 * seat.error_rate:.0f}%" if seat.decisions else "-",
            f"{seat.mean_loss:.1f}" if seat.decisions else "-",
            f"{seat.luck:+.0f}" if seat.draws else "-",
        )
    out.print(summary)
    thresholds = ", ".join(f"{band} from {least:g}" for band, least in reversed(BANDS))
    out.print(
        f"loss: expected value given up against the advised option, measured on deals that did not "
        f"choose the advice (bands: {thresholds}; ≈: the deals cannot tell the move from the advised "
        "one, so it is ok; below 0: the move did better than the advice on those deals; a blank "
        "advised cell: the move made was the advice); n: decisions with a choice; acc: accuracy, "
        "the mean of 100 x exp(-loss / "
        f"{ACCURACY_SCALE:g}) over the decisions (0 to 100; every expected loss counts, the ≈ ones "
        "too, so a seat with no error can score below 100); err: decisions not ok, per decision; "
        "luck: the measured draws' expected value after minus before, summed (their count in --json)."
    )
    cut = sum(decision.cut for decision in found.decisions)
    if cut:
        out.print(f"The budget cut the deals of {cut} decision(s): those depend on the machine's speed.")


def _use_game_faces(header: dict[str, object]) -> None:
    """Show the pieces as the logged game does (tiles for Rummikub); a header that names
    no known settings leaves cards, and review() then names the problem."""
    described = header.get("settings")
    try:
        settings = GameSettings.from_description(described) if isinstance(described, dict) else None
    except ValueError:
        settings = None
    if settings is not None:
        use_faces(settings.variant)


@app.command(name="review")
def review_command(
    log: Annotated[
        Path,
        typer.Argument(
            help="A game log written by rummy play --log, or a folder of them (rummy tournament --logs)."
        ),
    ],
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", help="Review this seat (repeat for more; default: every seat)."),
    ] = None,
    budget: Annotated[
        float | None,
        typer.Option(
            "--budget",
            help="Most seconds of sampling per decision (default: no limit); the output says where it cut.",
        ),
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            help="Deals every option of a decision is played in (the advice and the move in up "
            "to four times as many, the move's loss measured on those): the same log, seed and "
            "deals, the same review."
        ),
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option(help="Seed of the sampled deals.")] = 0,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            help="Also write a PNG of the expected score along the game, mistakes and blunders marked "
            "(needs matplotlib: the plot extra).",
        ),
    ] = None,
    luck: Annotated[
        bool,
        typer.Option(
            "--luck/--no-luck",
            help="Measure the luck of each draw apart from the decisions' cost (--no-luck: 40% faster).",
        ),
    ] = True,
    puzzles: Annotated[
        Path | None,
        typer.Option(
            "--puzzles",
            metavar="<file>",
            help="Also write the clear mistakes and blunders as puzzles (JSON lines): rummy puzzle --from.",
        ),
    ] = None,
    json_output: JsonOption = False,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    scheduler_file: SchedulerFileOption = None,
    overwrite: OverwriteOption = False,
) -> None:
    """Replay a game log and judge each decision of the chosen seats against the advice:
    expected loss, a band (ok, inaccuracy, mistake, blunder) and a summary per player.

    A folder reviews every *.jsonl log in it, in name order, on the chosen backend
    (--jobs, --scheduler, --scheduler-file): the same reviews whichever; --json prints one
    object per log with its name.

    Exit 0 with the review, 2 for bad input or a log that does not replay.
    """
    if budget is not None and not 0 < budget <= MAX_BUDGET:
        fail(f"--budget must be more than 0 and at most {MAX_BUDGET:g} seconds, not {budget:g}")
    if not MIN_SAMPLES <= samples <= MAX_SAMPLES:
        fail(f"--samples must be {MIN_SAMPLES} to {MAX_SAMPLES}, not {samples}")
    if seed < 0:
        fail(f"--seed must be 0 or more, not {seed}")
    folder = log.is_dir()
    paths = sorted(log.glob("*.jsonl")) if folder else [log]
    if folder and not paths:
        fail(f"no game logs (*.jsonl) in the folder {log}")
    if plot is not None:
        check_plot_path(plot, overwrite=overwrite, inputs=paths)
    if puzzles is not None:
        check_output_file(puzzles, "--puzzles", overwrite=overwrite, inputs=paths)
        if samples < PUZZLE_MIN_DEALS:
            fail(
                f"--puzzles needs --samples {PUZZLE_MIN_DEALS} or more, not {samples}: a puzzle says its "
                "answer is clearly better, which fewer deals cannot show"
            )
    if folder and plot is not None:
        fail("--plot draws one game: give one log, not a folder")
    if not folder and (jobs is not None or scheduler is not None or scheduler_file is not None):
        fail("--jobs, --scheduler and --scheduler-file spread the logs of a folder: give a folder")
    check_jobs(jobs)
    logs = [_read(path) for path in paths]
    _use_game_faces(logs[0][0])
    if not folder:
        found = _review_one(logs[0], paths[0], seat, budget, samples, seed, luck, confirm=puzzles is not None)
        reviews = [found]
    else:
        job = ReviewJob(
            seats=None if seat is None else tuple(seat),
            samples=samples,
            seed=seed,
            budget_seconds=budget,
            luck=luck,
            confirm=puzzles is not None,  # a puzzle reports its loss measured again
        )
        reviews = _review_many(job, logs, paths, backend_from_options(jobs, scheduler, scheduler_file))
    for path, found, records in zip(paths, reviews, logs, strict=True):
        if json_output:
            print(json.dumps({"log": path.name, **found.to_dict()} if folder else found.to_dict()))
        else:
            if folder:
                out.print(Text(f"{path.name}", style="bold underline"))
            print_review(found)
            _say_where_the_log_stops(records)
    if plot is not None:
        write_plot(reviews[0], plot, quiet=json_output)
    if puzzles is not None:
        write_puzzles(list(zip(reviews, logs, paths, strict=True)), puzzles, quiet=json_output)


def _say_where_the_log_stops(records: Sequence[dict[str, object]]) -> None:
    """A log that ends before its game does (left at a prompt, or cut short) is reviewed
    up to its last action; say so, as ``rummy replay`` does, so that a short review is not
    read as a whole game's."""
    report = replay(records)
    if report.result is not None:
        return
    if report.quit is not None:
        where = f"the game was left in round {report.quit.round_number}"
    else:
        where = "the log stops before the end of the game"
    out.print(f"Note: {where}: the decisions up to there are reviewed.", markup=False)


def _read(path: Path) -> list[dict[str, object]]:
    """A parsed log; exit 2 naming the file when it cannot be read."""
    try:
        records = read_log(read_input_text(path).splitlines())
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"cannot read {path}: not UTF-8 text")
    except LogError as error:
        fail(f"bad log {path}: {error}")
    if not records:
        fail(f"bad log {path}: the log is empty: a log starts with a 'game' line")
    return records


def _review_one(
    records: list[dict[str, object]],
    path: Path,
    seat: list[int] | None,
    budget: float | None,
    samples: int,
    seed: int,
    luck: bool,
    *,
    confirm: bool,
) -> Review:
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("review", total=None)
            return review(
                records,
                seats=seat,
                budget_seconds=budget,
                samples=samples,
                seed=seed,
                luck=luck,
                confirm=confirm,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    except (LogError, ValueError) as error:
        fail(f"bad log {path}: {error}" if isinstance(error, LogError) else str(error))


def _review_many(
    job: ReviewJob, logs: Sequence[Sequence[dict[str, object]]], paths: list[Path], backend: Backend
) -> list[Review]:
    """Every log of a folder on the chosen backend (``solver.runs``), in file order."""
    for records, path in zip(logs, paths, strict=True):
        checked = replay(records)
        if checked.mismatches:
            fail(f"bad log {path}: the log does not replay: {checked.mismatches[0]}")
    columns = (TextColumn("reviewing games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with (
            interruptible("review"),
            Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar,
        ):
            task = bar.add_task("review", total=len(logs))
            return run_indexed(
                review_logs,
                job,
                logs,
                backend=backend,
                chunk_size=1,
                on_chunk=lambda _chunk, done: bar.advance(task, len(done)),
            )
    except (LogError, ValueError) as error:
        fail(str(error))


def write_puzzles(
    reviewed: Sequence[tuple[Review, Sequence[dict[str, object]], Path]], path: Path, *, quiet: bool
) -> None:
    """The reviews' clear mistakes as puzzles, one JSON line each; say how many and where.
    With none, no file is written (an earlier file of that name is left as it was: ``rummy
    puzzle --from`` refuses a file without puzzles) and the output says why."""
    from solver.strategy.mistakes import mistake_puzzles

    made = []
    for found, records, log in reviewed:
        header = records[0]
        described = header.get("settings")
        assert isinstance(described, dict)  # review() replayed the log
        settings = GameSettings.from_description(described)
        made.extend(
            mistake_puzzles(found, settings.variant, game={"log": log.name, "seed": header.get("seed")})
        )
    said = err if quiet else out
    if not made:
        said.print(
            f"No puzzle: no mistake or blunder was clear enough (its loss interval above the band's "
            f"floor, over {PUZZLE_MIN_DEALS} deals or more, and the advice better again on deals of "
            f"its own); {path} was not written.",
            markup=False,
        )
        return
    try:
        with path.open("w", encoding="utf-8") as stream:
            for puzzle in made:
                stream.write(json.dumps(puzzle.to_dict()) + "\n")
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    said.print(
        f"{len(made)} puzzle(s) written to {path}: rummy puzzle --from {shlex.quote(str(path))}", markup=False
    )


def check_plot_path(path: Path, *, overwrite: bool = False, inputs: Sequence[Path] = ()) -> None:
    """Refuse, before the review's work, a plot path that cannot be written (or must not
    be: an existing file without ``overwrite``, one of the ``inputs``)."""
    if path.suffix.lower() != ".png":
        fail(f"--plot writes a PNG: give a file name ending in .png, not {path}")
    # Tried as the plot will be written: before the work.
    check_output_file(path, "--plot", overwrite=overwrite, inputs=inputs)
    try:
        import matplotlib  # noqa: F401  # only whether it is there
    except ImportError:
        fail("--plot needs matplotlib: pip install 'manipulation-rummy[plot]' (or pip install matplotlib)")


def write_plot(found: Review, path: Path, *, quiet: bool) -> None:
    """Write the plot; say where on stdout (on stderr with --json, whose stdout is JSON only)."""
    from solver.strategy.review_plot import PlotError, plot_review

    try:
        plot_review(found, path)
    except PlotError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    (err if quiet else out).print(f"Plot written to {path}", markup=False)
