"""``rummy match``: two bots in mirrored pairs (win rate, interval, Elo, SPRT), or a seat list
of 3 or more, each deal played once per seat rotation (win shares against chance)."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from solver.cli.backend import (
    JobsOption,
    SchedulerFileOption,
    SchedulerOption,
    backend_from_options,
    check_jobs,
    interruptible,
)
from solver.cli.common import GameVariantOption, app, check_time_limit, err, fail, out, use_faces
from solver.game import GameSettings
from solver.strategy import BOTS
from solver.strategy.bots import BOT_TIME_LIMIT
from solver.strategy.match import MatchResult, run_match
from solver.strategy.registry import MEASUREMENT_BOTS

BotsArgument = Annotated[
    list[str],
    typer.Argument(
        help=(
            "The seat list: two bots (mirrored pairs) or 3 or more (each deal once per seat "
            f"rotation; the first is the focus). A bot: {', '.join(BOTS)}, "
            f"{', '.join(MEASUREMENT_BOTS)} (see hidden cards: measurement only), "
            "or module:Class of a Bot subclass."
        ),
        metavar="BOT",
        show_default=False,
    ),
]


MAX_PAIRS = 500_000
"""The most pairs one match plays (a million games, as ``rummy tournament`` allows)."""


def parse_sprt(text: str) -> tuple[float, float]:
    """``elo0,elo1`` as two numbers with ``elo0 < elo1``; ValueError names the problem."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2:
        raise ValueError(f"--sprt takes two Elo bounds as elo0,elo1 (e.g. 0,50), not {text!r}")
    try:
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt takes two numbers as elo0,elo1 (e.g. 0,50), not {text!r}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise ValueError(f"--sprt takes finite Elo bounds, not {text!r}")
    if not elo0 < elo1:
        raise ValueError(f"--sprt needs elo0 < elo1, not {text!r}")
    return elo0, elo1


def _fmt_elo(value: float) -> str:
    """An Elo figure with its sign (0 without one: -0.4 rounds to 0, not -0), or +-inf."""
    if abs(value) == float("inf"):
        return "+inf" if value > 0 else "-inf"
    rounded = round(value)
    return f"{rounded:+d}" if rounded else "0"


def _game_name(result: MatchResult) -> str:
    return result.settings.preset or result.settings.variant.name


def _print_counters(result: MatchResult, knocks: bool) -> None:
    """What each bot counted of its own choices (the search bot's candidates)."""
    for entry in result.entries:
        if entry.counters:
            counters = sorted(entry.counters.items())
            shown = [(key, count) for key, count in counters if knocks or "knock" not in key]
            counts = ", ".join(f"{key} {count}" for key, count in shown)
            out.print(f"{entry.label} choices: {counts}", markup=False)


def _print_timeouts(result: MatchResult) -> None:
    if result.settings.turn_limit is not None:
        out.print(
            f"{result.timeouts} of {result.games} games reached the limit of "
            f"{result.settings.turn_limit} turns (no winner: each seat counts 1/{result.players})",
            markup=False,
        )


def print_match(result: MatchResult) -> None:
    """The per-bot table, then A's win rate with its interval, the Elo and the SPRT (two
    bots), or each bot's win share against chance (a seat list of 3 or more)."""
    if result.players > 2:
        print_seats(result)
        return
    name = _game_name(result)
    count = len(result.pairs)
    title = f"{count} pair{'s' if count != 1 else ''} ({result.games} games), {name}, seed {result.seed}"
    table = RichTable(title=title)
    knocks = out.faces.knocks  # no knock columns for a game without knocking
    columns = ["bot", "won", "rounds won", "pts/round", *(["knocks", "undercuts"] if knocks else []), "draws"]
    for column in [*columns, "ms p50"]:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for entry in result.entries:
        table.add_row(
            entry.label,
            f"{entry.won:g}",
            str(entry.rounds_won),
            f"{entry.points_per_round:.2f}",
            *([str(entry.knocks), str(entry.undercuts)] if knocks else []),
            str(entry.actions.get("draw", 0)),
            f"{entry.median_ms:.1f}",
        )
    out.print(table)
    a, b = result.entries
    score, elo = result.score, result.elo
    assert elo is not None  # two bots
    out.print(
        f"{a.label} against {b.label}: win rate {score.estimate:.1%} "
        f"(95% CI {score.low:.1%} to {score.high:.1%}, pairs as clusters); "
        f"Elo {_fmt_elo(elo.estimate)} ({_fmt_elo(elo.low)} to {_fmt_elo(elo.high)})",
        markup=False,
    )
    if result.sprt is not None:
        test = result.sprt
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", "continue": "no decision"}[test.decision]
        if result.stopped_early:
            verdict += f", stopped after {len(result.pairs)} of {result.pairs_requested} pairs"
        out.print(
            f"SPRT elo0={test.elo0:g} elo1={test.elo1:g}: LLR {test.llr:.2f} "
            f"(bounds {test.lower:.2f}, {test.upper:.2f}): {verdict}",
            markup=False,
        )
    _print_counters(result, knocks)
    _print_timeouts(result)
    out.print(f"{result.seconds:.1f} s wall clock", markup=False)


