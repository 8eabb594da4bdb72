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
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat.instance import Instance
from solver.cpsat.params import new_model

__all__ = ["HintModel", "build_model"]


@dataclass(slots=True)
class HintModel:
    """The CP-SAT model and the variables the extraction reads back."""

    model: cp_model.CpModel
    copies: list[cp_model.IntVar]
    keep: list[cp_model.IntVar]
    extend: list[list[tuple[int, cp_model.IntVar]]]
    play: dict[int, cp_model.IntVar]
    hand_jokers_played: cp_model.IntVar | None
    fill: dict[int, cp_model.IntVar]
    broken: cp_model.LinearExprT
    primary: cp_model.LinearExprT


def build_model(instance: Instance) -> HintModel:
    """Build the model of ``instance``'s best play (see the module docstring)."""
    model = new_model()
    table_real, hand_real = instance.table_real, instance.hand_real
    table_jokers = instance.table_jokers
    total_jokers = instance.total_jokers
    opening = instance.opening_required

    play = {c: model.new_int_var(0, hand_real[c], f"play_{c}") for c in range(52) if hand_real[c]}
    jokers_played = (
        model.new_int_var(0, instance.hand_jokers, "hand_jokers_played") if instance.hand_jokers else None
    )

    # Slot terms per card index: (coefficient, variable) pairs on the demand side.
    demand: list[list[cp_model.IntVar]] = [[] for _ in range(52)]
    supply_real = [table_real[c] + hand_real[c] for c in range(52)]
    copies: list[cp_model.IntVar] = []
    for m, cards in enumerate(instance.template_cards):
        bound = min(supply_real[c] + total_jokers for c in cards)
        var = model.new_int_var(0, bound, f"x_{m}")
        copies.append(var)
        for c in cards:
            demand[c].append(var)

    keep: list[cp_model.IntVar] = []
    extend: list[list[tuple[int, cp_model.IntVar]]] = []
    reserved_real: list[list[tuple[int, cp_model.IntVar]]] = [[] for _ in range(52)]
    kept_jokers: list[list[tuple[int, cp_model.IntVar]]] = [[] for _ in range(52)]
    for i, old in enumerate(instance.old_melds):
        kept = model.new_bool_var(f"keep_{i}")
        keep.append(kept)
        if opening:
            model.add(kept == 1)
        for c, count in old.real:
            reserved_real[c].append((count, kept))
        for c, count in old.jokers:
            kept_jokers[c].append((count, kept))
        grown: list[tuple[int, cp_model.IntVar]] = []
        for chain in old.extension_chains if not opening else ():
            previous = kept
            for c in chain:
                step = model.new_bool_var(f"ext_{i}_{c}")
                model.add_implication(step, previous)
                demand[c].append(step)
                grown.append((c, step))
                previous = step
        extend.append(grown)

    fill: dict[int, cp_model.IntVar] = {}
    joker_vars: list[cp_model.IntVar] = []
    joker_coefficients: list[int] = []
    weighted_sum = cp_model.LinearExpr.weighted_sum
    for c in range(52):
        if not (demand[c] or table_jokers[c] or table_real[c] or c in play):
            continue
        # Balance: slots of c in new melds and extensions + real c kept in blocks
        #          == table c + played c + jokers declared c outside blocks.
        variables: list[cp_model.IntVar] = list(demand[c])
        coefficients = [1] * len(variables)
        for count, kept in reserved_real[c]:
            variables.append(kept)
            coefficients.append(count)
        if c in play:
            variables.append(play[c])
            coefficients.append(-1)
        if demand[c] and total_jokers:
            fill[c] = model.new_int_var(0, total_jokers, f"fill_{c}")
            variables.append(fill[c])
            coefficients.append(-1)
            joker_vars.append(fill[c])
            joker_coefficients.append(1)
        model.add(weighted_sum(variables, coefficients) == table_real[c])
        if table_jokers[c]:
            kept_vars = [kept for _, kept in kept_jokers[c]]
            kept_counts = [count for count, _ in kept_jokers[c]]
            joker_vars.extend(kept_vars)
            joker_coefficients.extend(kept_counts)
            kept_here = weighted_sum(kept_vars, kept_counts)
            stay = model.new_int_var(0, table_jokers[c], f"stay_{c}")
            model.add(stay >= kept_here)
            model.add(stay <= kept_here + fill.get(c, 0))
            model.add(table_jokers[c] - stay <= table_real[c] + play.get(c, 0))
    if total_jokers:
        if jokers_played is not None:
            joker_vars.append(jokers_played)
            joker_coefficients.append(-1)
        model.add(weighted_sum(joker_vars, joker_coefficients) == sum(table_jokers))

    played_vars = list(play.values()) + ([jokers_played] if jokers_played is not None else [])
    played_count = cp_model.LinearExpr.sum(played_vars)
    model.add(played_count >= 1)

    hand_size = sum(hand_real) + instance.hand_jokers
    if instance.keep_jokers and jokers_played is not None:
        goes_out = model.new_bool_var("goes_out")
        model.add(jokers_played <= instance.hand_jokers * goes_out)
        model.add(played_count == hand_size).only_enforce_if(goes_out)

    if opening:
        values = [
            sum(instance.variant.tile_value(t) for t in template.cards) for template in instance.templates
        ]
        model.add(cp_model.LinearExpr.weighted_sum(copies, values) >= instance.variant.opening_points)

    left_terms = [play[c] for c in play]
    left_weights = [-instance.hand_weight(c) for c in play]
    constant = sum(instance.hand_weight(c) * hand_real[c] for c in play)
    if jokers_played is not None:
        left_terms.append(jokers_played)
        left_weights.append(-instance.joker_weight)
        constant += instance.joker_weight * instance.hand_jokers
    primary = cp_model.LinearExpr.weighted_sum(left_terms, left_weights) + constant
    broken = len(keep) - cp_model.LinearExpr.sum(keep)
    weight = len(keep) + 1
    model.minimize(weight * primary + broken)
    return HintModel(model, copies, keep, extend, play, jokers_played, fill, broken, primary)
