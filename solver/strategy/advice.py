"""Advice for one turn: every option ranked by its expected outcome, from sampled deals.

``advise(position, players=..., hand_sizes=..., ...)`` rebuilds the player's situation
from the position and the game facts the user gives (every fact left out gets a default
derived from the position, and the result says which ones were assumed), lists the
options of the turn (``solver.strategy.candidates``, ``COACH_SET``: the search bot's
candidates and more) and weighs each of them in the same ``samples`` guessed deals with
the search bot's own evaluator (``solver.strategy.evaluator``: the option, three more turns
with the player's later turns played greedily and hoarding, the better of the two, the
round then scored on what each hand's best play would leave; in the first-out games six
turns, then the race to go out).

The options, at a meld decision:

- ``best``: the best play (fewest points left), then two other plays with distinct sets
  of played cards (``alt1``, ``alt2``: ``solver.engine.alternatives``);
- ``hold:jokers`` / ``hold:meld``: smaller plays that keep cards back (the search bot's
  hold-back candidates); the held cards stay in the hand, in the evaluation and in
  what the option reports;
- ``draw`` (or ``pass`` in a final turn, when no draw is due);
- a play after which the hand may knock comes twice, ``+knock`` and ``+pass``.

A play that goes out ends the round with the player's win: it is ranked first.

Each option's outcome over the deals: the mean *net round points* (the player's round
score minus the best other player's score, positive is good, the round counted as the
rollouts leave it) with a Student-t interval, the *round win chance* (the player among
the round's winners; in a first-out round still running, its chance to go out first in
the race that values it, with the points expected over that race:
``evaluator.outcome``) with a Wilson interval (over race chances a conservative one: it
takes each deal's chance for a win or a loss in part), and the *value* the options are
ranked by: the search bot's utility (``solver.strategy.rollout.utility``: the net points
plus 25 for the round won or lost and 100 for a game won or lost at the target score,
so the scores matter; in a first-out game 100 for the round, which is the game, plus
the points of a round that ended, ``100 x (2 x race chance - 1)`` while it runs), with
its interval and the *loss* against the best option (a paired interval: the same
deals).  An option whose loss interval reaches 0 is *about as good*
as the best: the deals cannot tell them apart, and the output says so rather than
ordering them.

Sequential sampling makes the answer decisive where it can be: while an option's loss is
*undecided* (its interval reaches both 0 and ``TIE_MARGIN``), that option and the best
play more deals (64, then 128 and 192 by default), each with the continuation it
was worth most with; the options already decided keep their first deals, and each loss
is paired over the deals both options played.  Each look's intervals get a third of the
5% (Bonferroni), so a difference the deals show is there at 95% over all the looks.

Reproducible: the deals come from the position, the game facts and ``seed`` alone
(``deal_key``), and ``samples`` of them are played (``DEFAULT_SAMPLES``, fixed before the
work starts), so the same command gives the same answer on any machine.
``budget_seconds`` is a safety cap: when it is spent before the deals are done, the
sampling stops (``MIN_SAMPLES`` at least) and the answer says so
(``stopped_by_budget``): only then does the answer depend on the machine.
"""

from __future__ import annotations

import functools
import math
import statistics
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from solver.analysis import as_unseen
from solver.cards import Piece
from solver.engine import DEFAULT_TIME_LIMIT, Hint
from solver.facts import EmptyHandError, implied_players
from solver.game.deck import full_deck, piece_counts, unseen_pieces
from solver.game.settings import GameSettings
from solver.game.view import PlayerView
from solver.position import Position, as_position
from solver.strategy.candidates import (
    COACH_SET,
    Candidate,
    CandidateSet,
    goes_out,
    knock_candidates,
    meld_candidates,
)
from solver.strategy.evaluator import EVALUATOR, Deal, Evaluator, Outcomes, deal_from_key, keeps_prior, weigh
from solver.strategy.rollout import Policy
from solver.strategy.stats import Interval, wilson_interval
from solver.variants import Variant

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SAMPLES",
    "MIN_SAMPLES",
    "Advice",
    "Facts",
    "Option",
    "advise",
    "deal_key",
    "evaluate",
    "game_facts",
    "mean_interval",
]

