"""What happened in a game, told as it happens: for ``rummy play`` and ``rummy replay --show``.

``Narrator`` is a game listener.  It keeps its own copy of the round (a ``RoundState``
dealt from the ``Dealt`` event and fed every ``Acted`` action, so it follows the game
exactly) and from it says what each action did: whose turn begins, each draw (the
turn-ending last draw of a Manipulation Rummy turn named as such), every play with the
cards it added and the steps from the old table to the new one (the plan of
``solver.plan``, as ``rummy hint`` prints it), knocks and passes, the end of each turn,
and each round's and the game's scores.

The steps number melds as the person last saw them: the narrator follows every play in
a ``solver.shown.ShownTable`` (shared with the person's ``TerminalPlayer`` in
``rummy play``), so "meld 2" is the second meld of the table shown, and a play's new
melds keep the old ones' places, the melds started from scratch after them.

The person at the terminal (``me``) sees their own drawn cards and a confirmation of
their own play; other players' cards in hand are never shown, unless ``reveal`` (the
replay of a log, where everything is known anyway).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from solver.cards import Joker, Piece, piece_sort_key
from solver.cli.common import counted, styled_meld, styled_piece
from solver.game import Draw, GameSettings, Knock, Pass, Play, RoundState
from solver.game.game import Acted, Dealt, GameEnded, GameEvent, RoundEnded
from solver.plan import plan_play
from solver.position import Hand, Position, Table
from solver.referee import played_pieces
from solver.shown import ShownTable

__all__ = ["Narrator"]

_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _ordinal(number: int) -> str:
    return _ORDINALS.get(number, f"{number}th")


def _played(before: Table, after: Table) -> tuple[Piece, ...]:
    """The pieces a play added to the table, in the hand's order (as the hint's ``play``
    line and the hand line show them: suit, then rank, jokers last); a hand joker shows
    the card it now stands for."""
    real, jokers = played_pieces(Position(before, Hand()), after)
    old_jokers = Counter(piece for piece in before.pieces if isinstance(piece, Joker))
    new_jokers = Counter(piece for piece in after.pieces if isinstance(piece, Joker))
    joker_declared = new_jokers - old_jokers
    pieces: list[Piece] = []
    for piece in after.pieces:
        if isinstance(piece, Joker):
            if joker_declared[piece] > 0 and jokers > 0:
                joker_declared[piece] -= 1
                jokers -= 1
                pieces.append(piece)
        elif real[piece] > 0:
            real[piece] -= 1
            pieces.append(piece)
    pieces.extend([Joker()] * jokers)  # a hand joker that took a moved table joker's place
    return tuple(sorted(pieces, key=piece_sort_key))


class Narrator:
    """Prints what every player does (see the module docstring)."""

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        settings: GameSettings,
        *,
        me: int | None = 0,
        reveal: bool = False,
        shown: ShownTable | None = None,
    ) -> None:
        self.console = console
        self.names = list(names)
        self.settings = settings
        self.me = me
        self.reveal = reveal
        self.shown = shown if shown is not None else ShownTable()
        """The table in the order told (the person's screen order in ``rummy play``)."""
        self.state: RoundState | None = None

    def __call__(self, event: GameEvent) -> None:
        if isinstance(event, Dealt):
            self._dealt(event)
        elif isinstance(event, Acted):
            self._acted(event)
        elif isinstance(event, RoundEnded):
            self._round_ended(event)
        elif isinstance(event, GameEnded):
            self._game_ended(event)

    # -- who and how ----------------------------------------------------------------

    def _is_me(self, seat: int) -> bool:
        return seat == self.me

    def _subject(self, seat: int) -> str:
        return "You" if self._is_me(seat) else self.names[seat]

    def _verb(self, seat: int, verb: str) -> str:
        """``draw`` for the person at the terminal, ``draws`` for the others."""
        if self._is_me(seat):
            return verb
        return verb + ("es" if verb.endswith(("s", "sh", "ch")) else "s")

    def _say(self, text: str | Text) -> None:
        if isinstance(text, Text):
            self.console.print(text)
        else:
            self.console.print(text, markup=False)

    # -- events -----------------------------------------------------------------------

    def _dealt(self, event: Dealt) -> None:
        self.state = RoundState(
            self.settings,
            [list(hand) for hand in event.hands],
            list(event.stock),
            dealer=event.dealer,
            round_number=event.round_number,
        )
        self.shown.reset()
        self.console.rule(Text(f"Round {event.round_number}", style="bold magenta"))
        dealer = event.dealer
        size = len(event.hands[0])
        self._say(f"{self._subject(dealer)} {self._verb(dealer, 'deal')} {size} cards each.")
        if self.reveal:
            for seat, hand in enumerate(event.hands):
                self._say(Text(f"  {self.names[seat]}: ") + styled_meld(Hand.of(hand).pieces))
        self._turn_begins()

    def _turn_begins(self) -> None:
        """Announce the turn of the player to move (the prompt itself greets the person)."""
        state = self.state
        if state is None or state.over:
            return
        seat = state.to_move
        if self._is_me(seat):
            return
        name = self.names[seat]
        turn = f"turn {state.turns}"  # the round's turns, every player's counted (rummy review's "turn")
        if state.final_turn:
            self._say(f"{name}: final turn ({turn}: the stock is exhausted), no draw.")
        elif self.settings.turn == "draw_first":
            if state.drawn:
                card = Text(" ") + styled_piece(state.drawn[-1]) if self.reveal else Text(" a card")
                self._say(Text(f"{name}: {turn} begins, draws") + card + Text("."))
            else:
                self._say(f"{name}: {turn} begins; the stock is empty, nothing drawn.")
        else:
            self._say(f"{name}: {turn} begins.")

    def _acted(self, event: Acted) -> None:
        state = self.state
        if state is None:  # events from a game joined after its deal: nothing to follow
            return
        seat, action = event.seat, event.action
        before = state.table
        draws_before, stock_before, phase_before = state.draws, len(state.stock), state.phase
        state.apply(action)  # the same action on the same deal: never illegal here
        subject = self._subject(seat)
        if isinstance(action, Play):
            self._play(seat, before, action.table)
        elif isinstance(action, Draw):
            self._draw(seat, draws_before, stock_before)
        elif isinstance(action, Knock):
            self._say(Text(f"{subject} {self._verb(seat, 'knock')}!", style="bold"))
        elif isinstance(action, Pass):
            verb = "do not knock" if self._is_me(seat) else "does not knock"
            self._say(f"{subject} {verb if phase_before == 'knock' else self._verb(seat, 'pass')}.")
        if state.over or state.to_move == seat:
            return  # the round's end is told by its own event; a knock decision follows
        self._say("Your turn is over." if self._is_me(seat) else f"{self.names[seat]}: turn over.")
        self._turn_begins()

    def _play(self, seat: int, before: Table, after: Table) -> None:
        """The play's line (the cards added, in the order of the new table as shown),
        then the steps of another player's play, numbered as the table was shown."""
        pieces = _played(before, after)
        hand_jokers = tuple(Joker() for piece in pieces if isinstance(piece, Joker))
        played = Hand.of((*(piece for piece in pieces if not isinstance(piece, Joker)), *hand_jokers))
        variant = self.settings.variant
        old, new = self.shown.follow(Position(before, played), after, variant=variant)
        state = self.state
        assert state is not None
        going_out = state.end is not None and state.end.out == seat
        line = Text(f"{self._subject(seat)} {self._verb(seat, 'meld')} ") + styled_meld(_played(old, new))
        if going_out:
            line += Text(", going out", style="bold")
        self._say(line + Text("."))
        if self._is_me(seat):
            hand = state.hand(seat)
            left = f"{counted(len(hand), 'card')}, {counted(hand.points(variant), 'point')}"
            self._say(f"  Played.  Your hand: {left}.")
            return
        plan = plan_play(Position(old, played), new, variant=variant)
        for number, text in enumerate(plan.lines_of_another(pretty=True), start=1):
            self._say(f"  {number}. {text}")

    def _draw(self, seat: int, draws_before: int, stock_before: int) -> None:
        state = self.state
        assert state is not None
        subject = self._subject(seat)
        if stock_before == 0:
            what = Text(f"{subject} {self._verb(seat, 'draw')} nothing: the stock is empty")
        elif self._is_me(seat) or self.reveal:
            drawn = state.hands[seat][-1]  # a draw puts the card at the end of the hand
            what = Text(f"{subject} {self._verb(seat, 'draw')} ") + styled_piece(drawn)
        else:
            what = Text(f"{subject} {self._verb(seat, 'draw')} a card")
        if self.settings.turn == "draw_first":
            number = draws_before + 1
            what += Text(f", the {_ordinal(number)} draw of the turn")
            if number >= self.settings.draws_per_turn:
                what += Text(": the last one, so the turn ends without a meld", style="bold")
        self._say(what + Text("."))

    # -- ends -------------------------------------------------------------------------

    def _round_ended(self, event: RoundEnded) -> None:
        record = event.record
        end = record.end
        reason = {
            "knock": f"{self._subject(end.knocker or 0)} knocked",
            "out": f"{self._subject(end.out or 0)} went out",
            "exhausted": "the stock is exhausted",
            "blocked": "the stock is empty and nobody can play",
            "limit": f"the limit of {self.settings.turn_limit} turns is reached",
        }[end.reason]
        self.console.rule(Text(f"Round {record.number} over: {reason}", style="bold"))
        table = RichTable(show_edge=False)
        for column in ("player", "hand", "points", "round score", "total"):
            table.add_column(column)
        for seat, name in enumerate(self.names):
            notes = []
            if seat in record.score.winners:
                notes.append("won")
            if seat in record.score.undercut:
                notes.append("undercut")
            hand = Text(" ").join(styled_piece(piece) for piece in record.hands[seat]) or Text("-")
            table.add_row(
                Text(name + (f" ({', '.join(notes)})" if notes else "")),  # a name is not markup
                hand,
                str(end.hand_points[seat]),
                f"{record.score.scores[seat]:+d}",
                str(record.totals[seat]),
            )
        self.console.print(table)

    def _game_ended(self, event: GameEnded) -> None:
        result = event.result
        self.console.rule(Text("Game over", style="bold magenta"))
        table = RichTable(show_edge=False)
        for column in ("player", "rounds", "bonus", "final"):
            table.add_column(column)
        for seat, name in enumerate(self.names):
            table.add_row(
                Text(name + (" (winner)" if seat in result.winners else "")),
                str(result.totals[seat]),
                f"{result.bonuses[seat]:+d}",
                str(result.final[seat]),
            )
        self.console.print(table)
        winners = " and ".join(self.names[seat] for seat in result.winners)
        if not result.winners:
            verdict = "Nobody wins: the game reached its turn limit."
        elif len(result.winners) > 1:
            verdict = f"{winners} share the win."
        else:
            verdict = f"{winners} {'win' if result.winners[0] == self.me else 'wins'}."
        self.console.print(Text(verdict, style="bold"))
