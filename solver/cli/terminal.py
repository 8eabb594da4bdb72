"""A person at the terminal as a game player.

``TerminalPlayer`` is a ``solver.game.Player``: at each decision it shows the round and
reads commands until one is a legal action, re-prompting with the referee's reasons
otherwise.  A play is built at the prompt in edits (the whole table, ``+ MELD``,
``N + CARDS``; see ``solver.cli.draft``) that ``undo`` takes back one by one until
``done`` plays them.  Input and output are injected (a line reader and a rich
console), so the interactive game runs the same under a test runner.  What the other
players do is told by ``solver.cli.narrator.Narrator``.

Every meld number the player reads or types counts melds as the table was last shown
(``solver.shown``, shared with the narrator): the table at the turn, the draft,
``N + CARDS`` and the hint's table and steps.  A play keeps the order it was built in
(the draft's, or the hint's as shown) for the turns that follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from solver.cli.common import counted, print_melds, print_table, styled_meld, styled_played
from solver.cli.draft import Draft, NotHeldError
from solver.cli.faces import CARDS, Faces, FacesConsole, Verbatim
from solver.engine import Hint
from solver.game import Action, Draw, Knock, Pass, Play, PlayerView
from solver.game.runner import PlayerLeft
from solver.plan import plan_play
from solver.position import Position, Table
from solver.shown import ShownTable, arranged
from solver.strategy.bots import BOT_TIME_LIMIT, best_play

__all__ = ["CARDS_NO_KNOCK_HELP", "HELP", "TILES_HELP", "QuitGame", "TerminalPlayer", "help_text"]

HELP = """\
Commands (one per line).  Build your play, then type done to play it:
  TABLE          the whole new table in notation, melds separated by |
                 e.g.  7h 8h 9h | Kh Kd Kc   (a table joker is written *7h)
  + MELD         add a new meld from your hand, e.g.  + Qs Qh Qd
  N + CARDS      add cards to meld N as numbered on screen, e.g.  3 + 8d
                 (melds keep their numbers all game: a meld that changes keeps its
                 place, new melds come after the old ones)
  undo           take back your last change to the table (before done)
  done           play the table as you have built it: that ends your melding
  hint           show the engine's best play and its steps;  ok  then plays it at once
  draw           do not meld now: draw the next card
  knock          end the round (allowed at the end of your turn with a low hand)
  pass           end your turn without knocking (or let a final turn go without a meld)
  show           show the table and your hand again (and your changes so far)
  help           this text
  quit           leave the game (the log, with --log, records that you left)"""

TILES_HELP = """\
Commands (one per line).  Build your play, then type done to play it:
  TABLE          the whole new table in notation, melds separated by |
                 e.g.  7h 8h 9h | 13h 13d 13c   (a table joker is written *7h)
  + MELD         add a new meld from your rack, e.g.  + 12s 12h 12d
  N + TILES      add tiles to meld N as numbered on screen, e.g.  3 + 8d
                 (melds keep their numbers all game: a meld that changes keeps its
                 place, new melds come after the old ones)
  undo           take back your last change to the table (before done)
  done           play the table as you have built it: that ends your turn
  hint           show the engine's best play and its steps;  ok  then plays it at once
  draw           do not meld now: draw a tile (none when the stock is empty); ends your turn
  show           show the table and your rack again (and your changes so far)
  help           this text
  quit           leave the game (the log, with --log, records that you left)
Tiles are typed in notation: the number, then the colour as a letter: s black, h red,
d blue, c orange (13c is the orange 13, shown o13; A J Q K may stand for 1 11 12 13)."""
"""The help of a tile game (Rummikub), printed as it is: its examples are notation."""


CARDS_NO_KNOCK_HELP = "\n".join(
    "  draw           do not meld now: draw a card (none when the stock is empty); ends your turn"
    if line.startswith("  draw ")
    else line
    for line in HELP.splitlines()
    if not line.startswith(("  knock ", "  pass "))
)
"""The help of a card game without knocking (Machiavelli): a turn is a meld or a draw."""


def help_text(faces: Faces) -> str:
    """The commands as the game being played names them (tiles in Rummikub; no knock or
    pass where the game has no knocking)."""
    if faces.tiles:
        return TILES_HELP
    return HELP if faces.knocks else CARDS_NO_KNOCK_HELP


class QuitGame(PlayerLeft):
    """The person at the terminal left the game, at their move in ``round_number``."""

    def __init__(self, seat: int, round_number: int) -> None:
        super().__init__(f"seat {seat} left the game in round {round_number}")
        self.seat = seat
        self.round_number = round_number


@dataclass(frozen=True, slots=True)
class _Typed:
    """One line typed at the prompt and what it acts on: the player's view, the table
    being built (None when no meld is possible now) and the last hint shown."""

    view: PlayerView
    word: str
    """The line in lower case, to look the command word up."""
    command: str
    """The line as typed (stripped), for an edit in notation."""
    draft: Draft | None
    suggestion: _Suggestion | None


@dataclass(frozen=True, slots=True)
class _Suggestion:
    """A hint as shown in the game: the engine's answer and its table in the order shown."""

    hint: Hint
    shown: Table


