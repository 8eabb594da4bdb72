"""The search bot ``pimc``: perfect-information Monte Carlo over the choices that matter.

At each real decision it lists a few candidate actions, deals the hidden cards at random
``samples`` times consistently with what it has seen (``solver.game.rollout``), plays
every candidate in every deal (the same deals for all candidates, so their difference is
not blurred by the luck of the deal), plays the round on up to a horizon, and takes the
candidate with the best mean utility (the round score against the other players plus
bonus weights for winning the round and the game: ``rollout.utility``).

Its own later turns in a rollout are played two ways (*continuations*, policy switching):
the greedy policy (meld everything at once) and the hoarder's (``rollout.hoarder_action``:
meld only to go out, to knock, at the last chance or with a big hand).  A candidate is
worth its better continuation's mean; the bot is not bound to it, since it searches again
at its next decision.  With the greedy continuation alone, declining now was judged as
"draw, then lay everything next turn", which gives the other players the table material
a hoarder lives on; the hoarding continuation lets the search see what keeping melds for
one big play is worth.  Measured on 100 mirrored pairs (seed 7, not the measuring seed):
against ``hoarder`` 62-66% with the greedy continuation alone, 80% with both; against
``expert`` 90%.

The rollouts play each other player as the bot's opponent model sees it
(``solver.game.opponents``): one that has been seen sitting on a big hand rather than
melding is played with the hoarder's policy (``rollout.hoarder_action``), the others,
and the bot itself, with the greedy policy.  A round still running at the horizon is
scored *settled* (``rollout.settle``): each hand counts the points its best play would
leave, not every card it holds, so cards kept back for one big play are not taken for
a certain loss (counting whole hands rewarded emptying the own hand at once and took a
hoarder's full hand for a sure win).

Candidates at a meld decision (when the hint engine finds a play):

- ``best``: the best play (fewest points left), what ``greedy`` plays;
- ``draw``: decline and take the next draw (where a draw is allowed);
- ``hold``: smaller plays that keep cards back: the best play that keeps the hand's
  jokers, and for the largest (``max_holds``) groups of hand cards the
  best play lays in one meld, the best play of the hand without those cards.  Not
  against a player the opponent model calls a hoarder: such a player ends rounds
  suddenly (it goes out or knocks in one play), and the settled rollouts, which count
  held cards at what a later play would leave, rate holding too well there.  Measured
  on 100 pairs (seed 7): against ``hoarder`` 56% with hold candidates, 66% without, and
  40.5% with three of them; with both continuations (above) 75.5% with one, 80% without.

Candidates at a knock decision: ``knock`` (scored at once against each guessed hand) and
``pass`` (played on).  No search where there is no choice: no legal play (decline), a
play that goes out (always taken), a final turn (the best play: the hands are counted
next), or the opponents' view being unknowable.  Those cost one hint call.

Deterministic from its generator (``samples`` deals per decision, a fixed horizon);
``time_budget`` (seconds, off by default) stops adding deals once spent, at the price of
reproducibility.  ``counters`` counts what it chose, for the match reports.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solver.cards import Card, piece_sort_key
from solver.engine import Hint, hint
from solver.game.actions import Action, Draw, Knock, Pass, Play
from solver.game.bots import BOT_TIME_LIMIT, Bot, best_play
from solver.game.opponents import OpponentModel
from solver.game.rollout import (
    PlayedHint,
    Policy,
    Rollout,
    RolloutSettings,
    determinize,
    greedy_action,
    hoarder_action,
    mean,
    play_out,
    utility,
)
from solver.game.view import PlayerView
from solver.position import Hand

__all__ = ["Candidate", "PimcBot", "candidate_steps", "hold_backs", "play_candidate"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One action the search weighs: a label for the reports and how to apply it."""

    label: str
    action: Action
    found: Hint | None = None
    """The hint behind a play (so rollouts need not ask the referee again)."""


