"""``rummy analyze``: playable cards, best-play count, draw-or-meld advice and outs."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Annotated

import typer
from rich.table import Table as RichTable
from rich.text import Text

from solver.analysis import DEFAULT_PLAY_COUNT_CAP, Analysis, analyze
from solver.cards import Joker, Piece
from solver.cli.common import (
    JsonOption,
    PlayersOption,
    VariantOption,
    app,
    check_time_limit,
    counted,
    fail,
    load_position,
    load_unseen,
    load_variant_for,
    out,
    print_table,
    say_empty_hand,
    styled_meld,
    styled_played,
)
from solver.engine import DEFAULT_TIME_LIMIT
from solver.facts import describe
from solver.position import Position
from solver.report import hint_payload


def _pieces(pieces: tuple[Piece, ...] | list[Piece]) -> Text:
    return styled_meld(tuple(pieces)) if pieces else Text("none")


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def _draw_or_meld_table(found: Analysis, *, knocks: bool) -> RichTable:
    """Meld now or draw: the points each way and the next card's chances.  Where the draw
    ends the turn (``Variant.draw_ends_turn``) the drawn card is played next turn, and the
    rows say so (in Manipulation Rummy the turn goes on after the draw)."""
    draw = found.draw
    later = found.variant.draw_ends_turn
    advice = RichTable(title="Meld now or draw?", show_header=False, title_justify="left")
    advice.add_column(style="bold")
    advice.add_column()
    said = counted(draw.meld_now_points, "point")
    advice.add_row("Meld now", f"{said} left" if draw.can_meld_now else f"no play ({said})")
    if draw.unseen_cards:
        if later:
            advice.add_row("Draw, play next turn at best", f"{draw.draw_expected_points:.2f} points expected")
        else:
            advice.add_row("Draw, then play at best", f"{draw.draw_expected_points:.2f} points expected")
        if knocks:
            advice.add_row("Next card lets you knock", _percent(draw.knock_probability))
        going = "Next card lets you go out next turn" if later else "Next card lets you go out"
        advice.add_row(going, _percent(draw.out_probability))
    else:  # the library's empty stock: a draw changes nothing, so no "next card" figures
        advice.add_row("Draw", "no card to draw: a draw changes nothing")
    advice.add_row("Unseen cards", str(draw.unseen_cards))
    verdict = Text(draw.advice.upper(), style="bold green")
    advice.add_row("Advice", verdict + " (by points left)" if later else verdict)
    return advice


def print_analysis(found: Analysis, *, show_draws: bool) -> None:
    """Human output: the position, the best play, then the figures as rich tables."""
    position, best, draw = found.position, found.best, found.draw
    knocks = found.variant.knock_threshold is not None  # say nothing of knocking where there is none
    print_table("Table", position.table)
    out.print(Text("Hand  ", style="bold") + styled_meld(position.hand.pieces))
    out.print(f"Hand points: {position.hand.points(found.variant)}", markup=False)
    facts = describe(found.variant, assumed=found.players_assumed)
    unseen = counted(found.draw.unseen_cards, "unseen card")
    out.print(f"Game: {found.variant.preset}, {facts}; {unseen}", markup=False)
    out.print()
    if best.has_play:
        out.print(Text("Best play now  ", style="bold green") + styled_played(best.played))
        out.print(Text("Hand left      ", style="bold") + styled_meld(best.hand.pieces))
    else:
        out.print(Text("No legal play now.", style="bold yellow"))

    plays = RichTable(title="Plays", show_header=False, title_justify="left")
    plays.add_column(style="bold")
    plays.add_column()
    # "Now": the draws below may make a card playable (it read "Never playable" beside
    # draws that play those very cards).
    plays.add_row("Playable cards now", _pieces(found.playable))
    plays.add_row("Not playable now", _pieces(found.never_playable))
    more = "+" if found.optimal_plays_capped else ""
    plays.add_row("Best plays", f"{found.optimal_plays}{more} distinct set(s) of played cards")
    out.print(plays)

    out.print(_draw_or_meld_table(found, knocks=knocks))
    if found.variant.draw_ends_turn and draw.unseen_cards:
        out.print(
            f"In {found.variant.preset.capitalize()} a draw ends the turn: the draw's figures are for "
            "your next turn with the table as it is now (the others play first), and the advice compares "
            "points only. `rummy advise` weighs melding against drawing over sampled games.",
            markup=False,
        )

    outs = RichTable(title="Outs", show_header=False, title_justify="left")
    outs.add_column(style="bold")
    outs.add_column()
    joker: list[Piece] = [Joker()]
    outs.add_row("Go out", _pieces([*draw.go_out_cards, *(joker if draw.joker_goes_out else [])]))
    if knocks:
        outs.add_row("Knock", _pieces([*draw.knock_cards, *(joker if draw.joker_knocks else [])]))
    out.print(outs)

    if show_draws:
        table = RichTable(title="Every draw", title_justify="left")
        headings = ("card", "copies", "points after", *(("knock",) if knocks else ()), "go out")
        for heading in headings:
            table.add_column(heading, justify="right" if heading in ("copies", "points after") else "left")
        for outcome in draw.outcomes:
            table.add_row(
                styled_meld((outcome.piece,)),
                str(outcome.copies),
                str(outcome.points),
                *(("yes" if outcome.knocks else "",) if knocks else ()),
                "yes" if outcome.goes_out else "",
            )
        out.print(table)
    if not found.exact:
        out.print(Text("A time limit stopped a solve: figures are not proven exact.", style="yellow"))


@app.command(name="analyze")
def analyze_command(
    position: Annotated[str, typer.Argument(help="Position 'table / hand'.")],
    unseen: Annotated[
        str | None,
        typer.Option(
            "--unseen",
            help="Cards the player cannot see, e.g. '7h 8h 8h *' (default: the deck minus table and hand).",
        ),
    ] = None,
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    cap: Annotated[
        int, typer.Option(help="Count at most this many distinct best plays.")
    ] = DEFAULT_PLAY_COUNT_CAP,
    time_limit: Annotated[float, typer.Option(help="Seconds per solve.")] = DEFAULT_TIME_LIMIT,
    draws: Annotated[bool, typer.Option("--draws", help="List the outcome of every possible draw.")] = False,
    json_output: JsonOption = False,
) -> None:
    """Analyze a position: playable cards, best plays, draw-or-meld figures and outs.

    Exit 0 with the analysis, 1 for an empty hand (it has gone out: nothing to play), 2 for bad input.
    """
    unseen_pieces = load_unseen(unseen)
    rules, assumed = load_variant_for(variant, players, position, unseen_pieces or ())
    pos = load_position(position, rules)
    if not len(pos.hand):
        say_empty_hand(pos, json_output=json_output)
    check_time_limit(time_limit)
    if cap < 1:
        fail(f"--cap must be at least 1, not {cap}")
    try:
        found = analyze(pos, variant=rules, unseen=unseen_pieces, time_limit=time_limit, play_count_cap=cap)
        found = replace(found, players_assumed=assumed)
    except ValueError as error:
        fail(str(error))
    if json_output:
        # The best play's steps number old melds as typed, as `rummy hint` does.
        entered = Position.parse(position, keep_order=True)
        print(json.dumps({**found.to_dict(), "best": hint_payload(found.best, before=entered)}))
    else:
        print_analysis(found, show_draws=draws)
