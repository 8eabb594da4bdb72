"""Advice for one turn: every option ranked by its expected outcome, from sampled deals.

``advise(position, players=..., hand_sizes=..., ...)`` rebuilds the player's situation
from the position and the game facts the user gives (every fact left out gets a default
derived from the position, and the result says which ones were assumed), lists the
options of the turn and plays each of them in the same ``samples`` guessed deals with
the search bot's evaluator (``solver.game.pimc.play_candidate``: the option, then the
greedy policy for every player up to the end of the round).

The options, at a meld decision:

- ``best``: the best play (fewest points left), then up to ``alternatives`` other plays
  with distinct sets of played cards (``solver.engine.alternatives``);
- ``hold:jokers`` / ``hold:meld``: smaller plays that keep cards back (the search bot's
  hold-back candidates);
- ``draw`` (or ``pass`` in a final turn, when no draw is due);
- a play after which the hand may knock comes twice, ``+knock`` and ``+pass``.

Each option's outcome over the deals: the mean *net round points* (the player's round
score minus the best other player's score, positive is good) with a Student-t interval,
the *round win chance* (the player among the round's winners) with a Wilson interval,
and the *value* the options are ranked by: the search bot's utility
(``solver.game.rollout.utility``: the net points plus 25 for the round won or lost and
100 for a game won or lost at the target score, so the scores matter), with its
interval and the *loss* against the best option (a paired interval: the same deals).

Reproducible: deal ``i`` comes from ``seed`` and ``i`` alone, so the same seed and the
same number of deals give the same answer.  ``budget_seconds`` bounds the time: deals
stop being added once it is spent, counting the work before them (the first advice in a
process also loads the solver, about half a second); ``MIN_SAMPLES`` are played
whatever the budget, and the deal under way when it runs out is finished, so a short
budget can be overrun (``Advice.seconds`` says by how much).  ``samples`` caps the
deals; the answer says how many were played.  Pass a large budget and a fixed
``samples`` for results that do not depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cards import Piece
from solver.engine import DEFAULT_TIME_LIMIT, Hint, alternatives
from solver.game.actions import Action, Draw, Knock, Pass, Play
from solver.game.deck import full_deck, piece_counts, unseen_pieces
from solver.game.pimc import Candidate, hold_backs, play_candidate
from solver.game.rollout import PlayedHint, Rollout, RolloutSettings, determinize, utility
from solver.game.scoring import EndReason, RoundEnd, score_round
from solver.game.settings import GameSettings
from solver.game.stats import Interval, wilson_interval
from solver.game.view import PlayerView
from solver.position import Position
from solver.variants import Variant

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SAMPLES",
    "MIN_SAMPLES",
    "Advice",
    "Choice",
    "Facts",
    "Option",
    "advise",
    "evaluate",
    "game_facts",
    "meld_choices",
]

DEFAULT_BUDGET = 3.0
"""Seconds ``advise`` spends by default."""
MAX_BUDGET = 600.0
DEFAULT_SAMPLES = 400
"""Most deals played by default (the budget usually stops earlier)."""
MAX_SAMPLES = 100_000
MIN_SAMPLES = 2
"""Deals played before the budget may stop the sampling (an interval needs two)."""
DEFAULT_ALTERNATIVES = 3
"""Plays weighed besides the hold-backs: the best and two others."""
CONFIDENCE = 0.95
ROLLOUT = RolloutSettings(horizon=200, time_limit=1.0)
"""Rollouts play the round to its end (200 turns is far beyond any real round)."""


class AdviceError(ValueError):
    """A game fact that does not fit the position or the variant."""


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

    label: str
    kind: str
    """``play``, ``draw`` or ``pass``."""
    hint: Hint | None
    """The play (None for a draw or pass)."""
    knock: bool | None
    """For a play after which the hand may knock: whether it knocks; else None."""
    value: Interval
    points: Interval
    win: Interval
    loss: Interval
    """The best option's value minus this one's, paired over the same deals."""

    @property
    def played(self) -> tuple[Piece, ...]:
        return self.hint.played if self.hint is not None else ()

    def describe(self) -> str:
        """The option in words: what to do."""
        if self.hint is None:
            return self.kind
        cards = " ".join(str(piece) for piece in self.played)
        after = {True: ", then knock", False: ", then do not knock", None: ""}[self.knock]
        return f"play {cards}{after}"

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
        }
        found = self.hint
        data["played"] = None if found is None else [str(piece) for piece in found.played]
        data["table"] = None if found is None else str(found.table)
        data["hand"] = None if found is None else [str(piece) for piece in found.hand.pieces]
        data["hand_points"] = None if found is None else found.hand_points
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

    @property
    def best(self) -> Option:
        return self.options[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": str(self.position),
            "facts": self.facts.to_dict(),
            "options": [option.to_dict() for option in self.options],
            "samples": self.samples,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "budget_seconds": self.budget_seconds,
            "stopped_by_budget": self.stopped_by_budget,
            "confidence": CONFIDENCE,
        }


# -- the situation ------------------------------------------------------------------


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
    cards); the stock is the rest of the unseen cards; scores 0; the turn is just
    started (Manipulation: the forced first draw made, two draws left; else one).
    """
    variant = settings.variant
    players = settings.players
    given: list[str] = ["players"] if players_given else []
    position.validate(variant)
    own = len(position.hand)
    if own == 0:
        raise AdviceError("the hand is empty: a player with no cards has gone out and the round is over")
    if unseen is None:
        hidden = unseen_pieces(variant, position.table.pieces + position.hand.pieces)
    else:
        given.append("unseen")
        hidden = tuple(unseen)
        over = piece_counts(position.table.pieces + position.hand.pieces + hidden)
        over.subtract(piece_counts(full_deck(variant)))
        extra = sorted((card for card, count in over.items() if count > 0), key=str)
        if extra:
            names = ", ".join("joker" if card is None else str(card) for card in extra)
            raise AdviceError(f"the unseen cards, table and hand hold more copies than the deck has: {names}")
    if hand_sizes is None:
        share = len(hidden) // (players - 1)
        sizes = (own, *([min(own, share)] * (players - 1)))
    else:
        given.append("hand_sizes")
        sizes = tuple(hand_sizes)
        if len(sizes) == players - 1:
            sizes = (own, *sizes)
        if len(sizes) != players:
            raise AdviceError(
                f"give {players - 1} or {players} hand sizes for {players} players, not {len(sizes)}"
            )
        if sizes[0] != own:
            raise AdviceError(f"the first hand size is the player's: {own} cards, not {sizes[0]}")
        if any(size < 0 for size in sizes):
            raise AdviceError(f"hand sizes cannot be negative: {', '.join(map(str, sizes))}")
        if any(size == 0 for size in sizes[1:]):
            raise AdviceError("another player with no cards has gone out: the round is over")
    in_hands = sum(sizes[1:])
    if stock is None:
        stock = len(hidden) - in_hands
        if stock < 0:
            raise AdviceError(f"the other hands hold {in_hands} cards but only {len(hidden)} are unseen")
    else:
        given.append("stock")
        if stock < 0:
            raise AdviceError(f"the stock cannot be negative: {stock}")
        if in_hands + stock > len(hidden):
            raise AdviceError(
                f"the other hands ({in_hands}) and the stock ({stock}) need {in_hands + stock} unseen cards, "
                f"but only {len(hidden)} are unseen"
            )
    if scores is None:
        totals = (0,) * players
    else:
        given.append("scores")
        totals = tuple(scores)
        if len(totals) != players:
            raise AdviceError(f"give {players} scores for {players} players, not {len(totals)}")
    most = settings.draws_per_turn - 1 if settings.turn == "draw_first" else 1
    least = 0 if settings.turn == "draw_first" else 1
    if draws_left is None:
        draws = most
    else:
        given.append("draws_left")
        draws = draws_left
        if not least <= draws <= most:
            raise AdviceError(f"draws left must be {least} to {most} in {variant.name}, not {draws}")
    facts = Facts(
        variant=variant.name,
        players=players,
        hand_sizes=sizes,
        stock=stock,
        scores=totals,
        draws_left=draws,
        unseen=len(hidden),
        given=tuple(given),
    )
    return facts, hidden


