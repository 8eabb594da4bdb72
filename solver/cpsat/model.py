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

from solver.cards import CARD_KINDS
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
    """Build the model of ``instance``'s best play (see the module docstring).

    One method of ``_ModelWriter`` per family of constraints, each the rule it encodes;
    they run in a fixed order, so the same instance always gives the same model."""
    return _ModelWriter(instance).build()


class _ModelWriter:
    """Writes one instance's model: variables first, then each rule in turn."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.model = new_model()
        self.writer = ProtoWriter(self.model)
        self.opening = instance.opening_required
        self.play: dict[int, int] = {}
        self.jokers_played: int | None = None
        self.copies: list[int] = []
        self.demand: list[list[int]] = [[] for _ in range(CARD_KINDS)]
        """Per card index: variables of its slots in new melds and extensions (coefficient 1)."""
        self.keep: list[int] = []
        self.extend: list[list[tuple[int, int]]] = []
        self.reserved_real: list[list[tuple[int, int]]] = [[] for _ in range(CARD_KINDS)]
        """Per card index: (real copies, keep variable) of the old melds holding it."""
        self.kept_jokers: list[list[tuple[int, int]]] = [[] for _ in range(CARD_KINDS)]
        """Per declared card index: (jokers, keep variable) of the old melds holding them."""
        self.fill: dict[int, int] = {}
        self.joker_vars: list[int] = []
        self.joker_coefficients: list[int] = []

    def build(self) -> HintModel:
        self._hand_variables()
        self._candidate_melds()
        self._old_melds()
        for card in range(CARD_KINDS):
            if self._balance(card):
                self._table_jokers(card)
        self._joker_total()
        played_vars = self._play_something()
        self._keep_jokers(played_vars)
        self._opening()
        primary = self._objective()
        return HintModel(
            self.model,
            self.copies,
            self.keep,
            self.extend,
            self.play,
            self.jokers_played,
            self.fill,
            primary,
        )

    def _hand_variables(self) -> None:
        """``play[c]``: hand copies of card ``c`` played; ``hand_jokers_played``."""
        new_var, hand_real = self.writer.new_var, self.instance.hand_real
        self.play = {c: new_var(0, hand_real[c]) for c in range(CARD_KINDS) if hand_real[c]}
        if self.instance.hand_jokers:
            self.jokers_played = new_var(0, self.instance.hand_jokers)

    def _candidate_melds(self) -> None:
        """``x[m]``: copies of each candidate meld, at most as many as its scarcest card allows."""
        instance = self.instance
        supply = [
            instance.table_real[c] + instance.hand_real[c] + instance.total_jokers for c in range(CARD_KINDS)
        ]
        for cards in instance.template_cards:
            var = self.writer.new_var(0, min([supply[c] for c in cards]))
            self.copies.append(var)
            for c in cards:
                self.demand[c].append(var)

    def _old_melds(self) -> None:
        """``keep[i]`` for each old meld, and its extensions: a card may grow a kept meld
        only if the card nearer to it in the chain does (an extension implies the one
        before it, the first implies ``keep``).  Before opening, every old meld is kept
        as it is."""
        writer = self.writer
        for old in self.instance.old_melds:
            kept = writer.new_var(1, 1) if self.opening else writer.new_var(0, 1)
            self.keep.append(kept)
            for c, count in old.real:
                self.reserved_real[c].append((count, kept))
            for c, count in old.jokers:
                self.kept_jokers[c].append((count, kept))
            grown: list[tuple[int, int]] = []
            for chain in old.extension_chains if not self.opening else ():
                previous = kept
                for c in chain:
                    step = writer.new_var(0, 1)
                    writer.add_implication(step, previous)
                    self.demand[c].append(step)
                    grown.append((c, step))
                    previous = step
            self.extend.append(grown)

    def _balance(self, c: int) -> bool:
        """Every copy of card ``c`` is accounted for: slots of ``c`` in new melds and
        extensions + real ``c`` kept in blocks == table ``c`` + played ``c`` + jokers
        declared ``c`` outside blocks (``fill[c]``).  False when ``c`` appears nowhere."""
        instance = self.instance
        table_real = instance.table_real[c]
        slots = self.demand[c]
        if not (slots or instance.table_jokers[c] or table_real or c in self.play):
            return False
        variables = list(slots)
        coefficients = [1] * len(variables)
        for count, kept in self.reserved_real[c]:
            variables.append(kept)
            coefficients.append(count)
        if c in self.play:
            variables.append(self.play[c])
            coefficients.append(-1)
        total_jokers = instance.total_jokers
        if slots and total_jokers:
            self.fill[c] = self.writer.new_var(0, total_jokers)
            variables.append(self.fill[c])
            coefficients.append(-1)
            self.joker_vars.append(self.fill[c])
            self.joker_coefficients.append(1)
        self.writer.add_linear(variables, coefficients, table_real, table_real)
        return True

    def _table_jokers(self, c: int) -> None:
        """The table jokers declared ``c``: ``stay`` of them keep that declaration (those
        in kept blocks, and any of ``fill[c]``), and RULES.md's counting rule
        ``table_jokers[c] - stay <= table_real[c] + play[c]``: a joker whose declaration
        changes is covered by a real copy of its card on the final table."""
        jokers_here = self.instance.table_jokers[c]
        if not jokers_here:
            return
        writer = self.writer
        kept_vars = [kept for _, kept in self.kept_jokers[c]]
        kept_counts = [count for count, _ in self.kept_jokers[c]]
        self.joker_vars.extend(kept_vars)
        self.joker_coefficients.extend(kept_counts)
        stay = writer.new_var(0, jokers_here)
        negated = [-count for count in kept_counts]
        if c in self.fill:
            # kept here <= stay <= kept here + fill[c]
            writer.add_linear([stay, *kept_vars], [1, *negated], 0, AT_LEAST)
            writer.add_linear([stay, *kept_vars, self.fill[c]], [1, *negated, -1], AT_MOST, 0)
        else:
            writer.add_linear([stay, *kept_vars], [1, *negated], 0, 0)
        table_real = self.instance.table_real[c]
        if c in self.play:
            writer.add_linear([stay, self.play[c]], [1, 1], jokers_here - table_real, AT_LEAST)
        else:
            writer.add_linear([stay], [1], jokers_here - table_real, AT_LEAST)

    def _joker_total(self) -> None:
        """Jokers never leave the table: the jokers placed (in kept blocks or as fills)
        are the table's jokers plus the hand jokers played."""
        if not self.instance.total_jokers:
            return
        if self.jokers_played is not None:
            self.joker_vars.append(self.jokers_played)
            self.joker_coefficients.append(-1)
        total = sum(self.instance.table_jokers)
        self.writer.add_linear(self.joker_vars, self.joker_coefficients, total, total)

    def _play_something(self) -> list[int]:
        """A play adds at least one piece from the hand; returns the played-piece variables."""
        played_vars = list(self.play.values())
        if self.jokers_played is not None:
            played_vars.append(self.jokers_played)
        self.writer.add_linear(played_vars, [1] * len(played_vars), 1, AT_LEAST)
        return played_vars

    def _keep_jokers(self, played_vars: list[int]) -> None:
        """``keep_jokers``: hand jokers are played only when every piece of the hand is."""
        instance = self.instance
        if not instance.keep_jokers or self.jokers_played is None:
            return
        hand_size = sum(instance.hand_real) + instance.hand_jokers
        goes_out = self.writer.new_var(0, 1)
        self.writer.add_linear([self.jokers_played, goes_out], [1, -instance.hand_jokers], AT_MOST, 0)
        self.writer.add_linear(
            played_vars, [1] * len(played_vars), hand_size, hand_size, enforced_by=goes_out
        )

    def _opening(self) -> None:
        """The opening rule: the new melds (all from the rack, since every old meld is
        kept as it is) are worth at least the variant's opening points."""
        if not self.opening:
            return
        variant = self.instance.variant
        values = [sum(variant.tile_value(t) for t in template.cards) for template in self.instance.templates]
        self.writer.add_linear(self.copies, values, variant.opening_points, AT_LEAST)

    def _objective(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """Minimize ``weight * primary + broken`` with ``broken = len(keep) - sum(keep)``
        and ``weight = len(keep) + 1``; returns the primary term (points or cards left)."""
        instance = self.instance
        left_terms = list(self.play.values())
        left_weights = [-instance.hand_weight(c) for c in self.play]
        constant = sum(instance.hand_weight(c) * instance.hand_real[c] for c in self.play)
        if self.jokers_played is not None:
            left_terms.append(self.jokers_played)
            left_weights.append(-instance.joker_weight)
            constant += instance.joker_weight * instance.hand_jokers
        weight = len(self.keep) + 1
        self.writer.minimize(
            left_terms + self.keep,
            [weight * w for w in left_weights] + [-1] * len(self.keep),
            weight * constant + len(self.keep),
        )
        return tuple(left_terms), tuple(left_weights), constant
