"""Reproducible tournaments: many seeded games between bots, on any backend of ``solver.runs``.

Game ``i`` of a tournament with seed ``S`` is played with a seed derived from ``(S, i)``
(``game_seed``), and the bots sit in an order rotated by ``i`` so that no bot keeps the
same seat.  Games are independent, so they run in chunks of indices (``play_games``) in
this process, in a local pool (``jobs``) or on a Dask cluster (``scheduler``), and the
results, merged by game index, are the same whatever the backend, the worker count or
the chunking.  Only the milliseconds per move depend on the machine.  Game logs
(``log_dir``) are recorded by the worker and written by this process, so they land here
even when the games run on other machines.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.game.game import Acted, GameEvent
from solver.game.log import LogWriter
from solver.game.runner import play_game
from solver.game.settings import GameSettings
from solver.runs import Backend, Chunk, SchedulerSpec, item_seed, make_backend, run_indexed
from solver.strategy.bots import BOT_TIME_LIMIT
from solver.strategy.registry import make_bot, make_bots

__all__ = [
    "LOG_PATTERN",
    "EntryResult",
    "GameSpec",
    "GameSummary",
    "SeatSummary",
    "TournamentJob",
    "TournamentResult",
    "entry_labels",
    "game_seed",
    "play_games",
    "run_game",
    "run_tournament",
]

MAX_CHUNK = 25
"""Most games in one task: small enough for a live progress bar and little lost work
when a worker dies, large enough that scheduling costs nothing next to the games."""


def game_seed(tournament_seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of the tournament played with ``tournament_seed``."""
    return item_seed(tournament_seed, index, "tournament")


def entry_labels(bots: Sequence[str]) -> list[str]:
    """Names for the entries: the bot names, numbered when one bot enters more than once."""
    return [
        f"{name}#{bots[:i].count(name) + 1}" if bots.count(name) > 1 else name for i, name in enumerate(bots)
    ]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything a worker process needs to play one tournament game."""

    index: int
    seed: int
    settings: GameSettings
    bots: tuple[str, ...]
    """Bot specs of the entries, in entry order."""
    time_limit: float = BOT_TIME_LIMIT
    keep_log: bool = False
    """Record the game's JSON-lines log and return it with the summary."""

    @property
    def seating(self) -> tuple[int, ...]:
        """The entry sitting at each seat: rotated by the game index."""
        count = len(self.bots)
        return tuple((seat + self.index) % count for seat in range(count))


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One entry's results in one game."""

    entry: int
    won: bool
    final: int
    rounds: int
    round_points: int
    knocks: int
    undercuts: int
    moves: int
    ms: float


@dataclass(frozen=True, slots=True)
class GameSummary:
    index: int
    seed: int
    seats: tuple[SeatSummary, ...]
    log: str | None = None
    """The game's JSON-lines log, when the spec asked to keep it."""


def run_game(spec: GameSpec) -> GameSummary:
    """Play one game (in whichever process runs it) and summarize it per seat."""
    seating = spec.seating
    names = [spec.bots[entry] for entry in seating]
    players = make_bots(names, spec.seed, time_limit=spec.time_limit)
    moves = [0] * len(seating)
    ms = [0.0] * len(seating)

    def count(event: GameEvent) -> None:
        if isinstance(event, Acted):
            moves[event.seat] += 1
            ms[event.seat] += event.ms or 0.0

    listeners = [count]
    log = io.StringIO() if spec.keep_log else None
    if log is not None:
        listeners.append(LogWriter(log, spec.settings, seed=spec.seed, players=names))
    result = play_game(spec.settings, players, seed=spec.seed, listeners=listeners)
    seats = []
    for seat, entry in enumerate(seating):
        seats.append(
            SeatSummary(
                entry=entry,
                won=seat in result.winners,
                final=result.final[seat],
                rounds=len(result.rounds),
                round_points=result.totals[seat],
                knocks=sum(record.end.knocker == seat for record in result.rounds),
                undercuts=sum(seat in record.score.undercut for record in result.rounds),
                moves=moves[seat],
                ms=ms[seat],
            )
        )
    seats.sort(key=lambda summary: summary.entry)
    return GameSummary(spec.index, spec.seed, tuple(seats), None if log is None else log.getvalue())


@dataclass(frozen=True, slots=True)
class TournamentJob:
    """What every chunk of a tournament shares (small and picklable: sent with each task)."""

    settings: GameSettings
    bots: tuple[str, ...]
    seed: int
    time_limit: float = BOT_TIME_LIMIT
    keep_logs: bool = False


def play_games(job: TournamentJob, chunk: Chunk[int]) -> list[GameSummary]:
    """The games of one chunk of indices, in order: the task ``solver.runs`` runs."""
    return [
        run_game(
            GameSpec(index, game_seed(job.seed, index), job.settings, job.bots, job.time_limit, job.keep_logs)
        )
        for index in chunk.items
    ]


LOG_PATTERN = "game-*.jsonl"
"""The names ``log_path`` gives: what a directory of a tournament's logs holds."""


def log_path(log_dir: str | os.PathLike[str], index: int) -> Path:
    """Where the log of game ``index`` (0-based) goes: ``game-00001.jsonl`` for the first."""
    return Path(log_dir) / f"game-{index + 1:05d}.jsonl"


