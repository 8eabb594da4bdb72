"""Review of a logged game: each decision of the chosen seats against the advised one.

``review(records, seats=...)`` replays a game log (``solver.game.log``) and, before each
action of a reviewed seat where the player had a choice, weighs the coach's options
(``solver.strategy.candidates.REVIEW_SET``: the search bot's candidates, one more play and
the knock as a choice of its own) *and the move made* in the same sampled deals, with
the evaluator of the search bot and the advice (``solver.strategy.evaluator``), the other
players modelled as the bot would have seen them (``solver.strategy.opponents``, fed every
view of the seat).  The best option on those deals is the *advice*; the **expected loss**
of the move is 0 when the move was the advice, and otherwise the advice's value minus the
move's measured on *fresh* deals, which only those two play (``solver.strategy.verdict``:
on the deals that chose the advice, the best of several noisy means is too high, and every
other move would look worse than it is), with its paired interval.  A decision whose loss
is at least the inaccuracy floor but whose interval still reaches 0 gets more fresh deals
(``MORE_SAMPLES``), so an error is called where the deals show it.

Decisions:

- a meld decision with a legal play: the options, the draw (or pass), and the play made
  if no option plays the same cards.  A play is judged by its cards alone (the better
  of its knock or pass variants): whether to knock after it is the next decision;
- a knock decision: knock or pass.

A decision without a choice (no legal play) is not reviewed.  A play that goes out is
the best there is (it ends the round with the player's win): it is a decision made
right, loss 0, weighed alone in the deals for its value; a player who could have gone
out and did not is judged against going out, which ranks first.  (Both count: leaving
out the decisions to go out, as the review did, counted a player's failures to go out
and none of its successes.)

Bands of the expected loss, in the value's units (net round points, plus 25 for a
round won or lost and 100 for a game):

===========  ==============
band         expected loss
===========  ==============
ok           below 5
inaccuracy   5 to below 15
mistake      15 to below 35
blunder      35 or more
===========  ==============

(5 points is about the spread between close options; 35 is more than a whole round's
win bonus.)  A loss whose interval reaches 0 is ``ok`` whatever its estimate: the deals
cannot tell the move from the advised one.  A loss below 0 means the move did better
than the advice on the fresh deals (an unbiased estimate can fall either side of a small
true loss); it counts as no loss in the accuracy.  The summary per seat: the decisions
reviewed, the **accuracy** (``accuracy``: the mean of ``100 * exp(-loss / 20)``, lichess's
shape in our value units), the count in each band, the error rate (decisions not ``ok``
per decision), the mean and total expected loss, and the luck of the draws.

Luck of the draws, apart from the decisions' cost (``luck=True``, the default): in the
draw-first variants (Manipulation Rummy) every card a reviewed seat draws during its
turn (the turn's forced first draw, and each draw taken instead of melding that leaves
the turn going on) is followed by a meld decision of the same seat.  There the review
measures, with the same evaluator and the same number of deals,

- *after*: the expected value, with the card in the hand, of playing on greedily from
  there (``LUCK_LINE``; read from the decision's own rollouts when it had a choice);
- *before*: the expected value of drawing, from the same situation with that card
  still unseen (back among the stock's possible cards): the average over the possible
  draws, each followed by the same greedy play;

and the draw's **luck** is *after* minus *before*: positive when the card was better
than an average draw.  A seat's luck is the sum over its measured draws, its decisions'
cost the sum of its expected losses; the two are separate parts of how its expected
outcome changed.  Limits: the draw that ends a turn (the last of the turn's draws, and
every draw of Machiavelli and Rummikub, whose draw ends the turn) is followed by the
other players' turns, whose own luck and decisions cannot be told apart from it, so it
is not measured.  Both sides follow the same policy after the draw, so an average draw
shows no luck, and what the advised option gains over it stays on the decisions' side.
The deals assume the unseen cards uniformly spread (no inference from what the other
players kept), and the luck is measured against that belief.  Both are estimates from
sampled deals: the luck's interval adds the two estimates' uncertainties (independent
samples), and one draw's luck is noisy at small ``samples``; the sum over many draws is
what to read.  The plot of a review
(``solver.strategy.review_plot``) draws each decision's advised and made values.

Repeatable: the deals of each evaluation come from the seed, the decision's place in the
game (round and action index), its position and its public facts
(``solver.strategy.evaluator.deal_from_key``), never from which seats were reviewed, what
else was measured or the clock; ``samples`` deals are played (``DEFAULT_SAMPLES``).  A
``budget_seconds`` cap is off by default; a decision it cut says so (``Decision.cut``).
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from solver.game.actions import Action, Draw, Knock, Play, action_from_dict
from solver.game.game import Game
from solver.game.log import LogError, replay
from solver.game.settings import GameSettings
from solver.game.view import PlayerView
from solver.position import Hand
from solver.runs import Chunk
from solver.strategy.advice import MIN_SAMPLES, Option, evaluate, looks, mean_interval
from solver.strategy.candidates import (
    REVIEW_SET,
    Candidate,
    goes_out,
    knock_candidates,
    made_candidate,
    meld_candidates,
)
from solver.strategy.evaluator import EVALUATOR, deal_from_key
from solver.strategy.opponents import OpponentModel
from solver.strategy.rollout import hoarder_action
from solver.strategy.stats import Interval
from solver.strategy.verdict import verdict, verdict_confidence

__all__ = [
    "ACCURACY_SCALE",
    "BANDS",
    "CONFIRM_SAMPLES",
    "DEFAULT_SAMPLES",
    "MORE_SAMPLES",
    "PUZZLE_MIN_DEALS",
    "Band",
    "Decision",
    "DrawLuck",
    "Review",
    "ReviewJob",
    "SeatSummary",
    "accuracy",
    "band_of",
    "clearly_a_mistake",
    "decision_accuracy",
    "review",
    "review_logs",
]

Band = Literal["ok", "inaccuracy", "mistake", "blunder"]
BANDS: tuple[tuple[Band, float], ...] = (
    ("blunder", 35.0),
    ("mistake", 15.0),
    ("inaccuracy", 5.0),
    ("ok", 0.0),
)
"""Each band and the least expected loss that puts a decision in it (module docstring)."""
FLOOR: dict[Band, float] = dict(BANDS)
"""The least expected loss of each band, by name."""
MADE = "made"


ACCURACY_SCALE = 20.0
"""Value points of expected loss that take a decision's accuracy from 100 to 100/e (37)."""

