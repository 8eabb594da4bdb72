"""Experiments: is the coach right where the review's calibration breaks?

    python -m benchmarks.coach_screens expert --bot patient-hoarder --pairs 200 --variant manipulation
    python -m benchmarks.coach_screens greedy --bot coinless-random --pairs 200 --variant manipulation

The review's accuracy orders ``greedy`` < ``expert`` < ``hoarder`` < ``pimc`` on every
calibration run, but puts ``random`` above ``greedy`` (``benchmarks/review_calibration.py``).
Two scratch bots test the coach's verdicts where that order is decided, each beside the
bot it changes on the same deals (seed 31 by default) (``benchmarks.paired_screen``):

- ``PatientHoarder``: the hoarder without the meld its hand's size forces (the last chance
  still melds).  The coach calls those forced melds 35-43-point errors; if it is right, the
  patient hoarder wins more.
- ``CoinlessRandom``: ``random`` without its coin (it always tries its random part's play).
  The coach mostly calls ``random``'s coin draws the advice; if they carried its results,
  the coinless bot would lose more.  ``review_calibration --random-bot`` runs the
  calibration with it in ``random``'s place.

The runs are in benchmarks/results/coach-experiments.md (session 35).
"""

from __future__ import annotations

from benchmarks.paired_screen import arguments, screen
from solver.engine import Objective
from solver.game.actions import Action, Knock, Pass, Play
from solver.game.view import PlayerView
from solver.strategy.bots import RandomBot
from solver.strategy.hoarder import HoarderBot

PATIENT_HOARDER_BOT = "benchmarks.coach_screens:PatientHoarder"
COINLESS_RANDOM_BOT = "benchmarks.coach_screens:CoinlessRandom"


class PatientHoarder(HoarderBot):
    """The hoarder without the meld a big hand forces: it melds only to go out, to knock
    or at the last chance."""

    name = "patient-hoarder"

    @staticmethod
    def must_meld(view: PlayerView) -> bool:
        return view.final_turn or view.stock_size == 0


class CoinlessRandom(RandomBot):
    """``random`` without the coin that declines half its meld decisions: it plays its
    random part's best play whenever there is one (knocks still at random)."""

    name = "coinless-random"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock() if self.rng.random() < 0.5 else Pass()
        objective: Objective = self.rng.choice(("points", "cards"))
        found = self.best_play(view, objective=objective, hand=self._random_part(view.hand.pieces))
        return Play(found.table) if found.has_play else view.decline()


SCREENS = {
    "patient-hoarder": ("hoarder", PATIENT_HOARDER_BOT),
    "coinless-random": ("random", COINLESS_RANDOM_BOT),
}
"""Each screen's baseline and changed bot, by ``--bot``."""


def main() -> None:
    args = arguments(__doc__.splitlines()[0], seed=31, bots=tuple(SCREENS))
    screen(*SCREENS[args.bot], args)


if __name__ == "__main__":
    main()
