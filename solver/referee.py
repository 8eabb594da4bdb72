"""The referee: judge a play from the rules alone, never from the solver.

``check_play(before, after)`` compares the position before the play with the table
after it and lists every rule the play breaks.  Jokers are interchangeable, so the
locked-joker rule is judged by counting (RULES.md): for each card X, the table
jokers declared X before the play that are declared otherwise after it number at
least ``max(0, before_X - after_X)``, and that many must be covered by real X cards
on the table after the play.

``melds_broken(before, after)`` counts the old melds a play breaks, the hint engine's
tie-break (docs/rules.md): an old meld is unbroken when all of its pieces end in one
meld of the new table, its table jokers included, whatever they are declared as there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from solver.cards import ALL_CARDS, CARD_KINDS, Card, Joker
from solver.melds import Meld
from solver.position import Hand, Position, Table, as_position, as_table, count_real, declared_jokers
from solver.variants import Variant, as_variant

__all__ = ["Verdict", "check_play", "melds_broken", "played_pieces"]


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
    ``opening_points`` and leaves the table as it was).  A before-position given as
    notation is validated (``PositionError`` for one the deck cannot produce); a
    ``Position`` is assumed valid (see ``Position.validate``), as the engines' own
    positions are.
    """
    rules = as_variant(variant)
    typed = isinstance(before, str)
    before = as_position(before)
    if typed:
        before = before.validate(rules)
    after = as_table(after)
    reasons: list[str] = []
    for meld in after:
        fault = meld.fault(rules)
        if fault is None:
            continue
        if meld.has_undeclared_joker:  # the meld's fault may be its size, but this is what to fix
            reasons.append(f"meld {meld}: every joker on the table must be declared, e.g. *7h")
        else:
            reasons.append(f"meld {meld} is illegal: {fault.text}")

    before_real, declared_before, jokers_before = _tally(before.table.melds)
    after_real, declared_after, jokers_after = _tally(after.melds)
    hand_real, _, _ = _tally((before.hand,))
    played_real = 0
    for index, card in enumerate(ALL_CARDS):  # in card order, as the reasons are listed
        change = after_real[index] - before_real[index]
        if change < 0:
            reasons.append(f"table card {card} was removed: table cards never go back to a hand")
            continue
        played_real += change
        if change > hand_real[index]:
            have, laid = hand_real[index], before_real[index]
            if have:
                reasons.append(f"{card} added {change} time(s) but the hand holds {have}")
            elif laid:
                reasons.append(
                    f"{card} is on the table {after_real[index]} time(s) after the play, but the table "
                    f"held {laid} and the hand none"
                )
            else:
                reasons.append(f"{card} is neither on the table nor in the hand")

    if jokers_after < jokers_before:
        reasons.append("a joker left the table: table jokers stay on the table")
    elif jokers_after - jokers_before > before.hand.joker_count:
        reasons.append(
            f"{jokers_after - jokers_before} joker(s) added but the hand holds {before.hand.joker_count}"
        )

    # What ``played_pieces`` counts, from the tallies above.
    if played_real + max(jokers_after - jokers_before, 0) == 0:
        reasons.append("no card from the hand was played: a meld adds at least one hand card")

    reasons.extend(_locked_joker_problems(declared_before, declared_after, after_real))
    if not opened and rules.opening_points:
        reasons.extend(_opening_problems(before.table, after, rules))
    return Verdict(ok=not reasons, reasons=reasons)


def _tally(holders: Iterable[Meld | Hand]) -> tuple[list[int], list[int], int]:
    """The real cards the melds (or hands) hold, by card index (copies of each), their
    jokers by the index of the declared card, and how many jokers they hold, in one pass
    (``count_real``, ``declared_jokers`` and ``_joker_count`` at once, without hashing a
    card: the referee judges every plan the service answers)."""
    real = [0] * CARD_KINDS
    declared = [0] * CARD_KINDS
    jokers = 0
    for holder in holders:
        for piece in holder.pieces:
            if isinstance(piece, Card):
                real[piece.index] += 1
            else:
                jokers += 1
                if piece.declared is not None:
                    declared[piece.declared.index] += 1
    return real, declared, jokers


