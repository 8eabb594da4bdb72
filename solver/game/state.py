"""One round: the hands, the stock, the table, whose turn, and the turn's flow.

``RoundState.apply(action)`` is the only way the round changes.  It judges the action
with the pure rules of ``solver.game.rules`` (the referee for plays) from the mover's
own view, raises ``IllegalActionError`` with every reason and changes nothing when the
action is illegal, and otherwise carries the turn on: forced draws, the knock decision,
the next player's turn, the end of the round.

Turn flow (``settings.turn``):

- ``draw_first`` (Manipulation Rummy): the turn opens with a forced draw.  Phase
  ``meld``: play (one meld, ends the melding) or draw again; the last of
  ``draws_per_turn`` draws ends the turn without a meld.  At the end of the turn a hand
  that may knock gets phase ``knock`` (knock or pass).  A draw due with the stock empty
  draws nothing and the turn goes on.  Once the last card is drawn, and unless that
  turn ends the round, every player, starting with the next one and ending with the
  one who drew it, has one *final turn*: play or pass, no draw (knocking and going out
  still end the round).  After them the round ends as ``exhausted``.
- ``meld_or_draw`` (Machiavelli, Rummikub): play or draw one card; either ends the turn.
  With the stock empty a draw draws nothing; when every player in a row has done so
  without a play in between, the round ends as ``blocked`` (unless ``settings.blocked_ends``
  is off: then play goes on to the turn limit).

Going out (melding the last card) ends the round at once, in either style.  With a
``settings.turn_limit``, a round still running when that many turns (every player's) are
over ends as ``limit``.
"""

from __future__ import annotations

from collections import Counter

from solver.cards import Card, Joker, Piece
from solver.game import rules
from solver.game.actions import Action, Draw, IllegalActionError, Knock, Pass, Play
from solver.game.deck import piece_counts
from solver.game.scoring import EndReason, RoundEnd
from solver.game.settings import GameSettings
from solver.game.view import Phase, PlayerView
from solver.position import Hand, Position, Table
from solver.referee import played_pieces

__all__ = ["RoundState"]


