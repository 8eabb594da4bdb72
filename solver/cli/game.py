"""``rummy play``, ``rummy tournament`` and ``rummy replay``: the game at the command line."""

from __future__ import annotations

import contextlib
import json
import random
import sys
from pathlib import Path
from typing import Annotated, TextIO

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
from solver.cli.common import GameVariantOption, app, check_time_limit, counted, err, fail, out, use_faces
from solver.cli.narrator import Narrator
from solver.cli.paths import OverwriteOption, check_output_file, prepare_output_dir, read_input_text
from solver.cli.terminal import QuitGame, TerminalPlayer
from solver.game import GameSettings, IllegalActionError, Player, play_game
from solver.game.game import Listener
from solver.game.log import LogError, LogWriter, ReplayReport, read_log, replay
from solver.game.runner import PlayerError
from solver.shown import ShownTable
from solver.strategy import BOTS, Bot, make_bot
from solver.strategy.bots import BOT_TIME_LIMIT
from solver.strategy.registry import bot_rng
from solver.strategy.tournament import LOG_PATTERN, TournamentResult, run_tournament

BotsOption = Annotated[
    str,
    typer.Option(
        help=f"Bots, comma-separated: {', '.join(BOTS)}, or a Bot subclass as module:Class or file.py:Class."
    ),
]
SeedOption = Annotated[
    int | None, typer.Option(help="Random seed: the same seed and bots give the same game.")
]
KnockOption = Annotated[
    bool, typer.Option(help="Manipulation option: knock only at the end of a turn with a meld.")
]
BonusOption = Annotated[
    bool, typer.Option(help="Manipulation option: every player adds 25 per round won at the end.")
]
TimeLimitOption = Annotated[float, typer.Option(help="Seconds per hint-engine call (0-3600).")]

MAX_GAMES = 1_000_000
"""The most games one tournament command plays (its game list is built up front)."""


def _bot_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        fail("give at least one bot, e.g. --bots greedy,random")
    if not all(names):  # greedy,,random: a name left out by mistake, not a bot fewer
        fail(f"--bots {text!r} has an empty name between its commas; e.g. --bots greedy,random")
    return names


def _settings(
    variant: str, players: int, knock_only_after_meld: bool, round_bonus_to_all: bool
) -> GameSettings:
    """The game's settings; exit 2 for an unknown variant, a player count it does not
    take, or a Manipulation Rummy option given for another variant."""
    if (knock_only_after_meld or round_bonus_to_all) and variant.strip().lower() != "manipulation":
        fail("--knock-only-after-meld and --round-bonus-to-all are Manipulation Rummy options")
    try:
        settings = GameSettings.named(
            variant,
            players,
            knock_only_after_meld=knock_only_after_meld,
            round_bonus_to_all=round_bonus_to_all,
        )
    except ValueError as error:
        fail(str(error))
    use_faces(settings.variant)
    return settings


def _check_seed(seed: int | None) -> None:
    """Seeds are 0 or more (Python's generator would play -5 as 5: one game, two names)."""
    if seed is not None and seed < 0:
        fail(f"--seed must be 0 or more, not {seed}")


def _bots(names: list[str], seed: int, time_limit: float) -> list[Bot]:
    """The bots by name, seats 1.. (each with its seeded generator); exit 2 naming an unknown one."""
    try:
        return [
            make_bot(name, rng=bot_rng(seed, seat), time_limit=time_limit)
            for seat, name in enumerate(names, start=1)
        ]
    except ValueError as error:
        fail(str(error))
    except Exception as error:  # a user's bot module may raise anything while it loads
        fail(f"cannot load a bot of --bots {','.join(names)}: {type(error).__name__}: {error}")


def _read_stdin_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


DEFAULT_OPPONENTS = ("greedy", "expert")


def _default_count(variant: str) -> int:
    """Players without --players or --bots: you and the default opponents, or fewer where
    the game takes fewer (the peer's game is for 2)."""
    wanted = len(DEFAULT_OPPONENTS) + 1
    for count in range(wanted, 1, -1):
        try:
            GameSettings.named(variant, count)
        except ValueError:
            continue
        return count
    return wanted  # an unknown variant: _settings names the problem


