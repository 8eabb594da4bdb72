"""Mirrored-pair matches between two bots, with intervals and an optional SPRT stop.

Pair ``i`` of a match with root seed ``S`` is played with the seed ``pair_seed(S, i)``
twice: once with bot A in seat 0 and B in seat 1, once with the seats swapped.  The
game's own generator deals from that seed alone (the first dealer and every round's
deal), so both games see the same deals and the same stock order, seat for seat: the
luck of the cards cancels within a pair.  Each bot gets a generator derived from the
pair seed and its entry (A or B), the same in both games of the pair.

The work is a pure function of a chunk of pair indices (``play_pairs``); chunks run
through the execution layer ``solver.runs`` (in this process, a local pool with
``jobs``, or a Dask cluster with ``scheduler``) and are merged in index order, so a match
gives the same results for the same seed whatever the backend and the number of workers.  With an SPRT
the test is evaluated after each pair *in index order* and the match stops at the first
pair where it decides; pairs computed past that point are discarded, which keeps the
stop independent of the workers too.

A's score per game is 1 for a win, 1/2 for a shared win, 0 for a loss; a pair scores
0 to 2.  ``solver.strategy.stats`` turns the pair scores into the Wilson interval (pairs as
clusters), the Elo difference with its interval and the SPRT.
"""

from __future__ import annotations

import hashlib
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field

from solver.game.game import Acted, Dealt, GameEvent
from solver.game.runner import play_game
from solver.game.settings import GameSettings
from solver.runs import Backend, Chunk, SchedulerSpec, iter_indexed, make_backend
from solver.strategy.bots import BOT_TIME_LIMIT, Bot
from solver.strategy.registry import make_bot
from solver.strategy.stats import Interval, SprtResult, clustered_wilson, elo_interval, sprt

__all__ = [
    "EntryStats",
    "GameRecord",
    "MatchResult",
    "MatchSpec",
    "PairResult",
    "match_bot_rng",
    "pair_seed",
    "play_chunk",
    "play_pair",
    "play_pairs",
    "run_match",
]

ENTRIES = ("A", "B")


def pair_seed(match_seed: int, index: int) -> int:
    """The deal seed of pair ``index`` (0-based) of the match played with ``match_seed``."""
    return random.Random(f"rummy-match/{match_seed}/{index}").getrandbits(48)


def match_bot_rng(seed: int, entry: int) -> random.Random:
    """The generator of entry ``entry`` (0 for A, 1 for B) in both games of the pair with ``seed``."""
    return random.Random(f"rummy-match-bot/{seed}/{entry}")


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything a worker needs to play pairs of a match."""

    bots: tuple[str, str]
    settings: GameSettings
    seed: int
    time_limit: float = BOT_TIME_LIMIT


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a pair, seen by entry (index 0 is A, 1 is B), whatever the seats."""

    a_seat: int
    score: float
    """A's result: 1 win, 0.5 shared win, 0 loss."""
    final: tuple[int, int]
    rounds: int
    round_points: tuple[int, int]
    """Points scored in the rounds (before end-of-game bonuses)."""
    rounds_won: tuple[int, int]
    knocks: tuple[int, int]
    undercuts: tuple[int, int]
    moves: tuple[int, int]
    actions: tuple[dict[str, int], dict[str, int]]
    """Each entry's actions by kind (``play``, ``draw``, ``knock``, ``pass``)."""
    counters: tuple[dict[str, int], dict[str, int]]
    """What each bot counted about its own choices (``Bot.counters``), this game only."""
    ms: tuple[tuple[float, ...], tuple[float, ...]]
    """Wall-clock milliseconds of each decision: the only part that depends on the machine."""
    deals: tuple[str, ...] = ()
    """A fingerprint of each round's deal (the hands seat by seat and the stock order):
    equal round by round in the two games of a pair."""