def player_view(
    position: Position, settings: GameSettings, facts: Facts, hidden: tuple[Piece, ...]
) -> AdviceView:
    """The view of seat 0 at a meld decision with these facts."""
    final_turn = facts.draws_left == 0 and settings.turn == "draw_first"
    return AdviceView(
        settings=settings,
        seat=0,
        phase="meld",
        table=position.table,
        hand=position.hand,
        opened=True,
        final_turn=final_turn,
        draws=settings.draws_per_turn - facts.draws_left,
        melded=False,
        drawn=(),
        stock_size=facts.stock,
        hand_sizes=facts.hand_sizes,
        totals=facts.scores,
        round_number=1,
        unseen_cards=hidden,
    )


# -- the options --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """An option before it is evaluated: its label, kind, play, knock flag and rollout steps."""

    label: str
    kind: str
    found: Hint | None
    knock: bool | None
    steps: tuple[Action | PlayedHint, ...]


def meld_choices(view: PlayerView, *, count: int, time_limit: float) -> list[Choice]:
    """The options at a meld decision (module docstring)."""
    plays = alternatives(
        view.position, count=count, variant=view.variant, opened=view.opened, time_limit=time_limit
    )
    candidates = [
        Candidate("best" if i == 0 else f"alt{i}", Play(found.table), found) for i, found in enumerate(plays)
    ]
    if plays:
        candidates.extend(hold_backs(view, plays[0], max_holds=2, time_limit=time_limit))
    choices: list[Choice] = []
    seen: set[tuple[str, ...]] = set()
    for candidate in candidates:
        found = candidate.found
        assert found is not None
        key = tuple(sorted(str(piece) for piece in found.played))
        if key in seen:
            continue
        seen.add(key)
        step = PlayedHint(found)
        if not found.goes_out and view.variant.may_knock(found.hand_points, melded=True):
            choices.append(Choice(candidate.label + "+knock", "play", found, True, (step, Knock())))
            choices.append(Choice(candidate.label + "+pass", "play", found, False, (step, Pass())))
        else:
            choices.append(Choice(candidate.label, "play", found, None, (step,)))
    decline = view.decline()
    kind = "draw" if isinstance(decline, Draw) else "pass"
    choices.append(Choice(kind, kind, None, None, (decline,)))
    return choices