@dataclass(frozen=True, slots=True)
class EntryResult:
    """One entry's results over the tournament (a row of the results table)."""

    label: str
    bot: str
    games: int
    won: int
    """Games won, a shared win included."""
    mean_final: float
    mean_round_points: float
    """Points scored per round played (before end-of-game bonuses)."""
    knocks: int
    undercuts: int
    """Rounds won by undercutting another player's knock."""
    moves: int
    mean_ms: float
    """Milliseconds per move: the only figure that depends on the machine."""

    def results(self) -> dict[str, object]:
        """The reproducible columns (everything but the timing)."""
        return {
            "bot": self.label,
            "games": self.games,
            "won": self.won,
            "mean_final_score": round(self.mean_final, 2),
            "mean_points_per_round": round(self.mean_round_points, 2),
            "knocks": self.knocks,
            "undercuts": self.undercuts,
            "moves": self.moves,
        }


@dataclass(frozen=True, slots=True)
class TournamentResult:
    settings: GameSettings
    seed: int
    games: int
    entries: tuple[EntryResult, ...]
    seconds: float
    backend: str = "in-process"
    """Where the games ran (``Backend.describe()``): not part of the results."""

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``results`` is reproducible from the seed, ``timing`` is wall clock."""
        return {
            "settings": self.settings.describe(),
            "seed": self.seed,
            "games": self.games,
            "results": [entry.results() for entry in self.entries],
            "timing": {
                "seconds": round(self.seconds, 3),
                "mean_ms_per_move": {entry.label: round(entry.mean_ms, 3) for entry in self.entries},
                "backend": self.backend,
            },
        }


def _entries(bots: Sequence[str], summaries: Sequence[GameSummary]) -> tuple[EntryResult, ...]:
    entries = []
    for entry, label in enumerate(entry_labels(bots)):
        seats = [summary.seats[entry] for summary in summaries]
        games = len(seats)
        rounds = sum(seat.rounds for seat in seats)
        moves = sum(seat.moves for seat in seats)
        entries.append(
            EntryResult(
                label=label,
                bot=bots[entry],
                games=games,
                won=sum(seat.won for seat in seats),
                mean_final=sum(seat.final for seat in seats) / games if games else 0.0,
                mean_round_points=sum(seat.round_points for seat in seats) / rounds if rounds else 0.0,
                knocks=sum(seat.knocks for seat in seats),
                undercuts=sum(seat.undercuts for seat in seats),
                moves=moves,
                mean_ms=sum(seat.ms for seat in seats) / moves if moves else 0.0,
            )
        )
    return tuple(entries)


def run_tournament(
    bots: Sequence[str],
    *,
    games: int,
    settings: GameSettings | None = None,
    seed: int = 0,
    jobs: int | None = None,
    scheduler: SchedulerSpec = None,
    scheduler_file: str | os.PathLike[str] | None = None,
    backend: Backend | None = None,
    chunk_size: int | None = None,
    time_limit: float = BOT_TIME_LIMIT,
    log_dir: str | os.PathLike[str] | None = None,
    on_game_done: Callable[[GameSummary], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` (one seat each, rotating) and total them up.

    ``settings`` defaults to Manipulation Rummy for ``len(bots)`` players.  Where the
    games run: ``jobs`` (1, the default: here; N: a local pool of N processes),
    ``scheduler`` (``"local:N"``, a Dask address or a ``distributed.Client``) or
    ``scheduler_file``, or a ready ``backend`` (see ``solver.runs``); the results are
    the same on every backend.  ``log_dir`` gets one JSON-lines log per game, written
    here as each game finishes (the games then run one per chunk unless ``chunk_size``
    says otherwise); ``on_game_done`` is called here as each game's chunk finishes
    (for a progress bar).  Ctrl-C (KeyboardInterrupt) ends the run at once, workers
    included, and propagates.
    """
    if games < 1:
        raise ValueError(f"a tournament needs at least one game, not {games}")
    chosen = (
        backend
        if backend is not None
        else make_backend(jobs=jobs, scheduler=scheduler, scheduler_file=scheduler_file)
    )
    rules = settings if settings is not None else GameSettings.manipulation(len(bots))
    if rules.players != len(bots):
        raise ValueError(f"{len(bots)} bots for a {rules.players}-player game")
    for name in bots:
        make_bot(name)  # an unknown bot fails here, before any game starts
    job = TournamentJob(rules, tuple(bots), seed, time_limit, keep_logs=log_dir is not None)
    if log_dir is not None and chunk_size is None:
        chunk_size = 1  # each game's log is written as the game ends: a Ctrl-C loses none

    def chunk_done(_chunk: Chunk[int], summaries: list[GameSummary]) -> None:
        for summary in summaries:
            if log_dir is not None and summary.log is not None:
                log_path(log_dir, summary.index).write_text(summary.log, encoding="utf-8")
            if on_game_done is not None:
                on_game_done(summary)

    started = time.perf_counter()
    summaries = run_indexed(
        play_games,
        job,
        range(games),
        backend=chosen,
        chunk_size=chunk_size,
        max_chunk=MAX_CHUNK,
        on_chunk=chunk_done,
    )
    seconds = time.perf_counter() - started
    return TournamentResult(rules, seed, games, _entries(bots, summaries), seconds, chosen.describe())
