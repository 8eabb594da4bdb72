"""The ``rummy`` command: a thin shell over the library (Typer + rich).

Exit codes: 0 success, 1 a negative answer (illegal play, no play), 2 bad input.
Errors go to stderr in one line naming the problem; ``--json`` prints JSON only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from solver.cards import Card, Joker, Piece
from solver.cpsat import DEFAULT_TIME_LIMIT, Hint, hint
from solver.cpsat.instance import Objective
from solver.melds import Meld
from solver.position import Position, Table
from solver.referee import check_play
from solver.variants import VARIANT_NAMES, Variant

app = typer.Typer(
    help="Manipulation Rummy hint engine: best plays, rule checks and analysis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

VariantOption = Annotated[
    str, typer.Option("--variant", "-v", help=f"Rule variant: {', '.join(VARIANT_NAMES)}.")
]
PlayersOption = Annotated[
    int | None,
    typer.Option(help="Player count; picks the deck (Manipulation with 2 players: one deck, one joker)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON only.")]
NotOpenedOption = Annotated[
    bool,
    typer.Option("--not-opened", help="The player has not opened yet (Rummikub's 30-point first meld)."),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr naming the problem, then exit."""
    err.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def load_variant(name: str, players: int | None) -> Variant:
    try:
        return Variant.named(name, players=players)
    except ValueError as error:
        fail(str(error))


def load_position(text: str, variant: Variant) -> Position:
    try:
        return Position.parse(text).validate(variant)
    except ValueError as error:
        fail(f"bad position {text!r}: {error}")


def styled_piece(piece: Piece) -> Text:
    card = piece if isinstance(piece, Card) else piece.declared
    style = "bold magenta" if isinstance(piece, Joker) else ("red" if card and card.suit.is_red else "")
    return Text(piece.pretty, style=style)


def styled_meld(meld: Meld | tuple[Piece, ...]) -> Text:
    pieces = meld.pieces if isinstance(meld, Meld) else meld
    return Text(" ").join(styled_piece(piece) for piece in pieces) if pieces else Text("(empty)")


def print_table(title: str, table: Table) -> None:
    out.print(Text(title, style="bold"))
    if not len(table):
        out.print("  (empty)")
    for number, meld in enumerate(table, start=1):
        out.print(Text(f"  {number:>2}. ") + styled_meld(meld))


@app.command()
def show(
    position: Annotated[str, typer.Argument(help="Position in notation, e.g. 'Kh Kd Kc / Ac'.")],
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    json_output: JsonOption = False,
) -> None:
    """Pretty-print a position with suit symbols."""
    rules = load_variant(variant, players)
    pos = load_position(position, rules)
    if json_output:
        data = {
            "position": str(pos),
            "table": str(pos.table),
            "melds": [[str(p) for p in meld.pieces] for meld in pos.table],
            "hand": [str(p) for p in pos.hand],
            "hand_points": pos.hand.points(rules),
            "variant": rules.describe(),
        }
        print(json.dumps(data))
        return
    print_table("Table", pos.table)
    out.print(Text("Hand  ", style="bold") + styled_meld(pos.hand.pieces))
    out.print(f"Hand points: {pos.hand.points(rules)}   ({rules.name})")


@app.command()
def check(
    position: Annotated[str, typer.Argument(help="Position before the play: 'table / hand'.")],
    after: Annotated[str, typer.Argument(help="The table after the play, e.g. 'Jh Qh Kh | Jd Qd Kd'.")],
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    not_opened: NotOpenedOption = False,
    json_output: JsonOption = False,
) -> None:
    """Judge a play: exit 0 if legal, 1 if illegal (with every reason), 2 for bad input."""
    rules = load_variant(variant, players)
    before = load_position(position, rules)
    try:
        after_table = Table.parse(after)
    except ValueError as error:
        fail(f"bad after-table {after!r}: {error}")
    verdict = check_play(before, after_table, rules, opened=not not_opened)
    if json_output:
        print(json.dumps({"position": str(before), "after": str(after_table), **verdict.to_dict()}))
    elif verdict.ok:
        out.print(Text("legal", style="bold green") + Text(f": {after_table}"))
    else:
        out.print(Text("illegal", style="bold red") + Text(f": {after_table}"))
        for reason in verdict.reasons:
            out.print(f"  - {reason}", markup=False)
    raise typer.Exit(0 if verdict.ok else 1)