DEFAULT_BUDGET = 20.0
"""Seconds after which ``advise`` stops adding deals (a safety cap, stated when it bites)."""
MAX_BUDGET = 600.0
DEFAULT_SAMPLES = 64
"""Deals played by default."""
MAX_SAMPLES = 100_000
MIN_SAMPLES = 2
"""Deals played before the budget may stop the sampling (an interval needs two)."""
CONFIDENCE = 0.95
TIE_MARGIN = 5.0
"""Value points under which two options count as about as good: the review's inaccuracy
floor.  While an option's loss interval reaches both 0 and this margin, that option and
the best play more deals (``undecided``), doubling up to ``MORE_SAMPLES`` times the
default: each look's intervals get their share of the 5% (``looks_confidence``)."""
MORE_SAMPLES = 3
"""The most deals the undecided options and the best may play, in multiples of ``samples``
(64, 128, 192: three looks).  Up to 256 the two seeds' answers agreed as often (38 of 40
positions of ``benchmarks.advise_speed``) but the longest answers took 2.1-2.3 s."""


class AdviceError(ValueError):
    """A game fact that does not fit the position or the variant; ``field`` names the fact
    (``hand_sizes``, ``stock``, ``scores``, ``draws_left``, ``unseen``, ``samples``, ``seed``,
    ``budget_seconds``) where one is at fault, so a form can point at it."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


Decision = Literal["meld", "knock"]
"""What an advice weighs: the turn's melds and draws, or the knock or pass after them."""


@dataclass(frozen=True, slots=True)
class AdviceView(PlayerView):
    """A player's view whose unseen cards the user gave (``--unseen``) instead of the deck's rest."""

    unseen_cards: tuple[Piece, ...] = ()

    def unseen(self) -> tuple[Piece, ...]:
        return self.unseen_cards


@dataclass(frozen=True, slots=True)
class Facts:
    """The game facts the advice assumed, and which of them the user gave."""

    variant: str
    players: int
    decks: int
    jokers: int
    hand_sizes: tuple[int, ...]
    """Cards in each hand, the player's first."""
    stock: int
    scores: tuple[int, ...]
    """Game scores before this round, the player's first."""
    draws_left: int
    """Draws still due this turn if the player keeps declining (0: a final turn)."""
    unseen: int
    """Cards the player cannot see (in the other hands, the stock, or out of play)."""
    given: tuple[str, ...]
    """The names of the facts the user gave; the rest are defaults."""

    def to_dict(self) -> dict[str, Any]:
        names = ("players", "hand_sizes", "stock", "scores", "draws_left", "unseen")
        return {
            "variant": self.variant,
            "players": self.players,
            "decks": self.decks,
            "jokers": self.jokers,
            "hand_sizes": list(self.hand_sizes),
            "stock": self.stock,
            "scores": list(self.scores),
            "draws_left": self.draws_left,
            "unseen": self.unseen,
            "assumed": [name for name in names if name not in self.given],
        }


@dataclass(frozen=True, slots=True)
class Option:
    """One option of the turn and its outcome over the sampled deals."""

    candidate: Candidate
    value: Interval
    points: Interval
    win: Interval
    loss: Interval
    """The best option's value minus this one's, paired over the same deals."""
    about_as_good: bool = False
    """The loss against the best option is not resolved (its interval reaches 0): the
    deals cannot tell the two apart.  True for the best option itself."""
    continuation: str = "greedy"
    """How the player's later turns were played in the rollouts it is worth most with."""
    lines: tuple[tuple[float, ...], ...] = ()
    """The value in each deal with each of the evaluator's continuations."""

    @property
    def label(self) -> str:
        return self.candidate.label

    @property
    def deals(self) -> int:
        """The deals this option was played in (the best and the undecided options play
        more than the others: sequential sampling)."""
        return max((len(line) for line in self.lines), default=0)

    @property
    def kind(self) -> str:
        return self.candidate.kind

    @property
    def hint(self) -> Hint | None:
        """The play, on the real position (its hand is what the play really leaves)."""
        return self.candidate.found

    @property
    def knock(self) -> bool | None:
        return self.candidate.knock

    @property
    def played(self) -> tuple[Piece, ...]:
        return self.candidate.played

    def describe(self) -> str:
        """The option in words: what to do."""
        return self.candidate.describe()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "label": self.label,
            "kind": self.kind,
            "description": self.describe(),
            "knock": self.knock,
            "value": self.value.to_dict(2),
            "points": self.points.to_dict(2),
            "win": self.win.to_dict(4),
            "loss": self.loss.to_dict(2),
            "about_as_good": self.about_as_good,
            "continuation": self.continuation,
            "deals": self.deals,
        }
        found = self.hint
        data["played"] = None if found is None else [str(piece) for piece in found.played]
        data["table"] = None if found is None else str(found.table)
        data["hand"] = None if found is None else [str(piece) for piece in found.hand.pieces]
        data["hand_points"] = None if found is None else found.hand_points
        data["goes_out"] = None if found is None else found.goes_out
        data["melds_broken"] = None if found is None else found.melds_broken
        return data


