"""The one evaluator: what an option is worth, measured the way the search bot measures it.

The search bot (``solver.strategy.pimc``), the advice (``solver.strategy.advice``) and the review
(``solver.strategy.review``) all weigh their candidates (``solver.strategy.candidates``) here, so
the coach is never weaker than the bot and the bot's choice is the advice's best option
on the same deals and candidates.

Each candidate is played in every deal (the *same* deals for every candidate, so their
differences are not blurred by the luck of the deal; ``deal(i)`` builds deal ``i``
afresh each time, and each player draws from a stretch of the guessed stock of its own,
``Rollout._take_from_stock``, so that the deals stay the same after candidates that draw
different numbers of cards), its steps first, then the round goes on for ``horizon`` turns with
the other players' policies (the greedy one unless the caller models a player as a
hoarder) and is scored *settled* (``rollout.settle``: each hand counts what its best play
would leave).  The player's own later turns are played with each of the
``continuations`` (greedy, and a hoarding line: policy switching), and a candidate is
worth its best continuation's mean: the player is not bound to a plan, it searches again
at its next decision.  The hoarding line is the hoarder's policy without its meld forced
by the hand's size (``rollout.patient_hoarder_action``): with the forced meld a value
depended on whether that meld fell inside the three turns (README, Advice), and in
100-pair screens (seeds 77 and 78) the bot with the patient line beat ``hoarder`` 98.0%
and 97.0% where it had won 80.5% and 77.5% (``benchmarks/unforced_continuation.py``);
in first-out games it gained 6.5 (Rummikub) and 9.5 (Machiavelli) points against
``hoarder`` in 100-pair screens (seed 77), and it is their line too.

First-out games (Machiavelli, Rummikub) play ``first_out`` instead of ``rollout``:
six turns, then the race to go out (``RACE_6``, ``rollout.race_chances``); the search bot
(``solver.strategy.pimc``) says why.

The value of one rollout is ``rollout.utility``: the round score against the best other
player plus 25 for a round won or lost and 100 for a game won or lost.  The outcomes
keep, per deal, that value, the net round points and the player's share of the round's
win (a first-out round still running: the race's chance and expected points, ``outcome``),
so callers can give intervals (paired over the deals) beside every figure.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from solver.game.deck import piece_counts
from solver.game.scoring import RoundEnd, score_round
from solver.game.settings import GameSettings
from solver.game.view import PlayerView
from solver.strategy.candidates import Candidate
from solver.strategy.choice_rules import ChoiceRule, hoarders_choice, patient_choice
from solver.strategy.rollout import (
    Policy,
    Rollout,
    RolloutSettings,
    determinize,
    greedy_action,
    patient_hoarder_action,
    play_out,
    round_score,
    utility,
)

__all__ = [
    "EVALUATOR",
    "Deal",
    "Evaluator",
    "Outcomes",
    "choice_index",
    "deal_from_key",
    "deal_from_seed",
    "hoarders_choice",
    "keeps_prior",
    "play_candidate",
    "weigh",
]

Deal = Callable[[int], Rollout]
"""Deal ``i`` of an evaluation, built afresh on each call (a function of ``i`` alone)."""


SETTLED_3 = RolloutSettings(horizon=3, time_limit=1.0, settle=True)
"""Three more turns, then every hand counted at what its best play would leave."""


@dataclass(frozen=True, slots=True)
class Evaluator:
    """How a rollout is played: ``rollout`` (horizon, time limit per hint, settled
    scoring), ``first_out`` (the same for first-out games: Machiavelli, Rummikub; None:
    ``rollout``) and the ``continuations`` the player's own later turns are played with
    (``first_out_continuations`` in first-out games; None: ``continuations``)."""

    rollout: RolloutSettings = SETTLED_3
    continuations: tuple[Policy, ...] = (greedy_action, patient_hoarder_action)
    first_out: RolloutSettings | None = None
    first_out_continuations: tuple[Policy, ...] | None = None
    hoarder_breaks_ties: bool = False
    """First-out games: among meld options of equal mean, ``tie_rule``'s choice comes
    first (``preferred``) rather than the first listed (the best play)."""
    tie_rule: ChoiceRule = hoarders_choice
    """The rule of thumb whose choice wins ties with ``hoarder_breaks_ties``, and which
    ``prior_margin`` keeps (``solver.strategy.choice_rules``)."""
    prior_margin: float | None = None
    """First-out games (with ``hoarder_breaks_ties``): ``tie_rule``'s choice stands at a
    meld decision unless another option's paired lead over it, over the same deals,
    exceeds this many standard errors (``choice_index``), for the bot and the advice
    alike; None: the best mean wins, ties to the rule."""
    prior_until_stock_empty: bool = False
    """First-out games: the prior (``prior_margin``) holds only while the stock holds cards;
    once it is empty the options are weighed with no prior (the best mean, ties to
    ``tie_rule``; ``at``).  Why: then every player must play or pass until one goes out or
    a whole cycle passes, so the six-turn rollouts see the round end and the hidden cards
    are only the other hands; there the patient rule's play at every turn lays the cards
    the next players build on, and the search often passes instead (with 4 players in
    Machiavelli against three hoarders the rule won 34.6% of a screen's games, the search
    at an empty stock 60.0%; ``benchmarks/endgame_search.py``)."""

    def at(self, view: PlayerView) -> Evaluator:
        """This evaluator as it weighs a decision at ``view``: itself, or without its prior
        at an empty stock of a first-out game (``prior_until_stock_empty``)."""
        lifted = (
            self.prior_until_stock_empty
            and self.prior_margin is not None
            and view.settings.scoring == "first_out"
            and view.stock_size == 0
        )
        return replace(self, prior_margin=None) if lifted else self

    def rollout_for(self, settings: GameSettings) -> RolloutSettings:
        """The rollout settings for a game under ``settings``."""
        if settings.scoring == "first_out" and self.first_out is not None:
            return self.first_out
        return self.rollout

    def continuations_for(self, settings: GameSettings) -> tuple[Policy, ...]:
        """The player's own continuations in a game under ``settings``."""
        if settings.scoring == "first_out" and self.first_out_continuations is not None:
            return self.first_out_continuations
        return self.continuations

    def __post_init__(self) -> None:
        other = self.first_out_continuations
        if other is not None and [c is greedy_action for c in other] != [
            c is greedy_action for c in self.continuations
        ]:
            raise ValueError("the first-out continuations must name alike: greedy where the others are")

    def preferred(self, view: PlayerView, candidates: Sequence[Candidate]) -> int | None:
        """The candidate that wins a tie of means (``best_index``, ``advice.rank``): with
        ``hoarder_breaks_ties``, at a meld decision of a first-out game, ``tie_rule``'s
        choice (by default the hoarder's, ``HoarderBot``: the best play where the hand must
        meld, else the decline); None elsewhere (the first listed wins).

        Why: in first-out games a rollout that sees no hand go out within its six turns
        values the round even, so early in a round every option is often worth exactly
        the same, and the first listed, the best play, lays everything at once; against
        ``greedy`` the hoarder's rule is the stronger (71.4% against ``pimc``'s 65.0% in
        Rummikub).  On in ``EVALUATOR`` since its screens passed the test declared for
        them (``solver.strategy.pimc``, benchmarks/results/firstout-experiments.md)."""
        if not self.hoarder_breaks_ties or view.settings.scoring != "first_out":
            return None
        return self.tie_rule(view, candidates)

    def continuation_name(self, index: int) -> str:
        """``greedy`` for the greedy line, ``hoarding`` for a line that holds melds back (the
        same in every game: ``__post_init__`` checks the two sets name alike)."""
        return "greedy" if self.continuations[index] is greedy_action else "hoarding"