def _locked_joker_problems(
    declared_before: list[int], declared_after: list[int], after_real: list[int]
) -> list[str]:
    """By card index, as ``_tally`` counts."""
    found = []
    for index, card in enumerate(ALL_CARDS):
        changed = declared_before[index] - declared_after[index]
        have = after_real[index]
        if declared_before[index] and changed > have:
            verb = "is" if have == 1 else "are"
            real = f"no real {card} is" if have == 0 else f"only {have} real {card} {verb}"
            found.append(
                f"the joker declared {card} changed its declaration, but {real} on the table to free it "
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
    value = _hand_value(new_melds, list(remaining.elements()), variant)
    if value < variant.opening_points:
        found.append(
            f"an opening meld must be worth at least {variant.opening_points} points "
            f"from the hand alone, this one is worth {value}"
        )
    return found


def _hand_value(new_melds: list[Meld], broken: list[Meld], variant: Variant) -> int:
    """What the hand laid in an opening's new melds is worth, each joker as the card it
    stands for.  With the old melds all kept (the rule), the new melds are the hand's
    pieces.  Otherwise (a rule already broken, but the figure should still be the
    hand's): the real cards the new melds hold beyond the broken melds', and for each
    joker the hand added, the lowest of the declarations the broken melds did not have
    (a table joker declared again is not the hand's)."""
    if not broken:
        return sum(variant.tile_value(card) for meld in new_melds for card in meld.cards)
    new_real, new_declared, new_jokers = _tally(new_melds)
    old_real, old_declared, old_jokers = _tally(broken)
    value = sum(
        max(0, new_real[index] - old_real[index]) * variant.tile_value(card)
        for index, card in enumerate(ALL_CARDS)
    )
    fresh = sorted(
        variant.tile_value(card)
        for index, card in enumerate(ALL_CARDS)
        for _ in range(max(0, new_declared[index] - old_declared[index]))
    )
    return value + sum(fresh[: max(0, new_jokers - old_jokers)])


def _old_meld_hosts(
    old: Table, rooms: list[Counter[Card]], joker_rooms: list[Counter[Card]]
) -> tuple[list[tuple[Counter[Card], Counter[Card]]], list[list[int]], list[int]]:
    """For ``melds_broken``: the old melds as (real cards, declared jokers), those
    without jokers first; for each, the new melds (by index) with room for all of it;
    and for each index, how many melds from there on have no such host (a bound)."""
    # Melds without jokers first: only the jokers' choices decide the counting rule, so
    # a failing choice is undone before any other.
    needs = sorted(
        ((count_real(meld.pieces), declared_jokers(meld.pieces)) for meld in old),
        key=lambda need: sum(need[1].values()),
    )
    hosts = [
        [
            j
            for j, room in enumerate(rooms)
            if need <= room and sum(jokers.values()) <= sum(joker_rooms[j].values())
        ]
        for need, jokers in needs
    ]
    homeless = [0] * (len(needs) + 1)
    for i in range(len(needs) - 1, -1, -1):
        homeless[i] = homeless[i + 1] + (not hosts[i])
    return needs, hosts, homeless


def melds_broken(before: Table | str, after: Table | str) -> int:
    """How many old melds of ``before`` the table ``after`` breaks (RULES.md's tie-break).

    An old meld is unbroken when all of its pieces end in one meld of ``after``: its real
    cards, and its table jokers whatever they are declared as there (a joker moving along
    its own meld does not break it).  Copies of a card are alike and so are jokers, so
    the count is the fewest over every way of telling them apart that the counting rule
    allows: for each card X, the table jokers declared X that end declared otherwise (in
    their kept meld, or anywhere else) are at most the real X on ``after``.  ``after``
    is taken to be a legal play from ``before`` (``check_play``).
    """
    old, new = as_table(before), as_table(after)
    rooms = [count_real(meld.pieces) for meld in new]
    joker_rooms = [declared_jokers(meld.pieces) for meld in new]
    needs, hosts, homeless = _old_meld_hosts(old, rooms, joker_rooms)
    real_after = count_real(as_table(after).pieces)
    table_jokers = declared_jokers(old.pieces)
    final_jokers = declared_jokers(new.pieces)
    kept_jokers: Counter[Card] = Counter()
    """Table jokers (by their old card) in the old melds kept so far."""
    taken: Counter[Card] = Counter()
    """Jokers of the new table (by their card) that those took."""
    changed: Counter[Card] = Counter()
    """Of those table jokers, how many are declared otherwise now (by their old card)."""
    best = len(needs)

    def rule_holds() -> bool:
        # The other table jokers take the other jokers of the new table, keeping their
        # cards where they can.
        for card, count in table_jokers.items():
            rest = count - kept_jokers[card] - max(0, final_jokers[card] - taken[card])
            if changed[card] + max(0, rest) > real_after[card]:
                return False
        return True

    def place(i: int, broken: int) -> None:
        nonlocal best
        if broken + homeless[i] >= best:
            return
        if i == len(needs):
            if rule_holds():
                best = broken
            return
        need, jokers = needs[i]
        size = sum(jokers.values())
        for j in hosts[i]:
            if not need <= rooms[j]:
                continue  # a copy this meld needs went to another old meld
            rooms[j].subtract(need)
            for chosen in _sub_multisets(+joker_rooms[j], size):
                moved = jokers - chosen
                joker_rooms[j].subtract(chosen)
                taken.update(chosen)
                kept_jokers.update(jokers)
                changed.update(moved)
                place(i + 1, broken)
                changed.subtract(moved)
                kept_jokers.subtract(jokers)
                taken.subtract(chosen)
                joker_rooms[j].update(chosen)
            rooms[j].update(need)
            if best == broken + homeless[i]:
                return
        place(i + 1, broken + 1)

    place(0, 0)
    return best


def _sub_multisets(pool: Counter[Card], size: int) -> Iterator[Counter[Card]]:
    """Every sub-multiset of ``pool`` with ``size`` elements (cards in a fixed order)."""
    cards = sorted(pool, key=lambda card: card.index)

    def pick(at: int, left: int) -> Iterator[Counter[Card]]:
        if left == 0:
            yield Counter()
            return
        if at == len(cards):
            return
        card = cards[at]
        for count in range(min(pool[card], left), -1, -1):
            for rest in pick(at + 1, left - count):
                if count:
                    rest[card] += count
                yield rest

    return pick(0, size)