@dataclass(frozen=True, slots=True)
class Advice:
    """The options of the turn, best first, with the facts assumed and the work done."""

    position: Position
    facts: Facts
    options: tuple[Option, ...]
    samples: int
    seed: int
    seconds: float
    budget_seconds: float
    stopped_by_budget: bool = field(default=False)
    confidence: float = CONFIDENCE
    """The confidence of each interval: 95% shared among the looks of sequential sampling."""
    decision: Decision = "meld"
    """The decision weighed: the turn's melds and draws, or, once they are done, knock or pass."""

    @property
    def best(self) -> Option:
        return self.options[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": str(self.position),
            "decision": self.decision,
            "facts": self.facts.to_dict(),
            "options": [option.to_dict() for option in self.options],
            "samples": self.samples,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "budget_seconds": self.budget_seconds,
            "stopped_by_budget": self.stopped_by_budget,
            "confidence": round(self.confidence, 4),
        }


# -- the situation ------------------------------------------------------------------


def _unseen_given(position: Position, variant: Variant, unseen: Sequence[Piece] | None) -> tuple[Piece, ...]:
    """The unseen cards: the deck minus the table and the hand, or ``unseen`` when given,
    refused when table, hand and ``unseen`` hold more copies of a card than the deck."""
    if unseen is None:
        return unseen_pieces(variant, position.table.pieces + position.hand.pieces)
    hidden = tuple(unseen)
    over = piece_counts(position.table.pieces + position.hand.pieces + hidden)
    over.subtract(piece_counts(full_deck(variant)))
    extra = sorted((card for card, count in over.items() if count > 0), key=str)
    if extra:
        names = ", ".join("joker" if card is None else str(card) for card in extra)
        raise AdviceError(
            f"the unseen cards, table and hand hold more copies than the deck has: {names}", field="unseen"
        )
    return hidden


def _hand_sizes_given(
    own: int,
    players: int,
    hidden: tuple[Piece, ...],
    hand_sizes: Sequence[int] | None,
    *,
    players_assumed: bool = False,
) -> tuple[int, ...]:
    """Every hand's size, the player's (``own``) first: ``hand_sizes`` checked (the
    others', or everyone's), or by default as many as the player's, at most an equal
    share of the unseen cards."""
    if hand_sizes is None:
        share = len(hidden) // (players - 1)
        if share == 0:
            others = "the other player" if players == 2 else f"each of the {players - 1} other players"
            assumed = (
                f" ({players} players assumed: the cards hold more copies than a smaller game's deck; "
                "give the player count)"
                if players_assumed and players > 2
                else ""
            )
            raise AdviceError(
                f"the unseen cards ({len(hidden)}) leave {others} no card to hold: give the hand "
                f"sizes{assumed}",
                field="unseen" if assumed else "hand_sizes",
            )
        return (own, *([min(own, share)] * (players - 1)))
    sizes = tuple(hand_sizes)
    if len(sizes) == players - 1:
        sizes = (own, *sizes)
    if len(sizes) != players:
        raise AdviceError(
            f"give {players - 1} or {players} hand sizes for {players} players, not {len(sizes)}",
            field="hand_sizes",
        )
    if sizes[0] != own:
        raise AdviceError(
            f"the first hand size is the player's: {own} cards, not {sizes[0]}", field="hand_sizes"
        )
    if any(size < 0 for size in sizes):
        raise AdviceError(f"hand sizes cannot be negative: {', '.join(map(str, sizes))}", field="hand_sizes")
    if any(size == 0 for size in sizes[1:]):
        raise AdviceError("another player with no cards has gone out: the round is over", field="hand_sizes")
    return sizes


