"""``rummy advise``: the options of a turn ranked by their expected outcome over sampled deals."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.table import Table as RichTable
from rich.text import Text

from solver.cli.common import (
    JsonOption,
    PlayersOption,
    VariantOption,
    app,
    counted,
    fail,
    load_position,
    load_unseen,
    load_variant_for,
    out,
    say_empty_hand,
)
from solver.game.settings import GameSettings
from solver.strategy.advice import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    MAX_BUDGET,
    MAX_SAMPLES,
    MIN_SAMPLES,
    Advice,
    Facts,
    Option,
    advise,
)
from solver.strategy.candidates import goes_out
from solver.strategy.stats import Interval
from solver.variants import Variant

__all__ = ["advise_command", "parse_numbers", "print_advice"]


def parse_numbers(text: str, option: str) -> list[int]:
    """Comma-separated whole numbers (``--hand-sizes 7,9``); exit 2 naming the option otherwise."""
    parts = [part.strip() for part in text.split(",")]
    try:
        return [int(part) for part in parts]
    except ValueError:
        fail(f"{option} takes whole numbers separated by commas, e.g. 7,9; not {text!r}")


def _deals(found: Advice) -> str:
    """The deals played: one number, or the range when sequential sampling played some
    options in more deals than others."""
    counts = {option.deals for option in found.options}
    low, high = min(counts), max(counts)
    return str(high) if low == high else f"{low}-{high}"


def _spread(interval: Interval) -> str:
    """A symmetric interval as ``estimate ±half`` (the estimate alone without one)."""
    if math.isinf(interval.low) or math.isinf(interval.high):
        return f"{interval.estimate:.1f}"
    return f"{interval.estimate:.1f} ±{(interval.high - interval.low) / 2:.1f}"


def _every_race_even(found: Advice) -> bool:
    """A first-out game where no rollout of any option saw a hand go out: every value is
    the even race's 0, which reads as a certain draw unless the output says why."""
    return found.facts.variant != "manipulation" and all(
        value == 0 for option in found.options for line in option.lines for value in line
    )


def _share(interval: Interval) -> str:
    """A proportion's interval in percent: ``77% (71-82)``; a certain one alone: ``100%``
    (going out wins the round, whatever the deals)."""
    if interval.low == interval.high:
        return f"{100 * interval.estimate:.0f}%"
    return f"{100 * interval.estimate:.0f}% ({100 * interval.low:.0f}-{100 * interval.high:.0f})"


def _loss(option: Option) -> str:
    """The loss, marked ``≈`` where its interval reaches 0 (about as good as the best)."""
    return ("≈ " if option.about_as_good else "") + _spread(option.loss)


def _what(option: Option) -> Text:
    """The option in words, its pieces as the game shows them, bold (green for a play)."""
    said = out.faces.pieces(option.describe())
    said.style = "bold green" if option.kind == "play" else "bold"
    return said


def _key(facts: Facts) -> str:
    """What the columns mean, in the variant's own scoring: a first-out round still
    running after the rollouts' turns is valued by its race (``solver.strategy.evaluator``)."""
    loss = (
        "loss: the best option's value minus this one's, on the deals both were played in (the best "
        "and the undecided options are played in more: --json gives each option's deals)."
    )
    if GameSettings.named(facts.variant, facts.players).scoring == "first_out":
        hand = "rack" if Variant.named(facts.variant).name == "rummikub" else "hand"
        return (
            f"left: {hand} points after the play; round win: the chance to go out first (a round still "
            f"running after six more turns is a race: a {hand} whose best play empties it goes out "
            "first, else even chances); points: net points at the round's end (yours minus the best "
            "other player's), over that race; value: 100 for the round won or lost (100 x (2 x round "
            "win - 1) while it runs) plus the points of a round that ended (the ranking); " + loss
        )
    return (
        "left: hand points after the play; points: net round points (yours minus the best other "
        "player's); value: points plus 25 for the round won or lost and 100 for a game won or lost "
        "(the ranking); " + loss
    )