RACE_6 = RolloutSettings(horizon=6, time_limit=1.0, settle=True, race=True, race_slope=0.0)
"""First-out games: six more turns, then the race (``rollout.race_chances``): a hand that
goes out with its next play wins, else the round is even (module docstring)."""

EVALUATOR = Evaluator(
    first_out=RACE_6,
    hoarder_breaks_ties=True,
    tie_rule=patient_choice,
    prior_margin=math.inf,
    prior_until_stock_empty=True,
)
"""The evaluator of the search bot, the advice and the review.  The player's own hoarding
line is ``patient_hoarder_action`` (never forced to meld by its hand's size) in every
game: adopted in Manipulation Rummy and then in first-out games on 2026-11-28 after the
screens of ``benchmarks/unforced_continuation.py`` (which still plays the forced line,
``hoarder_action``, for comparison).  In first-out games the patient rule's choice
(``choice_rules.patient_choice``: open at once, then play only to go out or at the last
chance) wins ties and stands unless another option's paired lead over it exceeds two
standard errors (``tie_rule``, ``prior_margin``: adopted on 2026-11-29 after the screens
and the declared test of ``benchmarks/patient_rule.py``; the hoarder's choice on ties,
adopted on 2026-11-28 after ``benchmarks/tie_rule.py``, came before it).  Since a later
test the same day (``benchmarks/rule_only.py``) the margin is infinite: where the rule
answers, its choice stands (the search bot then plays it with no search; the advice and
the review put it first and still weigh every option), but only while the stock holds
cards: once it is empty the options are weighed with no prior
(``prior_until_stock_empty``, after the test declared for ``benchmarks/endgame_search.py``)."""


