"""An opponent model from what a player sees: does another player hold its melds back?

The search bot's rollouts play the other players with a fast policy.  Playing a hoarder
(who keeps its melds in the hand and lays them all to go out) with the greedy policy
expects the wrong hands: small ones, and no sudden going out.  ``OpponentModel`` watches
the other hands' sizes at the start of each of its own turns, when every other player
has had exactly one turn since the last look, and counts per player:

- **holds**: a turn without a meld (the hand grew by every draw of a turn, with the
  stock still holding cards afterwards, so no draw came up empty) that left the hand at
  ``HOLD_SIZE`` cards over the dealt size or more.  A greedy or expert player does
  that only when it has no play at all with that many cards, which is rare.
- **small melds**: a turn with a meld (the hand grew by less than a turn's draws) from a
  hand that could not have been forced to meld by its size (under ``hand_size +
  HOARD_MARGIN`` cards even after the turn's draws), leaving ``FREE_CARDS`` cards or
  more (too many to go out, seldom few enough points to knock), with the stock not
  empty.  A hoarder never does that; greedy players do it all the time.

The same looks say which cards of a hand have no play (``junk``): a turn with a meld
leaves what the player could not lay, and the cards drawn since are counted.  The search
bot deals the other hands so in first-out games (``solver.strategy.pimc``).

A player is modelled as a hoarder when its holds outnumber twice its small melds
(``classify``); the counts run over the whole game, since a bot keeps its style.  Only
sizes and the stock are used, so the model works in every variant and with any number
of players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from solver.game.view import PlayerView
from solver.strategy.rollout import HOARD_MARGIN

__all__ = ["FREE_CARDS", "HOLD_SIZE", "OpponentModel", "Style", "Tally", "classify"]

Style = Literal["greedy", "hoarder"]

HOLD_SIZE = 3
"""Cards over the dealt hand size that a hand without a meld must reach to count as a hold."""

FREE_CARDS = 4
"""Cards left after a meld that make it a small meld (no going out, seldom a knock)."""


@dataclass(slots=True)
class Tally:
    """What one other player's turns showed (see the module docstring)."""

    holds: int = 0
    small_melds: int = 0


def classify(tally: Tally) -> Style:
    """``hoarder`` when the holds outnumber twice the small melds, else ``greedy``."""
    return "hoarder" if tally.holds > 2 * tally.small_melds else "greedy"


def _turn_draws(view: PlayerView) -> int:
    """Cards a player draws in a whole turn without a meld."""
    return view.settings.draws_per_turn if view.settings.turn == "draw_first" else 1


def _first_decision(view: PlayerView) -> bool:
    """Whether ``view`` is this player's first decision of a turn."""
    if view.phase != "meld" or view.melded:
        return False
    first_draws = 1 if view.settings.turn == "draw_first" and not view.final_turn else 0
    return view.draws == first_draws


@dataclass(slots=True)
class OpponentModel:
    """The other players' styles from the hand sizes seen at the start of each own turn."""

    tallies: dict[int, Tally] = field(default_factory=dict)
    _round: int = -1
    _sizes: tuple[int, ...] | None = None
    _opened: set[int] = field(default_factory=set)
    _fresh: dict[int, int] = field(default_factory=dict)
    """Per other seat, the cards drawn since its last meld of the round (seats seen to meld)."""
    _drew: dict[int, bool] = field(default_factory=dict)
    """Per other seat, whether its last turn seen was a turn without a meld."""

    def observe(self, view: PlayerView) -> None:
        """Update the tallies from ``view`` (any decision; only a turn's first one counts)."""
        if view.round_number != self._round:
            self._round = view.round_number
            self._sizes = None
            self._opened = set()
            self._fresh = {}
            self._drew = {}
        if not _first_decision(view):
            return
        before, self._sizes = self._sizes, view.hand_sizes
        if before is None or view.stock_size == 0:
            return
        draws = _turn_draws(view)
        dealt = view.variant.hand_size
        for seat, (old, new) in enumerate(zip(before, view.hand_sizes, strict=True)):
            if seat == view.seat:
                continue
            tally = self.tallies.setdefault(seat, Tally())
            if new - old > draws:  # not one turn of this seat: nothing to learn
                self._fresh.pop(seat, None)
                self._drew.pop(seat, None)
                continue
            self._drew[seat] = new - old == draws
            if new - old == draws:
                if seat in self._fresh:
                    self._fresh[seat] += draws
                opened = seat in self._opened or view.variant.opening_points == 0
                if opened and new >= dealt + HOLD_SIZE:
                    tally.holds += 1
                continue
            self._opened.add(seat)
            self._fresh[seat] = 0
            if old + draws - 1 < dealt + HOARD_MARGIN and new >= FREE_CARDS:
                tally.small_melds += 1

    def style(self, seat: int) -> Style:
        """The style of the player at ``seat`` (``greedy`` until its turns say otherwise)."""
        return classify(self.tallies.get(seat, Tally()))

    def junk(self, view: PlayerView) -> dict[int, int]:
        """Per other seat, how many of its cards can be taken to have no play on the table.

        A player who melds all it can (``greedy``) keeps only cards without a play, but
        for the cards drawn in its last turn without a meld; a hoarder keeps the rest of
        its last meld so, and holds uniform cards drawn since.  Seats whose last turn
        or last meld was not seen give nothing.  Used for first-out games
        (``solver.strategy.pimc``), where the rollouts' chances to go out rest on it."""
        found: dict[int, int] = {}
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat or seat not in self._drew:
                continue
            if self.style(seat) == "greedy":
                count = size - _turn_draws(view) if self._drew[seat] else size
            elif seat in self._fresh:
                count = size - self._fresh[seat]
            else:
                continue
            if count > 0:
                found[seat] = count
        return found

    def stuck(self, view: PlayerView) -> tuple[int, ...]:
        """The other seats whose hand, but for the card they last drew, cannot go out on the
        table as it stands: the player who moved just before this one, when its turn was
        a draw (a player goes out when it can, and the table has not changed since), in
        a first-out game.  A seat modelled as greedy is left out: its junk (no play at all)
        says more.  The search bot deals such a hand again until it cannot go out
        (``rollout.determinize``): without it a guessed hoarder's hand went out at once
        after the bot's play twice as often as the real hands did (8.3% against 4.1% of
        121 decisions of 15 Rummikub games; benchmarks/results/firstout-experiments.md)."""
        seat = (view.seat - 1) % view.settings.players
        if view.settings.scoring != "first_out" or not self._drew.get(seat):
            return ()
        return () if self.style(seat) == "greedy" else (seat,)

    def hoarders(self, view: PlayerView) -> tuple[int, ...]:
        """The other seats modelled as hoarders."""
        seats = range(view.settings.players)
        return tuple(seat for seat in seats if seat != view.seat and self.style(seat) == "hoarder")