DEFAULT_SAMPLES = 16
"""Deals per evaluation by default."""
MORE_SAMPLES = 4
"""The most deals of a decision, in multiples of ``samples`` (16, then 32 and 64: three
looks).  Every option plays the first ``samples``; when the move made is not the advice,
the advice and the move alone play on, doubling, so that the move's loss is measured on
fresh deals (``solver.strategy.verdict``: 16, then 48 while the loss is at least the
inaccuracy floor but its interval still reaches 0).  The two verdict looks share the 5%:
a move is called worse when the loss's one-sided 97.5% lower bound is above 0.  (Every
option on more deals, as before, cost 11 rollouts a deal instead of 2.)"""


PUZZLE_MIN_DEALS = DEFAULT_SAMPLES
"""The fewest deals a decision's loss must be measured on to be a clear mistake: the
review's default (``rummy review --samples 4`` once called a move a 70-point blunder
that 400 deals put at 5 to 7 points)."""

CONFIRM_SAMPLES = MORE_SAMPLES
"""The independent deals a clear mistake's loss is measured again on, in multiples of
``samples`` (64 at the default)."""


def clearly_a_mistake(decision: Decision) -> bool:
    """A mistake or blunder whose loss interval, over at least ``PUZZLE_MIN_DEALS`` deals,
    lies above the mistake band's floor: a puzzle's question."""
    return (
        decision.band in ("mistake", "blunder")
        and decision.loss.low >= FLOOR["mistake"]
        and decision.samples >= PUZZLE_MIN_DEALS
    )


def band_of(loss: Interval | float) -> Band:
    """The band of an expected loss: by its estimate, and ``ok`` whenever the loss is not
    resolved (its interval reaches 0: the move is about as good as the advised one)."""
    if isinstance(loss, Interval):
        if loss.low <= 0:
            return "ok"
        loss = loss.estimate
    for band, least in BANDS:
        if loss >= least:
            return band
    return "ok"