def _hand_sizes_beside(stock: int, players: int, unseen: int) -> list[int]:
    """The other hands' sizes when only the stock is given: every unseen card not in the
    stock is in one of them (there is no discard pile), shared as evenly as it goes, the
    larger hands first."""
    held = unseen - stock
    if held < players - 1:
        left = (
            f"is more than the {unseen} unseen cards"
            if held < 0
            else f"leaves {held} of the {unseen} unseen cards for the other hands"
        )
        raise AdviceError(
            f"a stock of {stock} {left}: give the hand sizes or the unseen cards", field="stock"
        )
    share, extra = divmod(held, players - 1)
    return [share + (1 if index < extra else 0) for index in range(players - 1)]


def _stock_given(unseen: int, in_hands: int, stock: int | None) -> int:
    """The stock's size: ``stock`` checked to be the ``unseen`` cards less those
    ``in_hands`` of the others (every unseen card is in a hand or the stock: there is no
    discard pile), or by default all of them."""
    if stock is None:
        stock = unseen - in_hands
        if stock < 0:
            raise AdviceError(
                f"the other hands hold {in_hands} cards but only {unseen} are unseen", field="hand_sizes"
            )
        return stock
    if stock < 0:
        raise AdviceError(f"the stock cannot be negative: {stock}", field="stock")
    if in_hands + stock > unseen:
        raise AdviceError(
            f"the other hands ({in_hands}) and the stock ({stock}) need {in_hands + stock} unseen cards, "
            f"but only {unseen} are unseen",
            field="stock",
        )
    if in_hands + stock < unseen:
        raise AdviceError(
            f"the other hands ({in_hands}) and the stock ({stock}) hold {in_hands + stock} cards, "
            f"but {unseen} are unseen: {unseen - in_hands - stock} would be nowhere "
            "(there is no discard pile; give the cards you cannot see as the unseen ones)",
            field="stock",
        )
    return stock


def _scores_given(players: int, scores: Sequence[int] | None, target: int | None) -> tuple[int, ...]:
    """Every player's game score: ``scores`` checked for one per player, each below the
    game's ``target`` (a round that takes a player there ends the game), or all 0."""
    if scores is None:
        return (0,) * players
    totals = tuple(scores)
    if len(totals) != players:
        raise AdviceError(f"give {players} scores for {players} players, not {len(totals)}", field="scores")
    if target is not None and min(totals) < 0:
        raise AdviceError(
            f"a score of {min(totals)}: scores in this game add up the points won, 0 or more",
            field="scores",
        )
    if target is not None and max(totals) >= target:
        raise AdviceError(
            f"a score of {max(totals)} has ended the game (it ends after a round that takes a player to "
            f"{target}): scores are below {target} while it is played",
            field="scores",
        )
    return totals


def _draws_left_given(settings: GameSettings, draws_left: int | None) -> int:
    """The draws left this turn: ``draws_left`` checked against the variant's turn, or
    by default a turn just started (the forced first draw made in a draw-first game)."""
    most = settings.draws_per_turn - 1 if settings.turn == "draw_first" else 1
    least = 0 if settings.turn == "draw_first" else 1
    if draws_left is None:
        return most
    if not least <= draws_left <= most:
        allowed = f"{least} to {most}" if least != most else f"{most} (a draw ends the turn)"
        raise AdviceError(
            f"draws left must be {allowed} in {settings.variant.preset}, not {draws_left}",
            field="draws_left",
        )
    return draws_left