def _hint_lines(path: str) -> Iterator[tuple[int, str]]:
    try:
        stream = sys.stdin if path == "-" else Path(path).open(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read batch file {path!r}: {error.strerror}")
    with stream:
        for number, line in enumerate(stream, start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                yield number, line.strip()


def _batch(path: str, rules: Variant, options: dict[str, object], json_output: bool) -> None:
    lines = list(_hint_lines(path))
    bad = 0
    with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("hints", total=len(lines))
        for number, text in lines:
            try:
                pos = Position.parse(text).validate(rules)
                record = {"line": number, **hint(pos, variant=rules, **options).to_dict()}  # type: ignore[arg-type]
            except ValueError as error:
                bad += 1
                record = {"line": number, "input": text, "error": str(error)}
            if json_output:
                print(json.dumps(record), flush=True)
            else:
                shown = record.get("error") or f"{record['status']}: {record['table']}  (hand {record['hand']})"
                out.print(f"{number}: {shown}", markup=False)
            progress.advance(task)
    if bad:
        err.print(f"{bad} of {len(lines)} lines had bad input", markup=False)
        raise typer.Exit(2)


def print_hint(result: Hint) -> None:
    pos = result.position
    print_table("Table before", pos.table)
    out.print(Text("Hand  ", style="bold") + styled_meld(pos.hand.pieces))
    out.print()
    if not result.has_play:
        if result.status == "timeout":
            out.print(Text("No play found within the time limit.", style="bold yellow"))
        else:
            out.print(Text("No legal play: draw.", style="bold yellow"))
        return
    out.print(Text("Play ", style="bold green") + styled_meld(result.played))
    print_table("Table after", result.table)
    out.print(Text("Hand left  ", style="bold") + styled_meld(result.hand.pieces))
    notes = [f"hand points {result.hand_points}"]
    if result.goes_out:
        notes.append("goes out")
    elif result.can_knock:
        notes.append("can knock")
    notes.append(f"{result.melds_broken} old meld(s) broken")
    if result.status != "optimal":
        notes.append("time limit reached: best found, not proven optimal")
    out.print(", ".join(notes))


@app.command(name="hint")
def hint_command(
    position: Annotated[str | None, typer.Argument(help="Position 'table / hand'.")] = None,
    batch: Annotated[
        str | None, typer.Option(help="File with one position per line ('-' for stdin).")
    ] = None,
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    objective: Annotated[
        str, typer.Option(help="points: fewest points left; cards: most cards played.")
    ] = "points",
    keep_jokers: Annotated[bool, typer.Option(help="Play a hand joker only to go out.")] = False,
    time_limit: Annotated[float, typer.Option(help="Seconds per position.")] = DEFAULT_TIME_LIMIT,
    not_opened: NotOpenedOption = False,
    json_output: JsonOption = False,
) -> None:
    """Find the best play.  Exit 1 when there is no play, 2 for bad input."""
    rules = load_variant(variant, players)
    if objective not in ("points", "cards"):
        fail(f"unknown objective {objective!r}; use points or cards")
    if not 0 < time_limit <= 3600:
        fail(f"time limit must be between 0 and 3600 seconds, not {time_limit}")
    chosen: Objective = "cards" if objective == "cards" else "points"
    options: dict[str, object] = {
        "objective": chosen,
        "keep_jokers": keep_jokers,
        "time_limit": time_limit,
        "opened": not not_opened,
    }
    if batch is not None:
        if position is not None:
            fail("give a POSITION or --batch FILE, not both")
        _batch(batch, rules, options, json_output)
        return
    if position is None:
        fail("missing POSITION (or --batch FILE)")
    pos = load_position(position, rules)
    try:
        result = hint(
            pos,
            variant=rules,
            objective=chosen,
            keep_jokers=keep_jokers,
            time_limit=time_limit,
            opened=not not_opened,
        )
    except ValueError as error:
        fail(str(error))
    if json_output:
        print(json.dumps(result.to_dict()))
    else:
        print_hint(result)
    raise typer.Exit(0 if result.has_play else 1)


def main() -> None:
    """Console-script entry point."""
    app()