def decision_accuracy(loss: Interval) -> float:
    """One decision's accuracy, 0 to 100: ``100 * exp(-loss / ACCURACY_SCALE)`` of its
    expected loss (0 when the move was the advised one)."""
    return 100.0 * math.exp(-max(loss.estimate, 0.0) / ACCURACY_SCALE)


def accuracy(losses: Sequence[Interval]) -> float:
    """The accuracy of a run of decisions, 0 to 100: the mean of ``decision_accuracy``;
    100 with no decision."""
    if not losses:
        return 100.0
    return statistics.fmean(decision_accuracy(loss) for loss in losses)


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision: what was done, what was advised, and the cost."""

    round_number: int
    seat: int
    phase: str
    position: str
    made: str
    advised: str
    loss: Interval
    band: Band
    options: int
    samples: int
    value: float = 0.0
    """The advised option's expected value (what the plot draws as the expected score)."""
    made_value: float = 0.0
    """The expected value of the move made (``value`` minus the loss)."""
    action: int = 0
    """The logged action judged: its index among the log's actions (0-based)."""
    cut: bool = False
    """Whether the time budget stopped the deals before ``samples`` were played."""
    advised_kind: str = ""
    """The advised option's kind: play, draw, pass or knock."""
    advised_table: str | None = None
    """The table after the advised play (None when the advice is not a play)."""
    facts: dict[str, Any] = field(default_factory=dict)
    """The public facts of the decision, the reviewed player's first (hand sizes, stock,
    scores, draws left): with ``position`` they make the decision a puzzle."""
    turn: int = 0
    """The turn of the round it was made in, counting every player's turns from 1 (as
    ``rummy replay --show`` numbers them)."""
    confirmed: Interval | None = None
    """A clear mistake's loss measured again on independent deals (``review(confirm=True)``):
    ``loss`` chose the decision, so among many decisions the clearest are those whose
    estimate came out high by chance; this one did not choose it (None: not measured)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "confirmed": None if self.confirmed is None else self.confirmed.to_dict(2),
            "cut": self.cut,
            "turn": self.turn,
            "advised_kind": self.advised_kind,
            "advised_table": self.advised_table,
            "facts": self.facts,
            "round": self.round_number,
            "seat": self.seat,
            "phase": self.phase,
            "position": self.position,
            "made": self.made,
            "advised": self.advised,
            "loss": self.loss.to_dict(2),
            "band": self.band,
            "options": self.options,
            "samples": self.samples,
            "value": round(self.value, 2),
            "made_value": round(self.made_value, 2),
            "action": self.action,
        }


@dataclass(frozen=True, slots=True)
class DrawLuck:
    """The luck of one drawn card (module docstring): the expected value after the draw
    minus before it."""

    round_number: int
    seat: int
    card: str
    before: float
    after: float
    luck: Interval
    action: int = 0
    """The index among the log's actions of the seat's action right after the draw."""
    turn: int = 0
    """The turn of the round the card was drawn in (as ``Decision.turn``)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "turn": self.turn,
            "seat": self.seat,
            "card": self.card,
            "before": round(self.before, 2),
            "after": round(self.after, 2),
            "luck": self.luck.to_dict(2),
            "action": self.action,
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat's decisions in numbers."""

    seat: int
    player: str
    decisions: int
    bands: dict[str, int]
    total_loss: float
    accuracy: float = 100.0
    """The accuracy score of the seat's decisions, 0 to 100 (``accuracy``)."""
    luck: float = 0.0
    """The sum of the luck of the seat's measured draws."""
    draws: int = 0
    """The draws whose luck was measured."""

    @property
    def error_rate(self) -> float:
        return (self.decisions - self.bands.get("ok", 0)) / self.decisions if self.decisions else 0.0

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "decisions": self.decisions,
            "bands": {band: self.bands.get(band, 0) for band, _ in reversed(BANDS)},
            "error_rate": round(self.error_rate, 4),
            "accuracy": round(self.accuracy, 1),
            "mean_loss": round(self.mean_loss, 2),
            "total_loss": round(self.total_loss, 2),
            "luck": round(self.luck, 2),
            "draws": self.draws,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every reviewed decision in game order and the summary per seat."""

    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]
    seconds: float
    draws: tuple[DrawLuck, ...] = ()
    """The measured draws' luck, in game order."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "decisions": [decision.to_dict() for decision in self.decisions],
            "draws": [draw.to_dict() for draw in self.draws],
            "summary": [summary.to_dict() for summary in self.summaries],
            "bands": {band: least for band, least in BANDS},
            "seconds": round(self.seconds, 3),
        }