def game_facts(
    position: Position,
    settings: GameSettings,
    *,
    hand_sizes: Sequence[int] | None = None,
    stock: int | None = None,
    scores: Sequence[int] | None = None,
    draws_left: int | None = None,
    unseen: Sequence[Piece] | None = None,
    players_given: bool = True,
) -> tuple[Facts, tuple[Piece, ...]]:
    """The facts of the situation, defaults filled in, checked against each other; and
    the unseen cards.

    Defaults: the unseen cards are the deck minus the table and the hand; each other
    hand holds as many cards as the player's (at most an equal share of the unseen
    cards), or, when the stock is known (given, or empty in a final turn), an equal share
    of the unseen cards it leaves; the stock is the rest of the unseen cards (none in a
    final turn: draws left 0 in Manipulation Rummy, which comes once the stock has run
    out); scores 0; the turn is
    just started (Manipulation: the forced first draw made, two draws left; else one).
    Given hand sizes and stock hold every unseen card: there is no discard pile.
    """
    variant = settings.variant
    players = settings.players
    position.validate(variant)
    own = len(position.hand)
    if own == 0:
        raise EmptyHandError
    hidden = _unseen_given(position, variant, unseen)
    stock_given = stock is not None
    draws = _draws_left_given(settings, draws_left)
    if draws == 0 and settings.turn == "draw_first":
        # A meld decision with no draw left is a final turn (a turn's third draw ends it with
        # no decision), and the final turns come once the stock is empty (RULES.md).
        if stock not in (None, 0):
            raise AdviceError(
                f"draws left 0 is a final turn, which comes once the stock is empty: "
                f"the stock cannot hold {stock} cards",
                field="stock",
            )
        stock = 0
    # A known stock leaves the other hands every other unseen card (no discard pile).
    sizes_or_default = hand_sizes
    if stock is not None and hand_sizes is None:
        sizes_or_default = _hand_sizes_beside(stock, players, len(hidden))
    sizes = _hand_sizes_given(own, players, hidden, sizes_or_default, players_assumed=not players_given)
    stock_size = _stock_given(len(hidden), sum(sizes[1:]), stock)
    totals = _scores_given(players, scores, variant.target_score)
    told = {
        "players": players_given,
        "unseen": unseen is not None,
        "hand_sizes": hand_sizes is not None,
        "stock": stock_given,
        "scores": scores is not None,
        "draws_left": draws_left is not None,
    }
    facts = Facts(
        variant=variant.preset,
        players=players,
        decks=variant.decks,
        jokers=variant.jokers,
        hand_sizes=sizes,
        stock=stock_size,
        scores=totals,
        draws_left=draws,
        unseen=len(hidden),
        given=tuple(name for name, was_given in told.items() if was_given),
    )
    return facts, hidden


def player_view(
    position: Position,
    settings: GameSettings,
    facts: Facts,
    hidden: tuple[Piece, ...],
    *,
    opened: bool = True,
    decision: Decision = "meld",
) -> AdviceView:
    """The view of seat 0 at a meld decision with these facts (``opened`` False: the player
    has not made the opening meld, so a play must meet the variant's opening rule), or at
    the knock decision that follows a turn's melds (``decision="knock"``: the turn's
    draws are done and the player melded, as a knock after a meld may need; with the
    stock empty it is taken for a final turn's, not the turn that drew the last card)."""
    knock = decision == "knock"
    ended = facts.stock == 0 if knock else facts.draws_left == 0
    final_turn = ended and settings.turn == "draw_first"
    return AdviceView(
        settings=settings,
        seat=0,
        phase="knock" if knock else "meld",
        table=position.table,
        hand=position.hand,
        opened=opened,
        final_turn=final_turn,
        draws=settings.draws_per_turn - facts.draws_left,
        melded=knock,
        drawn=(),
        stock_size=facts.stock,
        hand_sizes=facts.hand_sizes,
        totals=facts.scores,
        round_number=1,
        unseen_cards=hidden,
    )


# -- the sampling -------------------------------------------------------------------