@dataclass(frozen=True, slots=True)
class Outcomes:
    """One candidate's outcomes over the deals, with its best continuation."""

    candidate: Candidate
    continuation: int
    """Index of the continuation the candidate is worth most with."""
    values: tuple[float, ...]
    """The utility in each deal (``rollout.utility``)."""
    points: tuple[float, ...]
    """The net round points in each deal: the player's score minus the best other's."""
    wins: tuple[float, ...]
    """The player's share of the round's win in each deal: 1 or 0 where the round ended or
    is counted as it stands, the chance to go out first where a first-out round's race
    values it (``outcome``)."""
    lines: tuple[tuple[float, ...], ...] = ()
    """The utility in each deal with each continuation (``values`` is the best one's)."""

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values) if self.values else 0.0


def _deals(
    view: PlayerView,
    rng_of: Callable[[int], random.Random],
    *,
    others_opened: bool,
    last_card_mine: bool,
    junk: Mapping[int, int] | None = None,
    stuck: Collection[int] = (),
) -> Deal:
    """Deal ``i`` of ``view`` from the generator ``rng_of(i)``; the unseen cards and the
    cards in play are worked out once (the same for every deal: ``determinize``'s shortcut)."""
    unseen = view.unseen()
    in_play = piece_counts(view.table.pieces + view.hand.pieces + unseen)

    def deal(index: int) -> Rollout:
        return determinize(
            view,
            rng_of(index),
            others_opened=others_opened,
            last_card_mine=last_card_mine,
            unseen=unseen,
            in_play=in_play,
            junk=junk,
            stuck=stuck,
        )

    return deal


def deal_from_seed(
    view: PlayerView,
    seeds: Sequence[int],
    *,
    others_opened: bool = True,
    last_card_mine: bool = False,
    junk: Mapping[int, int] | None = None,
    stuck: Collection[int] = (),
) -> Deal:
    """Deals from a list of integer seeds (the search bot draws them from its generator);
    ``junk`` and ``stuck`` as ``rollout.determinize`` takes them."""
    return _deals(
        view,
        lambda index: random.Random(seeds[index]),
        others_opened=others_opened,
        last_card_mine=last_card_mine,
        junk=junk,
        stuck=stuck,
    )


def deal_from_key(
    view: PlayerView, key: str, *, others_opened: bool = True, last_card_mine: bool = False
) -> Deal:
    """Deals from a text key (the position, the game facts and the seed, as the caller
    writes them) and the deal's index alone: the same key gives the same deals on any
    machine, in any process, whatever else was asked before."""
    return _deals(
        view,
        lambda index: random.Random(f"{key}|deal {index}"),
        others_opened=others_opened,
        last_card_mine=last_card_mine,
    )


