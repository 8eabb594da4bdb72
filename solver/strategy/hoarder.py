"""The hoarder: holds its melds back and lays them only to end the round or when it must.

Laying melds gives the other players material to rearrange; published bot tournaments
found that strategies holding melds back beat bots that play everything at once.  The
hoarder is that baseline.  At a meld decision it asks the hint engine for the best play
(fewest points left) and plays it only when one of these holds, in this order:

1. **it goes out** (the play empties the hand);
2. **it may then knock** (Manipulation Rummy: the hand left is at or under the knock
   threshold, so the play can end the round on the hoarder's terms);
3. **last chance**: declining would leave no further chance to meld before the hands
   may be counted: a final turn after the stock ran out, or an empty stock;
4. **hand too big**: the hand holds ``max_hand`` cards or more (``hand_size + 5`` of the
   variant: 15 in Manipulation Rummy, 20 in Machiavelli, 19 in Rummikub); a hand that
   keeps growing only loses points when the round ends.

Otherwise it declines (draws, or passes where no draw is due).  When it may knock it
knocks on the same rule as the expert: only if sampled deals of the unseen cards to the
other players make an undercut unlikely.
"""

from __future__ import annotations

from solver.game.actions import Action, Knock, Pass, Play
from solver.game.view import PlayerView
from solver.strategy.expert import ExpertBot

__all__ = ["HoarderBot"]

HAND_MARGIN = 5
"""Cards above the dealt hand size at which the hoarder melds anyway."""


class HoarderBot(ExpertBot):
    """Melds only to go out, to knock, at the last chance or with too big a hand (module docstring)."""

    name = "hoarder"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock() if self._knock_pays(view) else Pass()
        found = self.best_play(view)
        if not found.has_play:
            return view.decline()
        if found.goes_out or found.can_knock or self.must_meld(view):
            return Play(found.table)
        return view.decline()

    @staticmethod
    def must_meld(view: PlayerView) -> bool:
        """Rules 3 and 4 of the module docstring: the last chance, or a hand too big."""
        last_chance = view.final_turn or view.stock_size == 0
        return last_chance or len(view.hand) >= view.variant.hand_size + HAND_MARGIN
