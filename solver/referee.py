"""The referee: judge a play from the rules alone, never from the solver.

``check_play(before, after)`` compares the position before the play with the table
after it and lists every rule the play breaks.  Jokers are interchangeable, so the
locked-joker rule is judged by counting (RULES.md): for each card X, the table
jokers declared X before the play that are declared otherwise after it number at
least ``max(0, before_X - after_X)``, and that many must be covered by real X cards
on the table after the play.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from solver.cards import Card, Joker
from solver.melds import Meld
from solver.position import Position, Table, as_position, as_table, count_real, declared_jokers
from solver.variants import Variant, as_variant

__all__ = ["Verdict", "check_play", "played_pieces"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a play is legal, and every reason it is not."""

    ok: bool
    reasons: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "reasons": list(self.reasons)}


def played_pieces(before: Position, after: Table) -> tuple[Counter[Card], int]:
    """Real cards and the number of jokers that the play added to the table."""
    added = count_real(after.pieces)
    added.subtract(count_real(before.table.pieces))
    jokers_added = _joker_count(after) - _joker_count(before.table)
    return +added, jokers_added


def _joker_count(table: Table) -> int:
    return sum(isinstance(piece, Joker) for piece in table.pieces)


def check_play(
    before: Position | str,
    after: Table | str,
    *,
    variant: Variant | str | None = None,
    opened: bool = True,
) -> Verdict:
    """Judge the play that turns ``before`` into ``after``.

    ``before`` is a Position or its notation, ``after`` a Table or its notation, and
    ``variant`` a Variant, a preset's name or None (Manipulation Rummy); options are
    keyword-only, as everywhere in the library.  ``opened=False`` applies the variant's
    opening rule (Rummikub: the first meld uses only rack tiles worth
    ``opening_points`` and leaves the table as it was).  The before-position is assumed
    valid (see ``Position.validate``).
    """
    rules = as_variant(variant)
    before = as_position(before)
    after = as_table(after)
    reasons: list[str] = []
    for meld in after:
        if any(isinstance(p, Joker) and p.declared is None for p in meld.pieces):
            reasons.append(f"meld {meld}: every joker on the table must be declared, e.g. *7h")
            continue
        problem = meld.problem(rules)
        if problem is not None:
            reasons.append(f"meld {meld} is illegal: {problem}")

    before_real = count_real(before.table.pieces)
    after_real = count_real(after.pieces)
    hand_real = count_real(before.hand.pieces)
    for card in sorted(set(before_real) | set(after_real)):
        change = after_real[card] - before_real[card]
        if change < 0:
            reasons.append(f"table card {card} was removed: table cards never go back to a hand")
        elif change > hand_real[card]:
            have = hand_real[card]
            reasons.append(
                f"{card} added {change} time(s) but the hand holds {have}"
                if have
                else f"{card} is neither on the table nor in the hand"
            )

    jokers_before, jokers_after = _joker_count(before.table), _joker_count(after)
    if jokers_after < jokers_before:
        reasons.append("a joker left the table: table jokers stay on the table")
    elif jokers_after - jokers_before > before.hand.joker_count:
        reasons.append(
            f"{jokers_after - jokers_before} joker(s) added but the hand holds {before.hand.joker_count}"
        )

    played_real, played_jokers = played_pieces(before, after)
    if sum(played_real.values()) + max(played_jokers, 0) == 0:
        reasons.append("no card from the hand was played: a meld adds at least one hand card")

    reasons.extend(_locked_joker_problems(before.table, after, after_real))
    if not opened and rules.opening_points:
        reasons.extend(_opening_problems(before.table, after, rules))
    return Verdict(ok=not reasons, reasons=reasons)


def _locked_joker_problems(before: Table, after: Table, after_real: Counter[Card]) -> list[str]:
    declared_before = declared_jokers(before.pieces)
    declared_after = declared_jokers(after.pieces)
    found = []
    for card in sorted(declared_before):
        changed = declared_before[card] - declared_after[card]
        if changed > after_real[card]:
            found.append(
                f"the joker declared {card} changed its declaration, but only "
                f"{after_real[card]} real {card} is on the table to free it "
                "(a table joker keeps its card until the real card takes its place)"
            )
    return found


def _opening_problems(before: Table, after: Table, variant: Variant) -> list[str]:
    remaining = Counter(before.melds)
    new_melds: list[Meld] = []
    for meld in after:
        if remaining[meld] > 0:
            remaining[meld] -= 1
        else:
            new_melds.append(meld)
    found = []
    if +remaining:
        found.append("an opening meld leaves the table as it was: it may not use or move table cards")
    value = sum(variant.tile_value(card) for meld in new_melds for card in meld.cards)
    if value < variant.opening_points:
        found.append(
            f"an opening meld must be worth at least {variant.opening_points} points "
            f"from the hand alone, this one is worth {value}"
        )
    return found
