"""The rules of thumb a first-out decision's ties (and the search bot's prior) go to:
``solver.strategy.choice_rules``."""

from __future__ import annotations

import random
from dataclasses import replace

from test_first_out import _weighed, midgame_view

from solver.game import GameSettings
from solver.strategy.candidates import Candidate
from solver.strategy.choice_rules import hoarders_choice, patient_choice, patient_plays
from solver.strategy.evaluator import EVALUATOR, best_index

PATIENT = replace(EVALUATOR, hoarder_breaks_ties=True, tie_rule=patient_choice, prior_margin=None)
HOARDERS = replace(EVALUATOR, hoarder_breaks_ties=True, tie_rule=hoarders_choice, prior_margin=None)

OPTIONS = [Candidate("best", "play", steps=()), Candidate("draw", "draw", steps=())]


def test_the_patient_rule_opens_at_once_then_declines_until_the_last_chance() -> None:
    """Before the opening meld the patient rule plays (so the table can be used at all);
    once opened it declines, whatever the hand's size (the hoarder melds a big hand), until
    a final turn or an empty stock."""
    view = midgame_view()
    assert view.phase == "meld" and view.opened and view.stock_size > 0
    assert patient_choice(view, OPTIONS) == 1 and not patient_plays(view)
    unopened = replace(view, opened=False)
    assert patient_choice(unopened, OPTIONS) == 0
    big = replace(view, hand=replace(view.hand, pieces=view.hand.pieces * 3))
    assert hoarders_choice(big, OPTIONS) == 0 and patient_choice(big, OPTIONS) == 1
    assert patient_choice(replace(view, stock_size=0), OPTIONS) == 0
    assert patient_choice(replace(view, final_turn=True), OPTIONS) == 0
    assert patient_choice(replace(view, phase="knock"), OPTIONS) is None
    assert patient_choice(view, OPTIONS[:1]) is None  # no decline to choose


def test_the_evaluator_breaks_ties_with_its_rule_and_the_prior_keeps_it() -> None:
    """``Evaluator.tie_rule``: ties of a first-out meld decision go to the rule's choice,
    and ``PimcBot.prior_margin`` keeps that rule's choice unless the search is sure."""
    from solver.strategy.pimc import PimcBot

    view = midgame_view()
    big = replace(view, hand=replace(view.hand, pieces=view.hand.pieces * 3))
    tied = _weighed(big, {"best": [0.0, 0.0], "draw": [0.0, 0.0]})
    candidates = [outcome.candidate for outcome in tied]
    assert HOARDERS.preferred(big, candidates) == 0  # the hoarder melds a hand this big
    assert best_index(tied, PATIENT.preferred(big, candidates)) == 1  # the patient rule draws

    class Patient(PimcBot):
        evaluator = PATIENT
        prior_margin = 1.0

    bot = Patient(random.Random(0))
    close = _weighed(big, {"best": [10.0, -10.0, 12.0, -8.0], "draw": [0.0, 0.0, 0.0, 0.0]})
    assert bot.prior_choice(big, close) == 1

    class Ties(PimcBot):
        evaluator = PATIENT  # ties to the rule, no margin

    assert Ties(random.Random(0)).prior_choice(big, close) == 0  # the best mean
    assert PimcBot(random.Random(0)).prior_choice(big, close) == 1  # the default keeps the rule
    manipulation = midgame_view(GameSettings.manipulation(2), plies=6)
    assert PATIENT.preferred(manipulation, candidates) is None


def test_the_advice_keeps_the_rule_of_thumb_first_where_the_bot_keeps_it() -> None:
    """``Evaluator.prior_margin``: the advice's first option is the rule's choice unless
    another option's lead is sure, as the bot's choice (``choice_index``); the options
    ahead of it by their means show a negative loss (they are not sure to be better)."""
    from solver.strategy.advice import rank
    from solver.strategy.evaluator import choice_index

    view = midgame_view()
    prior = replace(PATIENT, prior_margin=1.0)
    close = _weighed(view, {"best": [10.0, -10.0, 12.0, -8.0], "draw": [0.0, 0.0, 0.0, 0.0]})
    sure = _weighed(view, {"best": [10.0, 12.0, 11.0, 9.0], "draw": [0.0, 1.0, 0.0, 1.0]})
    for weighed, expected in ((close, "draw"), (sure, "best")):
        prefer = prior.preferred(view, [outcome.candidate for outcome in weighed])
        chosen, _ = choice_index(weighed, prefer, prior.prior_margin)
        ranked = rank(weighed, evaluator=prior, prefer=prefer)
        assert weighed[chosen].candidate.label == ranked[0].label == expected
    ranked = rank(close, evaluator=prior, prefer=1)
    assert ranked[1].label == "best" and ranked[1].loss.estimate < 0
    assert rank(close, evaluator=PATIENT, prefer=1)[0].label == "best"  # no margin: the best mean
