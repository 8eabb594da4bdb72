"""Decoys in words, told against the puzzle's own solution.

A decoy is a hand card that fits a table meld *as it stands*, where no way out lays it
with that meld kept whole (``grade``).  The solution may still put the card among that
meld's cards once the meld has been rearranged (``5c 6c 7c`` with ``8c`` in the hand
becomes ``6c 7c 8c`` after ``5c`` leaves it), so "not played there" would contradict
the steps printed under it.  ``decoy_text`` says what holds, meld by meld: laying the
card off on the meld as it stands leads nowhere, and where the solution plays it
instead, read from the solution's plan.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.cards import Piece
from solver.plan import MeldStep, Plan
from solver.position import Position
from solver.puzzles.checks import Decoy

__all__ = ["DecoyFate", "decoy_fates", "decoy_text"]


@dataclass(frozen=True, slots=True)
class DecoyFate:
    """Where the solution plays one copy of a decoy card."""

    new_meld: int
    """The solution's meld (1-based) that receives the card from the hand."""
    on_meld: int | None
    """The old meld that new meld is built on (None: started from scratch)."""
    left: tuple[Piece, ...]
    """Pieces that leave ``on_meld`` before the card joins it (empty unless ``on_meld`` is
    a meld the decoy fits)."""


def _name(piece: Piece, pretty: bool) -> str:
    return piece.pretty if pretty else str(piece)


def decoy_fates(decoy: Decoy, position: Position, plan: Plan) -> list[DecoyFate]:
    """Where the solution's plan plays the decoy card (one entry per step that takes it from
    the hand), and which pieces leave a fitted meld first when the card lands on it."""
    fates: list[DecoyFate] = []
    for step in plan.steps:
        if not isinstance(step, MeldStep):
            continue
        if not any(t.source is None and decoy.card in t.pieces for t in step.transfers):
            continue
        left: tuple[Piece, ...] = ()
        if step.on_meld in decoy.melds:
            gone = Counter(position.table.melds[step.on_meld - 1].pieces) - Counter(step.meld.pieces)
            left = tuple(gone.elements())
        fates.append(DecoyFate(step.new_meld, step.on_meld, left))
    if not fates:
        # A card that frees a joker where it lies is named in a joker step only.
        number = next(n for n, meld in enumerate(plan.after, start=1) if decoy.card in meld.pieces)
        fates.append(DecoyFate(number, None, ()))
    return fates


def _fate_text(fate: DecoyFate, pretty: bool) -> str:
    where = f"new meld {fate.new_meld}"
    if fate.on_meld is None:
        return where
    where += f", built on meld {fate.on_meld}"
    if fate.left:
        verb = "leaves" if len(fate.left) == 1 else "leave"
        where += f" after {' '.join(_name(piece, pretty) for piece in fate.left)} {verb} it"
    return where


def decoy_text(decoy: Decoy, position: Position, plan: Plan, *, pretty: bool = False) -> str:
    """One sentence per decoy, true of the solution, e.g. ``8c fits meld 4 as it stands, but
    laying it off there with the meld kept whole leads to no way out: the solution plays
    it in new meld 3, built on meld 4 after 5c leaves it``; a decoy held twice is said to be
    (``each of the 2 copies of 8c fits ...``)."""
    card = _name(decoy.card, pretty)
    if decoy.copies > 1:  # the features count each copy: say so, or "2 decoys" shows one line
        card = f"each of the {decoy.copies} copies of {card}"
    melds = decoy.melds
    if len(melds) == 1:
        fits = f"fits meld {melds[0]} as it stands, but laying it off there"
    else:
        listed = ", ".join(str(number) for number in melds[:-1]) + f" and {melds[-1]}"
        fits = f"fits melds {listed} as they stand, but laying it off on any of them"
    places = " and ".join(_fate_text(fate, pretty) for fate in decoy_fates(decoy, position, plan))
    return f"{card} {fits} with the meld kept whole leads to no way out: the solution plays it in {places}"
