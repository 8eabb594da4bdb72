"""A game played on the page: rebuilt from its stored entries, then moved on by one request.

A game's state is its entries, nothing else (``solver.play`` docstring): ``Session``
replays them on ``solver.game.Game`` from the game's settings and seed, the way
``solver.game.log`` replays a log, and checks every action as the game applies it, so
entries that do not replay are a ``CorruptGame`` naming the entry.  Then one request
moves it on: the human's action (``act``: judged from the human's own view first, so a
refusal, ``NotYourTurn`` or ``IllegalPlay`` with the referee's reasons, changes
nothing), then the bots' turns up to the human's next decision or the end of the game.
The new entries come back for the caller to store; the bots' decisions are stored like
the human's, so a rebuilt game never needs a bot to decide the same way again.

The bots are the registry's built-in bots only (``solver.strategy.registry.BOTS``, never
a module path: the page's player names them), rebuilt for each request: each one is
told its seat's earlier decisions (``Bot.recall``), and each decision gets a generator
of its own from the game's seed, the seat and the action's number (``decision_rng``), so
what a bot does depends on the game's actions alone, not on which process or request
runs it, nor on the help the human asked for.

The table is kept in the order the page shows it (``solver.shown``: melds keep their
places), the human's own plays in the order the human laid them out: ``act`` takes a
play's table in that order, the game gets it in canonical order (the engine's), and the
entry stores the human's order, which the replay reads back.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.game.actions import Action, IllegalActionError, Play, action_from_dict
from solver.game.game import Dealt, Game, GameEvent, RoundEnded, RoundRecord
from solver.game.settings import GameSettings
from solver.game.view import PlayerView
from solver.play.errors import BadSetup, CorruptGame, GameOver, IllegalPlay, NotYourTurn
from solver.position import Table
from solver.shown import ShownTable
from solver.strategy.bots import Bot
from solver.strategy.registry import BOTS

__all__ = [
    "DEFAULT_OPPONENT",
    "ENTRY_KINDS",
    "HUMAN",
    "MAX_SEED",
    "Ended",
    "Entry",
    "GameSetup",
    "HelpUse",
    "Session",
    "Turn",
    "decision_rng",
]

HUMAN = "you"
"""The human seat's name among the players."""
DEFAULT_OPPONENT = "pimc"
"""The opponent of a game that names none: the strongest bot (the search bot)."""
ENTRY_KINDS = ("action", "help", "advice", "quit")
MAX_SEED = 2**53 - 1
"""The largest seed of a game: the largest integer every JSON client keeps exact, and well
within the 64-bit integer a store keeps it in."""

Entry = tuple[str, dict[str, Any]]
"""A stored entry: its kind (``ENTRY_KINDS``) and its JSON data.  An action's data is
``{"seat", "action": Action.to_dict(), "ms"}``, a help's ``{"level", "turn"}``, an
advice's ``{"turn"}`` (``turn``: the entry's place, the game's turn counter when asked),
a quit's ``{"seat"}``."""