@app.command()
def play(
    players: Annotated[
        int | None,
        typer.Option(help="Players, you included (default: 1 + the bots, or 3; 2 in the peer's game)."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Opponents, comma-separated, as for tournament (default: greedy,expert, repeated to fill "
            "--players)."
        ),
    ] = None,
    seed: SeedOption = None,
    variant: GameVariantOption = "manipulation",
    log: Annotated[
        Path | None, typer.Option(help="Write the game as a JSON-lines log (rummy replay).")
    ] = None,
    knock_only_after_meld: KnockOption = False,
    round_bonus_to_all: BonusOption = False,
    time_limit: TimeLimitOption = BOT_TIME_LIMIT,
    overwrite: OverwriteOption = False,
) -> None:
    """Play a game in the terminal against bots.  Type help at the prompt for the commands.

    Every option is checked before the game starts.  With --log, leaving the game
    (quit, the end of input, or Ctrl-C) ends the log with a quit line, and rummy replay
    reports it as a game that was left.
    """
    check_time_limit(time_limit)
    _check_seed(seed)
    count = (
        players if players is not None else (len(_bot_list(bots)) + 1 if bots else _default_count(variant))
    )
    rules = _settings(variant, count, knock_only_after_meld, round_bonus_to_all)
    if bots is None:
        names = [DEFAULT_OPPONENTS[seat % len(DEFAULT_OPPONENTS)] for seat in range(count - 1)]
    else:
        names = _bot_list(bots)
        if len(names) == 1:
            names = names * (count - 1)
    if len(names) != count - 1:
        fail(f"{count} players need {counted(count - 1, 'bot')}, --bots gives {len(names)}")
    game_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    opponents = _bots(names, game_seed, time_limit)
    log_file: TextIO | None = None
    if log is not None:
        check_output_file(log, "--log", overwrite=overwrite)
        try:
            log_file = log.open("w", encoding="utf-8")
        except OSError as error:
            fail(f"--log {log} cannot be written: {error.strerror or error}")
    seats = ["You", *(f"Bot {seat} ({name})" for seat, name in enumerate(names, start=1))]
    shown = ShownTable()  # one meld numbering for the narration and the player's screen
    me = TerminalPlayer(out, _read_stdin_line, seats, time_limit=time_limit, shown=shown)
    everyone: list[Player] = [me, *opponents]
    listeners: list[Listener] = [Narrator(out, seats, rules, me=0, shown=shown)]
    writer: LogWriter | None = None
    try:
        try:
            if log_file is not None:
                writer = LogWriter(log_file, rules, seed=game_seed, players=["human", *names])
                listeners.insert(0, writer)
            out.print(
                f"{rules.preset or rules.variant.name}, {count} players, seed {game_seed}.  "
                "Type help for the commands.",
                markup=False,
            )
            play_game(rules, everyone, seed=game_seed, listeners=listeners)
        except (QuitGame, KeyboardInterrupt):  # quit, end of input, or Ctrl-C at any moment
            if writer is not None:
                writer.quit(0)
            saved = (
                f"  The log {log} replays it as a game left in round {writer.round_number}." if writer else ""
            )
            out.print(f"Game left.  Replay it with --seed {game_seed}.{saved}", markup=False)
        except (PlayerError, IllegalActionError) as error:  # a user's bot broke its contract
            if log_file is not None:
                with contextlib.suppress(OSError):
                    log_file.close()
            fail(str(error))
        if log_file is not None:
            log_file.close()  # the last lines reach the disk here: a full disk shows now
    except OSError as error:
        if log_file is not None:
            with contextlib.suppress(OSError):  # what it still holds cannot be written either
                log_file.close()
        fail(f"cannot write the log {log}: {error.strerror or error}")


def _print_results(result: TournamentResult) -> None:
    games = f"{result.games} game{'' if result.games == 1 else 's'}"
    table = RichTable(title=f"{games}, {result.settings.variant.name}, seed {result.seed}")
    knocks = out.faces.knocks  # no knock columns for a game without knocking
    columns = ["bot", "games won", "mean final", "mean pts/round"]
    columns += ["knocks", "undercuts", "moves"] if knocks else ["moves"]
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for entry in result.entries:
        knock_cells = [str(entry.knocks), str(entry.undercuts)] if knocks else []
        table.add_row(
            entry.label,
            str(entry.won),
            f"{entry.mean_final:.1f}",
            f"{entry.mean_round_points:.2f}",
            *knock_cells,
            str(entry.moves),
        )
    out.print(table)
    speed = RichTable(title=f"Speed (wall clock, {result.seconds:.1f} s in all)")
    speed.add_column("bot")
    speed.add_column("mean ms/move", justify="right")
    for entry in result.entries:
        speed.add_row(entry.label, f"{entry.mean_ms:.1f}")
    out.print(speed)


@app.command()
def tournament(
    games: Annotated[int, typer.Option(help="Games to play.")] = 100,
    bots: BotsOption = "greedy,random",
    variant: GameVariantOption = "manipulation",
    seed: Annotated[int, typer.Option(help="Tournament seed; each game's seed derives from it.")] = 0,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    scheduler_file: SchedulerFileOption = None,
    knock_only_after_meld: KnockOption = False,
    round_bonus_to_all: BonusOption = False,
    time_limit: TimeLimitOption = BOT_TIME_LIMIT,
    logs: Annotated[Path | None, typer.Option(help="Directory for one JSON-lines log per game.")] = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="Also write the results as JSON.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
    overwrite: OverwriteOption = False,
) -> None:
    """Play seeded games between bots (one seat each, rotating) and print the results table.

    The results table is the same for the same seed, bots and options, whatever runs the
    games (--jobs, --scheduler or --scheduler-file); the speed table below it is wall-clock
    time.  Ctrl-C stops every worker at once and writes no --out file.
    """
    if not 1 <= games <= MAX_GAMES:
        fail(f"--games must be between 1 and {MAX_GAMES}, not {games}")
    check_jobs(jobs)
    check_time_limit(time_limit)
    _check_seed(seed)
    names = _bot_list(bots)
    rules = _settings(variant, len(names), knock_only_after_meld, round_bonus_to_all)
    _bots(names, seed, time_limit)  # an unknown bot stops here, before any game
    backend = backend_from_options(jobs, scheduler, scheduler_file)
    if logs is not None:
        prepare_output_dir(logs, "--logs", overwrite=overwrite, holds=LOG_PATTERN)
    if out_file is not None:
        check_output_file(out_file, "--out", overwrite=overwrite)
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with (
        interruptible("tournament", "no --out file written"),
        Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress,
    ):
        task = progress.add_task("games", total=games)
        try:
            result = run_tournament(
                names,
                games=games,
                settings=rules,
                seed=seed,
                backend=backend,
                time_limit=time_limit,
                log_dir=logs,
                on_game_done=lambda _summary: progress.advance(task),
            )
        except ValueError as error:
            fail(str(error))
    data = result.to_dict()
    if out_file is not None:
        try:
            out_file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            fail(f"cannot write {out_file}: {error}")
    if json_output:
        print(json.dumps(data))
    else:
        _print_results(result)


def _replay_file(log: Path, show: bool) -> ReplayReport:
    """Read and replay a log file, narrating it with ``show``; exit 2 for an unreadable or malformed log."""
    try:
        records = read_log(read_input_text(log).splitlines())
        listeners: list[Listener] = []
        if show:
            header = records[0] if records else {}
            names, described = header.get("players"), header.get("settings")
            try:
                settings = GameSettings.from_description(described) if isinstance(described, dict) else None
            except ValueError:
                settings = None  # replay() names the problem with the line it is on
            if isinstance(names, list) and settings is not None:
                use_faces(settings.variant)
                seats = [f"{name} (seat {seat})" for seat, name in enumerate(names)]
                listeners.append(Narrator(out, seats, settings, me=None, reveal=True))
        return replay(records, listeners=listeners)
    except OSError as error:
        fail(f"cannot read {log}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"cannot read {log}: not UTF-8 text")
    except (LogError, ValueError) as error:
        fail(f"bad log {log}: {error}")


@app.command(name="replay")
def replay_command(
    log: Annotated[Path, typer.Argument(help="A game log written by rummy play --log or tournament --logs.")],
    show: Annotated[bool, typer.Option("--show", help="Print every move of the game as it replays.")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Replay a game log from its seed and actions; exit 1 if it does not reach the logged scores.

    A game left at the terminal (its log ends with a quit line) replays up to where it
    was left and exits 0, saying so.
    """
    if show and json_output:
        fail("--show prints text: give --show or --json, not both")
    report = _replay_file(log, show)
    result = report.result
    if json_output:
        data: dict[str, object] = {
            "ok": report.ok,
            "players": report.players,
            "mismatches": report.mismatches,
            "quit": None if report.quit is None else report.quit.to_dict(),
        }
        if result is not None:
            data |= result.to_dict()
        print(json.dumps(data))
    elif result is not None and not show:
        table = RichTable(title=f"{len(result.rounds)} round(s), seed {result.seed}")
        for column in ("seat", "player", "rounds", "bonus", "final"):
            table.add_column(column)
        for seat, name in enumerate(report.players or [f"seat {s}" for s in range(len(result.final))]):
            winner = " (winner)" if seat in result.winners else ""
            table.add_row(
                str(seat),
                Text(name + winner),  # as written: a name is not rich markup
                str(result.totals[seat]),
                str(result.bonuses[seat]),
                str(result.final[seat]),
            )
        out.print(table)
    for problem in report.mismatches:
        err.print(f"mismatch: {problem}", markup=False)
    if result is None and report.quit is None and not report.mismatches:
        err.print("the log stops before the end of the game", markup=False)
    if not json_output and report.ok:
        if report.quit is not None:
            left = report.quit
            who = report.players[left.seat] if left.seat < len(report.players) else f"seat {left.seat}"
            out.print(
                f"the game was left by {who} (seat {left.seat}) in round {left.round_number}; "
                "the replay matches the log up to there",
                markup=False,
            )
        else:
            out.print("replay matches the log", markup=False)
    raise typer.Exit(0 if report.ok else 1)
