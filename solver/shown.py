"""The table in the order the person playing last saw it: one numbering for a game.

A play in the game is a table in canonical order (that is what the log records and
what ``rummy replay`` checks), but a person reads "meld 3" off the screen.  If every
screen printed the canonical order, a play that adds one meld would renumber every meld
after it, and the person's own play, built in their order, would come back shuffled.
``ShownTable`` keeps the screen's order from play to play instead, and every meld
number of ``rummy play`` counts in it: the table shown at the person's turn, the steps
told for the other players' plays, the person's draft ("Your table so far"),
``N + CARDS``, and the hint shown in the game.  The game played on the page
(``solver.play``) keeps its table in this order too, so the steps of the bots' plays and
of a help number melds as the page shows them.

The rule (the help of ``rummy play`` says it short): melds keep their places.  After
a play, a meld built on an old meld (the one whose cards it keeps where they lie, as
``solver.plan`` matches them) takes that meld's place; melds that are gone leave no
gap; melds started from scratch come after the old ones, in the play's order.  The
person's own play keeps the order the person built it in, which follows the same rule
(``N + CARDS`` changes a meld in its place, ``+ MELD`` adds one after the others), or,
for a whole table typed at once, the order typed; a hint played with ``ok`` keeps the
order the hint was shown in.
"""

from __future__ import annotations

from collections import Counter

from solver.melds import Meld
from solver.plan import KeepStep, MeldStep, PlanError, plan_play
from solver.position import Position, Table
from solver.variants import Variant

__all__ = ["ShownTable", "arranged", "same_melds"]


def same_melds(one: Table, other: Table) -> bool:
    """Whether two tables hold the same melds, whatever their order (and the order of
    the pieces inside each meld)."""
    return Counter(Meld.of(meld.pieces) for meld in one) == Counter(Meld.of(meld.pieces) for meld in other)


def arranged(before: Position, after: Table, *, variant: Variant) -> Table:
    """The table ``after`` of a play from ``before`` in the order of the rule (see the
    module docstring): each meld built on an old meld in that meld's place, then the melds
    started from scratch in ``after``'s order.  ``before.table`` is in the order shown;
    an ``after`` that is not a legal play from ``before`` comes back as it is."""
    try:
        plan = plan_play(before, after, variant=variant)
    except PlanError:
        return after
    host: dict[int, int] = {}  # new meld -> the old meld it is built on (1-based)
    for step in plan.steps:
        if isinstance(step, KeepStep):
            host.update((new, old) for old, new in step.pairs)
        elif isinstance(step, MeldStep) and step.on_meld is not None:
            host[step.new_meld] = step.on_meld
    beyond = len(before.table) + 1  # after every old meld's place
    order = sorted(range(1, len(after) + 1), key=lambda new: (host.get(new, beyond), new))
    return Table(tuple(after.melds[new - 1] for new in order))


class ShownTable:
    """The table as shown to the person at the terminal, kept in order across plays.

    One is shared by the person's ``TerminalPlayer`` and the game's ``Narrator``: the
    narrator follows every play (``follow``), the player reads the order (``of``) and
    says which order it gave its own play (``choose``)."""

    def __init__(self) -> None:
        self.table = Table()
        self._chosen: Table | None = None

    def of(self, table: Table) -> Table:
        """``table`` (any order) as shown: the shown order when it holds the same melds.
        A table this order has not followed (a new round, a game joined after its start)
        is shown as it is, and that becomes the order."""
        if not same_melds(self.table, table):
            self.table = table
        return self.table

    def choose(self, table: Table) -> None:
        """The order the person gave the play about to be made: their draft as built, or
        the hint as shown.  The next ``follow`` keeps it if that play is this table."""
        self._chosen = table

    def reset(self) -> None:
        """A new round: the table is empty."""
        self.table = Table()
        self._chosen = None

    def follow(self, before: Position, after: Table, *, variant: Variant) -> tuple[Table, Table]:
        """Move past a play from ``before`` (its table in any order; the hand holds at
        least the pieces played) to ``after``; return the old and the new table as shown.
        The new order is the person's chosen one when the play is that table, else the
        rule's (``arranged``)."""
        old = self.of(before.table)
        chosen, self._chosen = self._chosen, None
        if chosen is not None and same_melds(chosen, after):
            new = Table(tuple(Meld.of(meld.pieces) for meld in chosen))
        else:
            new = arranged(Position(old, before.hand), after, variant=variant)
        self.table = new
        return old, new
