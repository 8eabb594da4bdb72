"""A person at the terminal as a game player, and the narration of what the others do.

``TerminalPlayer`` is a ``solver.game.Player``: at each decision it shows the round and
reads commands until one is a legal action, re-prompting with the referee's reasons
otherwise.  Input and output are injected (a line reader and a rich console), so the
interactive game runs the same under a test runner.  ``Narrator`` is a game listener
that prints the other players' actions, the end of each round and of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from solver.cards import Joker, Piece
from solver.cli.common import print_melds, print_table, styled_meld, styled_piece
from solver.engine import Hint
from solver.game import Action, Draw, Knock, Pass, Play, PlayerView
from solver.game.bots import BOT_TIME_LIMIT, best_play
from solver.game.game import Acted, Dealt, GameEnded, GameEvent, RoundEnded
from solver.melds import Meld
from solver.position import Hand, Position, Table
from solver.referee import played_pieces

__all__ = ["HELP", "Narrator", "QuitGame", "TerminalPlayer"]

HELP = """\
Commands (one per line):
  TABLE          the whole new table in notation, melds separated by |
                 e.g.  7h 8h 9h | Kh Kd Kc   (a table joker is written *7h)
  + MELD         add one new meld from your hand to the table as it is, e.g.  + Qs Qh Qd
  hint           show the engine's best play;  ok  then plays it
  draw           do not meld now: draw the next card
  knock          end the round (allowed at the end of your turn with a low hand)
  pass           end your turn without knocking (or let a final turn go without a meld)
  show           show the table and your hand again
  help           this text
  quit           leave the game"""


class QuitGame(Exception):
    """The person at the terminal left the game."""


class TerminalPlayer:
    """A person choosing actions at the terminal (see the module docstring)."""

    def __init__(
        self,
        console: Console,
        read_line: Callable[[], str | None],
        names: Sequence[str],
        *,
        time_limit: float = BOT_TIME_LIMIT,
    ) -> None:
        self.console = console
        self.read_line = read_line
        self.names = list(names)
        self.time_limit = time_limit

    def act(self, view: PlayerView) -> Action:
        self.show(view)
        suggestion: Hint | None = None
        while True:
            self.console.print(Text(_prompt(view), style="bold cyan"), end="")
            line = self.read_line()
            if line is None:
                raise QuitGame
            command = line.strip()
            word = command.lower()
            if not command:
                continue
            if word == "quit":
                raise QuitGame
            if word in ("help", "?"):
                self.console.print(HELP, markup=False)
                continue
            if word == "show":
                self.show(view)
                continue
            if word == "hint":
                suggestion = self._show_hint(view)
                continue
            if word == "ok" and (suggestion is None or not suggestion.has_play):
                self.console.print("no hint to play: type hint first (and it must find a play)", markup=False)
                continue
            try:
                action = _parse_command(command, view, suggestion)
            except ValueError as error:
                self.console.print(f"not understood: {error}  (type help)", markup=False)
                continue
            reasons = view.problems(action)
            if not reasons:
                return action
            self.console.print(Text("illegal: ", style="bold red") + Text(str(action)))
            for reason in reasons:
                self.console.print(f"  - {reason}", markup=False)

    def show(self, view: PlayerView) -> None:
        """The round as this player sees it: the table, the hand, the others, the scores."""
        console = self.console
        status = [f"round {view.round_number}", f"stock {view.stock_size}"]
        if view.final_turn:
            status.append("final turn: no draw")
        console.rule(Text(" · ".join(["Your turn", *status]), style="bold"))
        if view.drawn:
            console.print(Text("You drew  ") + styled_meld(view.drawn))
        print_table("Table", view.table, console)
        hand = Text("Hand  ", style="bold") + styled_meld(view.hand.pieces)
        console.print(hand + Text(f"   ({view.hand_points} points, {len(view.hand)} cards)"))
        others = [
            f"{self.names[seat]}: {size} cards"
            for seat, size in enumerate(view.hand_sizes)
            if seat != view.seat
        ]
        console.print("Others: " + ", ".join(others), markup=False)
        scores = ", ".join(f"{name} {total}" for name, total in zip(self.names, view.totals, strict=True))
        console.print(f"Scores: {scores}", markup=False)

    def _show_hint(self, view: PlayerView) -> Hint | None:
        if "play" not in view.legal_kinds():
            self.console.print("No meld now: knock or pass.", markup=False)
            return None
        found = best_play(view, time_limit=self.time_limit)
        if not found.has_play:
            self.console.print(Text("No play: ", style="bold yellow") + Text(view.decline().kind + "."))
            return found
        self.console.print(Text("Hint: play ", style="bold green") + styled_meld(found.played))
        print_melds(found.table, self.console)
        notes = [f"leaves {found.hand_points} points"]
        if found.goes_out:
            notes.append("goes out")
        elif found.can_knock:
            notes.append("low enough to knock")
        self.console.print(", ".join(notes) + ".  Type ok to play it.", markup=False)
        return found


def _prompt(view: PlayerView) -> str:
    if view.phase == "knock":
        return f"Your hand is worth {view.hand_points} points: knock or pass? "
    options = "TABLE, + MELD, hint, " + ("pass" if view.final_turn else "draw") + ", help, quit"
    return f"Your move ({options}): "


def _parse_command(command: str, view: PlayerView, suggestion: Hint | None) -> Action:
    """The action a command line stands for (ValueError for notation it cannot read)."""
    word = command.lower()
    simple: dict[str, Action] = {"draw": Draw(), "knock": Knock(), "pass": Pass()}
    if word in simple:
        return simple[word]
    if word == "ok" and suggestion is not None:
        return Play(suggestion.table)
    if command.startswith("+"):
        return Play(Table.of((*view.table.melds, Meld.parse(command[1:]))))
    if word.startswith("play "):
        command = command[5:]
    return Play(Table.parse(command))


class Narrator:
    """Prints the other players' actions, each round's end and the game's end."""

    def __init__(self, console: Console, names: Sequence[str], *, me: int | None = 0) -> None:
        self.console = console
        self.names = list(names)
        self.me = me
        self.table = Table()

    def __call__(self, event: GameEvent) -> None:
        if isinstance(event, Dealt):
            self.table = Table()
            dealer = self.names[event.dealer]
            self.console.rule(Text(f"Round {event.round_number}", style="bold magenta"))
            verb = "deal" if event.dealer == self.me else "deals"
            self.console.print(f"{dealer} {verb} {len(event.hands[0])} cards each.", markup=False)
        elif isinstance(event, Acted):
            self._acted(event)
        elif isinstance(event, RoundEnded):
            self._round_ended(event)
        elif isinstance(event, GameEnded):
            self._game_ended(event)

    def _acted(self, event: Acted) -> None:
        action = event.action
        before = self.table
        if isinstance(action, Play):
            self.table = action.table
        if event.seat == self.me:
            return
        name = self.names[event.seat]
        if isinstance(action, Play):
            real, jokers = played_pieces(Position(before, Hand()), action.table)
            pieces: list[Piece] = [card for card, count in sorted(real.items()) for _ in range(count)]
            pieces.extend([Joker()] * jokers)
            self.console.print(Text(f"{name} melds ") + styled_meld(tuple(pieces)))
        elif isinstance(action, Draw):
            self.console.print(f"{name} draws.", markup=False)
        elif isinstance(action, Knock):
            self.console.print(Text(f"{name} knocks!", style="bold"))

    def _round_ended(self, event: RoundEnded) -> None:
        record = event.record
        end = record.end
        reason = {
            "knock": f"{self.names[end.knocker or 0]} knocked",
            "out": f"{self.names[end.out or 0]} went out",
            "exhausted": "the stock is exhausted",
            "blocked": "the stock is empty and nobody can play",
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
                name + (f" ({', '.join(notes)})" if notes else ""),
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
                name + (" (winner)" if seat in result.winners else ""),
                str(result.totals[seat]),
                f"{result.bonuses[seat]:+d}",
                str(result.final[seat]),
            )
        self.console.print(table)
        winners = " and ".join(self.names[seat] for seat in result.winners)
        if len(result.winners) > 1:
            verdict = f"{winners} share the win."
        else:
            verdict = f"{winners} {'win' if result.winners[0] == self.me else 'wins'}."
        self.console.print(Text(verdict, style="bold"))