def play_candidate(
    state: Rollout,
    candidate: Candidate,
    settings: RolloutSettings,
    policies: Mapping[int, Policy] | None = None,
) -> Rollout:
    """Apply ``candidate``'s steps to a determinized round, then play the round on up to
    ``settings.horizon`` with ``policies`` (the greedy policy for a seat not given);
    returns the same state."""
    for step in candidate.steps:
        if state.end is not None:
            break
        state.act(step)
    if state.end is None:
        play_out(state, settings, policies)  # checks every card at its end
    else:
        state.check_cards()
    return state


def outcome(state: Rollout, seat: int) -> tuple[float, float, float]:
    """The value, the net round points and ``seat``'s share of the round's win, for a
    rollout played: 1 or 0 for a round that ended (or is counted as it stands), and for a
    first-out round still running the race's own figures (``_race_outcome``), so that
    the win chance and the points shown beside a value say what the value measured."""
    if state.end is None and state.race is not None:
        return utility(state, seat), *_race_outcome(state, seat)
    score = round_score(state)
    others = max(score.scores[s] for s in range(state.settings.players) if s != seat)
    return utility(state, seat), float(score.scores[seat] - others), float(seat in score.winners)


def _race_outcome(state: Rollout, seat: int) -> tuple[float, float]:
    """A first-out round still running, valued by its race (``rollout.race_chances``):
    ``seat``'s net points expected over who goes out first (the one who does collects
    what each other hand's best play would leave, ``Rollout.settled``), and its chance
    to be that player.  Counting the hands as they stand instead (a blocked end: the
    lowest hand wins) named a winner that the value, the race, does not know."""
    assert state.race is not None and state.settled is not None
    players = range(state.settings.players)
    points = 0.0
    for winner, chance in enumerate(state.race):
        if chance > 0:
            end = RoundEnd("out", tuple(0 if s == winner else state.settled[s] for s in players), out=winner)
            scores = score_round(end, state.settings).scores
            points += chance * (scores[seat] - max(scores[s] for s in players if s != seat))
    return points, state.race[seat]


def weigh(
    view: PlayerView,
    candidates: Sequence[Candidate],
    deal: Deal,
    deals: int,
    *,
    evaluator: Evaluator = EVALUATOR,
    others: Mapping[int, Policy] | None = None,
    budget_seconds: float | None = None,
    min_deals: int = 1,
    more: Callable[[list[Outcomes]], Collection[int]] | None = None,
    most: int | None = None,
    step: int | None = 8,
    dead_heat_after: int | None = None,
) -> tuple[list[Outcomes], bool]:
    """Play every candidate in deals ``0 .. deals-1`` with every continuation; the
    outcomes in the candidates' order (each with its best continuation) and whether
    ``budget_seconds`` stopped the deals early (never before ``min_deals``; the caller
    says so in its output, since where the clock stops depends on the machine).

    Sequential sampling: while ``more(outcomes)`` names candidates (their indices) whose
    question the deals so far leave open, those candidates alone play ``step`` more deals
    (None: as many as so far, doubling), up to ``most`` in all, each with the continuation
    it was worth most with when the first more deals began (which it keeps); the others
    keep the deals they had (a prefix of the same deals).  The rule sees only the outcomes,
    which come from the deals alone, so the number of deals played is as reproducible as
    the rest.

    ``dead_heat_after``: play the first that many deals first, and stop there if they are a
    dead heat (``dead_heat``: every candidate with every continuation worth exactly the
    same in each); otherwise the rest of the ``deals`` for every line, so that a decision
    the first deals split is weighed exactly as without it."""
    started = time.perf_counter()
    seat = view.seat
    rollout = evaluator.rollout_for(view.settings)
    base = dict(others or {})
    continuations = evaluator.continuations_for(view.settings)
    width = len(continuations)
    lines = [(c, k) for c in range(len(candidates)) for k in range(width)]
    results: list[list[tuple[float, float, float]]] = [[] for _ in lines]
    stopped = False

    def play(first: int, last: int, which: Collection[int]) -> bool:
        """Deals ``first .. last-1`` for the lines ``which`` (indices into ``lines``)."""
        for index in range(first, last):
            spent = time.perf_counter() - started
            if budget_seconds is not None and index >= min_deals and spent > budget_seconds:
                return True
            for line, (c, k) in enumerate(lines):
                if line not in which:
                    continue
                policies = {**base, seat: continuations[k]}
                state = play_candidate(deal(index), candidates[c], rollout, policies)
                results[line].append(outcome(state, seat))
        return False

    played = deals if dead_heat_after is None else min(deals, max(1, dead_heat_after))
    stopped = play(0, played, range(len(lines)))
    if not stopped and played < deals:
        if dead_heat(results):
            return _outcomes(candidates, results, width), False
        stopped = play(played, deals, range(len(lines)))
        played = deals
    weighed = _outcomes(candidates, results, width)
    limit = deals if most is None else most
    while not stopped and more is not None and played < limit:
        # Only candidates that have played every deal so far go on (the same deals), each
        # with its best continuation so far alone: half the rollouts of a later look.
        going_on = [c for c in more(weighed) if len(weighed[c].values) == played]
        which = {c * width + weighed[c].continuation for c in going_on}
        if not which:
            break
        upto = min(played + (played if step is None else step), limit)
        stopped = play(played, upto, which)
        played = upto
        weighed = _outcomes(candidates, results, width)
    return weighed, stopped


