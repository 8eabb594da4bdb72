"""Shared pieces of the ``rummy`` command: the Typer app, options, errors, and printing.

Exit codes: 0 success, 1 a negative answer (illegal play, no play), 2 bad input.
Errors go to stderr in one line naming the problem; ``--json`` prints JSON only.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand, TyperGroup, TyperOption
from typer.models import CommandFunctionType

from solver.cards import TILE_NOTATION, Piece, piece_sort_key
from solver.cli import INTERRUPTED
from solver.cli.faces import CARDS, Faces, FacesConsole, faces_for
from solver.echo import echoed
from solver.facts import EMPTY_HAND, variant_for
from solver.game.settings import PEER_PRESET, PRESET_NAMES
from solver.melds import Meld
from solver.position import Hand, Position, Table
from solver.variants import PEER_VARIANT, RULE_PRESETS, Variant

if TYPE_CHECKING:
    # Typer's own copy of Click: the types its command classes are written against.
    from typer import _click

COMMAND_ORDER = ("hint", "check", "show", "analyze", "puzzle", "play", "tournament", "replay", "serve")
"""The order ``rummy --help`` lists the commands in: a position's questions first, then
puzzles, the game, and the server.  Commands not named here follow, in the order added."""


def _plain_flags(params: list[_click.Parameter]) -> list[_click.Parameter]:
    """Give on/off flags (``--json``, ``--keep-jokers/--no-keep-jokers``, ``--help``) an
    empty metavar, so help shows no ``<bool>`` type column for them: they take no value."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


class RummyGroup(TyperGroup):
    """The ``rummy`` command group: commands listed in ``COMMAND_ORDER``, flags shown
    without a value type, in the group's help and in every command's."""

    def list_commands(self, ctx: _click.Context) -> list[str]:
        names = super().list_commands(ctx)
        ordered = [name for name in COMMAND_ORDER if name in names]
        return ordered + [name for name in names if name not in ordered]

    def get_params(self, ctx: _click.Context) -> list[_click.Parameter]:
        return _plain_flags(super().get_params(ctx))

    def make_context(
        self, info_name: str | None, args: list[str], parent: _click.Context | None = None, **extra: Any
    ) -> _click.Context:
        with _interrupt_in_one_line(info_name or "rummy"), _usage_errors_in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: _click.Context) -> Any:
        with _interrupt_in_one_line(ctx.command_path), _usage_errors_in_one_line():
            return super().invoke(ctx)

    def get_command(self, ctx: _click.Context, cmd_name: str) -> _click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_flags(command.get_params(ctx))
        return command


def _rich_help_fits(command: TyperCommand | TyperGroup, ctx: _click.Context) -> bool:
    """Whether Rich's help for ``command`` shows every word whole at the terminal's width.

    Rich lays the options out in a table of up to five columns; at 80 columns an option
    with a long ``--x/--no-x`` pair squeezes the rest, and Rich then cuts option names with
    an ellipsis ("--knock-only-aft…"), or breaks a long choice list over two lines
    ("<manipulation|machiavelli|r" / "ummikub|rummikub-peer>").  The help is rendered once
    into a buffer of the real width to find out."""
    from typer import rich_utils

    real = rich_utils._get_rich_console
    width = real().width
    buffer = io.StringIO()
    trial = Console(file=buffer, width=width, force_terminal=False, color_system=None, highlight=False)
    rich_utils._get_rich_console = lambda stderr=False: trial
    try:
        rich_utils.rich_format_help(obj=command, ctx=ctx, markup_mode=command.rich_markup_mode or "rich")
    finally:
        rich_utils._get_rich_console = real
    text = buffer.getvalue()
    choices = [param.metavar for param in command.params if (param.metavar or "").startswith("<")]
    return "\u2026" not in text and all(choice in text for choice in choices if choice)


class RummyCommand(TyperCommand):
    """A ``rummy`` command whose help never cuts a word: Rich's panels where they fit the
    terminal, else Click's plain help (each option on its own line, its help wrapped below
    it), which has room for every option name at 80 columns and in a pipe.  A Ctrl-C it
    does not answer itself is one line naming it (``_interrupt_in_one_line``)."""

    def invoke(self, ctx: _click.Context) -> Any:
        with _interrupt_in_one_line(ctx.command_path):
            return super().invoke(ctx)

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        if self.rich_markup_mode is None or _rich_help_fits(self, ctx):
            # Click's "\b" line (keep the next paragraph's lines as written) is for the
            # plain help; Rich's Markdown lays out lists itself and shows the mark as
            # blank lines.
            written = self.help
            self.help = written.replace("\b\n", "") if written else written
            try:
                super().format_help(ctx, formatter)
            finally:
                self.help = written
            return
        markup, self.rich_markup_mode = self.rich_markup_mode, None
        try:
            super().format_help(ctx, formatter)
        finally:
            self.rich_markup_mode = markup


