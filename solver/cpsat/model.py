"""The CP-SAT model of a best play (den Hertog-style counting, with jokers and kept melds).

Variables:

- ``x[m]``: how many copies of candidate meld ``m`` (groups, sequences of 3-5) the new
  table holds, besides the old melds kept whole;
- ``keep[i]``: old meld ``i`` stays whole: all of its pieces end in one meld of the new
  table.  Without table jokers it is kept as a block, and ``ext[i][j]`` grows it by one
  card at a time outward (sequence ends, the fourth suit of a group), so every final
  meld that contains it entire is expressible;
- with table jokers, the meld that holds it is one of its *keep forms*
  (``solver.cpsat.instance.KeepForm``: a sequence through its real cards, or a group of
  their rank), chosen by ``form[i][f]`` (``keep[i]`` is their sum), with slots around
  the real cards: a slot in use holds either a card or joker from the common supply
  (``ext``, counted in the card's balance) or one of the meld's own jokers (``pin``),
  declared as the slot's card.  A pin on a slot of its old card keeps its declaration;
  elsewhere the joker has moved along its meld and changed its declaration, which the
  counting rule below pays for with a real copy of its old card (a real card taking
  the joker's place, or one anywhere on the table).  The pins of a form in use number
  the meld's jokers; slots between the real cards are in use, a chain slot only if the
  one nearer the real cards is, and at most two supply slots lie beyond a chain's
  outermost pin (three more make a meld of their own).  A meld whose jokers no real card
  can free has pins only on slots of their own cards (``KeepForm.pinnable``): the block
  with its extensions, as without jokers;
- ``inside[i][f][j]``: a joker moving along its meld may pass another old meld ``j`` of
  the suit, which then lies whole in the same meld, its real cards on the form's chain
  slots and its jokers pinned like the form's own (``solver.cpsat.instance.Nest``; only
  with a pin beyond it, else the meld could be cut in two): ``keep[j]`` is then its own
  forms' (or block's) ``own[j]`` plus the nestings;
- ``play[c]``: hand copies of card ``c`` played; ``hand_jokers_played``;
- ``fill[c]``: jokers declared ``c`` outside kept melds' pins and blocks;
- ``stay[c]``: table jokers declared ``c`` that keep that declaration.

For each card ``c`` the supply slots of ``c`` in new melds and kept melds are filled by
the real ``c`` not reserved by kept melds, plus ``fill[c]`` jokers.  The counting rule
of RULES.md is ``table_jokers[c] - stay[c] <= table_real[c] + play[c]``: jokers whose
declaration changed are covered by real copies of their card on the final table.
With at most two jokers in play every 3-card meld keeps a real card, so the rule that
a meld holds a real card needs no constraint (``hint`` rejects more jokers).

The objective is lexicographic in one integer: ``weight * primary + broken`` where the
primary term is the points (or cards) left in the hand, ``broken`` counts the old melds
not kept, and ``weight = len(old melds) + 1``.

The model is written straight into the proto (``solver.cpsat.proto``): variables are
indices, and ``HintModel.variable`` gives the ``IntVar`` of one for callers that add
constraints of their own with ``CpModel``'s API.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cards import CARD_KINDS
from solver.cpsat.instance import Instance, Nest, OldMeld
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
    """Per old meld: (card index, supply slot variable).  Without table jokers the
    extensions, chain by chain, nearest first; with them every keep form's slots in
    ``KeepForm.slot_cards`` order, form after form."""
    pins: list[list[tuple[int, int]]]
    """Per old meld with table jokers: (card index, pin variable) of the keep forms' slots
    a joker may take (``KeepForm.pinnable``): one of the jokers, declared as that card."""
    nested: list[list[tuple[int, int]]]
    """Per old meld with table jokers: (old meld, variable) of the old melds its keep
    forms may hold whole too (``solver.cpsat.instance.Nest``)."""
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
        self.pins: list[list[tuple[int, int]]] = []
        self.nested: list[list[tuple[int, int]]] = []
        self.reserved_real: list[list[tuple[int, int]]] = [[] for _ in range(CARD_KINDS)]
        """Per card index: (real copies, keep variable) of the old melds holding it."""
        self.kept_jokers: list[list[tuple[int, int]]] = [[] for _ in range(CARD_KINDS)]
        """Per declared card index: (jokers, variable) of the table jokers declared so that
        keep that declaration in kept melds (a block's keep variable, or a pin)."""
        self.pinned_jokers: list[list[tuple[int, int]]] = [[] for _ in range(CARD_KINDS)]
        """Per declared card index: (jokers, keep variable) of the old melds with keep
        forms holding jokers declared so: kept, those jokers are pinned in their meld."""
        self.pinned_stays: list[list[int]] = [[] for _ in range(CARD_KINDS)]
        """Per declared card index: the ``kept_jokers`` variables of pins (coefficient 1)."""
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
            self.pins,
            self.nested,
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
        """``keep[i]`` for each old meld.  A meld without table jokers is a block with its
        extensions: a card may grow a kept meld only if the card nearer to it in the chain
        does (an extension implies the one before it, the first implies ``keep``).  A meld
        with table jokers takes one of its keep forms (``_keep_forms``).  A meld that a
        keep form may nest is kept in its own meld (``own``) or nested in one:
        ``keep = own + nested``.  Before opening, every old meld is kept as it is."""
        writer = self.writer
        old_melds = self.instance.old_melds
        nestable: set[int] = set()
        if not self.opening:
            nestable = {nest.meld for old in old_melds for nests in old.nests for nest in nests}
        own: list[int] = []
        self.nested = [[] for _ in old_melds]
        for i, old in enumerate(old_melds):
            kept = writer.new_var(1, 1) if self.opening else writer.new_var(0, 1)
            self.keep.append(kept)
            own.append(writer.new_var(0, 1) if i in nestable else kept)
            for c, count in old.real:
                self.reserved_real[c].append((count, kept))
            if old.forms and not self.opening:
                self._keep_forms(i, own[i])
                continue
            for c, count in old.jokers:
                self.kept_jokers[c].append((count, kept))
                self.joker_vars.append(kept)
                self.joker_coefficients.append(count)
            grown: list[tuple[int, int]] = []
            for chain in old.extension_chains if not self.opening else ():
                previous = own[i]
                for c in chain:
                    step = writer.new_var(0, 1)
                    writer.add_implication(step, previous)
                    self.demand[c].append(step)
                    grown.append((c, step))
                    previous = step
            self.extend.append(grown)
            self.pins.append([])
        hosts: list[list[int]] = [[] for _ in old_melds]
        for nested in self.nested:
            for j, inside in nested:
                hosts[j].append(inside)
        for j in sorted(nestable):
            # Kept in its own meld, or nested in another's (at most one of them).
            writer.add_linear([self.keep[j], own[j], *hosts[j]], [1, -1] + [-1] * len(hosts[j]), 0, 0)

    def _keep_forms(self, i: int, own: int) -> None:
        """The keep forms of old meld ``i``, which has table jokers (see the module
        docstring): ``form[f]`` sums to ``own``; per slot a supply variable ``ext`` and a
        ``pin`` (a joker of the meld or of a meld nested in the form), at most one of them,
        or a nested meld's real card; the slots between the real cards in use with the
        form, a chain slot only after the one nearer; at most two supply slots beyond a
        chain's outermost pin; a meld nested only with a pin beyond it; the form's pins
        as many as the jokers of its meld and of the melds nested in it.  A pin on a slot
        of a card those jokers were declared as keeps a declaration (``kept_jokers``, at
        most as many as they had of that card)."""
        writer = self.writer
        old_melds = self.instance.old_melds
        old = old_melds[i]
        kept = self.keep[i]
        for c, count in old.jokers:
            self.pinned_jokers[c].append((count, kept))
        if len(old.forms) == 1:
            form_vars = [own]
        else:
            form_vars = [writer.new_var(0, 1) for _ in old.forms]
            writer.add_linear([own, *form_vars], [1] + [-1] * len(form_vars), 0, 0)
        supply: list[tuple[int, int]] = []
        pins: list[tuple[int, int]] = []
        for form, nests, used in zip(old.forms, old.nests or [()] * len(old.forms), form_vars, strict=True):
            # Nested melds: a variable each, and the chain slots their real cards take.
            taken: dict[tuple[int, int], list[int]] = {}
            nested: list[tuple[Nest, int]] = []
            for nest in nests:
                inside = writer.new_var(0, 1)
                nested.append((nest, inside))
                self.nested[i].append((nest.meld, inside))
                for slot in nest.slots:
                    taken.setdefault((nest.chain, slot), []).append(inside)
            form_pins: list[tuple[int, int]] = []
            for c in form.inside:
                ext, pinned = self._slot(c, form.pinnable, supply, form_pins)
                writer.add_linear([ext, *pinned, used], [1] * (1 + len(pinned)) + [-1], 0, 0)
            for number, chain in enumerate(form.chains):
                self._keep_chain(number, chain, form.pinnable, used, taken, nested, supply, form_pins)
            # As many pins as the jokers of the form's meld and of the melds nested in it.
            owners = [(_joker_count(old), used)]
            owners.extend((_joker_count(old_melds[nest.meld]), inside) for nest, inside in nested)
            owners = [(count, var) for count, var in owners if count]
            writer.add_linear(
                [*(pin for _, pin in form_pins), *(var for _, var in owners)],
                [1] * len(form_pins) + [-count for count, _ in owners],
                0,
                0,
            )
            declared: dict[int, list[tuple[int, int]]] = {}
            for c, count in old.jokers:
                declared.setdefault(c, []).append((count, used))
            for nest, inside in nested:
                for c, count in old_melds[nest.meld].jokers:
                    declared.setdefault(c, []).append((count, inside))
            self._kept_declarations(form_pins, declared, used)
            pins.extend(form_pins)
        for c, ext in supply:
            self.demand[c].append(ext)
        for _, var in pins:
            self.joker_vars.append(var)
            self.joker_coefficients.append(1)
        self.extend.append(supply)
        self.pins.append(pins)

    def _keep_chain(
        self,
        number: int,
        chain: tuple[int, ...],
        pinnable: frozenset[int] | None,
        used: int,
        taken: dict[tuple[int, int], list[int]],
        nested: list[tuple[Nest, int]],
        supply: list[tuple[int, int]],
        form_pins: list[tuple[int, int]],
    ) -> None:
        """Chain ``number`` of a keep form in use (``used``), for ``_keep_forms``: each
        slot's supply, pin or nested meld's real card (``taken``), at most one, and only
        after the slot nearer; at most two supply slots beyond the outermost pin; a meld
        ``nested`` in this chain only with a pin beyond it."""
        writer = self.writer
        previous = [used]
        chain_exts: list[int] = []
        chain_pins: list[list[int]] = []
        for step, c in enumerate(chain):
            ext, pinned = self._slot(c, pinnable, supply, form_pins)
            # Its supply, a pin, or a real card of a nested meld: one of them.
            here = [ext, *pinned, *taken.get((number, step), ())]
            writer.add_linear([*here, *previous], [1] * len(here) + [-1] * len(previous), AT_MOST, 0)
            previous = here
            chain_exts.append(ext)
            chain_pins.append(pinned)
        for step in range(2, len(chain)):
            # A third supply slot in a row beyond the outermost pin would be a meld
            # of its own: some pin lies at most two slots nearer.
            outer = [pin for pins_here in chain_pins[step - 2 :] for pin in pins_here]
            writer.add_linear([chain_exts[step], *outer], [1] + [-1] * len(outer), AT_MOST, 0)
        for nest, inside in nested:
            if nest.chain == number:
                # Nested only where a pin lies beyond it (else two melds would do).
                beyond = [pin for pins_here in chain_pins[nest.slots[-1] + 1 :] for pin in pins_here]
                writer.add_linear([inside, *beyond], [1] + [-1] * len(beyond), AT_MOST, 0)

    def _slot(
        self,
        c: int,
        pinnable: frozenset[int] | None,
        supply: list[tuple[int, int]],
        pins: list[tuple[int, int]],
    ) -> tuple[int, list[int]]:
        """A keep form's slot of card ``c``: its supply variable, and a pin where the
        form's jokers may sit (``KeepForm.pinnable``), appended to ``supply`` and ``pins``."""
        ext = self.writer.new_var(0, 1)
        supply.append((c, ext))
        if pinnable is not None and c not in pinnable:
            return ext, []
        pin = self.writer.new_var(0, 1)
        pins.append((c, pin))
        return ext, [pin]

    def _kept_declarations(
        self, pins: list[tuple[int, int]], declared: dict[int, list[tuple[int, int]]], used: int
    ) -> None:
        """Pins on slots of a card ``c`` that jokers of the form's melds were declared as
        keep that declaration, at most as many as those jokers (``declared[c]``: count
        and variable of the meld holding them: the form's ``used``, or a nesting).  Where
        only the form's own jokers were declared ``c`` and there are no more slots of
        ``c`` than they, the pins need no cap (a pin implies the form); else a variable
        caps them."""
        on: dict[int, list[int]] = {}
        for c, pin in pins:
            if c in declared:
                on.setdefault(c, []).append(pin)
        for c, here in on.items():
            owners = declared[c]
            if len(owners) > 1 or owners[0][1] != used or len(here) > owners[0][0]:
                capped = self.writer.new_var(0, sum(count for count, _ in owners))
                self.writer.add_linear([capped, *here], [1] + [-1] * len(here), AT_MOST, 0)
                self.writer.add_linear(
                    [capped, *(var for _, var in owners)], [1] + [-count for count, _ in owners], AT_MOST, 0
                )
                here = [capped]
            self.kept_jokers[c].extend((1, var) for var in here)
            self.pinned_stays[c].extend(here)

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
        in kept blocks or pinned on a slot of ``c`` in their kept meld, and any of
        ``fill[c]``, but not those pinned elsewhere in their kept meld), and RULES.md's counting rule
        ``table_jokers[c] - stay <= table_real[c] + play[c]``: a joker whose declaration
        changes is covered by a real copy of its card on the final table."""
        jokers_here = self.instance.table_jokers[c]
        if not jokers_here:
            return
        writer = self.writer
        kept_vars = [kept for _, kept in self.kept_jokers[c]]
        kept_counts = [count for count, _ in self.kept_jokers[c]]
        stay = writer.new_var(0, jokers_here)
        negated = [-count for count in kept_counts]
        if c in self.fill:
            # kept here <= stay <= kept here + fill[c]
            writer.add_linear([stay, *kept_vars], [1, *negated], 0, AT_LEAST)
            writer.add_linear([stay, *kept_vars, self.fill[c]], [1, *negated, -1], AT_MOST, 0)
        else:
            writer.add_linear([stay, *kept_vars], [1, *negated], 0, 0)
        if self.pinned_jokers[c]:
            # Jokers declared c pinned on other slots of their kept melds have changed
            # their declaration: no fill of c can stand for them.
            #   stay + (pinned jokers of c) - (those pinned on slots of c) <= jokers_here
            owners = self.pinned_jokers[c]
            stays = self.pinned_stays[c]
            writer.add_linear(
                [stay, *(kept for _, kept in owners), *stays],
                [1, *(count for count, _ in owners), *([-1] * len(stays))],
                AT_MOST,
                jokers_here,
            )
        table_real = self.instance.table_real[c]
        if c in self.play:
            writer.add_linear([stay, self.play[c]], [1, 1], jokers_here - table_real, AT_LEAST)
        else:
            writer.add_linear([stay], [1], jokers_here - table_real, AT_LEAST)

    def _joker_total(self) -> None:
        """Jokers never leave the table: the jokers placed (in kept blocks, as pins or as
        fills) are the table's jokers plus the hand jokers played."""
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


def _joker_count(old: OldMeld) -> int:
    return sum(count for _, count in old.jokers)