def _decision_candidates(
    view: PlayerView, action: Action, time_limit: float
) -> tuple[list[Candidate], list[str]] | None:
    """The options of the decision and the labels that stand for the move made, or None
    when the decision has no choice (no legal play).  A play that goes out is the best
    there is: its only option is itself (a decision made right; a player who could go out
    and did not is judged against it)."""
    if view.phase == "knock":
        return knock_candidates(), ["knock" if isinstance(action, Knock) else "pass"]
    if view.phase != "meld":
        return None
    every = meld_candidates(view, REVIEW_SET, time_limit=time_limit)
    plays = [candidate for candidate in every if candidate.found is not None]
    if not plays:
        return None
    if not isinstance(action, Play):
        return every, [candidate.label for candidate in every if candidate.found is None]
    made = made_candidate(view, action, MADE)
    if goes_out(made.found):
        return [made], [MADE]
    matching = [candidate.label for candidate in plays if candidate.played_key == made.played_key]
    if matching:
        return every, matching
    return [*every, made], [MADE]


def _just_drew(view: PlayerView) -> bool:
    """Whether ``view`` is a meld decision right after a draw that drew a card (a draw
    from an empty stock draws nothing, and every later draw of the turn too)."""
    return (
        view.phase == "meld"
        and view.settings.turn == "draw_first"
        and bool(view.drawn)
        and len(view.drawn) == view.draws
    )


def _before_draw(view: PlayerView) -> PlayerView:
    """The same situation with the last drawn card back among the unseen ones: the
    stock one card larger, the hand one card smaller, one draw fewer made."""
    card = view.drawn[-1]
    pieces = list(view.hand.pieces)
    pieces.remove(card)
    sizes = list(view.hand_sizes)
    sizes[view.seat] -= 1
    return replace(
        view,
        hand=Hand.of(pieces),
        draws=view.draws - 1,
        drawn=view.drawn[:-1],
        stock_size=view.stock_size + 1,
        hand_sizes=tuple(sizes),
    )


LUCK_LINE = 0
"""The continuation the luck is measured with (the evaluator's first: greedy) on both sides.
Taking the better of the continuations on each side, as options are weighed, can bias the
luck: the better of two noisy means is too high, the more so the fewer the deals, and the
two sides have different numbers of deals."""


LUCK_EVALUATOR = replace(
    EVALUATOR,
    continuations=(EVALUATOR.continuations[LUCK_LINE],),
    first_out_continuations=None,  # the luck is measured in draw-first games alone
)
"""The evaluator of the luck's own evaluations: the same rollouts, the one continuation."""


def _line(option: Option) -> Interval:
    """An option's value with the luck's continuation (the only one of a luck evaluation)."""
    return mean_interval(list(option.lines[LUCK_LINE if len(option.lines) > 1 else 0]))


def _playing_on(options: Sequence[Option]) -> Interval | None:
    """What playing on greedily from a meld decision is worth, read from the decision's own
    rollouts: the greedy policy takes the best play now (knocking when it may), so it is
    that option's greedy line.  None when the option is not among them."""
    by_label = {option.label: option for option in options}
    best = by_label.get("best+knock") or by_label.get("best")
    if best is None or len(best.lines) <= LUCK_LINE:
        return None
    return _line(best)


def _difference(after: Interval, before: Interval) -> Interval:
    """``after - before`` for two independent estimates: the half-widths add in quadrature."""
    estimate = after.estimate - before.estimate
    halves = [(i.high - i.low) / 2 for i in (after, before)]
    if not all(math.isfinite(half) for half in halves):
        return Interval(estimate, -math.inf, math.inf)
    half = math.hypot(*halves)
    return Interval(estimate, estimate - half, estimate + half)


def _seat_facts(view: PlayerView) -> dict[str, Any]:
    """The decision's public facts as ``advise`` takes them: every list the player's first."""
    seat, players = view.seat, view.settings.players
    order = [(seat + k) % players for k in range(players)]
    return {
        "players": players,
        "hand_sizes": [view.hand_sizes[s] for s in order],
        "stock": view.stock_size,
        "scores": [view.totals[s] for s in order],
        "draws_left": view.draws_left,
        "opened": view.opened,
    }


