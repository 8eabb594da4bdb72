"""Matches in mirrored deals: two bots in mirrored pairs, or a seat list of 3 or more.

**Two bots.**  Pair ``i`` of a match with root seed ``S`` is played with the seed
``pair_seed(S, i)`` twice: once with bot A in seat 0 and B in seat 1, once with the seats
swapped.  The game's own generator deals from that seed alone (the first dealer and every
round's deal), so both games see the same deals and the same stock order, seat for seat:
the luck of the cards cancels within a pair.  Each bot gets a generator derived from the
pair seed and its entry (A or B), the same in both games of the pair.

**A seat list of 3 or more** (``pimc hoarder hoarder hoarder``): deal ``i`` is played
once per rotation of the seat list, the first bot (the *focus*) in each seat in turn and
the others rotated with it (entry ``e`` at seat ``(e + r) % players`` in game ``r``): 4
games a deal for 4 players.  Two bots are the same scheme with two rotations, so the
pair is the two-seat deal.  Each entry keeps its generator over the deal's games.

The work is a pure function of a chunk of deal indices (``play_pairs``); chunks run
through the execution layer ``solver.runs`` (in this process, a local pool with
``jobs``, or a Dask cluster with ``scheduler``) and are merged in index order, so a match
gives the same results for the same seed whatever the backend and the number of workers.  With an SPRT
(two bots only) the test is evaluated after each pair *in index order* and the match
stops at the first pair where it decides; pairs computed past that point are discarded,
which keeps the stop independent of the workers too.

An entry's share of a game is 1 for a win, 1/k for a win shared by k players, 0 for a
loss, and 1/players each in a game nobody wins (a turn limit reached: the peer's game).
With two bots A's shares make a pair score of 0 to 2, and ``solver.strategy.stats``
turns the pair scores into the Wilson interval (pairs as clusters), the Elo difference
with its interval and the SPRT; with more, each bot name's share per seat gets its
interval with the deals as clusters (``solver.strategy.match_summary``).

The ``oracle`` (``solver.strategy.oracle``) may enter a match: it is a measurement bot,
made here with ``measurement=True`` and shown the whole round through the one channel
for that (``play_game(seeing=...)``) -- only seats holding a measurement bot by name.
"""

from __future__ import annotations

import hashlib
import os
import random
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
from solver.strategy.match_summary import EntryStats, ShareStats, entry_labels, entry_stats, share_stats
from solver.strategy.registry import is_measurement_bot, make_bot
from solver.strategy.stats import Interval, SprtResult, clustered_wilson, elo_interval, sprt

__all__ = [
    "EntryStats",
    "GameRecord",
    "MatchResult",
    "MatchSpec",
    "PairResult",
    "ShareStats",
    "match_bot_rng",
    "pair_seed",
    "play_chunk",
    "play_pair",
    "play_pairs",
    "run_match",
    "seating",
    "win_shares",
]

ENTRIES = ("A", "B")


def pair_seed(match_seed: int, index: int) -> int:
    """The deal seed of pair (or deal) ``index`` (0-based) of the match played with ``match_seed``."""
    return random.Random(f"rummy-match/{match_seed}/{index}").getrandbits(48)


def match_bot_rng(seed: int, entry: int) -> random.Random:
    """The generator of entry ``entry`` (0 for A, 1 for B, ...) in every game of the deal with ``seed``."""
    return random.Random(f"rummy-match-bot/{seed}/{entry}")


def seating(players: int, rotation: int) -> tuple[int, ...]:
    """The entry at each seat in game ``rotation`` of a deal: entry ``e`` sits at seat
    ``(e + rotation) % players``, so the focus (entry 0) sits at seat ``rotation``."""
    return tuple((seat - rotation) % players for seat in range(players))