class TerminalPlayer:
    """A person choosing actions at the terminal (see the module docstring).

    ``shown`` is the table in the order the person last saw it; ``rummy play`` shares
    it with the game's ``Narrator``, which follows every play.  Without one, the player
    keeps its own, and a table it has not seen is shown as the game gives it."""

    def __init__(
        self,
        console: Console,
        read_line: Callable[[], str | None],
        names: Sequence[str],
        *,
        time_limit: float = BOT_TIME_LIMIT,
        shown: ShownTable | None = None,
    ) -> None:
        self.console = console
        self.faces = console.faces if isinstance(console, FacesConsole) else CARDS
        self.read_line = read_line
        self.names = list(names)
        self.time_limit = time_limit
        self.shown = shown if shown is not None else ShownTable()

    def act(self, view: PlayerView) -> Action:
        self.show(view)
        draft = Draft(self.shown.of(view.table), view.hand) if "play" in view.legal_kinds() else None
        suggestion: _Suggestion | None = None
        while True:
            command = self._read(view).strip()
            word = command.lower()
            if not command:
                continue
            if word == "quit":
                raise QuitGame(view.seat, view.round_number)
            if word == "hint":
                suggestion = self._show_hint(view)
                continue
            action = self._command(view, word, command, draft, suggestion)
            if action is None:
                continue
            reasons = view.problems(action)
            if not reasons:
                if isinstance(action, Play):  # the turns that follow keep the order it was built in
                    self.shown.choose(_order(action, draft, suggestion))
                return action
            self.console.print(Text("illegal: ", style="bold red") + Text(str(action)))
            for reason in reasons:
                self.console.print(f"  - {reason}", markup=False)

    def _read(self, view: PlayerView) -> str:
        """One line from the person; QuitGame at the end of input or on Ctrl-C."""
        self.console.print(Text(_prompt(view), style="bold cyan"), end="")
        try:
            line = self.read_line()
        except (KeyboardInterrupt, EOFError):
            line = None
        if line is None:
            raise QuitGame(view.seat, view.round_number)
        return line

    def _command(
        self, view: PlayerView, word: str, command: str, draft: Draft | None, suggestion: _Suggestion | None
    ) -> Action | None:
        """The action a command asks for, or None after a command that only shows or edits:
        the command word's handler (``_HANDLERS``), else an edit of the draft."""
        handler = _HANDLERS.get(word, TerminalPlayer._edit)
        return handler(self, _Typed(view, word, command, draft, suggestion))

    def _say(self, line: str) -> None:
        self.console.print(line, markup=False)

    def _help(self, typed: _Typed) -> None:
        self.console.print(
            Verbatim(help_text(self.faces)), markup=False
        )  # its examples are notation, to type

    def _show_again(self, typed: _Typed) -> None:
        self.show(typed.view)
        if typed.draft is not None and typed.draft.changed:
            self._show_draft(typed.view, typed.draft)

    def _play_hint(self, typed: _Typed) -> Action | None:
        if typed.suggestion is not None and typed.suggestion.hint.has_play:
            return Play(typed.suggestion.hint.table)
        self._say("no hint to play: type hint first (and it must find a play)")
        return None

    def _undo(self, typed: _Typed) -> None:
        if typed.draft is not None and typed.draft.undo():
            self._say("Taken back.")
            self._show_draft(typed.view, typed.draft)
        else:
            self._say("nothing to undo: no change to the table since your last play or draw")

    def _play_draft(self, typed: _Typed) -> Action | None:
        if typed.draft is not None and typed.draft.changed:
            return Play(typed.draft.table())
        self._say("nothing to play yet: change the table first (type help)")
        return None

    def _decline(self, typed: _Typed) -> Action | None:
        """``draw``, ``knock`` or ``pass``: refused, with the rule's reason, where it is no move
        now (a pass mid-turn, which undoing the edits would not make one), and while the
        table has edits in place."""
        reasons = typed.view.problems(_DECLINES[typed.word])
        if reasons:
            self._say(f"{typed.word} is not a move now: {'; '.join(reasons)}")
            return None
        if typed.draft is not None and typed.draft.changed:
            self._say(
                f"you have changed the table: type done to play it, or undo each change before {typed.word}"
            )
            return None
        return _DECLINES[typed.word]

    def _edit(self, typed: _Typed) -> None:
        """Any other line: an edit of the table being built (a whole table, ``+ MELD``,
        ``N + CARDS``), said back, or why it is not one."""
        draft = typed.draft
        if draft is None:
            self._say(f"no meld now: {self._decline_words()} (type help)")
            return
        try:
            said = draft.edit(typed.command)
        except NotHeldError as error:
            self._say(f"Refused: {error}.  Nothing changed.")
            return
        except ValueError as error:
            self._say(f"not understood: {error}  (type help)")
            return
        self._say(f"OK, {said}.")
        self._show_draft(typed.view, draft)

    def _show_draft(self, view: PlayerView, draft: Draft) -> None:
        """The table as the person has built it, and whether it is a legal play yet (a
        table as it was at the start of the turn is no play yet, and nothing to fix)."""
        if not draft.changed:
            self.console.print("The table is as it was at the start of your turn.", markup=False)
            return
        print_table("Your table so far", draft.shown(), self.console)
        reasons = view.problems(Play(draft.table()))
        if reasons:
            self.console.print("Not a legal play yet: " + "; ".join(reasons), markup=False)
            self.console.print("Keep editing, undo, or type a whole table.", markup=False)
        else:
            self.console.print(Text("A legal play: type done to play it, or undo.", style="green"))

    def show(self, view: PlayerView) -> None:
        """The round as this player sees it: the table, the hand, the others, the scores."""
        console = self.console
        status = [f"round {view.round_number}", f"stock {view.stock_size}"]
        if view.final_turn:
            status.append("final turn: no draw")
        if view.phase == "meld" and not view.final_turn and view.settings.turn == "draw_first":
            status.append(f"draw {view.draws} of {view.settings.draws_per_turn}")
        console.rule(Text(" · ".join(["Your turn", *status]), style="bold"))
        if view.drawn:
            console.print(Text("You drew  ") + styled_meld(view.drawn))
        print_table("Table", self.shown.of(view.table), console)
        hand = Text("Hand  ", style="bold") + styled_meld(view.hand.pieces)
        left = f"{counted(view.hand_points, 'point')}, {counted(len(view.hand), 'card')}"
        console.print(hand + Text(f"   ({left})"))
        others = [
            f"{self.names[seat]}: {counted(size, 'card')}"
            for seat, size in enumerate(view.hand_sizes)
            if seat != view.seat
        ]
        console.print("Others: " + ", ".join(others), markup=False)
        scores = ", ".join(f"{name} {total}" for name, total in zip(self.names, view.totals, strict=True))
        console.print(f"Scores: {scores}", markup=False)

    def _decline_words(self) -> str:
        return "knock or pass" if self.faces.knocks else "pass"

    def _show_hint(self, view: PlayerView) -> _Suggestion | None:
        """The engine's best play from the table at the start of the turn: its new table
        in the order of ``solver.shown`` and the steps there from the table shown."""
        if "play" not in view.legal_kinds():
            self.console.print(f"No meld now: {self._decline_words()}.", markup=False)
            return None
        found = best_play(view, time_limit=self.time_limit)
        if not found.has_play:
            self.console.print(Text("No play: ", style="bold yellow") + Text(view.decline().kind + "."))
            return _Suggestion(found, found.table)
        before = Position(self.shown.of(view.table), view.hand)
        table = arranged(before, found.table, variant=view.variant)
        self.console.print(Text("Hint: play ", style="bold green") + styled_played(found.played))
        print_melds(table, self.console)
        self.console.print(Text("Steps", style="bold"))
        plan = plan_play(before, table, variant=view.variant)
        for number, line in enumerate(plan.lines(pretty=True), start=1):
            self.console.print(f"  {number}. {line}", markup=False)
        notes = [f"leaves {counted(found.hand_points, 'point')}"]
        if found.goes_out:
            notes.append("goes out")
        elif found.can_knock and self.faces.knocks:
            notes.append("low enough to knock")
        self.console.print(", ".join(notes) + ".  Type ok to play it.", markup=False)
        return _Suggestion(found, table)