def dead_heat(results: Sequence[Sequence[tuple[float, float, float]]]) -> bool:
    """Whether every line of ``weigh``'s results (a candidate with a continuation) is worth
    exactly the same in each deal: early in a first-out round no rollout sees a hand go
    out, and the race's value is the same for every option (the evaluator's tie-break,
    ``Evaluator.preferred``, then chooses)."""
    first = [value for value, _, _ in results[0]] if results else []
    return all([value for value, _, _ in line] == first for line in results)


def _outcomes(
    candidates: Sequence[Candidate], results: Sequence[Sequence[tuple[float, float, float]]], width: int
) -> list[Outcomes]:
    """Each candidate's outcomes from ``weigh``'s results (``width`` lines a candidate, one
    per continuation): the continuation worth most among those that played the most deals
    (the one that went on, once later deals were played for the candidate alone)."""
    weighed: list[Outcomes] = []
    for c, candidate in enumerate(candidates):
        own = results[c * width : (c + 1) * width]
        longest = max(len(rows) for rows in own)
        means = [statistics.fmean(v for v, _, _ in rows) if rows else 0.0 for rows in own]
        best = max((k for k in range(width) if len(own[k]) == longest), key=lambda k: (means[k], -k))
        rows = own[best]
        weighed.append(
            Outcomes(
                candidate=candidate,
                continuation=best,
                values=tuple(v for v, _, _ in rows),
                points=tuple(p for _, p, _ in rows),
                wins=tuple(w for _, _, w in rows),
                lines=tuple(tuple(v for v, _, _ in line) for line in own),
            )
        )
    return weighed


def best_index(weighed: Sequence[Outcomes], prefer: int | None = None) -> int:
    """The candidate with the highest mean value: among equals ``prefer`` if it is one of
    them (``Evaluator.preferred``), else the first."""
    return max(range(len(weighed)), key=lambda i: (weighed[i].mean, i == prefer, -i))


def keeps_prior(best: Outcomes, prior: Outcomes, margin: float) -> bool:
    """Whether ``prior`` (a rule of thumb's choice) stands against ``best`` (the best
    mean): unless ``best``'s lead over it, paired over the deals both played, exceeds
    ``margin`` standard errors.  With fewer than two such deals the prior stands."""
    lead = [a - b for a, b in zip(best.values, prior.values, strict=False)]
    if len(lead) < 2:
        return True
    error = statistics.stdev(lead) / math.sqrt(len(lead))
    return not statistics.fmean(lead) > margin * error


def choice_index(weighed: Sequence[Outcomes], prefer: int | None, margin: float | None) -> tuple[int, bool]:
    """The chosen candidate's index, and whether the best mean overruled ``prefer``: the
    best mean (ties to ``prefer``); with a ``margin`` (``Evaluator.prior_margin``),
    ``prefer`` unless the best mean's lead over it is sure (``keeps_prior``)."""
    chosen = best_index(weighed, prefer)
    if margin is None or prefer is None or prefer == chosen:
        return chosen, False
    if keeps_prior(weighed[chosen], weighed[prefer], margin):
        return prefer, False
    return chosen, True