def win_shares(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """Each seat's share of a game: 1/k to each of k winners, 1/players each when nobody won."""
    if not winners:
        return tuple(1 / players for _ in range(players))
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(players))


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything a worker needs to play deals of a match: the seat list (entries), the
    settings (as many players as entries), the root seed and the hint time limit."""

    bots: tuple[str, ...]
    settings: GameSettings
    seed: int
    time_limit: float = BOT_TIME_LIMIT


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a deal, seen by entry (index 0 is A, the focus), whatever the seats."""

    a_seat: int
    score: float
    """A's share: 1 win, 1/k a win shared by k, 0 loss (1/players when nobody won)."""
    final: tuple[int, ...]
    rounds: int
    round_points: tuple[int, ...]
    """Points scored in the rounds (before end-of-game bonuses)."""
    rounds_won: tuple[int, ...]
    knocks: tuple[int, ...]
    undercuts: tuple[int, ...]
    moves: tuple[int, ...]
    actions: tuple[dict[str, int], ...]
    """Each entry's actions by kind (``play``, ``draw``, ``knock``, ``pass``)."""
    counters: tuple[dict[str, int], ...]
    """What each bot counted about its own choices (``Bot.counters``), this game only."""
    ms: tuple[tuple[float, ...], ...]
    """Wall-clock milliseconds of each decision: the only part that depends on the machine."""
    deals: tuple[str, ...] = ()
    """A fingerprint of each round's deal (the hands seat by seat and the stock order):
    equal round by round in the games of a deal."""
    shares: tuple[float, ...] = ()
    """Each entry's share of the game (``win_shares``)."""
    no_winner: bool = False
    """The game ended without a winner (its turn limit reached)."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """One deal of the match: its games, one per rotation (two for a mirrored pair)."""

    index: int
    seed: int
    games: tuple[GameRecord, ...]

    @property
    def score(self) -> float:
        """A's shares over the deal (0 to 2 for a pair, 0 to the players in general)."""
        return sum(game.score for game in self.games)


def _counters(bot: Bot) -> dict[str, int]:
    found = getattr(bot, "counters", None)
    return dict(found) if isinstance(found, dict) else {}


class _Watch:
    """A game listener that records, per entry, the actions and decision times, and the
    fingerprint of every deal."""

    def __init__(self, entry_of: tuple[int, ...]) -> None:
        self.entry_of = entry_of
        self.actions: list[Counter[str]] = [Counter() for _ in entry_of]
        self.ms: list[list[float]] = [[] for _ in entry_of]
        self.deals: list[str] = []

    def __call__(self, event: GameEvent) -> None:
        if isinstance(event, Dealt):
            text = " / ".join(" ".join(map(str, hand)) for hand in (*event.hands, event.stock))
            self.deals.append(hashlib.blake2b(text.encode(), digest_size=8).hexdigest())
        elif isinstance(event, Acted):
            entry = self.entry_of[event.seat]
            self.actions[entry][event.action.kind] += 1
            self.ms[entry].append(event.ms or 0.0)


def _play_game(spec: MatchSpec, seed: int, rotation: int) -> GameRecord:
    """Game ``rotation`` of the deal with ``seed``: the entries seated by ``seating``."""
    players = len(spec.bots)
    bots = [
        make_bot(name, rng=match_bot_rng(seed, entry), time_limit=spec.time_limit, measurement=True)
        for entry, name in enumerate(spec.bots)
    ]
    entry_of = seating(players, rotation)
    seat_of = tuple(entry_of.index(entry) for entry in range(players))
    watch = _Watch(entry_of)
    before = [_counters(bot) for bot in bots]
    seers = [seat for seat, entry in enumerate(entry_of) if is_measurement_bot(spec.bots[entry])]
    result = play_game(
        spec.settings, [bots[entry] for entry in entry_of], seed=seed, listeners=[watch], seeing=seers
    )

    def per_entry(values: Sequence[int]) -> tuple[int, ...]:
        return tuple(values[seat_of[entry]] for entry in range(players))

    seat_shares = win_shares(result.winners, players)
    shares = tuple(seat_shares[seat_of[entry]] for entry in range(players))
    counters = []
    for bot, old in zip(bots, before, strict=True):
        now = _counters(bot)
        counters.append({key: value - old.get(key, 0) for key, value in now.items()})
    seats = range(players)
    return GameRecord(
        a_seat=rotation,
        score=shares[0],
        final=per_entry(result.final),
        rounds=len(result.rounds),
        round_points=per_entry(result.totals),
        rounds_won=per_entry([sum(seat in r.score.winners for r in result.rounds) for seat in seats]),
        knocks=per_entry([sum(r.end.knocker == seat for r in result.rounds) for seat in seats]),
        undercuts=per_entry([sum(seat in r.score.undercut for r in result.rounds) for seat in seats]),
        moves=tuple(len(times) for times in watch.ms),
        actions=tuple(dict(counts) for counts in watch.actions),
        counters=tuple(counters),
        ms=tuple(tuple(times) for times in watch.ms),
        deals=tuple(watch.deals),
        shares=shares,
        no_winner=not result.winners,
    )


