"""A whole game: rounds dealt from one seeded generator, scored, up to the end of the game.

``Game`` owns the random generator (``random.Random(seed)``, injected or built from
the seed): it picks the first dealer (unless ``first_dealer`` is given) and shuffles
every deal (``dealing``, replaceable by a scripted deal in tests), and nothing else
draws from it, so a seed and the list of actions reproduce a game exactly (``solver.game.log``
replays them).  The deal passes to the left (the next seat) after each round; the
player left of the dealer starts.

Listeners are called with each event (``Dealt``, ``Acted``, ``RoundEnded``,
``GameEnded``) as it happens: the log writer, the terminal display and the tournament
statistics are listeners, so the game itself prints and stores nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from solver.cards import Piece
from solver.game.actions import Action
from solver.game.deck import deal
from solver.game.scoring import RoundEnd, RoundScore, game_bonuses, game_over, score_round, winners_of
from solver.game.settings import GameSettings
from solver.game.state import RoundState
from solver.game.view import PlayerView
from solver.variants import Variant

__all__ = [
    "Acted",
    "Dealt",
    "Game",
    "GameEnded",
    "GameEvent",
    "GameResult",
    "Listener",
    "RoundEnded",
    "RoundRecord",
]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One finished round: how it ended, what it scored, the totals after it."""

    number: int
    dealer: int
    end: RoundEnd
    score: RoundScore
    totals: tuple[int, ...]
    hands: tuple[tuple[Piece, ...], ...]
    """What each player held at the end (the hands the points were counted from)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The finished game: every round, the totals, the end-of-game bonuses and the winners."""

    settings: GameSettings
    seed: int | None
    rounds: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    """Sum of the round scores."""
    bonuses: tuple[int, ...]
    final: tuple[int, ...]
    winners: tuple[int, ...]
    """The players with the highest final score; none when the game reached its turn limit."""

    def to_dict(self) -> dict[str, object]:
        """The outcome as plain data (a game log's last line, the replay's JSON)."""
        return {
            "rounds": len(self.rounds),
            "totals": list(self.totals),
            "bonuses": list(self.bonuses),
            "final": list(self.final),
            "winners": list(self.winners),
        }


@dataclass(frozen=True, slots=True)
class Dealt:
    round_number: int
    dealer: int
    hands: tuple[tuple[Piece, ...], ...]
    stock: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class Acted:
    round_number: int
    seat: int
    action: Action
    ms: float | None
    """Time the player took to choose, when measured."""


@dataclass(frozen=True, slots=True)
class RoundEnded:
    record: RoundRecord


@dataclass(frozen=True, slots=True)
class GameEnded:
    result: GameResult


GameEvent = Dealt | Acted | RoundEnded | GameEnded
Listener = Callable[[GameEvent], None]
Dealing = Callable[[Variant, int, random.Random], tuple[list[list[Piece]], list[Piece]]]
"""Shuffle and deal: ``solver.game.deck.deal``, or a scripted deal in tests."""


class Game:
    """The stateful flow of a game across rounds (see the module docstring)."""

    def __init__(
        self,
        settings: GameSettings,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        listeners: Iterable[Listener] = (),
        first_dealer: int | None = None,
        dealing: Dealing = deal,
    ) -> None:
        self.settings = settings
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        self.listeners = list(listeners)
        players = settings.players
        self.totals: tuple[int, ...] = (0,) * players
        self.rounds_won = [0] * players
        self.records: list[RoundRecord] = []
        self.result: GameResult | None = None
        self.dealing = dealing
        self.dealer = self.rng.randrange(players) if first_dealer is None else first_dealer
        self.round = self._deal()

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def to_move(self) -> int:
        return self.round.to_move

    def view(self, seat: int) -> PlayerView:
        return self.round.view(seat)

    def apply(self, action: Action, *, ms: float | None = None) -> None:
        """Apply the mover's action (``IllegalActionError``, nothing changed, if illegal);
        score the round when it ends and deal the next one, or end the game."""
        if self.result is not None:
            raise ValueError("the game is over")
        seat = self.round.to_move
        self.round.apply(action)
        self._emit(Acted(self.round.round_number, seat, action, ms))
        if self.round.end is not None:
            self._finish_round(self.round.end)

    def _deal(self) -> RoundState:
        hands, stock = self.dealing(self.settings.variant, self.settings.players, self.rng)
        number = len(self.records) + 1
        state = RoundState(
            self.settings, hands, stock, dealer=self.dealer, round_number=number, totals=self.totals
        )
        self._emit(Dealt(number, self.dealer, tuple(map(tuple, hands)), tuple(stock)))
        return state

    def _finish_round(self, end: RoundEnd) -> None:
        score = score_round(end, self.settings)
        self.totals = tuple(total + gained for total, gained in zip(self.totals, score.scores, strict=True))
        for seat in score.winners:
            self.rounds_won[seat] += 1
        hands = tuple(tuple(self.round.hand(seat)) for seat in range(self.settings.players))
        record = RoundRecord(self.round.round_number, self.dealer, end, score, self.totals, hands)
        self.records.append(record)
        self._emit(RoundEnded(record))
        if game_over(self.totals, self.settings):
            bonuses = game_bonuses(self.totals, self.rounds_won, self.settings)
            final = tuple(total + bonus for total, bonus in zip(self.totals, bonuses, strict=True))
            self.result = GameResult(
                self.settings,
                self.seed,
                tuple(self.records),
                self.totals,
                bonuses,
                final,
                winners_of(final, score),
            )
            self._emit(GameEnded(self.result))
            return
        self.dealer = (self.dealer + 1) % self.settings.players
        self.round = self._deal()

    def _emit(self, event: GameEvent) -> None:
        for listener in self.listeners:
            listener(event)