_Handler = Callable[[TerminalPlayer, _Typed], Action | None]

_HANDLERS: dict[str, _Handler] = {
    "help": TerminalPlayer._help,
    "?": TerminalPlayer._help,
    "show": TerminalPlayer._show_again,
    "ok": TerminalPlayer._play_hint,
    "undo": TerminalPlayer._undo,
    "done": TerminalPlayer._play_draft,
    "play": TerminalPlayer._play_draft,
    "draw": TerminalPlayer._decline,
    "knock": TerminalPlayer._decline,
    "pass": TerminalPlayer._decline,
}
"""Each command word (lower case) and its handler; any other line is an edit
(``TerminalPlayer._edit``).  ``hint`` and ``quit`` are answered by ``act`` itself."""

_DECLINES: dict[str, Action] = {"draw": Draw(), "knock": Knock(), "pass": Pass()}
"""The action each word of ``TerminalPlayer._decline`` asks for."""


def _order(play: Play, draft: Draft | None, suggestion: _Suggestion | None) -> Table:
    """The order the person gave ``play``: the draft's as built, or the hint's as shown."""
    if draft is not None and draft.table() == play.table:
        return draft.shown()
    if suggestion is not None and suggestion.hint.table == play.table:
        return suggestion.shown
    return play.table


def _prompt(view: PlayerView) -> str:
    """The question, with every command that can be typed now."""
    if view.phase == "knock":
        worth = counted(view.hand_points, "point")
        return f"Your hand is worth {worth} [knock, pass, show, help, quit]: "
    decline = "pass" if view.final_turn else "draw"
    commands = f"TABLE, + MELD, N + CARDS, undo, done, hint, ok, {decline}, show, help, quit"
    return f"Your move [{commands}]: "