@dataclass(frozen=True, slots=True)
class PairResult:
    index: int
    seed: int
    games: tuple[GameRecord, GameRecord]

    @property
    def score(self) -> float:
        """A's score over the pair (0 to 2)."""
        return self.games[0].score + self.games[1].score


def _counters(bot: Bot) -> dict[str, int]:
    found = getattr(bot, "counters", None)
    return dict(found) if isinstance(found, dict) else {}


def _play_game(spec: MatchSpec, seed: int, a_seat: int) -> GameRecord:
    """One game of the pair: A at ``a_seat``, B at the other seat."""
    bots = [
        make_bot(name, rng=match_bot_rng(seed, entry), time_limit=spec.time_limit)
        for entry, name in enumerate(spec.bots)
    ]
    seats = [bots[0], bots[1]] if a_seat == 0 else [bots[1], bots[0]]
    entry_of = (0, 1) if a_seat == 0 else (1, 0)
    actions: list[Counter[str]] = [Counter(), Counter()]
    ms: list[list[float]] = [[], []]
    before = [_counters(bot) for bot in bots]

    deals: list[str] = []

    def listen(event: GameEvent) -> None:
        if isinstance(event, Dealt):
            text = " / ".join(" ".join(map(str, hand)) for hand in (*event.hands, event.stock))
            deals.append(hashlib.blake2b(text.encode(), digest_size=8).hexdigest())
        elif isinstance(event, Acted):
            entry = entry_of[event.seat]
            actions[entry][event.action.kind] += 1
            ms[entry].append(event.ms or 0.0)

    result = play_game(spec.settings, seats, seed=seed, listeners=[listen])
    seat_of = (a_seat, 1 - a_seat)

    def per_entry(values: Sequence[int]) -> tuple[int, int]:
        return values[seat_of[0]], values[seat_of[1]]

    won = [seat_of[0] in result.winners, seat_of[1] in result.winners]
    score = 1.0 if won[0] and not won[1] else 0.5 if won[0] else 0.0
    counters = []
    for bot, old in zip(bots, before, strict=True):
        now = _counters(bot)
        counters.append({key: value - old.get(key, 0) for key, value in now.items()})
    rounds_won = [sum(seat in record.score.winners for record in result.rounds) for seat in range(2)]
    knocks = [sum(record.end.knocker == seat for record in result.rounds) for seat in range(2)]
    undercuts = [sum(seat in record.score.undercut for record in result.rounds) for seat in range(2)]
    return GameRecord(
        a_seat=a_seat,
        score=score,
        final=per_entry(result.final),
        rounds=len(result.rounds),
        round_points=per_entry(result.totals),
        rounds_won=per_entry(rounds_won),
        knocks=per_entry(knocks),
        undercuts=per_entry(undercuts),
        moves=(len(ms[0]), len(ms[1])),
        actions=(dict(actions[0]), dict(actions[1])),
        counters=(counters[0], counters[1]),
        ms=(tuple(ms[0]), tuple(ms[1])),
        deals=tuple(deals),
    )


def play_pair(spec: MatchSpec, index: int) -> PairResult:
    """Pair ``index``: the same deal twice, A in seat 0 then in seat 1."""
    seed = pair_seed(spec.seed, index)
    return PairResult(index, seed, (_play_game(spec, seed, 0), _play_game(spec, seed, 1)))


def play_chunk(job: tuple[MatchSpec, range]) -> list[PairResult]:
    """The pairs of one chunk, in index order: a pure function of the spec and the indices."""
    spec, indices = job
    return [play_pair(spec, index) for index in indices]


def play_pairs(spec: MatchSpec, chunk: Chunk[int]) -> list[PairResult]:
    """The task ``solver.runs`` runs: the pairs of one chunk of indices, in order."""
    return [play_pair(spec, index) for index in chunk.items]