class RummyTyper(typer.Typer):
    """``typer.Typer`` whose commands are ``RummyCommand``s unless a command names its class."""

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **options: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls or RummyCommand, **options)


_UsageError: type[Exception] = typer.BadParameter.__mro__[1]
"""Click's UsageError (an unknown option or command, a missing argument), the base of
``typer.BadParameter``: Typer does not export it, and its Click is its own copy."""


@contextmanager
def _usage_errors_in_one_line() -> Iterator[None]:
    """Say a usage error in one line on stderr and exit 2 (Click draws a box of several
    lines with the usage), except the group's help when it is given no command."""
    try:
        yield
    except _UsageError as error:
        if type(error).__name__ == "NoArgsIsHelpError":
            raise
        # A choice or a number Typer checks says why through pydantic, which starts a
        # validator's message with its class ("Value error, 'x' is not one of ..."): noise here.
        message = error.format_message().replace(": Value error, ", ": ")  # type: ignore[attr-defined]
        context = getattr(error, "ctx", None)
        fail(f"{message} (see '{context.command_path} --help')" if context is not None else message)


@contextmanager
def _interrupt_in_one_line(command: str) -> Iterator[None]:
    """Ctrl-C where a command does not say what it stopped (``solver.cli.backend``'s
    ``interruptible`` does, in a run): one line on stderr and exit 130 (Typer would exit
    130 without a word)."""
    try:
        yield
    except KeyboardInterrupt:
        err.print(f"interrupted: {command} stopped", markup=False)
        raise typer.Exit(INTERRUPTED) from None


