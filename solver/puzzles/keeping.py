"""Going out while some old melds stay whole: questions asked of the hint engine's own model.

``can_go_out(position, variant, keep=..., attach=...)`` asks whether the whole hand can be
played in one legal play in which the old melds numbered in ``keep`` (0-based) stay whole,
and each ``(meld, card)`` of ``attach`` has that hand card laid at the end of that old meld
(a sequence end, or the fourth suit of a three-card group), which then also stays whole.

"Whole" is the hint engine's notion (``solver.cpsat.model``, RULES.md's tie-break): every
piece of the old meld ends in one meld, which grows at its ends; a table joker in it keeps
its declaration, or moves along the meld where a real copy of its card frees it (a real
card taking its place, the joker going to an end).  The model is the engine's
``build_model`` unchanged, with its objective dropped and a few constraints added: all
hand pieces played, ``keep[i] = 1`` for the kept melds, and for an attached card, its slot
right beyond the meld's end filled (by an extension variable, or by a new sequence piece
that continues the meld).  The model counts slots,
so "the card fills the slot" also covers a joker declared as that card filling it while
the real card sits elsewhere: the same table up to a ``Layout``'s joker swaps.
"""

from __future__ import annotations

from collections.abc import Iterable

from ortools.sat.python import cp_model

from solver.cards import Card, Rank
from solver.cpsat import HintModel, Instance, build_instance, build_model, set_domain
from solver.melds import Meld, position_card
from solver.position import Position
from solver.puzzles.sat import CHECK_TIME_LIMIT, Answer, answer_of, new_solver
from solver.variants import Variant

__all__ = ["can_go_out", "fits"]


def fits(meld: Meld, card: Card, variant: Variant) -> bool:
    """Whether ``card`` laid on ``meld`` as it stands makes a legal meld."""
    return Meld.of((*meld.pieces, card)).is_legal(variant)


def can_go_out(
    position: Position,
    variant: Variant,
    *,
    keep: Iterable[int] = (),
    attach: Iterable[tuple[int, Card]] = (),
    time_limit: float = CHECK_TIME_LIMIT,
) -> Answer:
    """``yes`` when some legal play empties the hand with those melds whole and those cards
    attached, ``no`` when none does (proven), ``unknown`` when the time limit passed.

    Raises ValueError for a meld number out of range, or an attached card that is not
    in the hand or does not fit its meld.
    """
    position.validate(variant)
    if not len(position.hand):
        raise ValueError("the hand is empty: there is nothing to go out with")
    instance = build_instance(position, variant, objective="cards")
    built = build_model(instance)
    model = built.model
    model.clear_objective()  # type: ignore[no-untyped-call]
    # Every hand piece played: the play counts fixed at the hand's counts.
    for c, index in built.play.items():
        set_domain(model, index, instance.hand_real[c], instance.hand_real[c])
    if built.hand_jokers_played is not None:
        set_domain(model, built.hand_jokers_played, instance.hand_jokers, instance.hand_jokers)
    melds = len(instance.old_melds)
    for i in keep:
        if not 0 <= i < melds:
            raise ValueError(f"meld number {i} is out of range: the table has {melds} melds (0-based)")
        set_domain(model, built.keep[i], 1, 1)
    for i, card in attach:
        if not 0 <= i < melds:
            raise ValueError(f"meld number {i} is out of range: the table has {melds} melds (0-based)")
        if card not in position.hand.pieces:
            raise ValueError(f"{card} is not in the hand")
        if not fits(instance.old_melds[i].meld, card, variant):
            raise ValueError(f"{card} does not fit meld {instance.old_melds[i].meld}")
        model.add(cp_model.LinearExpr.sum(_adjacent_slot(instance, built, i, card)) >= 1)
    return answer_of(new_solver(time_limit).solve(model))


def _adjacent_slot(instance: Instance, built: HintModel, meld: int, card: Card) -> list[cp_model.IntVar]:
    """Variables whose sum counts how often ``card`` fills a slot right beyond an end of
    old meld ``meld``, in a meld that holds the old meld whole.

    That slot is filled either by the first extension variable of a chain (the model lists
    a meld's extension variables chain by chain, in the order of
    ``OldMeld.extension_chains``, nearest slot first), or for a meld with table jokers by
    the supply variable of an ``adjacent`` slot of its own keep form (the model lists
    those in ``KeepForm.slot_cards`` order, form after form), or, for a sequence, by a new
    sequence piece that starts (or ends) right beyond the meld: the kept meld and that
    piece join into one legal sequence.
    """
    old = instance.old_melds[meld]
    variables = built.extend[meld]
    slots = [len(form.slot_cards) for form in old.forms] or [len(chain) for chain in old.extension_chains]
    if sum(slots) != len(variables):
        raise AssertionError("the hint model's extension variables do not follow the instance's slots")
    terms: list[cp_model.IntVar] = []
    at = 0
    if old.forms:
        for form in old.forms:
            for slot in form.adjacent:
                c, index = variables[at + slot]
                if c == card.index:
                    terms.append(built.variable(index))
            at += len(form.slot_cards)
    for chain in old.extension_chains:
        c, index = variables[at]
        if c == card.index == chain[0]:
            terms.append(built.variable(index))
        at += len(chain)
    if old.meld.kind(instance.variant) == "sequence":
        cards = old.meld.cards
        low = 1 if cards[0].rank == Rank.ACE else int(cards[0].rank)
        high = low + len(cards) - 1
        for m, template in enumerate(instance.templates):
            first = template.cards[0]
            if template.kind != "sequence" or first.suit != card.suit:
                continue
            start = 1 if first.rank == Rank.ACE else int(first.rank)
            end = start + len(template.cards) - 1
            after = start == high + 1 and position_card(start, card.suit) == card
            before = end == low - 1 and position_card(end, card.suit) == card
            if after or before:
                terms.append(built.variable(built.copies[m]))
    if not terms:
        raise AssertionError(f"{card} fits meld {old.meld} but the model has no slot for it there")
    return terms