def _facts_key(view: PlayerView) -> str:
    """The public facts of a decision, for its deals' key."""
    return (
        f"seat {view.seat}|phase {view.phase}|draws {view.draws}|final {view.final_turn}"
        f"|stock {view.stock_size}|sizes {view.hand_sizes}|totals {view.totals}|opened {view.opened}"
    )


def _checked_log(
    records: Sequence[dict[str, object]],
    seats: Sequence[int] | None,
    budget_seconds: float | None,
    samples: int,
) -> tuple[GameSettings, tuple[str, ...], set[int]]:
    """The game settings, the players' names and the seats to review of a log that
    replays clean; LogError when it does not, ValueError for a seat not in the game, a
    budget not positive or too few samples."""
    checked = replay(records)
    if checked.mismatches:
        raise LogError(f"the log does not replay: {checked.mismatches[0]}")
    header = records[0]
    described, names = header["settings"], header["players"]
    assert isinstance(described, dict) and isinstance(names, list)  # the replay checked the header
    settings = GameSettings.from_description(described)
    players = tuple(str(name) for name in names)
    chosen = set(range(settings.players)) if seats is None else set(seats)
    bad = sorted(seat for seat in chosen if not 0 <= seat < settings.players)
    if bad:
        raise ValueError(
            f"seat {bad[0]} is not in this {settings.players}-player game (seats 0-{settings.players - 1})"
        )
    if budget_seconds is not None and not budget_seconds > 0:
        raise ValueError(f"the budget must be positive, not {budget_seconds}")
    if samples < MIN_SAMPLES:
        raise ValueError(f"samples must be at least {MIN_SAMPLES}, not {samples}")
    return settings, players, chosen


