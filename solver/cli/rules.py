"""``rummy show`` and ``rummy check``: look at a position, judge a play."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.text import Text

from solver.cli.common import (
    JsonOption,
    NotOpenedOption,
    PlayersOption,
    VariantOption,
    app,
    check_not_opened,
    fail,
    load_position,
    load_variant,
    load_variant_for,
    out,
    print_table,
    styled_meld,
)
from solver.echo import echoed
from solver.facts import describe
from solver.position import Position, Table, deck_problems
from solver.referee import check_play


@app.command()
def show(
    position: Annotated[str, typer.Argument(help="Position in notation, e.g. 'Kh Kd Kc / Ac'.")],
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    json_output: JsonOption = False,
) -> None:
    """Pretty-print a position with suit symbols.

    Without --players the game is the one rummy analyze and rummy advise assume for the
    position (two players unless it holds more copies than their deck), and said so."""
    rules, assumed = load_variant_for(variant, players, position)
    pos = load_position(position, rules)
    if json_output:
        data = {
            "position": str(pos),
            "table": str(pos.table),
            "melds": [[str(p) for p in meld.pieces] for meld in pos.table],
            "hand": [str(p) for p in pos.hand],
            "hand_points": pos.hand.points(rules),
            "variant": rules.describe(),
            "players_assumed": assumed,
        }
        print(json.dumps(data))
        return
    # Numbered in the order written, as `rummy hint` numbers the old melds; --json is canonical.
    print_table("Table", Position.parse(position, keep_order=True).table)
    out.print(Text("Hand  ", style="bold") + styled_meld(pos.hand.pieces))
    out.print(f"Hand points: {pos.hand.points(rules)}   ({rules.preset}; {describe(rules, assumed=assumed)})")


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
    check_not_opened(not_opened, rules)
    before = load_position(position, rules)
    try:
        after_table = Table.parse(after)
    except ValueError as error:
        fail(f"bad after-table {echoed(after)}: {error}")
    beyond_deck = deck_problems(after_table.pieces, rules)
    if beyond_deck:  # no play can make it: bad input, as such a position is
        fail(f"bad after-table {echoed(after)}: {'; '.join(beyond_deck)}")
    verdict = check_play(before, after_table, variant=rules, opened=not not_opened)
    if json_output:
        print(json.dumps({"position": str(before), "after": str(after_table), **verdict.to_dict()}))
    elif verdict.ok:
        out.print(Text("legal", style="bold green") + Text(": ") + out.faces.pieces(str(after_table)))
    else:
        shown = out.faces.pieces(str(after_table)) if len(after_table) else Text("(an empty table)")
        out.print(Text("illegal", style="bold red") + Text(": ") + shown)
        for reason in verdict.reasons:
            out.print(f"  - {reason}", markup=False)
    raise typer.Exit(0 if verdict.ok else 1)
