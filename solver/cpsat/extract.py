"""Turn solver values back into a table: kept melds, new melds, jokers, merged sequences.

The model counts slots per card; here each slot gets a real card or a joker declared
as that card.  Real cards go to slots first (in a fixed order), jokers fill the rest.
A kept old meld with table jokers is its real cards, those of the old melds nested in
it, the jokers on its pinned slots (declared as those cards) and its supply slots in use.
New sequence pieces (the model's 3-5 card units) of one suit that touch end to end
are merged back into full-length sequences; kept old melds are left as they were
(with any cards added at their ends), so the table changes no more than needed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cards import ALL_CARDS, CARD_KINDS, Joker, Piece
from solver.cpsat.instance import Instance
from solver.cpsat.model import HintModel
from solver.melds import Meld, join_sequences
from solver.position import Hand, Table
from solver.solution import Solution, SolveStatus

__all__ = ["Extracted", "extract_play"]


@dataclass(frozen=True, slots=True)
class Extracted:
    melds: tuple[Meld, ...]
    played: tuple[Piece, ...]
    left: tuple[Piece, ...]
    broken: int

    def solution(self, status: SolveStatus, *, build_ms: float, solve_ms: float) -> Solution:
        """The neutral answer for this play (a table and hand in canonical order)."""
        return Solution(
            status=status,
            table=Table.of(self.melds),
            played=self.played,
            hand=Hand.of(self.left),
            melds_broken=self.broken,
            build_ms=build_ms,
            solve_ms=solve_ms,
        )


def extract_play(instance: Instance, built: HintModel, solver: cp_model.CpSolver) -> Extracted:
    """Read the solution ``solver`` just found for ``built`` (the model of ``instance``)."""

    values = list(solver.response_proto.solution)

    def value(index: int) -> int:
        return int(values[index])

    copies, keep, extend, play = built.copies, built.keep, built.extend, built.play
    jokers_played, fill = built.hand_jokers_played, built.fill
    real_left = list(instance.table_real)
    for c, var in play.items():
        real_left[c] += value(var)
    jokers_left = [value(fill[c]) if c in fill else 0 for c in range(CARD_KINDS)]

    def take(c: int) -> Piece:
        if real_left[c] > 0:
            real_left[c] -= 1
            return ALL_CARDS[c]
        if jokers_left[c] <= 0:  # pragma: no cover - the model's balance forbids it
            raise AssertionError(f"no card left for slot {ALL_CARDS[c]}")
        jokers_left[c] -= 1
        return Joker(ALL_CARDS[c])

    kept_melds: list[Meld] = []
    for i, old in enumerate(instance.old_melds):
        if value(keep[i]):
            for c, count in old.real:
                real_left[c] -= count
    old_melds = instance.old_melds
    nested = {j for hosted in built.nested for j, var in hosted if value(var)}
    for i, old in enumerate(old_melds):
        if value(keep[i]) and i not in nested:
            added = [take(c) for c, var in extend[i] if value(var)]
            if built.pins[i]:
                # Its real cards, those of the old melds nested in it, and the jokers.
                hosted = [j for j, var in built.nested[i] if value(var)]
                guests = [card for j in hosted for card in old_melds[j].meld.real_cards]
                pinned = [Joker(ALL_CARDS[c]) for c, var in built.pins[i] if value(var)]
                kept_melds.append(Meld.of((*old.meld.real_cards, *guests, *pinned, *added)))
            else:
                kept_melds.append(Meld.of(old.meld.pieces + tuple(added)))

    pieces: list[tuple[str, tuple[Piece, ...]]] = []
    for m, var in enumerate(copies):
        for _ in range(value(var)):
            cards = instance.template_cards[m]
            pieces.append((instance.templates[m].kind, tuple(take(c) for c in cards)))

    new_melds = [Meld.of(cards) for kind, cards in pieces if kind == "group"]
    new_melds.extend(join_sequences([cards for kind, cards in pieces if kind == "sequence"]))

    played: list[Piece] = []
    left: list[Piece] = []
    for c in range(CARD_KINDS):
        count = instance.hand_real[c]
        used = value(play[c]) if c in play else 0
        played.extend([ALL_CARDS[c]] * used)
        left.extend([ALL_CARDS[c]] * (count - used))
    used_jokers = value(jokers_played) if jokers_played is not None else 0
    played.extend([Joker()] * used_jokers)
    left.extend([Joker()] * (instance.hand_jokers - used_jokers))
    broken = len(instance.old_melds) - sum(value(k) for k in keep)
    return Extracted(tuple(kept_melds + new_melds), tuple(played), tuple(left), broken)