@dataclass(frozen=True, slots=True)
class _Evaluations:
    """How a review evaluates options: in the game as replayed so far, with the opponent
    models built from it, on deals keyed by the review's seed, the decision's place, its
    position and its public facts (so each evaluation is reproducible on its own)."""

    game: Game
    models: dict[int, OpponentModel]
    seed: int
    samples: int
    budget_seconds: float | None

    def evaluated(
        self,
        view: PlayerView,
        candidates: Sequence[Candidate],
        key: str,
        made_labels: Sequence[str] = (),
        *,
        luck: bool = False,
        deals: int | None = None,
    ) -> tuple[tuple[Option, ...], int, bool]:
        """The ranked options, the deals played and whether the budget cut them; with
        ``made_labels`` more deals while the move made might be an error; ``luck``
        evaluations use the luck's evaluator and half the samples; ``deals`` (None:
        ``samples``) sets the deals of any other."""
        state = self.game.round
        others = [s for s in range(self.game.settings.players) if s != view.seat]
        deal = deal_from_key(
            view,
            f"review|seed {self.seed}|{key}|{view.position}|{_facts_key(view)}",
            others_opened=all(state.opened[s] for s in others),
            last_card_mine=state.last_card_drawer == view.seat,
        )
        policies = {s: hoarder_action for s in self.models[view.seat].hoarders(view)}

        def open_question(options: tuple[Option, ...]) -> list[str]:
            """The advice and the move made, while their verdict wants fresh deals: none
            played yet, or a loss of at least the inaccuracy floor the deals cannot yet
            tell from 0 (``solver.strategy.verdict``); none once the move was the advice
            or the verdict is clear."""
            found = verdict(options, made_labels, self.confidence)
            if found.move_is_advice:
                return []
            loss = found.loss
            if found.fresh and not (loss.low <= 0 and loss.estimate >= FLOOR["inaccuracy"]):
                return []
            return [found.advice.label, found.move.label]

        return evaluate(
            view,
            candidates,
            deal,
            samples=max(MIN_SAMPLES, self.samples // 2) if luck else (deals or self.samples),
            evaluator=LUCK_EVALUATOR if luck else EVALUATOR,
            budget_seconds=self.budget_seconds,
            others=policies,
            more=open_question if made_labels else None,
            most=MORE_SAMPLES * self.samples,
        )

    @property
    def confidence(self) -> float:
        """The confidence of a verdict's loss interval: the looks after the first deals
        share the 5% (``solver.strategy.verdict``)."""
        return verdict_confidence(looks(self.samples, MORE_SAMPLES * self.samples) - 1)


def _made_words(option: Option) -> str:
    """The move made, in words: a play as it was played.  The play's option may be the one
    that knocks after it (the better of the options with the same cards stands for the
    move), but whether the player knocked is a decision of its own, reviewed next."""
    if option.candidate.found is None:
        return option.describe()
    return replace(option.candidate, knock=None).describe()


def _decision(
    game: Game,
    seat: int,
    view: PlayerView,
    evaluated: tuple[tuple[Option, ...], int, bool],
    made: Sequence[str],
    done: int,
    confidence: float,
) -> Decision:
    """The judgement of action ``done`` (``made``: the labels of the move made) from its
    ``evaluated`` options: the verdict (``solver.strategy.verdict``) on the move against
    the advice, its interval at ``confidence``."""
    options, played, cut = evaluated
    found = verdict(options, made, confidence)
    best, mine = found.advice, found.move
    return Decision(
        round_number=game.round.round_number,
        seat=seat,
        phase=view.phase,
        position=str(view.position),
        made=_made_words(mine),
        advised=best.describe(),
        loss=found.loss,
        band=band_of(found.loss),
        options=len(options),
        samples=played,
        value=best.value.estimate,
        made_value=best.value.estimate - found.loss.estimate,
        action=done,
        cut=cut,
        advised_kind=best.kind,
        advised_table=None if best.hint is None else str(best.hint.table),
        facts=_seat_facts(view),
        turn=game.round.turns,
    )


def _draw_luck(
    evaluations: _Evaluations,
    seat: int,
    view: PlayerView,
    options: tuple[Option, ...] | None,
    place: str,
    done: int,
) -> DrawLuck:
    """The luck of the card just drawn: playing on after it (read from the decision's
    ``options`` when they have it, else evaluated) less drawing it, before it was seen."""
    game = evaluations.game
    after = _playing_on(options) if options is not None else None
    if after is None:
        playing_on = Candidate("play on", "continue", ())
        after = _line(evaluations.evaluated(view, [playing_on], place + "|after", luck=True)[0][0])
    before_view = _before_draw(view)
    drawing = Candidate("draw", "draw", (Draw(),))
    before = _line(evaluations.evaluated(before_view, [drawing], place + "|before", luck=True)[0][0])
    return DrawLuck(
        round_number=game.round.round_number,
        seat=seat,
        card=str(view.drawn[-1]),
        before=before.estimate,
        after=after.estimate,
        luck=_difference(after, before),
        action=done,
        turn=game.round.turns,
    )


def _confirmed(
    evaluations: _Evaluations,
    view: PlayerView,
    evaluated: tuple[tuple[Option, ...], int, bool],
    made: Sequence[str],
    place: str,
) -> Interval:
    """A clear mistake's loss measured again (``Decision.confirmed``): the advice and the
    move, each with the continuation its verdict chose, on ``CONFIRM_SAMPLES`` times
    ``samples`` deals of their own (keyed apart from the decision's), paired, at 95%."""
    found = verdict(evaluated[0], made, evaluations.confidence)
    pair = [found.advice.candidate, found.move.candidate]
    deals = CONFIRM_SAMPLES * evaluations.samples
    again = {
        option.label: option
        for option in evaluations.evaluated(view, pair, place + "|confirm", deals=deals)[0]
    }
    ours = again[found.advice.label].lines[found.advice_line]
    theirs = again[found.move.label].lines[found.move_line]
    return mean_interval([a - b for a, b in zip(ours, theirs, strict=True)])


def _review_action(
    evaluations: _Evaluations,
    seat: int,
    view: PlayerView,
    action: Action,
    done: int,
    time_limit: float,
    luck: bool,
    confirm: bool = False,
) -> tuple[Decision | None, DrawLuck | None]:
    """Action ``done`` of a reviewed seat (its ``view``), before it is applied: its
    decision when it had a choice (with ``confirm``, a clear mistake's loss measured
    again), and with ``luck`` the luck of the card drawn just before it."""
    game = evaluations.game
    place = f"round {game.round.round_number}|action {done}"
    found = _decision_candidates(view, action, time_limit)
    decision: Decision | None = None
    options: tuple[Option, ...] | None = None
    if found is not None:
        candidates, made = found
        evaluated = evaluations.evaluated(view, candidates, place, made)
        options = evaluated[0]
        decision = _decision(game, seat, view, evaluated, made, done, evaluations.confidence)
        if confirm and clearly_a_mistake(decision):
            decision = replace(decision, confirmed=_confirmed(evaluations, view, evaluated, made, place))
    draw = _draw_luck(evaluations, seat, view, options, place, done) if luck and _just_drew(view) else None
    return decision, draw


def _summaries(
    chosen: set[int], players: tuple[str, ...], decisions: list[Decision], draws: list[DrawLuck]
) -> tuple[SeatSummary, ...]:
    """Each reviewed seat's summary, in seat order: its bands, loss, accuracy and luck."""
    summaries = []
    for seat in sorted(chosen):
        mine_ = [decision for decision in decisions if decision.seat == seat]
        summaries.append(
            SeatSummary(
                seat=seat,
                player=players[seat],
                decisions=len(mine_),
                bands=dict(Counter(decision.band for decision in mine_)),
                total_loss=sum(decision.loss.estimate for decision in mine_),
                accuracy=accuracy([decision.loss for decision in mine_]),
                luck=sum(draw.luck.estimate for draw in draws if draw.seat == seat),
                draws=sum(draw.seat == seat for draw in draws),
            )
        )
    return tuple(summaries)


def review(
    records: Sequence[dict[str, object]],
    *,
    seats: Sequence[int] | None = None,
    budget_seconds: float | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    time_limit: float = 1.0,
    progress: Callable[[int, int], None] | None = None,
    luck: bool = True,
    confirm: bool = False,
) -> Review:
    """Review the decisions of ``seats`` (every seat by default) in a parsed log
    (``solver.game.log.read_log``); ``samples`` deals per evaluation (a decision's
    options; with ``luck``, each measured draw adds one evaluation of the draw, and one
    of the options when the decision had no choice); ``budget_seconds`` (off by default)
    caps each evaluation, and a decision it cut says so (``Decision.cut``);
    ``progress(done, total)`` hears of each action before it is reviewed; ``confirm``
    measures each clear mistake's loss again on deals of its own (``Decision.confirmed``:
    what a puzzle made of it reports), which changes nothing else.
    LogError when the log does not replay clean."""
    started = time.perf_counter()
    settings, players, chosen = _checked_log(records, seats, budget_seconds, samples)
    game = Game(settings, seed=int(str(records[0]["seed"])))
    models = {seat: OpponentModel() for seat in range(settings.players)}
    evaluations = _Evaluations(game, models, seed, samples, budget_seconds)
    decisions: list[Decision] = []
    draws: list[DrawLuck] = []
    actions = [record for record in records[1:] if record.get("type") == "action"]
    for done, record in enumerate(actions):
        if progress is not None:
            progress(done, len(actions))
        logged = record["action"]
        assert isinstance(logged, dict)
        action = action_from_dict(logged)
        seat = game.to_move
        view = game.view(seat)
        models[seat].observe(view)
        if seat in chosen:
            decision, draw = _review_action(evaluations, seat, view, action, done, time_limit, luck, confirm)
            if decision is not None:
                decisions.append(decision)
            if draw is not None:
                draws.append(draw)
        game.apply(action)
    summaries = _summaries(chosen, players, decisions, draws)
    return Review(players, tuple(decisions), summaries, time.perf_counter() - started, tuple(draws))


@dataclass(frozen=True, slots=True)
class ReviewJob:
    """The settings of a batch of reviews (``review_logs``): what every log is reviewed with."""

    seats: tuple[int, ...] | None = None
    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    budget_seconds: float | None = None
    luck: bool = True
    confirm: bool = False
    """Measure each clear mistake's loss again (for puzzles: ``review(confirm=True)``)."""


def review_logs(job: ReviewJob, chunk: Chunk[Sequence[dict[str, object]]]) -> list[Review]:
    """The reviews of one chunk of parsed logs, in order: the task ``solver.runs`` runs, so
    a folder of logs reviews alike in this process, a local pool or a Dask cluster (each
    review's deals come from its own log and the seed alone)."""
    return [
        review(
            records,
            seats=job.seats,
            samples=job.samples,
            seed=job.seed,
            budget_seconds=job.budget_seconds,
            luck=job.luck,
            confirm=job.confirm,
        )
        for records in chunk.items
    ]
