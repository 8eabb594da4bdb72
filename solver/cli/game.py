"""``rummy play``, ``rummy tournament`` and ``rummy replay``: the game at the command line."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated, TextIO

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from solver.cli.common import VariantOption, app, err, fail, out
from solver.cli.terminal import Narrator, QuitGame, TerminalPlayer
from solver.game import BOTS, GameSettings, Player, make_bot, play_game
from solver.game.bots import BOT_TIME_LIMIT
from solver.game.game import Listener
from solver.game.log import LogError, LogWriter, read_log, replay
from solver.game.registry import bot_rng
from solver.game.tournament import TournamentResult, run_tournament

BotsOption = Annotated[
    str, typer.Option(help=f"Bots, comma-separated: {', '.join(BOTS)}, or module:Class of a Bot subclass.")
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
TimeLimitOption = Annotated[float, typer.Option(help="Seconds per hint-engine call.")]


def _bot_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        fail("give at least one bot, e.g. --bots greedy,random")
    return names


def _settings(
    variant: str, players: int, knock_only_after_meld: bool, round_bonus_to_all: bool
) -> GameSettings:
    try:
        return GameSettings.named(
            variant,
            players,
            knock_only_after_meld=knock_only_after_meld,
            round_bonus_to_all=round_bonus_to_all,
        )
    except ValueError as error:
        fail(str(error))


def _read_stdin_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


DEFAULT_OPPONENTS = ("greedy", "expert")


@app.command()
def play(
    players: Annotated[
        int | None, typer.Option(help="Players, you included (default: 1 + the bots, or 3).")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="Opponents, comma-separated (default: greedy,expert, repeated to fill --players)."),
    ] = None,
    seed: SeedOption = None,
    variant: VariantOption = "manipulation",
    log: Annotated[
        Path | None, typer.Option(help="Write the game as a JSON-lines log (rummy replay).")
    ] = None,
    knock_only_after_meld: KnockOption = False,
    round_bonus_to_all: BonusOption = False,
    time_limit: TimeLimitOption = BOT_TIME_LIMIT,
) -> None:
    """Play a game in the terminal against bots.  Type help at the prompt for the commands."""
    if bots is None:
        count = players if players is not None else len(DEFAULT_OPPONENTS) + 1
        names = [DEFAULT_OPPONENTS[seat % len(DEFAULT_OPPONENTS)] for seat in range(max(count - 1, 0))]
    else:
        names = _bot_list(bots)
        count = players if players is not None else len(names) + 1
        if len(names) == 1:
            names = names * (count - 1)
    if len(names) != count - 1:
        fail(f"{count} players need {count - 1} bots, --bots gives {len(names)}")
    rules = _settings(variant, count, knock_only_after_meld, round_bonus_to_all)
    game_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    seats = ["You", *(f"Bot {seat} ({name})" for seat, name in enumerate(names, start=1))]
    me = TerminalPlayer(out, _read_stdin_line, seats, time_limit=time_limit)
    everyone: list[Player] = [me]
    try:
        for seat, name in enumerate(names, start=1):
            everyone.append(make_bot(name, rng=bot_rng(game_seed, seat), time_limit=time_limit))
    except ValueError as error:
        fail(str(error))
    out.print(
        f"{rules.variant.name}, {count} players, seed {game_seed}.  Type help for the commands.", markup=False
    )
    log_file: TextIO | None = None
    listeners: list[Listener] = [Narrator(out, seats, me=0)]
    try:
        if log is not None:
            log_file = log.open("w", encoding="utf-8")
            listeners.insert(0, LogWriter(log_file, rules, seed=game_seed, players=["human", *names]))
        play_game(rules, everyone, seed=game_seed, listeners=listeners)
    except QuitGame:
        out.print(f"Game left.  Replay it with --seed {game_seed}.", markup=False)
    except OSError as error:
        fail(f"cannot write the log: {error}")
    finally:
        if log_file is not None:
            log_file.close()


def _print_results(result: TournamentResult) -> None:
    table = RichTable(title=f"{result.games} games, {result.settings.variant.name}, seed {result.seed}")
    for column in ("bot", "games won", "mean final", "mean pts/round", "knocks", "undercuts", "moves"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for entry in result.entries:
        table.add_row(
            entry.label,
            str(entry.won),
            f"{entry.mean_final:.1f}",
            f"{entry.mean_round_points:.2f}",
            str(entry.knocks),
            str(entry.undercuts),
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
    variant: VariantOption = "manipulation",
    seed: Annotated[int, typer.Option(help="Tournament seed; each game's seed derives from it.")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes (results do not depend on it).")] = 1,
    knock_only_after_meld: KnockOption = False,
    round_bonus_to_all: BonusOption = False,
    time_limit: TimeLimitOption = BOT_TIME_LIMIT,
    logs: Annotated[Path | None, typer.Option(help="Directory for one JSON-lines log per game.")] = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="Also write the results as JSON.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Play seeded games between bots (one seat each, rotating) and print the results table.

    The results table is the same for the same seed, bots and options, whatever --jobs;
    the speed table below it is wall-clock time.
    """
    names = _bot_list(bots)
    rules = _settings(variant, len(names), knock_only_after_meld, round_bonus_to_all)
    if games < 1 or jobs < 1:
        fail("--games and --jobs must be at least 1")
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=games)
        try:
            result = run_tournament(
                names,
                games=games,
                settings=rules,
                seed=seed,
                jobs=jobs,
                time_limit=time_limit,
                log_dir=None if logs is None else str(logs),
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


@app.command(name="replay")
def replay_command(
    log: Annotated[Path, typer.Argument(help="A game log written by rummy play --log or tournament --logs.")],
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Replay a game log from its seed and actions; exit 1 if it does not reach the logged scores."""
    try:
        records = read_log(log.read_text(encoding="utf-8").splitlines())
        report = replay(records)
    except OSError as error:
        fail(f"cannot read {log}: {error}")
    except LogError as error:
        fail(f"bad log {log}: {error}")
    result = report.result
    if json_output:
        data: dict[str, object] = {
            "ok": report.ok,
            "players": report.players,
            "mismatches": report.mismatches,
        }
        if result is not None:
            data |= result.to_dict()
        print(json.dumps(data))
    elif result is not None:
        table = RichTable(title=f"{len(result.rounds)} round(s), seed {result.seed}")
        for column in ("seat", "player", "rounds", "bonus", "final"):
            table.add_column(column)
        for seat, name in enumerate(report.players or [f"seat {s}" for s in range(len(result.final))]):
            winner = " (winner)" if seat in result.winners else ""
            table.add_row(
                str(seat),
                name + winner,
                str(result.totals[seat]),
                str(result.bonuses[seat]),
                str(result.final[seat]),
            )
        out.print(table)
    for problem in report.mismatches:
        err.print(f"mismatch: {problem}", markup=False)
    if result is None and not report.mismatches:
        err.print("the log stops before the end of the game", markup=False)
    if not json_output and report.ok:
        out.print("replay matches the log", markup=False)
    raise typer.Exit(0 if report.ok else 1)
