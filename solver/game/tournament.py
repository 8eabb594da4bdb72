"""Reproducible tournaments: many seeded games between bots, in parallel processes.

Game ``i`` of a tournament with seed ``S`` is played with a seed derived from ``(S, i)``
(``game_seed``), and the bots sit in an order rotated by ``i`` so that no bot keeps the
same seat.  Games are independent, so they run in any order in any number of
processes (``jobs``) and the results, collected by game index, are the same for every
``jobs``.  Only the milliseconds per move depend on the machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from solver.game.bots import BOT_TIME_LIMIT
from solver.game.game import Acted, GameEvent
from solver.game.log import LogWriter
from solver.game.registry import make_bot, make_bots
from solver.game.runner import play_game
from solver.game.settings import GameSettings

__all__ = [
    "EntryResult",
    "GameSpec",
    "GameSummary",
    "SeatSummary",
    "TournamentResult",
    "entry_labels",
    "game_seed",
    "run_game",
    "run_tournament",
]


def game_seed(tournament_seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of the tournament played with ``tournament_seed``."""
    return random.Random(f"rummy-tournament/{tournament_seed}/{index}").getrandbits(48)


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
    log_dir: str | None = None

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


def run_game(spec: GameSpec) -> GameSummary:
    """Play one game (in a worker process) and summarize it per seat."""
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
    log_file = None
    if spec.log_dir is not None:
        log_file = (Path(spec.log_dir) / f"game-{spec.index + 1:05d}.jsonl").open("w", encoding="utf-8")
        listeners.append(LogWriter(log_file, spec.settings, seed=spec.seed, players=names))
    try:
        result = play_game(spec.settings, players, seed=spec.seed, listeners=listeners)
    finally:
        if log_file is not None:
            log_file.close()
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
    return GameSummary(spec.index, spec.seed, tuple(sorted(seats, key=lambda s: s.entry)))


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
    jobs: int = 1,
    time_limit: float = BOT_TIME_LIMIT,
    log_dir: str | None = None,
    on_game_done: Callable[[GameSummary], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` (one seat each, rotating) and total them up.

    ``settings`` defaults to Manipulation Rummy for ``len(bots)`` players; ``jobs`` > 1
    plays games in that many processes; ``log_dir`` writes one JSON-lines log per game;
    ``on_game_done`` is called in this process as each game finishes (for a progress bar).
    """
    if games < 1:
        raise ValueError(f"a tournament needs at least one game, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    rules = settings if settings is not None else GameSettings.manipulation(len(bots))
    if rules.players != len(bots):
        raise ValueError(f"{len(bots)} bots for a {rules.players}-player game")
    for name in bots:
        make_bot(name)  # an unknown bot fails here, before any game starts
    specs = [
        GameSpec(index, game_seed(seed, index), rules, tuple(bots), time_limit, log_dir)
        for index in range(games)
    ]
    started = time.perf_counter()
    summaries: list[GameSummary] = []
    if jobs == 1:
        for spec in specs:
            summaries.append(run_game(spec))
            if on_game_done is not None:
                on_game_done(summaries[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run_game, spec) for spec in specs]
            for future in as_completed(futures):
                summaries.append(future.result())
                if on_game_done is not None:
                    on_game_done(summaries[-1])
    summaries.sort(key=lambda summary: summary.index)
    seconds = time.perf_counter() - started
    return TournamentResult(rules, seed, games, _entries(bots, summaries), seconds)
