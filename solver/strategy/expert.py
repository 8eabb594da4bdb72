"""The expert bot: the draw-or-meld advice for when to meld, an undercut estimate for when to knock.

Both judgements use only what the bot may see: the table, its own hand, the other
players' hand sizes and ``view.unseen()`` (the deck minus the table and its own hand).
"""

from __future__ import annotations

from solver.analysis import draw_or_meld
from solver.cards import Piece
from solver.game.actions import Action, Draw, Knock, Pass, Play
from solver.game.view import PlayerView
from solver.strategy.bots import Bot

__all__ = ["ExpertBot", "undercut_risk"]


def undercut_risk(view: PlayerView, samples: list[list[Piece]]) -> float:
    """The share of ``samples`` (each a guess of the other hands' cards, dealt in seat order)
    in which some other player holds as few points as this player or fewer."""
    mine = view.hand_points
    sizes = [size for seat, size in enumerate(view.hand_sizes) if seat != view.seat]
    hits = 0
    for cards in samples:
        start = 0
        for size in sizes:
            if sum(map(view.variant.piece_points, cards[start : start + size])) <= mine:
                hits += 1
                break
            start += size
    return hits / len(samples) if samples else 0.0


class ExpertBot(Bot):
    """Melds on the draw-or-meld advice, knocks when an undercut is unlikely.

    At a meld decision it asks the hint engine for its best play (fewest points left).
    It plays at once when the play goes out, or when declining would not leave another
    chance to meld this turn (the last draw of a Manipulation Rummy turn, a final turn,
    an empty stock, and every turn of Machiavelli and Rummikub, where a draw ends the
    turn).  Otherwise it follows ``solver.analysis.draw_or_meld``: meld now, or draw
    first and meld with the new card.

    When it may knock, it deals the unseen cards at random to the other players
    (``samples`` times, from ``self.rng``) and knocks when the share of deals in which
    another hand holds as few points or fewer (an undercut) is at most
    ``max_undercut_risk``.
    """

    name = "expert"
    max_undercut_risk = 0.2
    samples = 200

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock() if self._knock_pays(view) else Pass()
        found = self.best_play(view)
        if not found.has_play:
            return view.decline()
        meld_later = view.draws_left >= 2 and view.stock_size > 0
        if found.goes_out or not meld_later:
            return Play(found.table)
        advice = draw_or_meld(
            view.position, variant=view.variant, unseen=view.unseen(), time_limit=self.time_limit
        )
        return Draw() if advice.advice == "draw" else Play(found.table)

    def _knock_pays(self, view: PlayerView) -> bool:
        unseen = list(view.unseen())
        others = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
        if others > len(unseen):  # cannot happen in a real game; knock rather than guess
            return True
        deals = [self.rng.sample(unseen, others) for _ in range(self.samples)]
        return undercut_risk(view, deals) <= self.max_undercut_risk