def print_advice(found: Advice) -> None:
    """Human output: the facts (assumed ones marked), then the options best first."""
    facts = found.facts
    assumed = set(found.facts.to_dict()["assumed"])

    def fact(name: str, text: str) -> str:
        return f"{text}{' (assumed)' if name in assumed else ''}"

    out.print(Text("Position  ", style="bold") + out.faces.pieces(str(found.position)))
    out.print(
        "Facts: "
        + ", ".join(
            [
                f"{facts.variant}",
                f"{facts.players} players ("
                + ("assumed; " if "players" in assumed else "")
                + f"{facts.decks} deck{'s' if facts.decks != 1 else ''}, {facts.jokers} joker"
                + f"{'s' if facts.jokers != 1 else ''})",
                fact("hand_sizes", "hands " + ",".join(map(str, facts.hand_sizes))),
                fact("stock", f"stock {facts.stock}"),
                fact("scores", "scores " + ",".join(map(str, facts.scores))),
                "knock decision (the turn's melds and draws done)"
                if found.decision == "knock"
                else fact("draws_left", f"{facts.draws_left} draw(s) left this turn"),
                fact("unseen", counted(facts.unseen, "unseen card")),
            ]
        )
    )
    table = RichTable(
        title=f"Options, best first ({_deals(found)} deals, {round(100 * found.confidence, 1):g}% intervals: "
        "95% over the looks)",
        title_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("option")
    table.add_column("left", justify="right")
    table.add_column("value", justify="right")
    table.add_column("points", justify="right")
    table.add_column("round win", justify="right")
    table.add_column("loss", justify="right")
    for number, option in enumerate(found.options, start=1):
        table.add_row(
            str(number),
            _what(option),
            str(option.hint.hand_points) if option.hint is not None else "",
            _spread(option.value),
            _spread(option.points),
            _share(option.win),
            "" if number == 1 else _loss(option),
        )
    out.print(table)
    close = [str(number) for number, option in enumerate(found.options, start=1) if option.about_as_good]
    if goes_out(found.options[0].hint) and len(found.options) > 1:
        out.print(
            "Option 1 goes out and ranks first by rule: the round is won now, for certain; no other "
            "option is marked ≈ beside it, whatever its loss interval."
        )
    elif _every_race_even(found):
        out.print(
            "No deal saw a hand go out within the six turns played: every option is an even race in "
            "every deal (value 0.0, round win 50%), so the deals cannot rank them: they are listed in "
            "the order they were built, the hint's best play first, and the points column is what each "
            "hand's best play would leave then, not a ranking."
        )
    elif len(close) > 1:
        out.print(
            f"Options {', '.join(close[:-1])} and {close[-1]} are about as good: "
            "the deals cannot tell them apart (marked ≈)."
        )
    out.print(_key(found.facts))
    budget = (
        f" (the {found.budget_seconds:g} s budget stopped the sampling: this answer depends on the machine)"
        if found.stopped_by_budget
        else ""
    )
    out.print(f"seed {found.seed}, {found.seconds:.1f} s{budget}")


@app.command(name="advise")
def advise_command(
    position: Annotated[str, typer.Argument(help="Position 'table / hand' of the player to move.")],
    variant: VariantOption = "manipulation",
    players: PlayersOption = None,
    hand_sizes: Annotated[
        str | None,
        typer.Option(
            "--hand-sizes",
            help="Cards in the other players' hands, e.g. 7,9 (or every hand, yours first). "
            "Default: as many as yours, or with --stock the unseen cards it leaves.",
        ),
    ] = None,
    stock: Annotated[
        int | None, typer.Option(help="Cards in the stock. Default: the unseen cards the other hands leave.")
    ] = None,
    scores: Annotated[
        str | None,
        typer.Option(help="Every player's game score, yours first, e.g. 80,120 (below 150). Default: 0."),
    ] = None,
    draws_left: Annotated[
        int | None,
        typer.Option(
            "--draws-left",
            help="Draws still due this turn if you keep declining: in Manipulation 0-2 (0: a final "
            "turn, once the stock is empty; default 2, the turn just started), elsewhere 1 (a draw "
            "ends the turn).",
        ),
    ] = None,
    unseen: Annotated[
        str | None,
        typer.Option(help="Cards you cannot see, e.g. '7h 8h *' (default: the deck minus table and hand)."),
    ] = None,
    budget: Annotated[
        float,
        typer.Option(
            "--budget",
            help=f"Most seconds to spend (more than 0, at most {MAX_BUDGET:g}): past it no more deals are "
            f"played (each option still gets {MIN_SAMPLES}); the output says so.",
        ),
    ] = DEFAULT_BUDGET,
    samples: Annotated[
        int,
        typer.Option(
            help="Deals every option is played in (the best and the undecided ones in up to "
            "three times as many): the same seed and deals, the same answer."
        ),
    ] = DEFAULT_SAMPLES,
    seed: Annotated[
        int, typer.Option(help="Seed of the sampled deals: the same seed and deals, the same answer.")
    ] = 0,
    knock: Annotated[
        bool,
        typer.Option(
            "--knock",
            help="The knock decision instead: the turn's melds and draws are done (the position is "
            "the one they left) and the hand may knock: knock or pass (Manipulation Rummy).",
        ),
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Rank the options of the turn (plays, holding back, knock or not, draw) by their
    expected outcome over sampled deals of the hidden cards; with --knock, the knock or
    pass that follows the turn's melds.

    Exit 0 with the advice, 1 for an empty hand (it has gone out: nothing to weigh), 2 for bad input.
    """
    rules, assumed = load_variant_for(variant, players, position, load_unseen(unseen) or ())
    pos = load_position(position, rules)
    if not len(pos.hand):
        say_empty_hand(pos, json_output=json_output)
    if not 0 < budget <= MAX_BUDGET:
        fail(f"--budget must be more than 0 and at most {MAX_BUDGET:g} seconds, not {budget:g}")
    if not MIN_SAMPLES <= samples <= MAX_SAMPLES:
        why = " (one deal cannot tell options apart)" if samples == 1 else ""
        fail(f"--samples must be {MIN_SAMPLES} to {MAX_SAMPLES}, not {samples}{why}")
    if seed < 0:
        fail(f"--seed must be 0 or more, not {seed}")
    unseen_pieces = load_unseen(unseen)
    try:
        found = advise(
            pos,
            variant=rules.preset if assumed else rules,  # a name: the library implies the count and says so
            players=players,
            hand_sizes=None if hand_sizes is None else parse_numbers(hand_sizes, "--hand-sizes"),
            stock=stock,
            scores=None if scores is None else parse_numbers(scores, "--scores"),
            draws_left=draws_left,
            unseen=unseen_pieces,
            budget_seconds=budget,
            samples=samples,
            seed=seed,
            decision="knock" if knock else "meld",
        )
    except ValueError as error:
        fail(str(error))
    if json_output:
        print(json.dumps(found.to_dict()))
    else:
        print_advice(found)
