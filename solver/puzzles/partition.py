"""Every piece on the table: partitions of a fixed set of pieces into legal melds.

When a play goes out, every piece of the table and the hand ends on the new table, so
the old melds stop mattering, except through table jokers.  By RULES.md's counting
rule, the table jokers declared X that end declared otherwise number at most the real
X cards on the final table, which are now all real X cards of the position.  So a
table the player can go out to is exactly a partition of all the pieces into legal
melds in which at least ``max(0, table jokers declared X - real X)`` jokers stay
declared X, for every card X.

That is a much smaller question than the hint engine's, and it is modelled here apart
from it (den Hertog-style counting, like the engine, but nothing shared): ``x[m]`` copies
of each candidate meld (groups, sequences of 3-5 cards: every longer sequence is a union
of those) and ``fill[c]`` jokers declared ``c``; for every card ``c`` the slots of ``c``
equal the real copies plus ``fill[c]``; the fills add up to the jokers and respect
per-card bounds.  A ``Layout`` (the canonical form) is a linear function of ``x`` and
``fill``, so "a table whose layout differs from L" is linear too: the slot totals are
fixed, so a different layout has some coordinate *below* L's, and one of a set of
indicator literals must say which.

The puzzle generator uses the same model with an objective (random costs per candidate
meld) to deal a random start table from given cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cards import ALL_CARDS, CARD_KINDS, Card, Joker, Piece, Rank
from solver.melds import Meld, MeldTemplate, formable, indexed_catalogue, join_sequences
from solver.position import Table
from solver.puzzles.layout import POSITIONS, Layout, sequence_slot
from solver.puzzles.sat import CHECK_TIME_LIMIT, Answer, answer_of, new_model, new_solver
from solver.variants import Variant

__all__ = ["MAX_JOKERS", "Partition", "PartitionProblem", "partition"]

MAX_JOKERS = 2
"""With at most two jokers every candidate meld (3+ slots) keeps a real card."""

_Candidate = tuple[MeldTemplate, tuple[int, ...], tuple[int, ...]]
"""A candidate meld: its template, card indices, and layout coordinates of its slots."""

_CANDIDATES: dict[bool, tuple[_Candidate, ...]] = {}


def _candidates(variant: Variant) -> tuple[_Candidate, ...]:
    """Groups and 3-5 card sequences with the layout coordinate of every slot (cached)."""
    key = variant.ace_high
    if key not in _CANDIDATES:
        found: list[_Candidate] = []
        for template, indices in indexed_catalogue(variant, max_sequence=5):
            if template.kind == "group":
                slots = indices
            else:
                first = 1 if template.cards[0].rank == Rank.ACE else int(template.cards[0].rank)
                suit = int(template.cards[0].suit)
                slots = tuple(CARD_KINDS + sequence_slot(suit, first + k) for k in range(len(indices)))
            found.append((template, indices, slots))
        _CANDIDATES[key] = tuple(found)
    return _CANDIDATES[key]


@dataclass(frozen=True, slots=True)
class PartitionProblem:
    """The pieces a table must hold, as counts, with bounds on joker declarations.

    ``spare`` pieces (real cards or jokers) stay off the table: the generator uses that to
    choose a hand and a start table together; a check leaves it at 0 (every piece placed).
    """

    real: tuple[int, ...]
    """Real copies per card index 0..51."""
    jokers: int
    joker_min: tuple[int, ...] = (0,) * CARD_KINDS
    """Jokers that must be declared as each card (locked table jokers)."""
    joker_max: tuple[int, ...] | None = None
    """At most this many jokers declared as each card (None: no bound)."""
    spare: int = 0
    """Exactly this many pieces stay off the table."""

    def __post_init__(self) -> None:
        if len(self.real) != CARD_KINDS or len(self.joker_min) != CARD_KINDS:
            raise ValueError("real and joker_min hold one count per card index 0..51")
        if self.joker_max is not None and len(self.joker_max) != CARD_KINDS:
            raise ValueError("joker_max holds one count per card index 0..51")
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise ValueError(f"a partition holds 0-{MAX_JOKERS} jokers, not {self.jokers}")
        if sum(self.joker_min) > self.jokers:
            raise ValueError(f"{sum(self.joker_min)} locked joker declarations but only {self.jokers} jokers")
        if not 0 <= self.spare <= sum(self.real) + self.jokers:
            raise ValueError(
                f"cannot leave {self.spare} of {sum(self.real) + self.jokers} pieces off the table"
            )


@dataclass(frozen=True, slots=True)
class Partition:
    """The answer: ``yes`` with a table (and the pieces left off it), ``no`` (none exists), or
    ``unknown`` (time ran out)."""

    answer: Answer
    table: Table | None = None
    spare: tuple[Piece, ...] = ()
    """The pieces left off the table (undeclared jokers as ``*``)."""


_Chosen = list[tuple[MeldTemplate, tuple[int, ...], cp_model.IntVar]]
"""The candidate melds in a model: template, card indices and copies variable."""


def _meld_variables(
    model: cp_model.CpModel, problem: PartitionProblem, variant: Variant
) -> tuple[_Chosen, list[list[cp_model.IntVar]], list[list[cp_model.IntVar]]]:
    """One copies variable per candidate meld the problem's pieces can form, in catalogue
    order; and the variables that use each card and each slot."""
    chosen: _Chosen = []
    per_card: list[list[cp_model.IntVar]] = [[] for _ in range(CARD_KINDS)]
    per_slot: list[list[cp_model.IntVar]] = [[] for _ in range(CARD_KINDS + 4 * POSITIONS)]
    for template, indices, slots in _candidates(variant):
        if not formable(indices, problem.real, problem.jokers):
            continue
        var = model.new_int_var(0, min(problem.real[c] + problem.jokers for c in indices), f"x_{len(chosen)}")
        chosen.append((template, indices, var))
        for c in indices:
            per_card[c].append(var)
        for slot in slots:
            per_slot[slot].append(var)
    return chosen, per_card, per_slot


def _minimize_cost(
    model: cp_model.CpModel,
    chosen: _Chosen,
    left: list[tuple[Piece, cp_model.IntVar]],
    cost: Callable[[MeldTemplate], int] | None,
    spare_cost: Callable[[Piece], int] | None,
) -> None:
    """Minimize the cost of the melds chosen and the pieces left off (a missing cost
    function costs 0); ValueError for a negative cost."""
    terms = [var for _, _, var in chosen] + [var for _, var in left]
    weights = [cost(template) if cost else 0 for template, _, _ in chosen]
    weights += [spare_cost(piece) if spare_cost else 0 for piece, _ in left]
    if any(weight < 0 for weight in weights):
        raise ValueError("costs must be >= 0")
    model.minimize(cp_model.LinearExpr.weighted_sum(terms, weights))


def partition(
    problem: PartitionProblem,
    variant: Variant,
    *,
    cost: Callable[[MeldTemplate], int] | None = None,
    spare_cost: Callable[[Piece], int] | None = None,
    exclude: Sequence[Layout] = (),
    time_limit: float = CHECK_TIME_LIMIT,
) -> Partition:
    """A table of legal melds holding the problem's pieces (all but ``spare`` of them) whose
    layout is none of ``exclude``.  With ``cost`` (per candidate meld) and ``spare_cost``
    (per piece left off: a card, or ``Joker()``), one of least total cost; costs are >= 0.
    Excluding layouts needs every piece placed (``spare == 0``)."""
    if exclude and problem.spare:
        raise ValueError("layouts can only be excluded when every piece is placed (spare 0)")
    model = new_model()
    spare = problem.spare
    chosen, per_card, per_slot = _meld_variables(model, problem, variant)
    fill: list[cp_model.IntVar | int] = []
    left: list[tuple[Piece, cp_model.IntVar]] = []
    for c in range(CARD_KINDS):
        high = problem.jokers if problem.joker_max is None else min(problem.jokers, problem.joker_max[c])
        low = problem.joker_min[c]
        if low > high or (low and not per_card[c]):
            return Partition("no")
        fill.append(model.new_int_var(low, high, f"fill_{c}") if per_card[c] and high else 0)
        # Balance: slots of c + copies of c left off - jokers declared c == real copies of c.
        variables: list[cp_model.IntVar] = list(per_card[c])
        coefficients = [1] * len(variables)
        if spare and problem.real[c]:
            off = model.new_int_var(0, min(spare, problem.real[c]), f"off_{c}")
            left.append((ALL_CARDS[c], off))
            variables.append(off)
            coefficients.append(1)
        joker = fill[c]
        if not isinstance(joker, int):
            variables.append(joker)
            coefficients.append(-1)
        if variables:
            model.add(cp_model.LinearExpr.weighted_sum(variables, coefficients) == problem.real[c])
        elif problem.real[c]:
            return Partition("no")  # a card no candidate meld can hold
    joker_terms = [f for f in fill if not isinstance(f, int)]
    if spare and problem.jokers:
        off = model.new_int_var(0, min(spare, problem.jokers), "off_jokers")
        left.append((Joker(), off))
        joker_terms.append(off)
    model.add(cp_model.LinearExpr.sum(joker_terms) == problem.jokers)
    if spare:
        model.add(cp_model.LinearExpr.sum([var for _, var in left]) == spare)

    for layout in exclude:
        _exclude(model, layout, per_slot, fill)
    if cost is not None or spare_cost is not None:
        _minimize_cost(model, chosen, left, cost, spare_cost)

    solver = new_solver(time_limit)
    answer = answer_of(solver.solve(model))
    if answer != "yes":
        return Partition(answer)
    copies = [(template, indices, int(solver.value(var))) for template, indices, var in chosen]
    jokers = [f if isinstance(f, int) else int(solver.value(f)) for f in fill]
    off_pieces = tuple(piece for piece, var in left for _ in range(int(solver.value(var))))
    return Partition("yes", _table(problem, copies, jokers, off_pieces), off_pieces)


def _exclude(
    model: cp_model.CpModel,
    layout: Layout,
    per_slot: list[list[cp_model.IntVar]],
    fill: list[cp_model.IntVar | int],
) -> None:
    """Forbid ``layout``: some coordinate must fall below its value there.  Slots and jokers
    both have fixed totals, so any other layout has a coordinate below ``layout``'s."""
    below: list[cp_model.IntVar] = []
    expressions: list[cp_model.LinearExprT | int] = [
        cp_model.LinearExpr.sum(terms) if terms else 0 for terms in per_slot
    ]
    expressions.extend(fill)
    for k, target in enumerate(layout.vector):
        if target <= 0:
            continue
        if isinstance(expressions[k], int):
            if expressions[k] < target:
                return  # this coordinate is below the layout's in every solution
            continue
        literal = model.new_bool_var(f"below_{k}")
        model.add(expressions[k] <= target - 1).only_enforce_if(literal)
        below.append(literal)
    model.add_bool_or(below)


def _table(
    problem: PartitionProblem,
    copies: list[tuple[MeldTemplate, tuple[int, ...], int]],
    jokers: list[int],
    off: tuple[Piece, ...],
) -> Table:
    """Melds from the solution: real cards fill slots first, jokers the rest; sequence
    pieces of one suit that meet end to end are joined into one sequence."""
    real_left = list(problem.real)
    for piece in off:
        if isinstance(piece, Card):
            real_left[piece.index] -= 1
    jokers_left = list(jokers)

    def take(c: int) -> Piece:
        if real_left[c]:
            real_left[c] -= 1
            return ALL_CARDS[c]
        jokers_left[c] -= 1
        return Joker(ALL_CARDS[c])

    groups: list[Meld] = []
    runs: list[list[Piece]] = []
    for template, indices, count in copies:
        for _ in range(count):
            pieces = [take(c) for c in indices]
            if template.kind == "group":
                groups.append(Meld.of(pieces))
            else:
                runs.append(pieces)
    return Table.of(groups + join_sequences(runs))
