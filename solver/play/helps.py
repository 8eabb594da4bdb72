"""Graded help for the human's decision, from the exact engine, each use recorded.

The best play is the hint engine's (``solver.strategy.bots.best_play``: the fewest points
left, with the opening rule while the player has not opened), the play ``greedy`` makes:

- level 1: whether a play exists, and the points the best play leaves in the hand (the
  hand's points now when there is none);
- level 2: also the hand cards it lays (``cards``);
- level 3: also the whole play: the table after it (``table``, in notation, ready to
  submit; ``melds`` as people read them) in the order the page shows the table (old
  melds keep their places, ``solver.shown``), and the steps from the table shown to it
  as the hint view writes them (``steps``).

Fields of a higher level are null at a lower one.  Asking is an entry of the game
(``{"level", "turn"}``), recorded whatever the answer; only the human may ask, and only
at their decision.
"""

from __future__ import annotations

from typing import Any

from solver.plan import plan_play
from solver.play.errors import PlayError
from solver.play.session import Entry, Session
from solver.play.state import faces, melds_of, uses_tiles
from solver.position import Position
from solver.shown import arranged
from solver.strategy.bots import BOT_TIME_LIMIT, best_play

__all__ = ["HELP_LEVELS", "give_help"]

HELP_LEVELS = (1, 2, 3)


def give_help(
    session: Session, level: int, *, time_limit: float = BOT_TIME_LIMIT
) -> tuple[Entry, dict[str, Any]]:
    """The help of ``level`` for the human's decision, and its entry (already added to the
    session); ``PlayError`` when it is not the human's decision or the level is unknown."""
    if level not in HELP_LEVELS:
        raise PlayError(f"help level {level}: the levels are 1, 2 and 3")
    view = session.check_decision()
    tiles = uses_tiles(session)
    answer: dict[str, Any] = {"level": level, "cards": None, "steps": None, "table": None, "melds": None}
    # Only a meld decision has plays to look for; at a knock decision there is none.
    found = best_play(view, time_limit=time_limit) if view.phase == "meld" else None
    exists = found is not None and found.has_play
    answer["exists"] = exists
    answer["points_left"] = found.hand_points if found is not None and exists else view.hand_points
    if level >= 2:
        answer["cards"] = faces(found.played, tiles=tiles) if found is not None and exists else []
    if level >= 3:
        answer["steps"] = []
        if found is not None and exists:
            shown = session.shown.of(view.table)
            before = Position(shown, view.hand)
            after = arranged(before, found.table, variant=view.variant)
            answer["steps"] = plan_play(before, after, variant=view.variant).lines()
            answer["table"] = str(after)
            answer["melds"] = melds_of(after, tiles=tiles)
    entry = session.record("help", {"level": level, "turn": session.turn})
    return entry, answer
