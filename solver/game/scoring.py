"""Round and game scoring: pure functions from how a round ended to the points it gives.

Manipulation Rummy (``lowest_hand``, RULES.md): the lowest hand wins.  A sole winner
scores the sum of the differences between each other hand and theirs (with two players,
the one difference).  Rulings:

- knocker lowest alone: the knocker wins, no bonus;
- a player other than the knocker lowest alone: undercut, that winner adds 10;
- the knocker tied for lowest with others: those others win (not the knocker), each
  scoring as a sole winner would, plus 10;
- two or more players other than the knocker tied for lowest: each scores as a sole
  winner would, plus 10;
- going out: the player who went out wins and adds 25 (no knocker, no undercut);
- stock exhausted: no knocker and no undercut; players tied for lowest each score as a
  sole winner would.

Each player who scores as a winner has *won the round* (it counts for the end-of-game
round bonus).  The game ends after a round in which one or more players reach the
target (150): each of them adds 100, every other player adds 25 per round won (option
``round_bonus_to_all``: every player adds 25 per round won).  Highest total wins.

Machiavelli and Rummikub (``first_out``), our ruling for both: a game is one round.
Whoever empties the hand wins; every other player loses the points left in their
hand (Rummikub: joker 30, tiles at face value; Machiavelli: ace 1, J Q K 10) and the
winner gains their sum.  When the stock is empty and a full cycle of players passes
without a play, the round is *blocked*: the lowest hand wins, each other player loses
the difference between their hand and the lowest, and each winner gains the sum of
those differences (ties for lowest each gain it, as in Manipulation Rummy).

A round that reaches the settings' turn limit (the published peer's game,
``GameSettings.rummikub_peer``) ends as *limit*: in a first-out game nobody wins and
nobody scores (the peer's "timeout"); in Manipulation Rummy it is scored as an
exhausted stock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from solver.game.settings import GameSettings

__all__ = [
    "EndReason",
    "RoundEnd",
    "RoundScore",
    "first_out_score",
    "game_bonuses",
    "game_over",
    "lowest_hand_score",
    "score_round",
    "winners_of",
]

EndReason = Literal["knock", "out", "exhausted", "blocked", "limit"]
"""``knock``: a player knocked; ``out``: a player melded the last card; ``exhausted``:
the final turns after the stock ran out were played (Manipulation Rummy); ``blocked``:
the stock was empty and a full cycle of players passed (Machiavelli, Rummikub);
``limit``: the settings' turn limit was reached."""


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended: the reason, the points left in each hand, who knocked or went out."""

    reason: EndReason
    hand_points: tuple[int, ...]
    knocker: int | None = None
    out: int | None = None

    def __post_init__(self) -> None:
        if (self.reason == "knock") != (self.knocker is not None):
            raise ValueError("a knocker is given exactly when the round ended by a knock")
        if (self.reason == "out") != (self.out is not None):
            raise ValueError("the player who went out is given exactly when the round ended that way")


@dataclass(frozen=True, slots=True)
class RoundScore:
    """Points each player scores for one round, and who won it."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    undercut: tuple[int, ...] = ()
    """Players who scored the undercut bonus."""


def _sole_winner_points(hand_points: Sequence[int], winner: int) -> int:
    """What ``winner`` scores as a sole winner: the sum of the differences to every other hand."""
    own = hand_points[winner]
    return sum(points - own for seat, points in enumerate(hand_points) if seat != winner)


def lowest_hand_score(end: RoundEnd, settings: GameSettings) -> RoundScore:
    """Manipulation Rummy round scoring, every tie ruling included (module docstring)."""
    points = end.hand_points
    low = min(points)
    lowest = [seat for seat, value in enumerate(points) if value == low]
    bonus = 0
    undercut: list[int] = []
    if end.reason == "out":
        assert end.out is not None
        winners = [end.out]
        bonus = settings.going_out_bonus
    elif end.reason == "knock":
        assert end.knocker is not None
        winners = [seat for seat in lowest if seat != end.knocker]
        if winners:
            bonus = settings.undercut_bonus
            undercut = winners
        else:
            winners = [end.knocker]
    else:
        winners = lowest
    scores = [0] * len(points)
    for seat in winners:
        scores[seat] = _sole_winner_points(points, seat) + bonus
    return RoundScore(tuple(scores), tuple(winners), tuple(undercut))


def first_out_score(end: RoundEnd, settings: GameSettings) -> RoundScore:
    """Machiavelli and Rummikub scoring (module docstring): losers pay what they hold
    above the lowest hand (all of it when the winner went out), winners collect."""
    points = end.hand_points
    if end.reason == "limit":
        return RoundScore(tuple(0 for _ in points), ())
    low = 0 if end.out is not None else min(points)
    winners = [end.out] if end.out is not None else [s for s, value in enumerate(points) if value == low]
    pot = sum(value - low for seat, value in enumerate(points) if seat not in winners)
    scores = [pot if seat in winners else -(value - low) for seat, value in enumerate(points)]
    return RoundScore(tuple(scores), tuple(winners))


def score_round(end: RoundEnd, settings: GameSettings) -> RoundScore:
    """Score one round under the settings' scoring style."""
    if settings.scoring == "lowest_hand":
        return lowest_hand_score(end, settings)
    return first_out_score(end, settings)


def game_over(totals: Sequence[int], settings: GameSettings) -> bool:
    """Whether the game ends after a round that left these totals."""
    if not settings.plays_to_target:
        return True
    target = settings.variant.target_score
    return target is not None and max(totals) >= target


def game_bonuses(totals: Sequence[int], rounds_won: Sequence[int], settings: GameSettings) -> tuple[int, ...]:
    """End-of-game bonuses: 100 to each player at or over the target, 25 per round won to
    every other player (to every player with ``round_bonus_to_all``); none for one-round games."""
    target = settings.variant.target_score
    if not settings.plays_to_target or target is None:
        return tuple(0 for _ in totals)
    bonuses = []
    for total, won in zip(totals, rounds_won, strict=True):
        reached = total >= target
        bonus = settings.game_bonus if reached else 0
        if not reached or settings.variant.round_bonus_to_all:
            bonus += settings.round_win_bonus * won
        bonuses.append(bonus)
    return tuple(bonuses)


def winners_of(final: Sequence[int], last: RoundScore | None = None) -> tuple[int, ...]:
    """The players with the highest final score (a tie shares the win); nobody when the
    game's ``last`` round had no winner (a first-out game that reached its turn limit)."""
    if last is not None and not last.winners:
        return ()
    best = max(final)
    return tuple(seat for seat, value in enumerate(final) if value == best)