def play_pair(spec: MatchSpec, index: int) -> PairResult:
    """Deal ``index``: the same deal once per rotation (A in seat 0, then 1, ...)."""
    seed = pair_seed(spec.seed, index)
    games = tuple(_play_game(spec, seed, rotation) for rotation in range(len(spec.bots)))
    return PairResult(index, seed, games)


def play_chunk(job: tuple[MatchSpec, range]) -> list[PairResult]:
    """The deals of one chunk, in index order: a pure function of the spec and the indices."""
    spec, indices = job
    return [play_pair(spec, index) for index in indices]


def play_pairs(spec: MatchSpec, chunk: Chunk[int]) -> list[PairResult]:
    """The task ``solver.runs`` runs: the deals of one chunk of indices, in order."""
    return [play_pair(spec, index) for index in chunk.items]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished (or SPRT-stopped) match: per-entry totals, per-name shares and the
    focus bot's (A's) score statistics."""

    settings: GameSettings
    seed: int
    bots: tuple[str, ...]
    pairs_requested: int
    pairs: tuple[PairResult, ...]
    """The deals played (mirrored pairs with two bots)."""
    entries: tuple[EntryStats, ...]
    score: Interval
    """A's score (share) per game with its 95% Wilson interval (deals as clusters)."""
    elo: Interval | None
    """A's Elo difference over B with its interval (two bots only)."""
    sprt: SprtResult | None
    seconds: float
    stopped_early: bool = field(default=False)
    shares: tuple[ShareStats, ...] = ()
    """Each bot name's share per seat and game, with its interval (deals as clusters)."""

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def games(self) -> int:
        return self.players * len(self.pairs)

    @property
    def timeouts(self) -> int:
        """Games that ended without a winner (their turn limit reached)."""
        return sum(game.no_winner for pair in self.pairs for game in pair.games)

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``results`` is reproducible from the seed, ``timing`` is wall clock."""
        if self.players > 2:
            return self._multi_dict()
        assert self.elo is not None  # two bots always have an Elo difference
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
        if self.settings.turn_limit is not None:
            data["timeouts"] = self.timeouts
        if self.sprt is not None:
            data["sprt"] = self.sprt.to_dict()
        data["timing"] = {
            "seconds": round(self.seconds, 3),
            "median_ms_per_decision": {entry.label: round(entry.median_ms, 3) for entry in self.entries},
            "p90_ms_per_decision": {entry.label: round(entry.p90_ms, 3) for entry in self.entries},
        }
        return data

    def _multi_dict(self) -> dict[str, object]:
        """JSON form of a match of 3 or more seats: the deals, the shares and the entries."""
        return {
            "settings": self.settings.describe(),
            "seed": self.seed,
            "bots": list(self.bots),
            "players": self.players,
            "deals_requested": self.pairs_requested,
            "deals": len(self.pairs),
            "games": self.games,
            "shares": [share.results() for share in self.shares],
            "focus_share": self.score.to_dict(),
            "results": [entry.results() for entry in self.entries],
            **({"timeouts": self.timeouts} if self.settings.turn_limit is not None else {}),
            "timing": {
                "seconds": round(self.seconds, 3),
                "median_ms_per_decision": {share.bot: round(share.median_ms, 3) for share in self.shares},
                "p90_ms_per_decision": {share.bot: round(share.p90_ms, 3) for share in self.shares},
            },
        }


def _summarize(
    spec: MatchSpec,
    requested: int,
    pairs: Sequence[PairResult],
    sprt_bounds: tuple[float, float] | None,
    seconds: float,
    stopped: bool,
) -> MatchResult:
    games = [game for pair in pairs for game in pair.games]
    labels = entry_labels(spec.bots)
    entries = tuple(entry_stats(labels[e], name, e, games) for e, name in enumerate(spec.bots))
    shares = share_stats(spec.bots, [pair.games for pair in pairs])
    scores = [pair.score for pair in pairs]
    if len(spec.bots) == 2:
        score = clustered_wilson(scores)
        elo: Interval | None = elo_interval(score)
    else:
        score = shares[0].share
        elo = None
    test = sprt(scores, *sprt_bounds) if sprt_bounds is not None else None
    return MatchResult(
        spec.settings,
        spec.seed,
        spec.bots,
        requested,
        tuple(pairs),
        entries,
        score,
        elo,
        test,
        seconds,
        stopped,
        shares,
    )


def _decided(pairs: Sequence[PairResult], bounds: tuple[float, float]) -> bool:
    return sprt([pair.score for pair in pairs], *bounds).decision != "continue"


def _match_spec(
    bots: tuple[str, ...],
    pairs: int,
    jobs: int,
    settings: GameSettings | None,
    sprt_elo: tuple[float, float] | None,
) -> GameSettings:
    """The settings of a match of ``bots``; ValueError names a bad argument before any game."""
    if len(bots) < 2:
        raise ValueError(f"a match needs at least two bots, not {len(bots)}")
    if pairs < 1:
        raise ValueError(f"a match needs at least one pair, not {pairs}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    rules = settings if settings is not None else GameSettings.manipulation(len(bots))
    if len(bots) == 2 and rules.players != 2:
        raise ValueError(f"a match is between two bots: {rules.players}-player settings given")
    if rules.players != len(bots):
        raise ValueError(
            f"a match of {len(bots)} bots needs {len(bots)}-player settings, not {rules.players}-player ones"
        )
    if sprt_elo is not None and len(bots) != 2:
        raise ValueError(f"the SPRT compares two bots, not {len(bots)}")
    if sprt_elo is not None and not sprt_elo[0] < sprt_elo[1]:
        raise ValueError(f"the SPRT needs elo0 < elo1, not {sprt_elo[0]},{sprt_elo[1]}")
    for name in bots:
        make_bot(name, measurement=True)  # an unknown bot fails here, before any game starts
    return rules


def run_match(
    *bots: str,
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
    """Play up to ``pairs`` deals of the seat list ``bots`` and total them up: with two
    bots, mirrored pairs of A against B; with more, each deal once per rotation of the
    seats (module docstring).

    ``settings`` defaults to Manipulation Rummy for as many players as bots.  ``jobs``
    worker processes, or the Dask cluster of ``scheduler`` (``"local:N"``, an address or
    a ``distributed.Client``) or ``scheduler_file``, or a ready ``backend``
    (``solver.runs``), play chunks of ``chunk_size`` deals (results depend on none of
    these).  Ctrl-C ends the workers at once and propagates.
    ``sprt_elo=(elo0, elo1)`` (two bots) stops at the first pair, in index order, where
    the SPRT (alpha = beta = 0.05) accepts either hypothesis.  ``on_pair_done`` is called
    in this process for each deal merged in index order (for a progress bar).
    """
    names = tuple(bots)
    rules = _match_spec(names, pairs, jobs, settings, sprt_elo)
    chosen = backend
    if chosen is None:
        dask = scheduler is not None or scheduler_file is not None
        chosen = make_backend(
            jobs=None if dask and jobs == 1 else jobs, scheduler=scheduler, scheduler_file=scheduler_file
        )
    spec = MatchSpec(names, rules, seed, time_limit)
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