@dataclass(frozen=True, slots=True)
class EntryStats:
    """One bot's totals over the match."""

    label: str
    bot: str
    games: int
    won: float
    """Games won, a shared win counting half."""
    rounds: int
    rounds_won: int
    mean_final: float
    points_per_round: float
    knocks: int
    undercuts: int
    moves: int
    actions: dict[str, int]
    counters: dict[str, int]
    median_ms: float
    p90_ms: float

    def results(self) -> dict[str, object]:
        """The reproducible figures (everything but the timing)."""
        return {
            "bot": self.label,
            "games": self.games,
            "won": self.won,
            "rounds": self.rounds,
            "rounds_won": self.rounds_won,
            "mean_final_score": round(self.mean_final, 2),
            "points_per_round": round(self.points_per_round, 2),
            "knocks": self.knocks,
            "undercuts": self.undercuts,
            "moves": self.moves,
            "actions": dict(sorted(self.actions.items())),
            "counters": dict(sorted(self.counters.items())),
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished (or SPRT-stopped) match: per-bot totals and A's score statistics."""

    settings: GameSettings
    seed: int
    bots: tuple[str, str]
    pairs_requested: int
    pairs: tuple[PairResult, ...]
    entries: tuple[EntryStats, EntryStats]
    score: Interval
    """A's score per game with its 95% Wilson interval (pairs as clusters)."""
    elo: Interval
    """A's Elo difference over B with its interval."""
    sprt: SprtResult | None
    seconds: float
    stopped_early: bool = field(default=False)

    @property
    def games(self) -> int:
        return 2 * len(self.pairs)

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``results`` is reproducible from the seed, ``timing`` is wall clock."""
        data: dict[str, object] = {
            "settings": self.settings.describe(),
            "seed": self.seed,
            "bots": list(self.bots),
            "pairs_requested": self.pairs_requested,
            "pairs": len(self.pairs),
            "games": self.games,
            "stopped_early": self.stopped_early,
            "results": [entry.results() for entry in self.entries],
            "a_score": self.score.to_dict(),
            "elo": self.elo.to_dict(1),
            "pair_scores": dict(sorted(Counter(pair.score for pair in self.pairs).items())),
        }
        if self.sprt is not None:
            data["sprt"] = self.sprt.to_dict()
        data["timing"] = {
            "seconds": round(self.seconds, 3),
            "median_ms_per_decision": {entry.label: round(entry.median_ms, 3) for entry in self.entries},
            "p90_ms_per_decision": {entry.label: round(entry.p90_ms, 3) for entry in self.entries},
        }
        return data


def _labels(bots: tuple[str, str]) -> tuple[str, str]:
    if bots[0] == bots[1]:
        return f"{bots[0]}#1", f"{bots[1]}#2"
    return bots


def _entry_stats(label: str, bot: str, entry: int, pairs: Sequence[PairResult]) -> EntryStats:
    games = [game for pair in pairs for game in pair.games]
    rounds = sum(game.rounds for game in games)
    actions: Counter[str] = Counter()
    counters: Counter[str] = Counter()
    ms: list[float] = []
    for game in games:
        actions.update(game.actions[entry])
        counters.update(game.counters[entry])
        ms.extend(game.ms[entry])
    won = sum(game.score if entry == 0 else 1 - game.score for game in games)
    return EntryStats(
        label=label,
        bot=bot,
        games=len(games),
        won=won,
        rounds=rounds,
        rounds_won=sum(game.rounds_won[entry] for game in games),
        mean_final=sum(game.final[entry] for game in games) / len(games),
        points_per_round=sum(game.round_points[entry] for game in games) / rounds if rounds else 0.0,
        knocks=sum(game.knocks[entry] for game in games),
        undercuts=sum(game.undercuts[entry] for game in games),
        moves=sum(game.moves[entry] for game in games),
        actions=dict(actions),
        counters=dict(counters),
        median_ms=statistics.median(ms) if ms else 0.0,
        p90_ms=statistics.quantiles(ms, n=10)[-1] if len(ms) >= 2 else (ms[0] if ms else 0.0),
    )


def _summarize(
    spec: MatchSpec,
    requested: int,
    pairs: Sequence[PairResult],
    sprt_bounds: tuple[float, float] | None,
    seconds: float,
    stopped: bool,
) -> MatchResult:
    scores = [pair.score for pair in pairs]
    score = clustered_wilson(scores)
    test = sprt(scores, *sprt_bounds) if sprt_bounds is not None else None
    labels = _labels(spec.bots)
    entries = (
        _entry_stats(labels[0], spec.bots[0], 0, pairs),
        _entry_stats(labels[1], spec.bots[1], 1, pairs),
    )
    return MatchResult(
        spec.settings,
        spec.seed,
        spec.bots,
        requested,
        tuple(pairs),
        entries,
        score,
        elo_interval(score),
        test,
        seconds,
        stopped,
    )


def _decided(pairs: Sequence[PairResult], bounds: tuple[float, float]) -> bool:
    return sprt([pair.score for pair in pairs], *bounds).decision != "continue"


def run_match(
    bot_a: str,
    bot_b: str,
    *,
    pairs: int,
    seed: int = 0,
    settings: GameSettings | None = None,
    jobs: int = 1,
    scheduler: SchedulerSpec = None,
    scheduler_file: str | os.PathLike[str] | None = None,
    backend: Backend | None = None,
    chunk_size: int | None = None,
    sprt_elo: tuple[float, float] | None = None,
    time_limit: float = BOT_TIME_LIMIT,
    on_pair_done: Callable[[PairResult], None] | None = None,
) -> MatchResult:
    """Play up to ``pairs`` mirrored pairs of ``bot_a`` against ``bot_b`` and total them up.

    ``settings`` defaults to 2-player Manipulation Rummy.  ``jobs`` worker processes, or
    the Dask cluster of ``scheduler`` (``"local:N"``, an address or a
    ``distributed.Client``) or ``scheduler_file``, or a ready ``backend``
    (``solver.runs``), play chunks of ``chunk_size`` pairs (results depend on none of
    these).  Ctrl-C ends the workers at once and propagates.
    ``sprt_elo=(elo0, elo1)`` stops at the first pair, in index order, where the SPRT
    (alpha = beta = 0.05) accepts either hypothesis.  ``on_pair_done`` is called in this
    process for each pair merged in index order (for a progress bar).
    """
    if pairs < 1:
        raise ValueError(f"a match needs at least one pair, not {pairs}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    rules = settings if settings is not None else GameSettings.manipulation(2)
    if rules.players != 2:
        raise ValueError(f"a match is between two bots: {rules.players}-player settings given")
    if sprt_elo is not None and not sprt_elo[0] < sprt_elo[1]:
        raise ValueError(f"the SPRT needs elo0 < elo1, not {sprt_elo[0]},{sprt_elo[1]}")
    for name in (bot_a, bot_b):
        make_bot(name)  # an unknown bot fails here, before any game starts
    chosen = backend
    if chosen is None:
        dask = scheduler is not None or scheduler_file is not None
        chosen = make_backend(
            jobs=None if dask and jobs == 1 else jobs, scheduler=scheduler, scheduler_file=scheduler_file
        )
    spec = MatchSpec((bot_a, bot_b), rules, seed, time_limit)
    size = chunk_size
    if size is None and chosen.kind != "dask":
        size = max(1, min(4, pairs // (4 * chosen.workers)))
    started = time.perf_counter()
    merged: list[PairResult] = []
    stopped = False
    running = iter_indexed(play_pairs, spec, range(pairs), backend=chosen, chunk_size=size, max_chunk=4)
    with closing(running):  # a decided SPRT stops the workers at once
        for pair in running:
            merged.append(pair)
            if on_pair_done is not None:
                on_pair_done(pair)
            if sprt_elo is not None and _decided(merged, sprt_elo):
                stopped = len(merged) < pairs
                break
    seconds = time.perf_counter() - started
    return _summarize(spec, pairs, merged, sprt_elo, seconds, stopped)
