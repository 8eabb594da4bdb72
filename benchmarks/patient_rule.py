"""Experiment: the search bot with the patient rule as its rule of thumb, beside ``pimc``.

    python -m benchmarks.patient_rule greedy --pairs 100 --seed 1123 --variant rummikub
    python -m benchmarks.patient_rule hoarder --pairs 100 --seed 1124 --bot prior
    rummy match benchmarks.patient_rule:PatientBot greedy --variant rummikub

Why: the patient rule (``solver.strategy.choice_rules.patient_choice``: make the opening
meld at once, then play only to go out or at the last chance) beat ``greedy`` and
``hoarder`` in Rummikub, Machiavelli and the peer's game, with 2 and 4 players, by far more
than ``pimc`` does (benchmarks/results/firstout-experiments.md, session 32): it keeps the
tiles the others need until the stock runs out, which the search's six-turn rollouts do
not see.  ``PimcPatientTies`` gives the evaluator's ties to that rule instead of the
hoarder's (``Evaluator.tie_rule``); ``PimcPatientPrior`` also keeps the rule's choice
unless the search's paired lead for another option exceeds one standard error
(``PimcBot.prior_margin``; ``prior2`` and ``prior3``: two and three).  ``PatientBot``
is the rule alone, for comparison.  The script plays ``PimcHoardersTies`` (``pimc`` as it
was before it kept the patient rule; since 2026-11-29 ``pimc`` plays the rule alone in
first-out games, ``benchmarks/rule_only.py``) and one of them against one opponent on
the same deals and prints each and their paired difference (``benchmarks.paired_screen``).
"""

from __future__ import annotations

from dataclasses import replace

from benchmarks.paired_screen import arguments, screen
from solver.strategy.choice_rules import hoarders_choice, patient_choice, patient_plays
from solver.strategy.evaluator import EVALUATOR, Evaluator
from solver.strategy.hoarder import HoarderBot
from solver.strategy.pimc import PimcBot

BOTS = {
    "ties": "benchmarks/patient_rule.py:PimcPatientTies",
    "prior": "benchmarks/patient_rule.py:PimcPatientPrior",
    "prior2": "benchmarks/patient_rule.py:PimcPatientPrior2",
    "prior3": "benchmarks/patient_rule.py:PimcPatientPrior3",
    "rule": "benchmarks/patient_rule.py:PatientBot",
}

BASELINE = "benchmarks/patient_rule.py:PimcHoardersTies"

HOARDERS_TIES: Evaluator = replace(
    EVALUATOR, hoarder_breaks_ties=True, tie_rule=hoarders_choice, prior_margin=None
)
"""The search bot's evaluator before the patient rule: first-out ties to the hoarder's choice."""

PATIENT: Evaluator = replace(EVALUATOR, hoarder_breaks_ties=True, tie_rule=patient_choice, prior_margin=None)
"""The search bot's evaluator with first-out ties going to the patient rule."""


class PimcHoardersTies(PimcBot):
    """``pimc`` as it was before the patient rule (until 2026-11-29): the baseline."""

    name = "pimc-hoarders-ties"
    evaluator = HOARDERS_TIES
    dead_heat_deals = None  # every deal weighed, as when the experiment was run


class PimcPatientTies(PimcBot):
    """``pimc`` weighing its candidates with ``PATIENT``."""

    name = "pimc-patient-ties"
    evaluator = PATIENT
    dead_heat_deals = None  # every deal weighed, as when the experiment was run


class PimcPatientPrior(PimcPatientTies):
    """``PimcPatientTies`` that keeps the patient rule's choice unless the search's paired
    lead for another option exceeds one standard error."""

    name = "pimc-patient-prior"
    prior_margin = 1.0


class PimcPatientPrior2(PimcPatientTies):
    """``PimcPatientPrior`` with a margin of two standard errors."""

    name = "pimc-patient-prior2"
    prior_margin = 2.0


class PimcPatientPrior3(PimcPatientTies):
    """``PimcPatientPrior`` with a margin of three standard errors."""

    name = "pimc-patient-prior3"
    prior_margin = 3.0


class PatientBot(HoarderBot):
    """The patient rule alone: ``HoarderBot`` whose forced meld is the patient rule's (before
    the opening meld and at the last chance, never for the hand's size)."""

    name = "patient"
    must_meld = staticmethod(patient_plays)


def main() -> None:
    args = arguments(__doc__.splitlines()[0], seed=1123, bots=tuple(BOTS))
    screen(BASELINE, BOTS[args.bot], args)


if __name__ == "__main__":
    main()