app = RummyTyper(
    cls=RummyGroup,
    help="Manipulation Rummy hint engine: best plays, rule checks and analysis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Help texts reflow to the terminal (in rich's mode each line break of a docstring is
    # kept, and a line wider than the terminal leaves a word alone on the next line).
    rich_markup_mode="markdown",
)
out = FacesConsole(highlight=False, soft_wrap=True)
"""Standard output for people: it says pieces and words as the command's game does
(``use_faces``; Rummikub shows tiles, see ``solver.cli.faces``)."""
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _print_version(asked: bool) -> None:
    if asked:
        from solver import __version__

        out.print(f"rummy {__version__}", markup=False)
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Manipulation Rummy hint engine: best plays, rule checks and analysis."""
    out.faces = CARDS  # each command picks its game's faces (use_faces) once it knows the variant


def choices(names: Iterable[str]) -> str:
    """The metavar that lists an option's values, as Typer shows a choice: ``<a|b|c>``.
    (The values stay plain strings checked by the command, so a wrong one gets this
    project's one-line ``error:`` and exit code 2.)"""
    return "<" + "|".join(names) + ">"


VariantOption = Annotated[
    str,
    typer.Option(
        "--variant",
        "-v",
        metavar=choices(RULE_PRESETS),
        help=f"Rule variant, or {PEER_VARIANT}: the published peer's Rummikub, without jokers (README).",
    ),
]
GameVariantOption = Annotated[
    str,
    typer.Option(
        "--variant",
        "-v",
        metavar=choices(PRESET_NAMES),
        help=f"Rule variant, or {PEER_PRESET}: the published peer's 2-player Rummikub (README).",
    ),
]
"""``--variant`` of the commands that play games: the variants and the game presets beyond them."""
PlayersOption = Annotated[
    int | None,
    typer.Option(help="Player count; picks the deck (Manipulation with 2 players: one deck, one joker)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON only.")]
NotOpenedOption = Annotated[
    bool,
    typer.Option("--not-opened", help="The player has not opened yet (Rummikub's 30-point first meld)."),
]


def check_not_opened(not_opened: bool, rules: Variant) -> None:
    """Exit 2 for ``--not-opened`` in a game without an opening meld: it was ignored
    without a word, as if the rule applied."""
    if not_opened and not rules.opening_points:
        fail(f"--not-opened is Rummikub's opening rule: {rules.name} has no opening meld")


def counted(count: int, noun: str) -> str:
    """``1 card``, ``3 cards``: a count with its noun in the right number."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr naming the problem, then exit.  In a game of tiles the library's
    card names and words become the game's (``Qh`` -> ``r12``, card -> tile), what the
    user typed (quoted) stays as typed, and a card the parser could not read is told how
    a tile is written."""
    if out.faces.tiles:
        err.print(Text("error: ") + in_game_words(message))
    else:
        err.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


_QUOTED = re.compile(r"('[^']*')")


def in_game_words(message: str) -> Text:
    """A message of the library as the game in play says it (``fail``'s rule): in a game
    of tiles card names and words become the game's, what the user typed (quoted) stays
    as typed, and a card the parser could not read is told how a tile is written."""
    if not out.faces.tiles:
        return Text(message)
    said = Text()
    for number, part in enumerate(_QUOTED.split(message)):
        said.append(part) if number % 2 else said.append_text(out.faces.text(part))
    if "use A, 2-10, J, Q, K, T or 1-13" in message:
        said.append(f"; a tile is {TILE_NOTATION}")
    return said


def check_time_limit(seconds: float) -> None:
    """Exit 2 unless ``--time-limit`` is a sane number of seconds."""
    if not 0 < seconds <= 3600:
        fail(f"time limit must be more than 0 and at most 3600 seconds, not {seconds:g}")


def use_faces(variant: Variant) -> Faces:
    """Print from now on as ``variant``'s game says it (tiles and racks in Rummikub)."""
    out.faces = faces_for(variant)
    return out.faces


def load_variant(name: str, players: int | None) -> Variant:
    """The variant named by ``--variant`` (exit 2 for an unknown one); the output then
    shows that game's faces."""
    try:
        variant = Variant.named(name, players=players)
    except ValueError as error:
        fail(str(error))
    use_faces(variant)
    return variant


def load_variant_for(
    name: str, players: int | None, text: str, unseen: Sequence[Piece] = ()
) -> tuple[Variant, bool]:
    """The variant for ``--players``, or the count the position implies
    (``solver.facts.implied_players``), and whether it was assumed; exit 2 for an unknown
    variant or count.  A position that does not parse is left to ``load_position``."""
    try:
        parsed: Position | None = Position.parse(text)
    except ValueError:
        parsed = None
    try:
        variant, assumed = variant_for(name, players, parsed, unseen)
    except ValueError as error:
        fail(str(error))
    use_faces(variant)
    return variant, assumed


def say_empty_hand(position: Position, *, json_output: bool = False) -> NoReturn:
    """The one answer for an empty hand (``solver.facts.EMPTY_HAND``), exit 1: nothing to
    play; with ``--json`` as an object (stdout holds JSON only)."""
    if json_output:
        print(json.dumps({"position": str(position), "empty_hand": True, "message": EMPTY_HAND}))
    else:
        out.print(EMPTY_HAND[0].upper() + EMPTY_HAND[1:] + ".", markup=False)
    raise typer.Exit(1)


def load_position(text: str, variant: Variant) -> Position:
    try:
        return Position.parse(text).validate(variant)
    except ValueError as error:
        fail(f"bad position {echoed(text)}: {error}")


def load_unseen(text: str | None) -> list[Piece] | None:
    """The pieces of an ``--unseen`` option (a hand's notation), or None when not given."""
    if text is None:
        return None
    try:
        return list(Hand.parse(text, label="unseen card").pieces)
    except ValueError as error:
        fail(f"bad --unseen {text!r}: {error}")


def styled_piece(piece: Piece) -> Text:
    """A card with its colour (red suits red, jokers magenta); ``out`` shows it as a tile
    when the game is Rummikub (``solver.cli.faces``)."""
    return CARDS.styled(piece)


def styled_meld(meld: Meld | tuple[Piece, ...]) -> Text:
    pieces = meld.pieces if isinstance(meld, Meld) else meld
    return Text(" ").join(styled_piece(piece) for piece in pieces) if pieces else Text("(empty)")


def styled_played(pieces: Iterable[Piece]) -> Text:
    """The pieces a play takes from the hand, in the hand's order (suit, then rank, jokers
    last) as the hand line shows them, whatever order the engine or the table has them in
    (``A♠ 2♠ 3♠ 10♠ 10♥ 10♦ A♣``, not ``A♠ A♣ 2♠ ...``)."""
    return styled_meld(tuple(sorted(pieces, key=piece_sort_key)))


def print_melds(table: Table, console: Console = out) -> None:
    """The table's melds, one numbered line each."""
    if not len(table):
        console.print("  (empty)")
    for number, meld in enumerate(table, start=1):
        console.print(Text(f"  {number:>2}. ") + styled_meld(meld))


def print_table(title: str, table: Table, console: Console = out) -> None:
    console.print(Text(title, style="bold"))
    print_melds(table, console)
