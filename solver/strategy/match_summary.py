"""The totals of a match: per entry (each seat list position) and per bot name.

``solver.strategy.match`` plays the games; this module adds them up.  Every figure but
the milliseconds comes from the games alone, so it repeats exactly with the seed.

- ``EntryStats``: one entry's totals (games won, rounds won, points, knocks, actions,
  what the bot counted of its choices, decision times).
- ``ShareStats``: one bot *name*'s win share per seat and game, with its 95% interval
  taking the deals as clusters (``solver.strategy.stats.clustered_share``), against the
  share chance gives (one over the players), its mean final score and decision times.
  A name entered several times (``pimc hoarder hoarder hoarder``) counts per seat: the
  three hoarders' wins over their three seats.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from solver.strategy.stats import Interval, clustered_share

__all__ = ["EntryStats", "ShareStats", "entry_labels", "entry_stats", "share_stats"]


class GameFigures(Protocol):
    """What the totals read of one game (``solver.strategy.match.GameRecord``), by entry."""

    @property
    def shares(self) -> tuple[float, ...]: ...
    @property
    def final(self) -> tuple[int, ...]: ...
    @property
    def rounds(self) -> int: ...
    @property
    def round_points(self) -> tuple[int, ...]: ...
    @property
    def rounds_won(self) -> tuple[int, ...]: ...
    @property
    def knocks(self) -> tuple[int, ...]: ...
    @property
    def undercuts(self) -> tuple[int, ...]: ...
    @property
    def moves(self) -> tuple[int, ...]: ...
    @property
    def actions(self) -> tuple[dict[str, int], ...]: ...
    @property
    def counters(self) -> tuple[dict[str, int], ...]: ...
    @property
    def ms(self) -> tuple[tuple[float, ...], ...]: ...


def entry_labels(bots: Sequence[str]) -> tuple[str, ...]:
    """The entries' names: the bot names, numbered when one name enters more than once."""
    return tuple(
        f"{name}#{bots[:i].count(name) + 1}" if bots.count(name) > 1 else name for i, name in enumerate(bots)
    )


def _median(ms: Sequence[float]) -> float:
    return statistics.median(ms) if ms else 0.0


def _p90(ms: Sequence[float]) -> float:
    return statistics.quantiles(ms, n=10)[-1] if len(ms) >= 2 else (ms[0] if ms else 0.0)


@dataclass(frozen=True, slots=True)
class EntryStats:
    """One entry's totals over the match."""

    label: str
    bot: str
    games: int
    won: float
    """Games won, a shared win counting its share (half, with two winners)."""
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


def entry_stats(label: str, bot: str, entry: int, games: Sequence[GameFigures]) -> EntryStats:
    """Entry ``entry``'s totals over ``games`` (every game of every deal, in order)."""
    rounds = sum(game.rounds for game in games)
    actions: Counter[str] = Counter()
    counters: Counter[str] = Counter()
    ms: list[float] = []
    for game in games:
        actions.update(game.actions[entry])
        counters.update(game.counters[entry])
        ms.extend(game.ms[entry])
    return EntryStats(
        label=label,
        bot=bot,
        games=len(games),
        won=sum(game.shares[entry] for game in games),
        rounds=rounds,
        rounds_won=sum(game.rounds_won[entry] for game in games),
        mean_final=sum(game.final[entry] for game in games) / len(games),
        points_per_round=sum(game.round_points[entry] for game in games) / rounds if rounds else 0.0,
        knocks=sum(game.knocks[entry] for game in games),
        undercuts=sum(game.undercuts[entry] for game in games),
        moves=sum(game.moves[entry] for game in games),
        actions=dict(actions),
        counters=dict(counters),
        median_ms=_median(ms),
        p90_ms=_p90(ms),
    )


@dataclass(frozen=True, slots=True)
class ShareStats:
    """One bot name's win share per seat and game over a match (module docstring)."""

    bot: str
    seats: int
    """How many entries of the seat list carry this name."""
    games: int
    won: float
    """Games won over all its seats, a shared win counting its share."""
    share: Interval
    """Won per seat and game, with its 95% interval (deals as clusters)."""
    chance: float
    """The share chance gives: one over the players."""
    mean_points: float
    """Mean final score per seat and game."""
    median_ms: float
    p90_ms: float

    def results(self) -> dict[str, object]:
        """The reproducible figures (everything but the timing)."""
        return {
            "bot": self.bot,
            "seats": self.seats,
            "games": self.games,
            "won": round(self.won, 6),
            "share": self.share.to_dict(),
            "chance": round(self.chance, 6),
            "mean_points": round(self.mean_points, 2),
        }


def share_stats(bots: Sequence[str], deals: Sequence[Sequence[GameFigures]]) -> tuple[ShareStats, ...]:
    """Each bot name's share (in the order the names first appear) over ``deals``, each
    deal being its games (one per seat rotation)."""
    players = len(bots)
    names = list(dict.fromkeys(bots))
    found = []
    for name in names:
        entries = [entry for entry, bot in enumerate(bots) if bot == name]
        seats = len(entries)
        means = [
            sum(game.shares[entry] for game in games for entry in entries) / (seats * len(games))
            for games in deals
        ]
        games = [game for deal in deals for game in deal]
        points = sum(game.final[entry] for game in games for entry in entries)
        ms = [value for game in games for entry in entries for value in game.ms[entry]]
        found.append(
            ShareStats(
                bot=name,
                seats=seats,
                games=len(games),
                won=sum(game.shares[entry] for game in games for entry in entries),
                share=clustered_share(means, players),
                chance=1 / players,
                mean_points=points / (seats * len(games)),
                median_ms=_median(ms),
                p90_ms=_p90(ms),
            )
        )
    return tuple(found)
