"""The search's configurations: what the hand does that fixes how many table jokers are freed.

RULES.md's counting rule lets at most as many table jokers declared X change their
declaration as real X cards end on the table.  Freeing a joker whenever the rule allows
never loses (a freed joker may keep its old declaration), so the only choice that
matters is how many real X end on the table.  Table cards all stay, so that number
depends on the hand only for a card X with more table jokers declared X than real X on
the table and a copy of X in the hand: one configuration per number of those hand
copies played (exactly 0, 1, ..., or enough to free every such joker and any more
freely).  Each configuration is one search; the engine takes the least cost.

``keep_jokers`` adds the same kind of choice for hand jokers: either they stay in the
hand (at their cost), or the play goes out, every hand piece played and the hand jokers
wildcards that must be used.

The method is the one ``solver/exact.py`` (the oracle) documents; this module is the C
search's own copy of it, over per-card lists the search reads directly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from solver.cards import CARD_KINDS

__all__ = ["Config", "configurations"]


@dataclass(frozen=True, slots=True)
class Config:
    """One search's hand and freeing capacities, per card index."""

    optional: tuple[int, ...]
    """Hand copies the search may play or leave."""
    forced: tuple[int, ...]
    """Hand copies the search must play."""
    free: tuple[int, ...]
    """Table jokers declared as each card that may be freed."""
    jokers: int
    """Hand jokers the search may play or leave."""
    wild: int
    """Hand jokers the search must play (going out under ``keep_jokers``)."""
    played: bool
    """Whether the configuration already plays a hand piece."""
    cost: int
    """What the hand pieces this configuration keeps in the hand by force cost."""


def configurations(
    hand: Sequence[int],
    hand_jokers: int,
    table_real: Sequence[int],
    table_jokers: Sequence[int],
    costs: Sequence[int],
    joker_cost: int,
    *,
    keep_jokers: bool,
) -> Iterator[Config]:
    """Every configuration of a position given by per-card counts (52 entries each).

    ``costs`` and ``joker_cost`` are what leaving a card or a joker in the hand costs."""
    # Only a card some table joker stands for can free one: most tables have none, and
    # the per-card lists are then the hand as it is and no freeing.
    jokered = [x for x, count in enumerate(table_jokers) if count] if any(table_jokers) else []
    short = {x: table_jokers[x] - table_real[x] for x in jokered if table_jokers[x] > table_real[x]}
    deciding = [x for x in short if hand[x]]
    # Most copies played first: that is usually the best play, and it caps the others.
    levels = [range(min(hand[x], short[x]), -1, -1) for x in deciding]
    outs = (False, True) if keep_jokers and hand_jokers else (False,)
    for going_out in outs:
        for chosen in product(*levels):
            optional = list(hand)
            forced = [0] * CARD_KINDS
            cost = 0
            feasible = True
            for x, played in zip(deciding, chosen, strict=True):
                forced[x] = played
                optional[x] -= played
                if played < short[x]:
                    # Exactly ``played`` copies: one more would free one more joker.
                    cost += optional[x] * costs[x]
                    feasible &= not (going_out and optional[x])
                    optional[x] = 0
            if not feasible:
                continue
            free = [0] * CARD_KINDS
            for x in jokered:
                free[x] = min(table_jokers[x], table_real[x] + forced[x])
            if going_out:
                forced = [forced[x] + optional[x] for x in range(CARD_KINDS)]
                optional = [0] * CARD_KINDS
                jokers, wild = 0, hand_jokers
            elif keep_jokers:
                jokers, wild = 0, 0
                cost += hand_jokers * joker_cost
            else:
                jokers, wild = hand_jokers, 0
            yield Config(
                optional=tuple(optional),
                forced=tuple(forced),
                free=tuple(free),
                jokers=jokers,
                wild=wild,
                played=any(forced) or wild > 0,
                cost=cost,
            )
