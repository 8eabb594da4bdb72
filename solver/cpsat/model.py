"""The CP-SAT model of a best play (den Hertog-style counting, with jokers and kept melds).

Variables:

- ``x[m]``: how many copies of candidate meld ``m`` (groups, sequences of 3-5) the new
  table holds, besides the old melds kept whole;
- ``keep[i]``: old meld ``i`` stays whole as a block; ``ext[i][j]`` grows it by one
  card at a time outward (sequence ends, the fourth suit of a group), so every final
  meld that contains an old meld entire is expressible;
- ``play[c]``: hand copies of card ``c`` played; ``hand_jokers_played``;
- ``fill[c]``: jokers declared ``c`` outside kept blocks;
- ``stay[c]``: table jokers declared ``c`` that keep that declaration.

For each card ``c`` the slots of ``c`` in new melds and extensions are filled by the
real ``c`` not reserved by kept blocks, plus ``fill[c]`` jokers.  The counting rule of
RULES.md is ``table_jokers[c] - stay[c] <= table_real[c] + play[c]``: jokers whose
declaration changed are covered by real copies of their card on the final table.
With at most two jokers in play every 3-card meld keeps a real card, so the rule that
a meld holds a real card needs no constraint (``hint`` rejects more jokers).

The objective is lexicographic in one integer: ``weight * primary + broken`` where the
primary term is the points (or cards) left in the hand, ``broken`` counts the old melds
whose cards do not all end in one meld, and ``weight = len(old melds) + 1``.

The model is written straight into the proto (``solver.cpsat.proto``): variables are
indices, and ``HintModel.variable`` gives the ``IntVar`` of one for callers that add
constraints of their own with ``CpModel``'s API.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat.instance import Instance
from solver.cpsat.params import new_model
from solver.cpsat.proto import AT_LEAST, AT_MOST, ProtoWriter

__all__ = ["HintModel", "build_model"]


@dataclass(slots=True)
class HintModel:
    """The CP-SAT model and the indices of the variables the extraction reads back."""

    model: cp_model.CpModel
    copies: list[int]
    keep: list[int]
    extend: list[list[tuple[int, int]]]
    """Per old meld: (card index, extension variable), chain by chain, nearest first."""
    play: dict[int, int]
    hand_jokers_played: int | None
    fill: dict[int, int]
    primary_terms: tuple[tuple[int, ...], tuple[int, ...], int]
    """The primary objective (points or cards left) as (variables, coefficients, constant)."""

    def variable(self, index: int) -> cp_model.IntVar:
        """The ``IntVar`` of a variable index, for constraints added through ``CpModel``."""
        return self.model.get_int_var_from_proto_index(index)

    @property
    def primary(self) -> cp_model.LinearExprT:
        """The points (or cards) left in the hand, as a ``CpModel`` expression."""
        variables, coefficients, constant = self.primary_terms
        terms = [self.variable(index) for index in variables]
        return cp_model.LinearExpr.weighted_sum(terms, list(coefficients)) + constant


def build_model(instance: Instance) -> HintModel:
    """Build the model of ``instance``'s best play (see the module docstring)."""
    model = new_model()
    writer = ProtoWriter(model)
    new_var, add_linear = writer.new_var, writer.add_linear
    table_real, hand_real = instance.table_real, instance.hand_real
    table_jokers = instance.table_jokers
    total_jokers = instance.total_jokers
    opening = instance.opening_required

    play = {c: new_var(0, hand_real[c]) for c in range(52) if hand_real[c]}
    jokers_played = new_var(0, instance.hand_jokers) if instance.hand_jokers else None

    # Slot terms per card index: (coefficient 1) variables on the demand side.
    demand: list[list[int]] = [[] for _ in range(52)]
    supply = [table_real[c] + hand_real[c] + total_jokers for c in range(52)]
    copies: list[int] = []
    for cards in instance.template_cards:
        var = new_var(0, min([supply[c] for c in cards]))
        copies.append(var)
        for c in cards:
            demand[c].append(var)

    keep: list[int] = []
    extend: list[list[tuple[int, int]]] = []
    reserved_real: list[list[tuple[int, int]]] = [[] for _ in range(52)]
    kept_jokers: list[list[tuple[int, int]]] = [[] for _ in range(52)]
    for old in instance.old_melds:
        kept = new_var(1, 1) if opening else new_var(0, 1)
        keep.append(kept)
        for c, count in old.real:
            reserved_real[c].append((count, kept))
        for c, count in old.jokers:
            kept_jokers[c].append((count, kept))
        grown: list[tuple[int, int]] = []
        for chain in old.extension_chains if not opening else ():
            previous = kept
            for c in chain:
                step = new_var(0, 1)
                writer.add_implication(step, previous)
                demand[c].append(step)
                grown.append((c, step))
                previous = step
        extend.append(grown)

    fill: dict[int, int] = {}
    joker_vars: list[int] = []
    joker_coefficients: list[int] = []
    for c in range(52):
        slots = demand[c]
        if not (slots or table_jokers[c] or table_real[c] or c in play):
            continue
        # Balance: slots of c in new melds and extensions + real c kept in blocks
        #          == table c + played c + jokers declared c outside blocks.
        variables = list(slots)
        coefficients = [1] * len(variables)
        for count, kept in reserved_real[c]:
            variables.append(kept)
            coefficients.append(count)
        if c in play:
            variables.append(play[c])
            coefficients.append(-1)
        if slots and total_jokers:
            fill[c] = new_var(0, total_jokers)
            variables.append(fill[c])
            coefficients.append(-1)
            joker_vars.append(fill[c])
            joker_coefficients.append(1)
        add_linear(variables, coefficients, table_real[c], table_real[c])
        if table_jokers[c]:
            kept_vars = [kept for _, kept in kept_jokers[c]]
            kept_counts = [count for count, _ in kept_jokers[c]]
            joker_vars.extend(kept_vars)
            joker_coefficients.extend(kept_counts)
            stay = new_var(0, table_jokers[c])
            negated = [-count for count in kept_counts]
            jokers_here = table_jokers[c]
            if c in fill:
                # kept here <= stay <= kept here + fill[c]
                add_linear([stay, *kept_vars], [1, *negated], 0, AT_LEAST)
                add_linear([stay, *kept_vars, fill[c]], [1, *negated, -1], AT_MOST, 0)
            else:
                add_linear([stay, *kept_vars], [1, *negated], 0, 0)
            # The counting rule: table_jokers[c] - stay <= table_real[c] + play[c].
            if c in play:
                add_linear([stay, play[c]], [1, 1], jokers_here - table_real[c], AT_LEAST)
            else:
                add_linear([stay], [1], jokers_here - table_real[c], AT_LEAST)
    if total_jokers:
        if jokers_played is not None:
            joker_vars.append(jokers_played)
            joker_coefficients.append(-1)
        total = sum(table_jokers)
        add_linear(joker_vars, joker_coefficients, total, total)

    played_vars = list(play.values()) + ([jokers_played] if jokers_played is not None else [])
    hand_size = sum(hand_real) + instance.hand_jokers
    add_linear(played_vars, [1] * len(played_vars), 1, AT_LEAST)

    if instance.keep_jokers and jokers_played is not None:
        goes_out = new_var(0, 1)
        # Hand jokers are played only when every piece of the hand is.
        add_linear([jokers_played, goes_out], [1, -instance.hand_jokers], AT_MOST, 0)
        add_linear(played_vars, [1] * len(played_vars), hand_size, hand_size, enforced_by=goes_out)

    if opening:
        tile_value = instance.variant.tile_value
        values = [sum(tile_value(t) for t in template.cards) for template in instance.templates]
        add_linear(copies, values, instance.variant.opening_points, AT_LEAST)

    left_terms = list(play.values())
    left_weights = [-instance.hand_weight(c) for c in play]
    constant = sum(instance.hand_weight(c) * hand_real[c] for c in play)
    if jokers_played is not None:
        left_terms.append(jokers_played)
        left_weights.append(-instance.joker_weight)
        constant += instance.joker_weight * instance.hand_jokers
    # weight * primary + broken, with broken = len(keep) - sum(keep).
    weight = len(keep) + 1
    writer.minimize(
        left_terms + keep,
        [weight * w for w in left_weights] + [-1] * len(keep),
        weight * constant + len(keep),
    )
    return HintModel(
        model,
        copies,
        keep,
        extend,
        play,
        jokers_played,
        fill,
        (tuple(left_terms), tuple(left_weights), constant),
    )