class PimcBot(Bot):
    """Determinized rollouts over meld, hold-back, draw and knock choices (module docstring)."""

    name = "pimc"
    samples = 8
    max_holds = 1
    rollout = RolloutSettings(horizon=3, time_limit=1.0, settle=True)
    time_budget: float | None = None
    model_opponents = True
    """Play the other players the opponent model calls hoarders with ``hoarder_action``."""
    continuations: tuple[Policy, ...] = (greedy_action, hoarder_action)
    """The policies the bot's own later turns are played with in the rollouts; each
    candidate is worth its best one (the module docstring)."""

    def __init__(self, rng: random.Random | None = None, *, time_limit: float = BOT_TIME_LIMIT) -> None:
        super().__init__(rng, time_limit=time_limit)
        self.counters: Counter[str] = Counter()
        self.opponents = OpponentModel()
        self._round = -1
        self._my_cards = 0
        self._last_card_mine = False

    # -- what the bot remembers of the round --------------------------------------

    def _observe(self, view: PlayerView) -> None:
        if view.round_number != self._round:
            self._round = view.round_number
            self._my_cards = 0
            self._last_card_mine = False
        if view.stock_size == 0 and not view.final_turn and view.phase == "meld":
            self._last_card_mine = True

    def _others_opened(self, view: PlayerView) -> bool:
        """Whether another player has melded: the table holds cards this bot did not lay."""
        return len(view.table.pieces) > self._my_cards

    def _chosen(self, view: PlayerView, action: Action) -> Action:
        if isinstance(action, Play):
            self._my_cards += len(action.table.pieces) - len(view.table.pieces)
        return action

    # -- deciding -----------------------------------------------------------------

    def act(self, view: PlayerView) -> Action:
        self._observe(view)
        self.opponents.observe(view)
        self.counters["decisions"] += 1
        if view.phase == "knock":
            return self._chosen(view, self._knock_or_pass(view))
        return self._chosen(view, self._meld_decision(view))

    def _meld_decision(self, view: PlayerView) -> Action:
        best = self.best_play(view)
        if not best.has_play:
            return view.decline()
        self.counters["meld_choices"] += 1
        if best.goes_out or view.final_turn:
            self.counters["played_best"] += 1
            return Play(best.table)
        candidates = [Candidate("best", Play(best.table), best)]
        if "draw" in view.legal_kinds():
            candidates.append(Candidate("draw", Draw()))
        candidates.extend(self._holds(view, best))
        choice = self._search(view, candidates)
        self.counters["searched"] += 1
        if choice.label == "draw":
            self.counters["drew_with_play"] += 1
        elif choice.label == "best":
            self.counters["played_best"] += 1
        else:
            self.counters["held_back"] += 1
        return choice.action

    def _holds(self, view: PlayerView, best: Hint) -> list[Candidate]:
        if self.model_opponents and self.opponents.hoarders(view):
            return []  # see the module docstring: no holding back against a hoarder
        return hold_backs(view, best, max_holds=self.max_holds, time_limit=self.time_limit)

    def _knock_or_pass(self, view: PlayerView) -> Action:
        self.counters["knock_choices"] += 1
        candidates = [Candidate("knock", Knock()), Candidate("pass", Pass())]
        choice = self._search(view, candidates)
        self.counters["knocked" if choice.label == "knock" else "knock_declined"] += 1
        return choice.action

    def _search(self, view: PlayerView, candidates: list[Candidate]) -> Candidate:
        """The candidate with the best mean utility over the same guessed deals, each
        candidate judged by its better continuation (``continuations``)."""
        started = time.perf_counter()
        others_opened = self._others_opened(view)
        others = self._policies(view)
        lines = [
            (candidate, own, {**others, view.seat: own})
            for candidate in candidates
            for own in self.continuations
        ]
        totals: list[list[float]] = [[] for _ in lines]
        for _ in range(self.samples):
            spent = time.perf_counter() - started
            if self.time_budget is not None and spent > self.time_budget and totals[0]:
                break
            seed = self.rng.getrandbits(64)
            for index, (candidate, _, policies) in enumerate(lines):
                state = determinize(
                    view,
                    random.Random(seed),
                    others_opened=others_opened,
                    last_card_mine=self._last_card_mine,
                )
                totals[index].append(self._value(state, candidate, view.seat, policies))
        means = [mean(values) for values in totals]
        chosen = max(range(len(lines)), key=lambda i: (means[i], -i))
        if lines[chosen][1] is hoarder_action:
            self.counters["hoarding_line"] += 1
        return lines[chosen][0]

    def _policies(self, view: PlayerView) -> dict[int, Policy]:
        """The rollout policy of each other player the opponent model calls a hoarder."""
        if not self.model_opponents:
            return {}
        hoarders = self.opponents.hoarders(view)
        if hoarders:
            self.counters["modelled_hoarder"] += 1
        return {seat: hoarder_action for seat in hoarders}

    def _value(
        self, state: Rollout, candidate: Candidate, seat: int, policies: Mapping[int, Policy]
    ) -> float:
        return utility(play_candidate(state, candidate_steps(candidate), self.rollout, policies), seat)


def candidate_steps(candidate: Candidate) -> tuple[Action | PlayedHint, ...]:
    """The rollout steps of ``candidate``: its known play, or its action."""
    return (PlayedHint(candidate.found),) if candidate.found is not None else (candidate.action,)


def play_candidate(
    state: Rollout,
    steps: Sequence[Action | PlayedHint],
    settings: RolloutSettings,
    policies: Mapping[int, Policy] | None = None,
) -> Rollout:
    """The evaluator the search bot and the advice share: apply ``steps`` (a candidate's
    actions, e.g. a play then a knock) to a determinized round, then play the round on
    up to ``settings.horizon`` with ``policies`` (the greedy policy for a seat not
    given); returns the same state."""
    for step in steps:
        if state.end is not None:
            break
        state.act(step)
    if state.end is None:
        play_out(state, settings, policies)
    return state


def hold_backs(view: PlayerView, best: Hint, *, max_holds: int, time_limit: float) -> list[Candidate]:
    """Smaller plays than ``best`` that keep some of its cards in the hand: the best
    play keeping the jokers back, and the best play without the real cards ``best``
    lays in one meld (the ``max_holds`` largest such groups first)."""
    seen = {str(best.table)}
    holds: list[Candidate] = []

    def add(label: str, found: Hint) -> None:
        if found.has_play and str(found.table) not in seen:
            seen.add(str(found.table))
            holds.append(Candidate(label, Play(found.table), found))

    if best.hand.joker_count < view.hand.joker_count:
        add(
            "hold:jokers",
            hint(
                view.position,
                variant=view.variant,
                keep_jokers=True,
                opened=view.opened,
                time_limit=time_limit,
            ),
        )
    played = Counter(piece for piece in best.played if isinstance(piece, Card))
    groups: list[list[Card]] = []
    for meld in best.table:
        laid = Counter(piece for piece in meld.pieces if isinstance(piece, Card)) & played
        if laid:
            groups.append(sorted(laid.elements(), key=piece_sort_key))
            played -= laid
    groups.sort(key=lambda group: -len(group))
    for group in groups[:max_holds]:
        if len(group) == len(best.played):
            continue
        kept = Counter(view.hand.pieces)
        kept.subtract(group)
        add("hold:meld", best_play(view, hand=Hand.of(kept.elements()), time_limit=time_limit))
    return holds