def deal_key(position: Position, facts: Facts, seed: int) -> str:
    """What the deals of an advice come from: the position, the game facts and the seed."""
    told = facts.to_dict()
    told.pop("assumed")
    return f"advise|seed {seed}|{position}|{sorted(told.items())}"


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``values`` with its Student-t interval at ``confidence`` (unbounded for
    one value, a point for values all equal)."""
    n = len(values)
    centre = statistics.fmean(values)
    if n < 2:
        return Interval(centre, -math.inf, math.inf)
    spread = statistics.stdev(values)
    if spread == 0:
        return Interval(centre, centre, centre)
    half = _t_quantile(0.5 + confidence / 2, n - 1) * spread / math.sqrt(n)
    return Interval(centre, centre - half, centre + half)


@functools.lru_cache(maxsize=256)
def _t_quantile(probability: float, freedom: int) -> float:
    """Student's t quantile (``scipy.stats.t.ppf``'s value, from ``scipy.special``, which
    imports in a third of the time): a review asks for the same few hundreds of times."""
    from scipy.special import stdtrit  # type: ignore[import-untyped]  # slow to import: on first use

    return float(stdtrit(freedom, probability))


def _check_effort(budget_seconds: float, samples: int, seed: int) -> None:
    """Refuse a budget, a sample count or a seed that ``advise`` cannot honour."""
    if not 0 < budget_seconds <= MAX_BUDGET or math.isnan(budget_seconds):
        raise AdviceError(
            f"the budget must be more than 0 and at most {MAX_BUDGET:g} seconds, not {budget_seconds:g}",
            field="budget_seconds",
        )
    if isinstance(samples, bool) or not MIN_SAMPLES <= samples <= MAX_SAMPLES:
        # One deal has no spread: no option could be told from another.
        raise AdviceError(f"samples must be {MIN_SAMPLES} to {MAX_SAMPLES}, not {samples}", field="samples")
    if isinstance(seed, bool) or seed < 0:
        raise AdviceError(f"the seed must be 0 or more, not {seed}", field="seed")


def _advice_settings(
    pos: Position, variant: Variant | str, players: int | None, unseen: Sequence[Piece] | None
) -> GameSettings:
    """The game settings of an advice: the variant (a name, or a ``Variant`` with its
    options) for ``players``, else the ``Variant``'s own count, else the count the
    position and the unseen cards imply."""
    name = variant.preset if isinstance(variant, Variant) else variant
    preset = variant.players if isinstance(variant, Variant) else None
    count = players if players is not None else preset or implied_players(name, pos, unseen or ())
    if isinstance(variant, Variant):
        return GameSettings.named(
            name,
            count,
            knock_only_after_meld=variant.knock_only_after_meld,
            round_bonus_to_all=variant.round_bonus_to_all,
        )
    return GameSettings.named(name, count)


def advise(
    position: Position | str,
    *,
    variant: Variant | str = "manipulation",
    players: int | None = None,
    hand_sizes: Sequence[int] | None = None,
    stock: int | None = None,
    scores: Sequence[int] | None = None,
    draws_left: int | None = None,
    unseen: Sequence[Piece] | str | None = None,
    budget_seconds: float = DEFAULT_BUDGET,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    options: CandidateSet = COACH_SET,
    time_limit: float = DEFAULT_TIME_LIMIT,
    opened: bool = True,
    decision: Decision = "meld",
) -> Advice:
    """The options of the turn ranked by expected value (module docstring); with
    ``decision="knock"`` the two options once the turn's melds and draws are done: knock
    or pass (``draws_left`` is then 0 and not given).

    ``variant`` is a name or a ``Variant`` (whose player count is used unless
    ``players`` is given; None: Manipulation Rummy); ``unseen`` pieces or their notation;
    ``hand_sizes`` the other players' hands (or every hand, the player's first);
    ``scores`` every player's game score, the player's first;
    ``options`` which options to weigh (``candidates.COACH_SET``); ``opened`` False for a
    player who has not made the opening meld (Rummikub's 30 points).  Raises
    ``ValueError`` (an ``AdviceError`` for the facts) on bad input.
    """
    started = time.perf_counter()
    _check_effort(budget_seconds, samples, seed)
    pos = as_position(position).canonical()
    variant = "manipulation" if variant is None else variant  # as hint() reads None
    unseen = as_unseen(unseen)
    if not len(pos.hand):
        raise EmptyHandError
    settings = _advice_settings(pos, variant, players, unseen)
    draws_left = _check_decision(pos, settings, decision, draws_left)
    preset = variant.players if isinstance(variant, Variant) else None  # the count came from the variant
    facts, hidden = game_facts(
        pos,
        settings,
        hand_sizes=hand_sizes,
        stock=stock,
        scores=scores,
        draws_left=draws_left,
        unseen=unseen,
        players_given=players is not None or preset is not None,
    )
    if decision == "knock":  # the turn's draws are done: that is what a knock decision is
        facts = replace(facts, draws_left=0, given=tuple(sorted({*facts.given, "draws_left"})))
    view = player_view(pos, settings, facts, hidden, opened=opened, decision=decision)
    candidates = (
        knock_candidates() if decision == "knock" else meld_candidates(view, options, time_limit=time_limit)
    )
    ranked, played, stopped = evaluate(
        view,
        candidates,
        deal_from_key(view, deal_key(pos, facts, seed)),
        samples=samples,
        budget_seconds=budget_seconds - (time.perf_counter() - started),
        more=undecided_options,
        most=MORE_SAMPLES * samples,
    )
    level = looks_confidence(samples, MORE_SAMPLES * samples)
    return Advice(
        position=pos,
        facts=facts,
        options=ranked,
        samples=played,
        seed=seed,
        seconds=time.perf_counter() - started,
        budget_seconds=budget_seconds,
        stopped_by_budget=stopped,
        confidence=level,
        decision=decision,
    )


def _check_decision(
    position: Position, settings: GameSettings, decision: Decision, draws_left: int | None
) -> int | None:
    """The draws left to read as a game fact: as given for a meld decision, none for a knock
    decision (the turn's draws are done: no final turn follows from them), which is
    refused where the game never offers it (``_check_knock``)."""
    if decision not in ("meld", "knock"):
        raise AdviceError(f"the decision is meld or knock, not {decision!r}", field="decision")
    if decision == "meld":
        return draws_left
    _check_knock(position, settings, draws_left)
    return None


def _check_knock(position: Position, settings: GameSettings, draws_left: int | None) -> None:
    """Refuse a knock decision the game never offers: a variant without knocking, a hand
    over the threshold, or draws still due (the decision comes once they are done)."""
    variant = settings.variant
    if variant.knock_threshold is None:
        raise AdviceError(f"{variant.preset} has no knocking: the first to go out wins", field="decision")
    points = position.hand.points(variant)
    if points > variant.knock_threshold:
        raise AdviceError(
            f"the hand is worth {points} points, over the {variant.knock_threshold} a knock allows: "
            "there is no knock decision",
            field="decision",
        )
    if draws_left is not None and draws_left != 0:
        raise AdviceError(
            f"a knock decision comes once the turn's draws are done: draws left is 0, not {draws_left}",
            field="draws_left",
        )


def evaluate(
    view: PlayerView,
    candidates: Sequence[Candidate],
    deal: Deal,
    *,
    samples: int,
    budget_seconds: float | None,
    others: Mapping[int, Policy] | None = None,
    more: Callable[[tuple[Option, ...]], Collection[str]] | None = None,
    most: int | None = None,
    evaluator: Evaluator = EVALUATOR,
) -> tuple[tuple[Option, ...], int, bool]:
    """Weigh every candidate in the same deals (``solver.strategy.evaluator.weigh``:
    ``samples``, fewer once ``budget_seconds`` are spent, ``MIN_SAMPLES`` at least); then,
    while ``more(options)`` names options (labels) whose question is open, those options
    alone play more deals, doubling up to ``most``.  The options best first (a play that
    goes out before all else: it ends the round at once; ``rank``), the most deals any
    option played, and whether the budget stopped them.

    Every interval is at ``looks_confidence(samples, most)``: a verdict may be read at
    each doubling, so each look gets its share of the 5% (Bonferroni), and the whole
    procedure calls a difference that is not there at most 5% of the time."""
    level = looks_confidence(samples, most if more is not None else None)
    labels = [candidate.label for candidate in candidates]
    prefer = evaluator.preferred(view, candidates)
    ranking = evaluator.at(view)  # the prior margin at this decision, as the bot's

    def open_ones(found: list[Outcomes]) -> list[int]:
        assert more is not None
        named = set(more(rank(found, level, ranking, prefer)))
        return [index for index, label in enumerate(labels) if label in named]

    weighed, stopped = weigh(
        view,
        candidates,
        deal,
        samples,
        evaluator=evaluator,
        others=others,
        budget_seconds=budget_seconds,
        min_deals=MIN_SAMPLES,
        more=None if more is None else open_ones,
        most=most,
        step=None,
    )
    ranked = rank(weighed, level, ranking, prefer)
    return ranked, max(len(outcome.values) for outcome in weighed), stopped


def looks(samples: int, most: int | None) -> int:
    """How many times sequential sampling may read the deals: at ``samples``, then at
    each doubling up to ``most``."""
    count, played = 1, samples
    while most is not None and played < most:
        played = min(2 * played, most)
        count += 1
    return count


def looks_confidence(samples: int, most: int | None) -> float:
    """The confidence of each look's intervals so that all the looks together keep
    ``CONFIDENCE`` (Bonferroni)."""
    return 1 - (1 - CONFIDENCE) / looks(samples, most)


def rank(
    weighed: Sequence[Outcomes],
    confidence: float = CONFIDENCE,
    evaluator: Evaluator = EVALUATOR,
    prefer: int | None = None,
) -> tuple[Option, ...]:
    """The options best first, each with its intervals (at ``confidence``) and its loss
    against the best.

    The best is the option of highest mean among those that played the most deals (a
    play that goes out before all else); every loss is paired over the deals both played
    (the other's, a prefix of the best's), and the rest follow by their means (on their
    own deals, as the values shown).  When every option played the same deals this is
    simply the order of their means.  Among equal means ``prefer`` (``Evaluator.preferred``:
    the bot's choice among equals) comes first, then the options' order."""
    played = max(len(outcome.values) for outcome in weighed)
    top_index = min(
        (i for i in range(len(weighed)) if len(weighed[i].values) == played),
        key=lambda i: (not goes_out(weighed[i].candidate.found), -weighed[i].mean, i != prefer, i),
    )
    margin = evaluator.prior_margin
    if (
        margin is not None
        and prefer is not None
        and prefer != top_index
        and len(weighed[prefer].values) == played
        and not goes_out(weighed[top_index].candidate.found)
        and keeps_prior(weighed[top_index], weighed[prefer], margin)
    ):
        top_index = prefer  # the rule of thumb's choice stands, as the bot's does
    top = weighed[top_index]

    def loss_values(mine: Outcomes) -> list[float]:
        return [a - b for a, b in zip(top.values, mine.values, strict=False)]

    losses = [mean_interval(loss_values(mine), confidence) for mine in weighed]
    order = sorted(
        range(len(weighed)),
        key=lambda i: (
            i != top_index,
            not goes_out(weighed[i].candidate.found),
            -weighed[i].mean,
            i != prefer,
            i,
        ),
    )
    ranked: list[Option] = []
    for i in order:
        mine = weighed[i]
        loss = losses[i]
        ranked.append(
            Option(
                candidate=mine.candidate,
                value=mean_interval(mine.values, confidence),
                points=mean_interval(mine.points, confidence),
                # Going out wins the round on every deal, for certain: no interval.
                win=(
                    Interval(1.0, 1.0, 1.0)
                    if goes_out(mine.candidate.found)
                    else wilson_interval(sum(mine.wins), len(mine.values), confidence=confidence)
                ),
                loss=loss,
                # Going out is first by rule (it ends the round won): nothing is as good.
                about_as_good=mine is top or (loss.low <= 0 and not goes_out(top.candidate.found)),
                continuation=evaluator.continuation_name(mine.continuation),
                lines=mine.lines,
            )
        )
    return tuple(ranked)


def undecided(option: Option) -> bool:
    """Whether the deals leave open how ``option`` compares with the best: its loss is
    neither resolved (interval above 0) nor known to be under ``TIE_MARGIN``."""
    return option.loss.low <= 0 and option.loss.high >= TIE_MARGIN


def undecided_options(options: tuple[Option, ...]) -> list[str]:
    """The options to play on: the best and every option ``undecided`` against it (none
    when none is, or when the best goes out: nothing is as good)."""
    if len(options) < 2 or goes_out(options[0].hint):
        return []
    open_ = [option.label for option in options[1:] if undecided(option)]
    return [options[0].label, *open_] if open_ else []
