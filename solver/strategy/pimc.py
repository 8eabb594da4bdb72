"""The search bot ``pimc``: perfect-information Monte Carlo over the choices that matter.

At each real decision it lists a few candidate actions, deals the hidden cards at random
``samples`` times consistently with what it has seen (``solver.strategy.rollout``), plays
every candidate in every deal (the same deals for all candidates, so their difference is
not blurred by the luck of the deal), plays the round on up to a horizon, and takes the
candidate with the best mean utility (the round score against the other players plus
bonus weights for winning the round and the game: ``rollout.utility``).

Its own later turns in a rollout are played two ways (*continuations*, policy switching):
the greedy policy (meld everything at once) and a hoarding one (meld only to go out, to
knock or at the last chance: ``rollout.patient_hoarder_action``, never because the hand
has grown as ``rollout.hoarder_action`` does: ``solver.strategy.evaluator``).  A candidate is
worth its better continuation's mean; the bot is not bound to it, since it searches again
at its next decision.  With the greedy continuation alone, declining now was judged as
"draw, then lay everything next turn", which gives the other players the table material
a hoarder lives on; the hoarding continuation lets the search see what keeping melds for
one big play is worth.  Measured on 100 mirrored pairs (seed 7, not the measuring seed):
against ``hoarder`` 62-66% with the greedy continuation alone, 80% with both; against
``expert`` 90%.

The rollouts play each other player as the bot's opponent model sees it
(``solver.strategy.opponents``): one that has been seen sitting on a big hand rather than
melding is played with the hoarder's policy (``rollout.hoarder_action``), the others,
and the bot itself, with the greedy policy.  A round still running at the horizon is
scored *settled* (``rollout.settle``): each hand counts the points its best play would
leave, not every card it holds, so cards kept back for one big play are not taken for
a certain loss (counting whole hands rewarded emptying the own hand at once and took a
hoarder's full hand for a sure win).

First-out games (Machiavelli, Rummikub: the first hand to empty wins) are searched
otherwise (``evaluator.RACE_6``, benchmarks/results/firstout-experiments.md):

- the rollouts run six turns, and a round still running then is worth its *race*
  (``rollout.race_chances``): a hand whose best play empties it wins, else the round is
  even.  The Manipulation leaf (the lowest settled hand wins, +-100) rewarded playing
  down to a small hand, which is the losing move there: one or two tiles left need
  particular tiles to go out, while a hoarder goes out with 18 tiles in one play on a
  rich table.  A hoarder that also plays whenever its play leaves at most two tiles
  wins 27.5% against the plain one (100 pairs, seed 101);
- the other hands are guessed *without the plays their owner would have made*
  (``junk_deals``, ``OpponentModel.junk``): a greedy player keeps only cards that
  have no play but its last draw, a hoarder those of its last meld.  Uniform guesses
  held a play nearly always (20 of 20 on a 28-tile table), so the rollouts had greedy
  players go out far too soon.

Measured (benchmarks/results/firstout-experiments.md; the machine was shared, so the
runs were cut short): on Rummikub, seed 202, against ``greedy`` 64.3% (52.6%-74.5%, 35
pairs) where the main branch's settings won 50.0% (40.3%-59.7%, 49 pairs; +11 points
paired over the same 35 deals), against ``hoarder`` 41.7% (31.7%-52.3%, 42 pairs)
where they won 32.8% (22.6%-45.0%, 32 pairs); on Machiavelli 72.5% (61.9%-81.1%, 40
pairs) against ``greedy`` and 44.3% (31.6%-57.8%, 35 pairs) against ``hoarder``.  The
issue's targets (70% and 80%) are not reached.  On the measuring seed (400 pairs, README)
it wins 65.0% against ``greedy`` and 50.6% against ``hoarder`` (2026-11-28, with
``stuck_deals``; 44.6% before): the hoarder's own rule does better against ``greedy``
(71.4%) and is even against itself.  Where no 6-turn rollout
sees a hand go out, every candidate is worth exactly the same (early in a round, most
searches); the first listed, ``best``, was then played, laying everything at once.  Since
2026-11-28 the evaluator takes the hoarder's choice there (``Evaluator.preferred``:
decline unless the hand must meld), for the bot and the advice alike.  Screened in
Rummikub (seeds 1111-1113, not the measuring seed; ``benchmarks/tie_rule.py``) it gained
12.3 points against ``hoarder`` over 200 pairs (95% interval 5.9 to 18.6) and 4.7 against
``greedy`` over 310 (-0.3 to 9.6; benchmarks/results/firstout-experiments.md).
Since 2026-11-29 the rule is the *patient rule* (``choice_rules.patient_choice``: make
the opening meld at once, then play only to go out or at the last chance), and it is a
prior (``Evaluator.prior_margin`` 2): its choice stands unless another option's paired
lead over it exceeds two standard errors.  The rule alone beat ``greedy`` and ``hoarder``
in every first-out setting screened, by far more than the search did: holding every tile
keeps from the other players the tiles they need until the stock runs out, and the last
play has the whole table to rearrange, an end the six-turn rollouts do not see.  Screened
in Rummikub (seed 1122, 40 pairs) the bot with the prior won 100% against both, where
``pimc`` with the hoarder's ties won 70.0% and 68.8%; the test declared before seeds 1123
and 1124 is in benchmarks/results/firstout-experiments.md (``benchmarks/patient_rule.py``).
Under the prior, a decision whose first deal is a dead heat (no rollout saw a hand go
out) is decided on that deal (``dead_heat_deals``): the other seven almost never
overrule the rule there, and the stop halves the median decision's rollouts.  The search
overruled the rule at 0.4-6% of its decisions and gained nothing measurable by it
(``benchmarks/rule_only.py``), so since the test declared for it the margin is infinite:
in first-out games the bot plays the patient rule wherever the rule answers, with no
search (``_rule_alone``; the rule names the best play or the decline, and both are
always candidates).  Once the stock is empty the rule plays its best play at every turn,
which lays the cards the next players build on; there the prior is lifted
(``Evaluator.prior_until_stock_empty``) and the bot searches with no prior: the round
then ends within a few turns, which the six-turn rollouts see, and the hidden cards are
only the other hands.  With 4 players in Machiavelli against three hoarders that took a
screen from 34.6% to 60.0% and the test declared for it from 32.5% to 55.4% (+22.9 points
over 60 fresh deals, ``benchmarks/endgame_search.py``), changing no 2-player game in its
other runs.  Manipulation Rummy is untouched.

Candidates at a meld decision (when the hint engine finds a play):

- ``best``: the best play (fewest points left), what ``greedy`` plays;
- ``draw``: decline and take the next draw (where a draw is allowed);
- ``hold``: smaller plays that keep cards back: the best play that keeps the hand's
  jokers, and for the largest (``candidates.BOT_SET.holds``) group of hand cards the
  best play lays in one meld, the best play of the hand without those cards.  Not
  against a player the opponent model calls a hoarder: such a player ends rounds
  suddenly (it goes out or knocks in one play), and the settled rollouts, which count
  held cards at what a later play would leave, rate holding too well there.  Measured
  on 100 pairs (seed 7): against ``hoarder`` 56% with hold candidates, 66% without, and
  40.5% with three of them; with both continuations (above) 75.5% with one, 80% without.
  Those measurements were made while a hold-back's held cards still vanished from its
  rollouts (fixed in ``solver.strategy.candidates``); the README's strength table is
  re-measured with the fix.

Candidates at a knock decision: ``knock`` (scored at once against each guessed hand) and
``pass`` (played on).  No search where there is no choice: no legal play (decline), a
play that goes out (always taken), a final turn (the best play: the hands are counted
next), or the opponents' view being unknowable.  Those cost one hint call.

The candidates are built by ``solver.strategy.candidates`` (the one place that turns an
action into the state it produces: a play that holds cards back keeps them in the hand)
and weighed by ``solver.strategy.evaluator``, the evaluator the advice and the review use too.

Deterministic from its generator (``samples`` deals per decision, a fixed horizon);
``time_budget`` (seconds, off by default) stops adding deals once spent, at the price of
reproducibility.  ``counters`` counts what it chose, for the match reports.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from solver.engine import Hint
from solver.game.actions import Action, Play
from solver.game.view import PlayerView
from solver.strategy.bots import BOT_TIME_LIMIT, Bot
from solver.strategy.candidates import BOT_SET, Candidate, CandidateSet, knock_candidates, meld_candidates
from solver.strategy.evaluator import (
    EVALUATOR,
    Deal,
    Evaluator,
    Outcomes,
    choice_index,
    deal_from_seed,
    weigh,
)
from solver.strategy.opponents import OpponentModel
from solver.strategy.rollout import Policy, hoarder_action

__all__ = ["PimcBot"]


class PimcBot(Bot):
    """Determinized rollouts over meld, hold-back, draw and knock choices (module docstring)."""

    name = "pimc"
    samples = 8
    options: CandidateSet = BOT_SET
    evaluator: Evaluator = EVALUATOR
    time_budget: float | None = None
    model_opponents = True
    """Play the other players the opponent model calls hoarders with ``hoarder_action``."""
    junk_deals = True
    """First-out games: deal the other hands the cards without a play that the opponent
    model says they hold (``OpponentModel.junk``)."""
    stuck_deals = True
    """First-out games (with ``junk_deals``): deal the player who moved last, when it drew,
    a hand that could not have gone out before its draw (``OpponentModel.stuck``).  Against
    ``hoarder`` in Rummikub it gained 5.4 +- 4.1 points over 83 pairs (screen, seed 303)
    and 5.5 +- 3.9 over 100 (fresh seed 505), and the 400-pair cell went from 44.6% to
    50.6%; against ``greedy`` it changed no game of 72 pairs (it applies only to a player
    modelled as a hoarder; benchmarks/results/firstout-experiments.md)."""
    prior_margin: float | None = None
    """First-out games: keep the evaluator's rule of thumb's choice at a meld decision
    (``Evaluator.tie_rule``: the patient rule) unless another candidate's paired lead over
    it, over the same deals, exceeds this many standard errors (``prior_choice``); an
    infinite margin plays the rule's choice with no search (``_rule_alone``).  None: the
    evaluator's at the decision (``Evaluator.at``: infinite in ``EVALUATOR`` while the
    stock holds cards, none once it is empty)."""
    dead_heat_deals: int | None = 1
    """First-out games: weigh the first that many deals first, and decide on them alone when
    they are a dead heat (every option worth exactly the same in each: the evaluator's
    rule of thumb chooses); a decision they split plays all ``samples`` deals as without
    it.  None: every decision plays all ``samples``.  1 since 2026-11-29: under the prior
    margin a dead heat in the first deal is almost never overruled by the other seven, and
    the test declared for it (six runs on fresh seeds, every first-out setting) found the
    stop after one deal changing 0.0-0.3% of the searched choices, at most 5 of 1,708
    (``benchmarks/dead_heat_probe.py``; benchmarks/results/firstout-experiments.md).  A
    dead heat after one deal is 19-65% of the searched decisions (fewest with 4 players),
    which then cost an eighth of their rollouts.  With ``EVALUATOR`` the bot searches its
    first-out meld decisions only at an empty stock (no prior there: a dead heat goes to
    the rule), so the stop serves those and the experiments' bots with a finite margin."""

    crowded_samples: int | None = None
    """First-out games of 3 or more players: deals per decision in place of ``samples``
    (each rollout plays every other hand, so a deal costs about twice a 2-player one).
    None (the default): ``samples``.  Off: 4 deals halved the median decision in
    Machiavelli against three ``greedy`` players (203.6 -> 99.5 ms) and lost 6.0 +- 6.3
    points over 100 deals, failing the test declared for it
    (benchmarks/results/firstout-experiments.md, ``benchmarks/crowded_deals.py``)."""

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

    def observe_decision(self, view: PlayerView) -> None:
        """What the bot observes at a decision (of this seat): what it knows of the round,
        and the opponent model's evidence."""
        self._observe(view)
        self.opponents.observe(view)

    def recall_choice(self, view: PlayerView, action: Action) -> None:
        """What a choice made at ``view`` (by this bot or for it) adds to its own cards on
        the table, once the decision has been observed."""
        self._chosen(view, action)

    def recall(self, view: PlayerView, action: Action) -> None:
        """An earlier decision of this seat (``Bot.recall``): what the bot observes at a
        decision and what its choice adds to its own cards on the table."""
        self.observe_decision(view)
        self._chosen(view, action)

    # -- deciding -----------------------------------------------------------------

    def act(self, view: PlayerView) -> Action:
        self.observe_decision(view)
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
        choice = self._rule_alone(view, best)
        if choice is not None:
            self.counters["rule_alone"] += 1
        else:
            choice = self._search(view, self.candidates(view, best))
            self.counters["searched"] += 1
        if choice.label == "draw":
            self.counters["drew_with_play"] += 1
        elif choice.label == "best":
            self.counters["played_best"] += 1
        else:
            self.counters["held_back"] += 1
        return choice.action

    def candidates(self, view: PlayerView, best: Hint) -> list[Candidate]:
        """The meld decision's candidates: no hold-backs against a modelled hoarder (see
        the module docstring)."""
        holds = not (self.model_opponents and self.opponents.hoarders(view))
        return meld_candidates(view, self.options, best=best, holds=holds, time_limit=self.time_limit)

    def _rule_alone(self, view: PlayerView, best: Hint) -> Candidate | None:
        """Where the prior can never be overruled (an infinite ``prior_margin`` in a
        first-out game), the rule's choice between the best play and the decline, with no
        search (its outcome would be the same); None where a search decides."""
        margin = self._margin(view)
        if margin is None or not math.isinf(margin):
            return None
        candidates = meld_candidates(view, self.options, best=best, holds=False, time_limit=self.time_limit)
        chosen = self.evaluator.tie_rule(view, candidates)
        return None if chosen is None else candidates[chosen]

    def _margin(self, view: PlayerView) -> float | None:
        """The prior margin at ``view``: ``prior_margin``, else the evaluator's there
        (``Evaluator.at``: none at an empty stock), in first-out games; None in other games
        (the best mean wins there)."""
        if view.settings.scoring != "first_out":
            return None
        return self.prior_margin if self.prior_margin is not None else self.evaluator.at(view).prior_margin

    def _knock_or_pass(self, view: PlayerView) -> Action:
        self.counters["knock_choices"] += 1
        choice = self._search(view, knock_candidates())
        self.counters["knocked" if choice.label == "knock" else "knock_declined"] += 1
        return choice.action

    def deal_seeds(self, view: PlayerView) -> list[int]:
        """The seeds of this decision's deals, drawn from the bot's generator: ``samples``,
        or ``crowded_samples`` in first-out games of 3 or more players."""
        return [self.rng.getrandbits(64) for _ in range(self.deal_count(view))]

    def deal_count(self, view: PlayerView) -> int:
        """How many deals a decision at ``view`` weighs (``deal_seeds``)."""
        crowded = view.settings.scoring == "first_out" and view.settings.players >= 3
        if crowded and self.crowded_samples is not None:
            return self.crowded_samples
        return self.samples

    def deals(self, view: PlayerView, seeds: list[int]) -> Deal:
        """The deals the candidates are weighed in: the hidden cards guessed from the view,
        one deal per seed (the ``oracle`` replaces them with the true round); in first-out
        games the other hands are guessed without the plays their owners would have made
        (``junk_deals``)."""
        first_out = self.junk_deals and view.settings.scoring == "first_out"
        return deal_from_seed(
            view,
            seeds,
            others_opened=self._others_opened(view),
            last_card_mine=self._last_card_mine,
            junk=self.opponents.junk(view) if first_out else None,
            stuck=self.opponents.stuck(view) if first_out and self.stuck_deals else (),
        )

    def _search(self, view: PlayerView, candidates: list[Candidate]) -> Candidate:
        """The candidate with the best mean utility over the same guessed deals, each
        candidate judged by its better continuation (``solver.strategy.evaluator``)."""
        seeds = self.deal_seeds(view)
        deal = self.deals(view, seeds)
        weighed, _ = weigh(
            view,
            candidates,
            deal,
            len(seeds),
            evaluator=self.evaluator,
            others=self.policies(view),
            budget_seconds=self.time_budget,
            dead_heat_after=self.dead_heat_deals if view.settings.scoring == "first_out" else None,
        )
        chosen = weighed[self.prior_choice(view, weighed)]
        if self.evaluator.continuation_name(chosen.continuation) == "hoarding":
            self.counters["hoarding_line"] += 1
        return chosen.candidate

    def prior_choice(self, view: PlayerView, weighed: list[Outcomes]) -> int:
        """The index of the chosen candidate: the best mean, or in first-out games with a
        prior margin (``prior_margin``, else the evaluator's ``Evaluator.prior_margin``)
        the evaluator's rule of thumb's choice (``Evaluator.tie_rule``) unless the best
        mean leads it by more than that many standard errors of their paired differences
        (``evaluator.choice_index``, which the advice's order uses too)."""
        candidates = [outcome.candidate for outcome in weighed]
        prefer = self.evaluator.preferred(view, candidates)
        margin = self._margin(view)
        if margin is not None and prefer is None:
            prefer = self.evaluator.tie_rule(view, candidates)
        chosen, overruled = choice_index(weighed, prefer, margin)
        if overruled:
            self.counters["prior_overruled"] += 1
        return chosen

    def policies(self, view: PlayerView) -> dict[int, Policy]:
        """The rollout policy of each other player the opponent model calls a hoarder."""
        if not self.model_opponents:
            return {}
        hoarders = self.opponents.hoarders(view)
        if hoarders:
            self.counters["modelled_hoarder"] += 1
        return {seat: hoarder_action for seat in hoarders}
