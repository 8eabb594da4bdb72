"""Rules of thumb that pick one of a meld decision's candidates without weighing them.

The evaluator (``solver.strategy.evaluator``) gives a first-out decision whose options are
worth exactly the same (no six-turn rollout saw a hand go out) to one of these rules, and
the search bot (``solver.strategy.pimc``, ``prior_margin``) can keep a rule's choice unless
its search is sure of another.  A rule answers with the index of its candidate, or None
when the decision is not a meld decision or its choice is not among the candidates.

- ``hoarders_choice``: what ``HoarderBot`` plays: the best play where the hand must meld
  (the last chance, or a hand five cards over the dealt size), else the decline.
- ``patient_choice``: the *patient rule*: the best play where the player has not opened
  yet (an opening rule: Rummikub's 30 points from the rack, so that the table can be
  used at all) or at the last chance (a final turn, an empty stock), else the decline.
  The decision that goes out never reaches a rule (the bot plays it without a search).
  Holding every tile until the stock runs out keeps from the other players the tiles
  they need, and the last play then has the whole table to rearrange: on seed 1121 the
  rule alone beat ``greedy`` in 800 of 800 Rummikub games and ``hoarder`` 99.5%, and
  it beat the search bot's figures in every first-out setting measured
  (benchmarks/results/firstout-experiments.md, session 32).  Its last-chance play is
  where it is weakest: at an empty stock the search bot weighs its options instead
  (``Evaluator.prior_until_stock_empty``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.game.view import PlayerView
from solver.strategy.candidates import Candidate
from solver.strategy.hoarder import HoarderBot

__all__ = ["ChoiceRule", "hoarders_choice", "patient_choice", "patient_plays"]

ChoiceRule = Callable[[PlayerView, Sequence[Candidate]], "int | None"]
"""A rule of thumb's candidate at a meld decision (module docstring)."""


def _play_or_decline(view: PlayerView, candidates: Sequence[Candidate], *, plays: bool) -> int | None:
    """The index of the best play (``plays``) or of the decline among ``candidates``."""
    if view.phase != "meld":
        return None
    for index, candidate in enumerate(candidates):
        if (candidate.label == "best") if plays else (candidate.kind in ("draw", "pass")):
            return index
    return None


def hoarders_choice(view: PlayerView, candidates: Sequence[Candidate]) -> int | None:
    """The index of the candidate ``HoarderBot`` would take at a meld decision: the best
    play where the hand must meld, else the decline (draw, or pass); None when it is not
    among them or ``view`` is not a meld decision."""
    return _play_or_decline(view, candidates, plays=HoarderBot.must_meld(view))


def patient_plays(view: PlayerView) -> bool:
    """Whether the patient rule plays its best play at ``view`` (short of going out): the
    player has not made its opening meld yet, or it is the last chance to meld."""
    return not view.opened or view.final_turn or view.stock_size == 0


def patient_choice(view: PlayerView, candidates: Sequence[Candidate]) -> int | None:
    """The index of the candidate the patient rule takes (module docstring): the best play
    before the opening meld and at the last chance, else the decline; None when it is not
    among them or ``view`` is not a meld decision."""
    return _play_or_decline(view, candidates, plays=patient_plays(view))
