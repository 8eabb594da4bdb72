"""The best play after each possible draw: one model for every draw, settled exactly and fast.

``solve_draws(position, variant, pieces)`` answers, for each piece that might be
drawn, the fewest points the hand can hold after drawing it and then playing (or not
playing, when no play exists or none helps).

One model serves all the draws.  Its instance is built for the hand plus one copy of
every piece that may be drawn (the *superset* hand), so its catalogue and extension
chains cover every draw; a draw is then just bounds: ``play[c] <= hand[c]`` for every
card, ``+1`` for the drawn one.  With those bounds the model is exactly the model of
the hand plus that card (templates of cards not drawn can only be filled by jokers,
as in the smaller model).  The objective is the points left (the tie-break on broken
melds does not matter here).

Each draw is settled by the cheapest exact argument available:

0. *Settled before*: the engine (``solver.engine``) first asks the fast path's search,
   which solves the hand plus a drawn piece outright where it covers the position; it
   passes what it settled as ``settled``, and only the other draws come to the model.
1. *A known play.*  Drawing ``k`` and playing the best play of the current hand (or
   nothing) leaves ``now + points(k)``; if ``k`` also fits at the end of a meld of that
   play's table (a joker: with some declaration), it leaves ``now``.
2. *The LP bound* (see ``relax``): when its exact lower bound meets the known play, or
   its optimum is an integral play, the draw is settled without a search.
3. *CP-SAT*, asked only for a play strictly better than the known one, with the
   variable bounds that the LP's reduced costs allow for such a play: infeasible means
   the known play is optimal.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ortools.sat.python import cp_model

from solver.cards import CARD_KINDS, Card, Joker, Piece, Rank, Suit
from solver.cpsat.extract import extract_play
from solver.cpsat.instance import Instance, build_instance
from solver.cpsat.model import HintModel, build_model
from solver.cpsat.params import domain_of, new_solver, set_domain
from solver.cpsat.relax import LpBound, Relaxation
from solver.melds import Meld, formable
from solver.position import Hand, Position, Table
from solver.solution import DrawResults, DrawValue, SettledBy
from solver.variants import Variant

__all__ = ["solve_draws"]


def _joker_declarations(meld: Meld) -> list[Card]:
    """Cards a joker could be declared as at the edge of ``meld``."""
    cards = meld.cards
    if not cards:
        return []
    first, last = cards[0], cards[-1]
    options = [Card(first.rank, suit) for suit in Suit]
    for card in (first, last):
        for step in (-1, 1):
            rank = int(card.rank) + step
            if 1 <= rank <= 13:
                options.append(Card(Rank(rank), card.suit))
    options.append(Card(Rank.ACE, last.suit))
    return options


def lays_off(table: Table, piece: Piece, variant: Variant) -> bool:
    """Whether ``piece`` fits at the end of some meld of ``table`` as it lies."""
    for meld in table:
        if isinstance(piece, Card):
            first = meld.cards[0]
            near = first.rank == piece.rank or first.suit == piece.suit  # a group's rank, a sequence's suit
            if near and Meld.of((*meld.pieces, piece)).is_legal(variant):
                return True
            continue
        if any(Meld.of((*meld.pieces, Joker(card))).is_legal(variant) for card in _joker_declarations(meld)):
            return True
    return False


def _single_draw_templates(instance: Instance, position: Position, extras: Sequence[Piece]) -> Instance:
    """The superset instance with only the candidate melds that some *single* draw could
    form: exactly the union of what ``build_instance`` keeps for the hand plus each piece."""
    available = [0] * CARD_KINDS
    jokers = 0
    for piece in (*position.table.pieces, *position.hand.pieces):
        if isinstance(piece, Joker):
            jokers += 1
            if piece.declared is not None:
                available[piece.declared.index] += 1
        else:
            available[piece.index] += 1
    drawable = {p.index for p in extras if isinstance(p, Card)}
    joker_drawable = any(isinstance(p, Joker) for p in extras)
    kept = []
    for template, cards in zip(instance.templates, instance.template_cards, strict=True):
        # Formable now, with a drawn joker, or with one drawn card filling a missing slot.
        usable = formable(cards, available, jokers + 1 if joker_drawable else jokers) or any(
            c in drawable and formable(cards, _with_one_more(available, c), jokers)
            for c in cards
            if not available[c]
        )
        if usable:
            kept.append((template, cards))
    return replace(
        instance,
        templates=tuple(t for t, _ in kept),
        template_cards=tuple(c for _, c in kept),
    )


def _with_one_more(available: Sequence[int], card: int) -> list[int]:
    """``available`` with one more copy of ``card``."""
    more = list(available)
    more[card] += 1
    return more


class _DrawModel:
    """The superset model, its LP relaxation, and the bounds that select one draw."""

    def __init__(self, position: Position, variant: Variant, pieces: Sequence[Piece], time_limit: float):
        self.position = position
        self.variant = variant
        extras = [Joker() if isinstance(p, Joker) else p for p in pieces]
        superset = Position(position.table, Hand.of((*position.hand.pieces, *extras)))
        self.instance = _single_draw_templates(build_instance(superset, variant), position, extras)
        self.built: HintModel = build_model(self.instance)
        model = self.built.model
        self.hand = Counter(c.index for c in position.hand.pieces if isinstance(c, Card))
        self.hand_jokers = position.hand.joker_count
        self.extra_points = sum(variant.piece_points(p) for p in extras)
        top = position.hand.points(variant) + self.extra_points
        self.primary = model.new_int_var(0, top, "points_left")
        model.add(self.primary == self.built.primary)
        model.minimize(self.primary)  # replaces the hint's objective
        self.solver = new_solver(time_limit)
        # The points a play removes from the hand: the primary objective's terms (the
        # instance is built with the points objective).
        variables, coefficients, _ = self.built.primary_terms
        self.weights = dict(zip(variables, coefficients, strict=True))
        self.relaxation = Relaxation(model, self.weights)
        jokers = self.built.hand_jokers_played
        # Start with no draw: every piece at its count in the hand.
        self.selected: Piece | None = None
        for c, index in self.built.play.items():
            self._bound(index, 0, self.hand[c])
        if jokers is not None:
            self._bound(jokers, 0, self.hand_jokers)

    def select(self, piece: Piece | None) -> None:
        """Bounds for drawing ``piece`` (None: no draw), in the model and the LP alike."""
        for drawn, extra in ((self.selected, 0), (piece, 1)):
            if isinstance(drawn, Card):
                self._bound(self.built.play[drawn.index], 0, self.hand[drawn.index] + extra)
            elif isinstance(drawn, Joker) and self.built.hand_jokers_played is not None:
                self._bound(self.built.hand_jokers_played, 0, self.hand_jokers + extra)
        self.selected = piece

    def _bound(self, index: int, low: int, high: int) -> None:
        set_domain(self.built.model, index, low, high)
        self.relaxation.set_bounds(index, low, high)

    def points(self, piece: Piece | None, played_weight: int) -> int:
        """Hand points after drawing ``piece`` when the play removes ``-played_weight`` points."""
        drawn = 0 if piece is None else self.variant.piece_points(piece)
        return self.position.hand.points(self.variant) + drawn + played_weight

    def search(
        self, piece: Piece | None, at_most: int | None, bound: LpBound | None
    ) -> tuple[cp_model.CpSolverStatus, int | None]:
        """CP-SAT for the fewest points after drawing ``piece`` (the selected draw), among
        plays leaving at most ``at_most`` (None: any), inside the bounds the LP's reduced
        costs allow for them.  Returns the status and the points found."""
        model = self.built.model
        changes: dict[int, tuple[int, int]] = {}
        if at_most is not None:
            # points = no-play points + played weight;  points_left = superset points + weight
            weight_limit = at_most - self.points(piece, 0)
            superset_points = self.position.hand.points(self.variant) + self.extra_points
            if bound is not None:
                tightened = bound.tightened(weight_limit, self.relaxation.bounds)
                if tightened is None:
                    return cp_model.INFEASIBLE, None
                changes.update((index, (low, high)) for index, low, high in tightened)
            low, high = changes.get(self.primary.index, domain_of(model, self.primary.index))
            changes[self.primary.index] = (low, min(high, superset_points + weight_limit))
            if any(low > high for low, high in changes.values()):
                return cp_model.INFEASIBLE, None
        saved = [(index, *domain_of(model, index)) for index in changes]
        for index, (low, high) in changes.items():
            set_domain(model, index, low, high)
        code = self.solver.solve(model)
        for index, low, high in saved:
            set_domain(model, index, low, high)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return code, None
        solution = self.solver.response_proto.solution
        played = sum(weight * int(solution[index]) for index, weight in self.weights.items())
        return code, self.points(piece, played)

    def table_now(self) -> Table:
        """The table of the solution just found (meaningful right after a successful search)."""
        found = extract_play(self.instance, self.built, self.solver)
        return Table.of(found.melds)


def solve_draws(
    position: Position,
    variant: Variant,
    pieces: Sequence[Piece],
    *,
    time_limit: float,
    use_lp: bool = True,
    settled: DrawResults | None = None,
    known_draws: Sequence[DrawValue] = (),
    started: float | None = None,
) -> DrawResults:
    """The current best play and, for each distinct piece in ``pieces`` (a joker is
    ``Joker()``), the fewest hand points after drawing it and playing at best.

    The position must be valid for the variant and hold no more than two jokers with
    any one draw (as ``hint()`` requires).  ``use_lp=False`` settles every draw by
    CP-SAT alone (for cross-checks).  ``time_limit`` bounds each solve.  ``settled``
    holds the current position's answer and the draws another backend settled already,
    exactly, and ``known_draws`` more such draws (without the current position's
    answer); those are not solved again.
    """
    started = time.perf_counter() if started is None else started
    distinct: list[Piece] = []
    for piece in pieces:
        normal = Joker() if isinstance(piece, Joker) else piece
        if normal not in distinct:
            distinct.append(normal)
    searched = settled
    draw = _DrawModel(position, variant, distinct, time_limit)
    built_at = time.perf_counter()
    hand_points = position.hand.points(variant)
    draw.select(None)
    now_has_play = False
    now_exact = True
    now_points = hand_points
    now_table = position.table
    if searched is not None:  # the current position and some draws came from the search
        now_points, now_has_play, now_table = searched.now_points, searched.now_has_play, searched.now_table
    elif len(position.hand):
        code, points = draw.search(None, None, None)
        now_exact = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        if points is not None:
            now_has_play = True
            now_points = points
            now_table = draw.table_now()
    known = {value.piece: value for value in known_draws}
    if searched is not None:
        known.update((value.piece, value) for value in searched.draws)
    values = [
        known[piece] if piece in known else _settle(draw, piece, now_points, now_has_play, now_table, use_lp)
        for piece in distinct
    ]
    done = time.perf_counter()
    timings = {"build_ms": (built_at - started) * 1000, "solve_ms": (done - built_at) * 1000}
    return DrawResults(now_points, now_has_play, now_table, now_exact, tuple(values), timings)


def _settle(
    draw: _DrawModel, piece: Piece, now_points: int, now_has_play: bool, now_table: Table, use_lp: bool
) -> DrawValue:
    """The exact best outcome of drawing ``piece`` (see the module docstring)."""
    variant = draw.variant
    cost = variant.piece_points(piece)
    # A known play: the best play now (or none) with the piece kept, or laid off.
    known_points = now_points if lays_off(now_table, piece, variant) else now_points + cost
    draw.select(piece)
    no_play_points = draw.points(piece, 0)

    def result(points: int, exact: bool, how: SettledBy) -> DrawValue:
        # Every piece counts points, so a play exists exactly when it can leave fewer.
        return DrawValue(piece, points, now_has_play or points < no_play_points, exact, how)

    if known_points == 0:
        return result(0, True, "known")

    bound: LpBound | None = None
    how: SettledBy = "known"
    if use_lp:
        bound = draw.relaxation.solve()
        if bound is not None:
            found = draw.relaxation.integral_value()
            if found is not None and draw.points(piece, found) < known_points:
                known_points, how = draw.points(piece, found), "lp"
            if draw.points(piece, bound.lower) >= known_points:
                return result(known_points, True, how)
    code, points = draw.search(piece, known_points - 1, bound)
    if points is not None:
        return result(points, code == cp_model.OPTIMAL, "cpsat")
    return result(known_points, code == cp_model.INFEASIBLE, "cpsat")