# -- the sampling -------------------------------------------------------------------


def _deal(view: PlayerView, seed: int, index: int) -> Rollout:
    """Deal ``index`` of this seed: a function of the two alone."""
    return determinize(
        view, random.Random(f"advise:{seed}:{index}"), others_opened=True, last_card_mine=False
    )


def _outcome(state: Rollout, seat: int) -> tuple[float, float, bool]:
    """The value, the net round points and whether ``seat`` won the round."""
    settings = state.settings
    end = state.end
    if end is None:
        reason: EndReason = "exhausted" if settings.scoring == "lowest_hand" else "blocked"
        end = RoundEnd(reason, state.hand_points())
    score = score_round(end, settings)
    others = max(score.scores[s] for s in range(settings.players) if s != seat)
    return utility(state, seat), float(score.scores[seat] - others), seat in score.winners


def _mean_interval(values: Sequence[float]) -> Interval:
    n = len(values)
    centre = statistics.fmean(values)
    if n < 2:
        return Interval(centre, -math.inf, math.inf)
    from scipy.stats import t as student_t  # type: ignore[import-untyped]  # slow to import: on first use

    half = float(student_t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * statistics.stdev(values) / math.sqrt(n)
    return Interval(centre, centre - half, centre + half)


def advise(
    position: Position | str,
    *,
    variant: Variant | str = "manipulation",
    players: int | None = None,
    hand_sizes: Sequence[int] | None = None,
    stock: int | None = None,
    scores: Sequence[int] | None = None,
    draws_left: int | None = None,
    unseen: Sequence[Piece] | None = None,
    budget_seconds: float = DEFAULT_BUDGET,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    alternatives_count: int = DEFAULT_ALTERNATIVES,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Advice:
    """The options of the turn ranked by expected value (module docstring).

    ``variant`` is a name or a ``Variant`` (whose player count is used unless
    ``players`` is given); ``hand_sizes`` the other players' hands (or every hand, the
    player's first); ``scores`` every player's game score, the player's first.  Raises
    ``ValueError`` (an ``AdviceError`` for the facts) on bad input.
    """
    started = time.perf_counter()
    if not 0 < budget_seconds <= MAX_BUDGET or math.isnan(budget_seconds):
        raise AdviceError(f"the budget must be between 0 and {MAX_BUDGET:g} seconds, not {budget_seconds}")
    if isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES:
        raise AdviceError(f"samples must be 1 to {MAX_SAMPLES}, not {samples}")
    if isinstance(seed, bool) or seed < 0:
        raise AdviceError(f"the seed must be 0 or more, not {seed}")
    name = variant.name if isinstance(variant, Variant) else variant
    preset = variant.players if isinstance(variant, Variant) else None
    count = players if players is not None else preset or 2
    if isinstance(variant, Variant):
        settings = GameSettings.named(
            name,
            count,
            knock_only_after_meld=variant.knock_only_after_meld,
            round_bonus_to_all=variant.round_bonus_to_all,
        )
    else:
        settings = GameSettings.named(name, count)
    pos = Position.parse(position) if isinstance(position, str) else position
    pos = pos.canonical()
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
    view = player_view(pos, settings, facts, hidden)
    choices = meld_choices(view, count=alternatives_count, time_limit=time_limit)
    options, played, stopped = evaluate(
        view,
        choices,
        seed=seed,
        samples=samples,
        budget_seconds=budget_seconds - (time.perf_counter() - started),
    )
    return Advice(
        position=pos,
        facts=facts,
        options=options,
        samples=played,
        seed=seed,
        seconds=time.perf_counter() - started,
        budget_seconds=budget_seconds,
        stopped_by_budget=stopped,
    )


def evaluate(
    view: PlayerView, choices: Sequence[Choice], *, seed: int, samples: int, budget_seconds: float
) -> tuple[tuple[Option, ...], int, bool]:
    """Play every choice in the same deals of ``seed`` (at most ``samples``, and no more
    once ``budget_seconds`` are spent, ``MIN_SAMPLES`` at least); the options best first,
    the deals played, and whether the budget stopped them."""
    started = time.perf_counter()
    values: list[list[float]] = [[] for _ in choices]
    points: list[list[float]] = [[] for _ in choices]
    wins: list[int] = [0] * len(choices)
    stopped = False
    for index in range(samples):
        if index >= MIN_SAMPLES and time.perf_counter() - started > budget_seconds:
            stopped = True
            break
        for number, choice in enumerate(choices):
            state = play_candidate(_deal(view, seed, index), choice.steps, ROLLOUT)
            value, net, won = _outcome(state, view.seat)
            values[number].append(value)
            points[number].append(net)
            wins[number] += won
    played = len(values[0])
    means = [statistics.fmean(v) for v in values]
    order = sorted(range(len(choices)), key=lambda i: (-means[i], i))
    top = order[0]
    options = tuple(
        Option(
            label=choices[i].label,
            kind=choices[i].kind,
            hint=choices[i].found,
            knock=choices[i].knock,
            value=_mean_interval(values[i]),
            points=_mean_interval(points[i]),
            win=wilson_interval(wins[i], played, confidence=CONFIDENCE),
            loss=_mean_interval([a - b for a, b in zip(values[top], values[i], strict=True)]),
        )
        for i in order
    )
    return options, played, stopped