class RoundState:
    """The state of one round, changed only by ``apply`` (see the module docstring)."""

    def __init__(
        self,
        settings: GameSettings,
        hands: list[list[Piece]],
        stock: list[Piece],
        *,
        dealer: int,
        round_number: int = 1,
        totals: tuple[int, ...] | None = None,
    ) -> None:
        if len(hands) != settings.players:
            raise ValueError(f"{len(hands)} hands dealt for {settings.players} players")
        self.settings = settings
        self.hands: list[list[Piece]] = [list(hand) for hand in hands]
        self.stock: list[Piece] = list(stock)
        """Face down; the top card is the last element."""
        self.table = Table()
        self.dealer = dealer
        self.round_number = round_number
        self.totals = totals if totals is not None else (0,) * settings.players
        self.opened = [settings.variant.opening_points == 0] * settings.players
        self.to_move = (dealer + 1) % settings.players
        self.phase: Phase = "meld"
        self.draws = 0
        self.melded = False
        self.drawn: list[Piece] = []
        self.turns = 0
        self.final_turns_left: int | None = None
        """Final turns still to play once the stock ran out (``draw_first``), else None."""
        self.last_card_drawer: int | None = None
        self.idle_turns = 0
        """Consecutive turns without a play in which the draw found the stock empty."""
        self.end: RoundEnd | None = None
        if settings.turn == "draw_first" and not self.stock:
            self.final_turns_left = settings.players
        self._start_turn()

    # -- what players see ---------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def final_turn(self) -> bool:
        return self.final_turns_left is not None

    def hand(self, seat: int) -> Hand:
        return Hand.of(self.hands[seat])

    def hand_points(self) -> tuple[int, ...]:
        variant = self.settings.variant
        return tuple(Hand.of(hand).points(variant) for hand in self.hands)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see now.  Off turn, the phase is ``wait`` and the turn fields are empty."""
        moving = seat == self.to_move and not self.over
        phase: Phase = self.phase if moving else ("over" if self.over else "wait")
        return PlayerView(
            settings=self.settings,
            seat=seat,
            phase=phase,
            table=self.table,
            hand=self.hand(seat),
            opened=self.opened[seat],
            final_turn=self.final_turn and moving,
            draws=self.draws if moving else 0,
            melded=self.melded if moving else False,
            drawn=tuple(self.drawn) if moving else (),
            stock_size=len(self.stock),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            totals=self.totals,
            round_number=self.round_number,
        )

    def snapshot(self) -> RoundState:
        """A copy of the whole round, hidden cards included, that shares nothing the round
        changes: what ``solver.game.runner.play_game`` shows a measurement-only player
        (never a player of a real game; see ``SeeingPlayer``)."""
        copy = object.__new__(type(self))
        copy.__dict__.update(vars(self))
        copy.hands = [list(hand) for hand in self.hands]
        copy.stock = list(self.stock)
        copy.opened = list(self.opened)
        copy.drawn = list(self.drawn)
        return copy

    def piece_counts(self) -> Counter[Card | None]:
        """Every card in the stock, the hands and the table (jokers under None): the deck."""
        everything: list[Piece] = list(self.stock) + list(self.table.pieces)
        for hand in self.hands:
            everything.extend(hand)
        return piece_counts(everything)

    # -- the flow -----------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Judge ``action`` for the player to move and carry the turn on; raise
        ``IllegalActionError`` (state unchanged) when a rule forbids it."""
        reasons = rules.problems(self.view(self.to_move), action)
        if reasons:
            raise IllegalActionError(action, reasons)
        if isinstance(action, Play):
            self._play(action.table)
        elif isinstance(action, Draw):
            self._draw_instead_of_meld()
        elif isinstance(action, Knock):
            self._end_round("knock", knocker=self.to_move)
        elif isinstance(action, Pass):
            if self.phase == "knock":
                self._finish_turn()
            else:
                self._end_of_turn()

    def _start_turn(self) -> None:
        self.phase = "meld"
        self.draws = 0
        self.melded = False
        self.drawn = []
        self.turns += 1
        if self.settings.turn == "draw_first" and not self.final_turn:
            self._draw_card()

    def _draw_card(self) -> None:
        """One draw: take the top card if there is one (an empty stock draws nothing)."""
        self.draws += 1
        if not self.stock:
            return
        card = self._take_from_stock()
        self.hands[self.to_move].append(card)
        self.drawn.append(card)
        if not self.stock:
            self.last_card_drawer = self.to_move

    def _take_from_stock(self) -> Piece:
        """The card a draw takes from the (non-empty) stock: its top card."""
        return self.stock.pop()

    def _play(self, table: Table) -> None:
        seat = self.to_move
        hand = self.hands[seat]
        real, jokers = played_pieces(Position(self.table, Hand.of(hand)), table)
        for card, count in real.items():
            for _ in range(count):
                hand.remove(card)
        for _ in range(jokers):
            hand.remove(Joker())
        self._played(seat, table)

    def _played(self, seat: int, table: Table) -> None:
        """What follows a play whose pieces have left ``seat``'s hand: the new table, the
        turn's meld, the seat opened; then the round ends if the hand is empty (going out),
        else the turn goes on.  Shared with the rollouts, which take a play's pieces from
        the hand their own way."""
        self.table = table
        self.melded = True
        self.opened[seat] = True
        self.idle_turns = 0
        if not self.hands[seat]:
            self._end_round("out", out=seat)
        else:
            self._end_of_turn()

    def _draw_instead_of_meld(self) -> None:
        if self.settings.turn == "meld_or_draw":
            self.idle_turns = 0 if self.stock else self.idle_turns + 1
            self._draw_card()
            self._end_of_turn()
            return
        self._draw_card()
        if self.draws >= self.settings.draws_per_turn:
            self._end_of_turn()

    def _end_of_turn(self) -> None:
        """The turn's melding and drawing are done: offer the knock, or move on."""
        points = self.hand(self.to_move).points(self.settings.variant)
        if rules.knock_allowed(self.settings, points, melded=self.melded):
            self.phase = "knock"
        else:
            self._finish_turn()

    def _finish_turn(self) -> None:
        players = self.settings.players
        if self.settings.turn == "meld_or_draw" and self.idle_turns >= players and self.settings.blocked_ends:
            self._end_round("blocked")
            return
        limit = self.settings.turn_limit
        if limit is not None and self.turns >= limit:
            self._end_round("limit")
            return
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self._end_round("exhausted")
                return
        elif self.settings.turn == "draw_first" and self.last_card_drawer is not None:
            self.final_turns_left = players
        self.to_move = (self.to_move + 1) % players
        self._start_turn()

    def _end_round(self, reason: EndReason, *, knocker: int | None = None, out: int | None = None) -> None:
        self.phase = "over"
        self.end = RoundEnd(reason, self.hand_points(), knocker=knocker, out=out)