def decision_rng(seed: int, seat: int, action: int) -> random.Random:
    """The generator of the bot at ``seat`` for the game's action number ``action`` (0-based,
    every seat's actions counted; helps and advice are not actions) in the game played with
    ``seed``: the same game gives the same bot decisions, whichever process or request runs
    them, and whatever help the human asked for."""
    return random.Random(f"rummy-play/{seed}/{seat}/{action}")


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What a game is played with: the settings, the seed, one name per seat (``HUMAN``
    at the human's seat, bot names at the others) and the human's seat."""

    settings: GameSettings
    seed: int
    players: tuple[str, ...]
    human_seat: int

    def __post_init__(self) -> None:
        if len(self.players) != self.settings.players:
            raise BadSetup(f"{len(self.players)} player names for a {self.settings.players}-player game")
        if not 0 <= self.human_seat < self.settings.players:
            players = self.settings.players
            raise BadSetup(f"seat {self.human_seat} is not in a {players}-player game", field="seat")
        if not 0 <= self.seed <= MAX_SEED:
            raise BadSetup(f"seed {self.seed} is out of range (0 to 2^53-1)", field="seed")

    @classmethod
    def new(
        cls, variant: str, players: int, opponents: Sequence[str] | None, seed: int, seat: int = 0
    ) -> GameSetup:
        """A new game against bots of the registry (``DEFAULT_OPPONENT`` for every other
        seat when ``opponents`` is None); ``BadSetup`` saying what does not fit."""
        try:
            settings = GameSettings.named(variant, players)
        except ValueError as error:
            raise BadSetup(str(error), field="variant" if "variant" in str(error) else "players") from None
        names = [DEFAULT_OPPONENT] * (players - 1) if opponents is None else list(opponents)
        if len(names) != players - 1:
            message = f"{players} players need {players - 1} opponents, not {len(names)}"
            raise BadSetup(message, field="opponents")
        for number, name in enumerate(names):
            if name not in BOTS:
                choices = ", ".join(BOTS)
                message = f"unknown opponent {name!r}: choose bots by name, from {choices}"
                raise BadSetup(message, field=f"opponents.{number}")
        if not 0 <= seat < players:
            message = f"seat {seat} is not in a {players}-player game (seats 0-{players - 1})"
            raise BadSetup(message, field="seat")
        return cls(settings, seed, (*names[:seat], HUMAN, *names[seat:]), seat)


@dataclass(frozen=True, slots=True)
class Turn:
    """One action of the game, as the page tells it."""

    place: int
    """The action's entry (0-based)."""
    seat: int
    round_number: int
    action: Action
    view: PlayerView
    """What the mover saw when deciding."""
    before: Table
    """The table before the action, in the order shown."""
    after: Table
    """The table after it, in the order shown (``before`` unless it is a play)."""
    cards_after: int
    """Cards in the mover's hand after the action."""


@dataclass(frozen=True, slots=True)
class Ended:
    """A round that ended, and the entry of the action that ended it."""

    place: int
    record: RoundRecord


@dataclass(frozen=True, slots=True)
class HelpUse:
    """A help asked for: its entry and its level."""

    place: int
    level: int


class Session:
    """A game rebuilt from its entries (see the module docstring)."""

    def __init__(self, setup: GameSetup, entries: Iterable[Entry] = ()) -> None:
        self.setup = setup
        self.shown = ShownTable()
        self.entries: list[Entry] = []
        self.turns: list[Turn] = []
        self.ended: list[Ended] = []
        self.helps: list[HelpUse] = []
        self.left: int | None = None
        """The seat that left the game (a quit entry), if one did."""
        self._bots: dict[int, Bot] = {}
        self.game = Game(setup.settings, seed=setup.seed, listeners=[self._heard])
        for kind, data in entries:
            self._replay(kind, data)

    # -- what the game is now --------------------------------------------------------

    @property
    def turn(self) -> int:
        """The game's turn counter: the number of entries (the next entry's place)."""
        return len(self.entries)

    @property
    def human(self) -> int:
        return self.setup.human_seat

    @property
    def view(self) -> PlayerView:
        """The human's view now (phase ``over`` once the game is over)."""
        return self.game.view(self.human)

    @property
    def over(self) -> bool:
        return self.game.over or self.left is not None

    def check_decision(self) -> PlayerView:
        """The human's view, when it is the human's decision; else ``GameOver`` or ``NotYourTurn``."""
        if self.over:
            raise GameOver("the game is over" if self.game.over else "the game was left")
        if self.game.to_move != self.human:
            seat = self.game.to_move
            raise NotYourTurn(f"it is {self.setup.players[seat]}'s turn (seat {seat}), not yours")
        return self.view

    # -- moving on -------------------------------------------------------------------

    def act(self, action: Action, *, bots: bool = True) -> list[Entry]:
        """The human's action (a play's table in the order laid out), then (``bots``) every
        bot turn up to the human's next decision or the end: the new entries, the human's
        first.  ``GameOver``, ``NotYourTurn`` or ``IllegalPlay`` (the referee's reasons),
        and nothing changed, when it cannot be played."""
        view = self.check_decision()
        reasons = view.problems(_canonical(action))
        if reasons:
            # A play's reasons are about its table; a draw, knock or pass is refused as a whole.
            where = "action.table" if isinstance(action, Play) else "action.type"
            raise IllegalPlay(f"illegal {action.kind}: " + "; ".join(reasons), reasons, field=where)
        first = len(self.entries)
        self._apply(self.human, action, ms=None)
        if bots:
            self.run_bots()
        return self.entries[first:]

    @property
    def bots_to_move(self) -> bool:
        """Whether a bot is to move (the game plays on and it is not the human's turn)."""
        return not self.over and self.game.to_move != self.human

    def run_bots(self) -> list[Entry]:
        """Every bot turn up to the human's next decision or the end: the new entries."""
        first = len(self.entries)
        while not self.over and self.game.to_move != self.human:
            seat = self.game.to_move
            bot = self._bot(seat)
            bot.rng = decision_rng(self.setup.seed, seat, len(self.turns))
            started = time.perf_counter()
            action = bot.act(self.game.view(seat))
            self._apply(seat, action, ms=(time.perf_counter() - started) * 1000)
        return self.entries[first:]

    def record(self, kind: str, data: Mapping[str, Any]) -> Entry:
        """Add a help or advice entry (the caller has judged the request) and return it."""
        entry: Entry = (kind, dict(data))
        self._replay(*entry)
        return entry

    # -- the replay ------------------------------------------------------------------

    def _heard(self, event: GameEvent) -> None:
        if isinstance(event, Dealt):
            self.shown.reset()
        elif isinstance(event, RoundEnded):  # heard while an action applies, before its entry is kept
            self.ended.append(Ended(len(self.entries), event.record))

    def _replay(self, kind: str, data: Mapping[str, Any]) -> None:
        place = len(self.entries)
        if self.left is not None:
            raise CorruptGame(f"entry {place}: a {kind} entry after the game was left")
        if kind == "action":
            seat, action, ms = _action_entry(place, data)
            if self.game.over:
                raise CorruptGame(f"entry {place}: an action after the end of the game")
            if seat != self.game.to_move:
                raise CorruptGame(f"entry {place}: seat {seat} acts, but seat {self.game.to_move} is to move")
            try:
                self._apply(seat, action, ms=ms)
            except IllegalActionError as error:
                raise CorruptGame(f"entry {place}: {error}") from None
            return
        if kind == "help":
            level = _whole(place, data, "level")
            if not 1 <= level <= 3:
                raise CorruptGame(f"entry {place}: help level {level} (levels are 1-3)")
            self.helps.append(HelpUse(place, level))
        elif kind == "advice":
            _whole(place, data, "turn")
        elif kind == "quit":
            seat = _whole(place, data, "seat")
            if seat >= self.setup.settings.players:
                raise CorruptGame(
                    f"entry {place}: seat {seat} quits a {self.setup.settings.players}-player game"
                )
            self.left = seat
        else:
            raise CorruptGame(f"entry {place}: unknown kind {kind!r} (kinds: {', '.join(ENTRY_KINDS)})")
        self.entries.append((kind, dict(data)))

    def _apply(self, seat: int, action: Action, *, ms: float | None) -> None:
        """Apply the mover's action to the game and the shown table; record its entry."""
        round_state = self.game.round
        view = self.game.view(seat)
        before = self.shown.of(view.table)
        after = before
        move = _canonical(action)
        if isinstance(action, Play):
            if seat == self.human:
                self.shown.choose(action.table)  # the human's own order, as laid out
            after = self.shown.follow(view.position, action.table, variant=self.setup.settings.variant)[1]
        data = {"seat": seat, "action": action.to_dict(), "ms": None if ms is None else round(ms, 3)}
        self.game.apply(move, ms=ms)
        place = len(self.entries)
        self.entries.append(("action", data))
        cards = len(round_state.hands[seat])
        self.turns.append(Turn(place, seat, round_state.round_number, move, view, before, after, cards))

    def _bot(self, seat: int) -> Bot:
        """The bot at ``seat``, built once per session and told its earlier decisions."""
        bot = self._bots.get(seat)
        if bot is None:
            name = self.setup.players[seat]
            if name not in BOTS:
                raise BadSetup(f"seat {seat} is {name!r}, not one of the bots ({', '.join(BOTS)})")
            bot = BOTS[name](decision_rng(self.setup.seed, seat, 0))
            for turn in self.turns:
                if turn.seat == seat:
                    bot.recall(turn.view, turn.action)
            self._bots[seat] = bot
        return bot


def _canonical(action: Action) -> Action:
    """The action as the game and the engine take it: a play's table in canonical order."""
    return Play(Table.of(action.table.melds)) if isinstance(action, Play) else action


def _whole(place: int, data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CorruptGame(f"entry {place}: {key} must be a whole number, not {value!r}")
    return value


def _action_entry(place: int, data: Mapping[str, Any]) -> tuple[int, Action, float | None]:
    """The seat, the action (a play's table in the order stored) and the milliseconds of an
    action entry; ``CorruptGame`` naming what is wrong."""
    seat = _whole(place, data, "seat")
    described, ms = data.get("action"), data.get("ms")
    if not isinstance(described, dict):
        raise CorruptGame(f"entry {place}: the action must be an object, not {described!r}")
    if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int | float) or ms < 0):
        raise CorruptGame(f"entry {place}: ms must be a number of milliseconds or null, not {ms!r}")
    try:
        action = action_from_dict(described)
        if isinstance(action, Play):
            action = Play(Table.parse(str(described.get("table", "")), keep_order=True))
    except ValueError as error:
        raise CorruptGame(f"entry {place}: {error}") from None
    return seat, action, None if ms is None else float(ms)