def print_seats(result: MatchResult) -> None:
    """A match of 3 or more seats: each bot name's win share per seat with its interval
    (deals as clusters) against chance, mean points and decision times; then the focus."""
    count = len(result.pairs)
    title = (
        f"{count} deal{'s' if count != 1 else ''} ({result.games} games, every deal once per seat "
        f"rotation), {_game_name(result)}, seed {result.seed}"
    )
    table = RichTable(title=title)
    for column in ("bot", "seats", "won", "win share (95% CI)", "chance", "mean points", "ms p50"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for share in result.shares:
        table.add_row(
            share.bot,
            str(share.seats),
            f"{share.won:.4g}",
            f"{share.share.estimate:.1%} ({share.share.low:.1%}-{share.share.high:.1%})",
            f"{share.chance:.1%}",
            f"{share.mean_points:.2f}",
            f"{share.median_ms:.1f}",
        )
    out.print(table)
    focus = result.shares[0]
    out.print(
        f"{focus.bot}: win share {focus.share.estimate:.1%} (95% CI {focus.share.low:.1%} to "
        f"{focus.share.high:.1%}, deals as clusters) against {focus.chance:.1%} by chance",
        markup=False,
    )
    _print_counters(result, out.faces.knocks)
    _print_timeouts(result)
    out.print(f"{result.seconds:.1f} s wall clock", markup=False)


def _settings(bots: list[str], players: int | None, deals: int, variant: str) -> GameSettings:
    """The match's settings from the options; exit 2 with one line for a bad one."""
    if len(bots) < 2:
        fail(f"a match needs at least two bots, not {len(bots)}")
    if players is not None and players != len(bots):
        fail(f"a match of {len(bots)} bots is played by {len(bots)} players, not {players}")
    if not 1 <= deals <= MAX_PAIRS:
        option = "--pairs" if len(bots) == 2 else "--deals"  # one option, two names: the one that fits
        fail(f"{option} must be between 1 and {MAX_PAIRS}, not {deals}")
    try:
        return GameSettings.named(variant, len(bots))
    except ValueError as error:
        fail(str(error))


@app.command()
def match(
    bots: BotsArgument,
    pairs: Annotated[
        int,
        typer.Option(
            "--pairs",
            "--deals",
            help="Mirrored pairs to play (two bots: two games each, seats swapped), or deals "
            "(3 or more bots: one game per seat rotation each).",
        ),
    ] = 100,
    seed: Annotated[int, typer.Option(help="Match seed; each pair's deal derives from it.")] = 0,
    variant: GameVariantOption = "manipulation",
    players: Annotated[
        int | None, typer.Option(help="Players per game: as many as bots named (checked when given).")
    ] = None,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    scheduler_file: SchedulerFileOption = None,
    sprt_text: Annotated[
        str | None,
        typer.Option("--sprt", help="Stop early by an SPRT of elo0,elo1 (alpha = beta = 0.05), e.g. 0,50."),
    ] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds per hint-engine call.")] = BOT_TIME_LIMIT,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Play a seat list of BOTs: two in mirrored pairs (each deal twice, seats swapped),
    or 3 or more (pimc hoarder hoarder hoarder), each deal once per seat rotation.

    Two bots: prints games won, points per round, A's win rate with its 95% Wilson interval
    (pairs as clusters), the Elo difference with its interval and, with --sprt, the test's
    decision.  More: each bot's win share per seat (ties split) with its 95% interval
    (deals as clusters) against the share chance gives, mean points and decision times.
    The same seed gives the same results whatever --jobs, --scheduler or
    --scheduler-file; Ctrl-C stops every worker at once.
    """
    settings = _settings(bots, players, pairs, variant)
    check_jobs(jobs)
    if seed < 0:
        fail(f"--seed must be 0 or more, not {seed}")
    check_time_limit(time_limit)
    try:
        bounds = parse_sprt(sprt_text) if sprt_text is not None else None
    except ValueError as error:
        fail(str(error))
    if bounds is not None and len(bots) != 2:
        fail(f"--sprt compares two bots, not {len(bots)}")
    use_faces(settings.variant)
    backend = backend_from_options(jobs, scheduler, scheduler_file)
    unit = "pairs" if len(bots) == 2 else "deals"
    columns = (TextColumn(unit), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with (
        interruptible("match"),
        Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress,
    ):
        task = progress.add_task(unit, total=pairs)
        try:
            result = run_match(
                *bots,
                pairs=pairs,
                seed=seed,
                settings=settings,
                backend=backend,
                sprt_elo=bounds,
                time_limit=time_limit,
                on_pair_done=lambda _pair: progress.advance(task),
            )
        except ValueError as error:
            fail(str(error))
    if json_output:
        print(json.dumps(result.to_dict()))
    else:
        print_match(result)
