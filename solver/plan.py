"""How to get from the old table to the new one: a short list of steps a person can follow.

A hint gives the final table only.  ``plan_play`` turns it into steps: which old melds
stay untouched, which table jokers are freed (by which real card) and where they go
with their new declaration, and, for every other new meld, which cards come to it from
which old meld or from the hand.

Old melds are named by their 1-based place in the old table ("meld 2"), new melds by
their place in the new table ("new meld 3").  A step that builds on an old meld says
both what it takes out of that meld (and for which new meld) and what it adds.

Fewest cards moved.  A new meld may be built *on* an old meld: the cards they share
stay where they lie, everything else moves.  Each old meld hosts at most one new meld
and each new meld sits on at most one old meld, so choosing the hosts is a bipartite
matching whose weight is the number of shared pieces (jokers count as shared only with
the same declaration).  SciPy's ``linear_sum_assignment`` finds a heaviest one (a
rectangular assignment problem; pairs that share nothing are dropped), and every
piece not kept in place moves exactly once, so no plan reaching the same table moves
fewer pieces.  Ties prefer hosts that leave a meld untouched, then keep the numbering
close (old meld i under new meld i).

Jokers.  A table joker that keeps its declaration simply moves (or stays).  The plan
lets as many table jokers as possible keep their declaration, so the only jokers whose
declaration changes are the ones the rules allow to change: for each card X, the table
jokers declared X beyond the new table's jokers declared X.  Each is credited to a
distinct real X on the new table (RULES.md's counting rule guarantees enough of them).

``Plan.replay`` applies the steps to the old table and the hand and rebuilds the new
table, so a plan can be checked without trusting how it was made.

``Plan.flow`` is the card flow of the play as a networkx graph (``solver.flow``), read
off the steps: it groups the steps into independent rearrangements and measures how
tangled each one is.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.cards import Card, Joker, Piece
from solver.flow import CardFlow, FlowEdge, Node, Rearrangement, rearrangements_of
from solver.melds import Meld
from solver.position import Hand, Position, Table, as_position, as_table
from solver.referee import check_play
from solver.variants import Variant, as_variant

if TYPE_CHECKING:  # the plan imports without OR-Tools: the hint type only for the checker
    from solver.engine import Hint

__all__ = [
    "Departure",
    "JokerStep",
    "KeepStep",
    "MeldStep",
    "Plan",
    "PlanError",
    "Step",
    "Transfer",
    "hint_payload",
    "plan_play",
]


class PlanError(ValueError):
    """The new table cannot be reached from the old position by a legal play, or a
    plan does not replay to its table; the message says why."""


Source = int | None
"""Where pieces come from: an old meld's 1-based number, or None for the hand."""


def _source_name(source: Source) -> str:
    return "your hand" if source is None else f"meld {source}"


def _source_json(source: Source) -> int | str:
    return "hand" if source is None else source


def _cards_text(pieces: Iterable[Piece], pretty: bool = False) -> str:
    return " ".join(piece.pretty if pretty else str(piece) for piece in pieces)


def _numbers(label: str, numbers: Sequence[int]) -> str:
    """``meld 3`` / ``melds 1 and 4`` / ``melds 1, 2 and 5``."""
    if len(numbers) == 1:
        return f"{label} {numbers[0]}"
    listed = ", ".join(str(n) for n in numbers[:-1])
    return f"{label}s {listed} and {numbers[-1]}"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Pieces that go from one source (an old meld, or the hand) to a new meld."""

    source: Source
    pieces: tuple[Piece, ...]

    def to_dict(self) -> dict[str, object]:
        return {"from": _source_json(self.source), "cards": [str(p) for p in self.pieces]}

    def describe(self, *, pretty: bool = False) -> str:
        return f"{_cards_text(self.pieces, pretty)} from {_source_name(self.source)}"


@dataclass(frozen=True, slots=True)
class Departure:
    """Pieces taken out of the old meld a new meld is built on, and the new meld they go to."""

    target: int
    pieces: tuple[Piece, ...]

    def to_dict(self) -> dict[str, object]:
        return {"to": self.target, "cards": [str(p) for p in self.pieces]}

    def describe(self, *, pretty: bool = False) -> str:
        return f"{_cards_text(self.pieces, pretty)} for new meld {self.target}"


@dataclass(frozen=True, slots=True)
class KeepStep:
    """Old melds left exactly as they are, each with its place in the new table."""

    pairs: tuple[tuple[int, int], ...]
    """(old meld number, new meld number)."""

    action = "keep"

    def to_dict(self) -> dict[str, object]:
        return {"action": self.action, "melds": [{"old": old, "new": new} for old, new in self.pairs]}

    @property
    def text(self) -> str:
        return self.describe()

    def describe(self, *, pretty: bool = False) -> str:
        olds = [old for old, _ in self.pairs]
        news = [new for _, new in self.pairs]
        verb = "it is" if len(olds) == 1 else "they are"
        return f"Leave {_numbers('meld', olds)} as {verb} ({_numbers('new meld', news)})."


@dataclass(frozen=True, slots=True)
class JokerStep:
    """A table joker freed by a real card of its declaration, going on with a new one."""

    old_meld: int
    joker: Joker
    """The joker as it was declared on the old table."""
    freed_by: Card
    freed_by_from: Source
    """Where that real card comes from (it may also stay where it lies, in that meld)."""
    freed_by_moves: bool
    """False when the freeing card stays in place on the table."""
    new_meld: int
    declared: Card

    action = "joker"

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.action,
            "old_meld": self.old_meld,
            "joker": str(self.joker),
            "freed_by": str(self.freed_by),
            "freed_by_from": _source_json(self.freed_by_from),
            "new_meld": self.new_meld,
            "declared": str(self.declared),
        }

    @property
    def text(self) -> str:
        return self.describe()

    def describe(self, *, pretty: bool = False) -> str:
        where = _source_name(self.freed_by_from)
        pieces = (self.freed_by, self.joker, Joker(self.declared))
        freed_by, joker, declared = (piece.pretty if pretty else str(piece) for piece in pieces)
        card = f"the {freed_by} {'from' if self.freed_by_moves else 'in'} {where}"
        return (
            f"Free the joker {joker} in meld {self.old_meld} with {card}; "
            f"the joker goes to new meld {self.new_meld} as {declared}."
        )


@dataclass(frozen=True, slots=True)
class MeldStep:
    """One new meld that is not an untouched old meld: where it is built and what comes to it.

    ``on_meld`` is the old meld it is built on (its shared cards stay in place), or None
    for a meld started from scratch.  ``removes`` lists what leaves ``on_meld`` and where
    it goes (each piece is also named, as an arrival, in the step of the meld it goes
    to); a freed joker arriving here is named in its ``JokerStep``.
    """

    new_meld: int
    on_meld: int | None
    meld: Meld
    transfers: tuple[Transfer, ...]
    gets_freed_joker: bool = False
    removes: tuple[Departure, ...] = ()

    action = "meld"

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.action,
            "new_meld": self.new_meld,
            "on_meld": self.on_meld,
            "meld": str(self.meld),
            "remove": [departure.to_dict() for departure in self.removes],
            "add": [transfer.to_dict() for transfer in self.transfers],
        }

    @property
    def text(self) -> str:
        return self.describe()

    def describe(self, *, pretty: bool = False) -> str:
        added = [transfer.describe(pretty=pretty) for transfer in self.transfers]
        if self.gets_freed_joker:
            added.append("the freed joker")
        meld = self.meld.pretty if pretty else str(self.meld)
        if self.on_meld is None:
            head = f"Start new meld {self.new_meld}, {meld}, with "
            return head + _join(added) + "."
        head = f"Meld {self.on_meld} becomes new meld {self.new_meld}, {meld}"
        parts = []
        if self.removes:
            parts.append("take out " + _join([d.describe(pretty=pretty) for d in self.removes]))
        if added:
            parts.append("add " + _join(added))
        return head + (f": {'; '.join(parts)}." if parts else ".")


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


Step = KeepStep | JokerStep | MeldStep


@dataclass(frozen=True, slots=True)
class Plan:
    """Steps from ``before`` to the table ``after``; ``moved`` pieces change place."""

    before: Position
    after: Table
    steps: tuple[Step, ...]
    moved: int
    """Pieces that move (hand cards played included); the fewest for this final table."""
    kept: int
    """Table pieces that stay where they lie."""

    def to_dicts(self) -> list[dict[str, object]]:
        """The structured steps, each with its line of plain English under ``text``."""
        return [{**step.to_dict(), "text": step.text} for step in self.steps]

    def lines(self, *, pretty: bool = False) -> list[str]:
        """One line of plain English per step (``pretty``: suit symbols, as the CLI shows)."""
        return [step.describe(pretty=pretty) for step in self.steps]

    def replay(self, before: Position | None = None) -> Position:
        """Apply the steps to ``before`` (default: the plan's own) and return the table
        they build with the hand that is left.  Raises PlanError when a step takes a
        piece that is not where it says, leaves a piece behind, or says it takes out of
        its meld other pieces than the other steps take from there."""
        return _replay(self.steps, before or self.before, len(self.after))

    def flow(self) -> CardFlow:
        """The card flow of the play (``solver.flow``), read off the steps: which pieces
        go from each old meld, or the hand, to each new meld, and which stay in place."""
        return CardFlow.of(_flow_edges(self.steps, self.after), len(self.before.table), len(self.after))

    def step_numbers(self) -> dict[Node, list[int]]:
        """The 1-based numbers of the steps that touch each old and new meld."""
        touched: defaultdict[Node, list[int]] = defaultdict(list)
        for number, step in enumerate(self.steps, start=1):
            nodes: list[Node]
            if isinstance(step, KeepStep):
                nodes = [n for old, new in step.pairs for n in (("old", old), ("new", new))]
            elif isinstance(step, JokerStep):
                nodes = [("old", step.old_meld), ("new", step.new_meld)]
            else:
                nodes = [("new", step.new_meld)]
                if step.on_meld is not None:
                    nodes.append(("old", step.on_meld))
            for node in nodes:
                touched[node].append(number)
        return dict(touched)

    def rearrangements(self) -> tuple[Rearrangement, ...]:
        """The independent rearrangements of the play (connected parts of the flow
        without the hand), each with its step numbers; see ``solver.flow``.  Read off
        the flow's edges without building its networkx graph (``flow()`` does)."""
        edges = _flow_edges(self.steps, self.after)
        return rearrangements_of(edges, len(self.before.table), len(self.after), self.step_numbers())


def plan_play(before: Position | str, after: Table | str, *, variant: Variant | str | None = None) -> Plan:
    """Steps that turn ``before`` into the table ``after`` while moving the fewest pieces.

    Both may be given in notation; the melds are then numbered as written (``meld 1`` is
    the first one typed).  ``after`` must be a legal play from ``before`` under
    ``variant`` (Manipulation Rummy by default, or a preset's name); otherwise PlanError
    lists the referee's reasons.
    """
    rules = as_variant(variant)
    before = as_position(before, keep_order=True)
    after = as_table(after, keep_order=True)
    verdict = check_play(before, after, variant=rules)
    if not verdict.ok:
        raise PlanError("not a legal play: " + "; ".join(verdict.reasons))
    old = [list(meld.pieces) for meld in before.table]
    new = [list(meld.pieces) for meld in after]
    hosts = _match_hosts(old, new)
    return _Builder(before, after, hosts).build()


def hint_payload(h: Hint, *, before: Position | None = None) -> dict[str, object]:
    """``h.to_dict()`` plus ``moves``: the plan's steps (structured, each with ``text``),
    and ``rearrangements``: the steps grouped into independent rearrangements
    (``solver.flow``); empty lists when the hint has no play.

    ``before`` is the hint's position as the user entered it (``Position.parse(text,
    keep_order=True)``): the steps then number old melds in the order they were typed,
    and ``old_table`` gives that table, so "meld 1" is the first meld the user wrote.
    Without it, old melds are numbered in canonical order."""
    entered = h.position if before is None else before
    if entered.canonical() != h.position.canonical():
        raise ValueError(f"'before' ({entered}) is not the hint's position ({h.position})")
    moves: list[dict[str, object]] = []
    groups: list[dict[str, object]] = []
    if h.has_play:
        plan = plan_play(entered, h.table, variant=h.variant)
        moves = plan.to_dicts()
        groups = [group.to_dict() for group in plan.rearrangements()]
    return {**h.to_dict(), "old_table": str(entered.table), "moves": moves, "rearrangements": groups}


def _match_hosts(old: list[list[Piece]], new: list[list[Piece]]) -> dict[int, int]:
    """Heaviest matching old meld -> new meld (0-based) by shared pieces, ties broken
    toward untouched melds, then toward equal numbers."""
    if not old or not new:
        return {}
    spread = max(len(old), len(new)) + 1
    tie_scale = len(old) * spread + 1  # above any sum of distance terms
    untouched_scale = tie_scale * (len(old) + 1)  # above any tie term
    shared_scale = untouched_scale * (len(old) + 1)  # above any untouched bonus
    # Shared pieces per (old, new) pair, from where each piece lies in the new table.
    holders: defaultdict[Piece, list[tuple[int, int]]] = defaultdict(list)
    for j, new_meld in enumerate(new):
        for piece, count in Counter(new_meld).items():
            holders[piece].append((j, count))
    # NumPy and SciPy load here, on the first plan, not with the module: every CLI command
    # imports the plan layer, and SciPy's optimizer costs a third of a second to import.
    import numpy as np
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    shared = np.zeros((len(old), len(new)), dtype=np.int64)
    for i, old_meld in enumerate(old):
        for piece, count in Counter(old_meld).items():
            for j, held in holders.get(piece, ()):
                shared[i, j] += min(count, held)
    old_sizes = np.array([len(meld) for meld in old])[:, None]
    new_sizes = np.array([len(meld) for meld in new])[None, :]
    untouched = (old_sizes == new_sizes) & (new_sizes == shared)
    distance = np.abs(np.arange(len(old))[:, None] - np.arange(len(new))[None, :])
    weight = shared * shared_scale + untouched * untouched_scale + (spread - distance)
    weight[shared == 0] = 0  # no edge: never worth more than leaving both unmatched
    rows, columns = linear_sum_assignment(weight, maximize=True)
    return {int(i): int(j) for i, j in zip(rows, columns, strict=True) if shared[i, j]}


@dataclass(slots=True)
class _Arrival:
    """A piece that must reach a new meld, once its source is chosen."""

    piece: Piece
    target: int
    source: Source = None


@dataclass(slots=True)
class _Builder:
    """Works out the sources of every piece that moves, then the steps (0-based inside)."""

    before: Position
    after: Table
    hosts: dict[int, int]
    leftover: list[Counter[Piece]] = field(default_factory=list)
    """Per old meld: pieces that must leave it."""
    real_places: dict[Card, list[tuple[Source, int, bool]]] = field(default_factory=dict)
    """Per real card: (source, new meld, moves) of every copy on the new table."""
    routes: set[tuple[Source, int]] = field(default_factory=set)
    """(source, new meld) pairs already used."""

    def build(self) -> Plan:
        old = [Counter(meld.pieces) for meld in self.before.table]
        new = [Counter(meld.pieces) for meld in self.after]
        host_of = {j: i for i, j in self.hosts.items()}
        empty: Counter[Piece] = Counter()
        kept = [old[host_of[j]] & new[j] if j in host_of else empty for j in range(len(new))]
        self.leftover = [
            old[i] - (kept[self.hosts[i]] if i in self.hosts else empty) for i in range(len(old))
        ]
        needed = [new[j] - kept[j] for j in range(len(new))]
        hand_left = Counter(self.before.hand.pieces)
        arrivals = self._real_arrivals(needed, kept, hand_left, host_of)
        joker_steps, joker_arrivals = self._jokers(needed, hand_left, host_of)
        arrivals.extend(joker_arrivals)
        steps: list[Step] = []
        # A host equal to its new meld needs nothing, so nothing arrives there.
        untouched = [(i + 1, j + 1) for i, j in sorted(self.hosts.items()) if old[i] == new[j]]
        if untouched:
            steps.append(KeepStep(tuple(untouched)))
        steps.extend(joker_steps)
        freed_targets = {step.new_meld - 1 for step in joker_steps}
        untouched_new = {new_number - 1 for _, new_number in untouched}
        for j, meld in enumerate(self.after):
            if j in untouched_new:
                continue
            host = host_of.get(j)
            steps.append(
                MeldStep(
                    new_meld=j + 1,
                    on_meld=None if host is None else host + 1,
                    meld=meld,
                    transfers=_transfers(a for a in arrivals if a.target == j),
                    gets_freed_joker=j in freed_targets,
                    removes=() if host is None else _departures(host, j, arrivals, joker_steps),
                )
            )
        kept_count = sum(sum(k.values()) for k in kept)
        moved = self.after.card_count() - kept_count
        return Plan(self.before, self.after, tuple(steps), moved, kept_count)

    def _take(self, piece: Piece, target: int, hand: Counter[Piece]) -> Source:
        """A source for one copy of ``piece``: an old meld that must shed it (one already
        sending cards to ``target`` first, so that steps stay few, then the lowest
        number), else the hand.  Old melds go first: every piece they shed must land
        somewhere, and what is left to find then is exactly the played cards."""
        candidates = [i for i, left in enumerate(self.leftover) if left[piece] > 0]
        if candidates:
            chosen = min(candidates, key=lambda i: ((i + 1, target) not in self.routes, i))
            self.leftover[chosen][piece] -= 1
            self.routes.add((chosen + 1, target))
            return chosen + 1
        if hand[piece] <= 0:  # pragma: no cover - check_play guarantees the pieces exist
            raise PlanError(f"no source for {piece}")
        hand[piece] -= 1
        return None

    def _real_arrivals(
        self,
        needed: list[Counter[Piece]],
        kept: list[Counter[Piece]],
        hand: Counter[Piece],
        host_of: dict[int, int],
    ) -> list[_Arrival]:
        """Sources of the real cards that move, and where every real card of the new
        table comes from (for crediting freed jokers)."""
        arrivals: list[_Arrival] = []
        places: dict[Card, list[tuple[Source, int, bool]]] = defaultdict(list)
        for j, counts in enumerate(needed):
            for card in sorted(p for p in counts.elements() if isinstance(p, Card)):
                source = self._take(card, j, hand)
                arrivals.append(_Arrival(card, j, source))
                places[card].append((source, j, True))
        for j, counts in enumerate(kept):
            for piece in counts.elements():
                if isinstance(piece, Card):
                    places[piece].append((host_of[j] + 1, j, False))
        self.real_places = dict(places)
        return arrivals

    def _jokers(
        self,
        needed: list[Counter[Piece]],
        hand: Counter[Piece],
        host_of: dict[int, int],
    ) -> tuple[list[JokerStep], list[_Arrival]]:
        """Joker slots of the new table not kept in place: table jokers of the same
        declaration first (they just move), then freed table jokers, then hand jokers."""
        joker_slots = [
            (j, p)
            for j, counts in enumerate(needed)
            for p in sorted((p for p in counts.elements() if isinstance(p, Joker)), key=str)
        ]
        arrivals: list[_Arrival] = []
        open_slots: list[tuple[int, Joker]] = []
        for j, joker in joker_slots:
            if any(left[joker] > 0 for left in self.leftover):
                arrivals.append(_Arrival(joker, j, self._take(joker, j, hand)))
            else:
                open_slots.append((j, joker))
        freed = [
            (i, piece)
            for i, left in enumerate(self.leftover)
            for piece in sorted(left.elements(), key=str)
            if isinstance(piece, Joker)
        ]
        steps: list[JokerStep] = []
        for i, joker in freed:
            # Prefer a slot in the meld built on the joker's own old meld: it stays put.
            position = next((n for n, (j, _) in enumerate(open_slots) if host_of.get(j) == i), 0)
            if position >= len(open_slots):  # pragma: no cover - check_play keeps jokers on the table
                raise PlanError(f"no place for the joker {joker} of meld {i + 1}")
            j, slot = open_slots.pop(position)
            self.leftover[i][joker] -= 1
            assert joker.declared is not None and slot.declared is not None
            source, moves = self._freeing_card(joker.declared, i, host_of)
            steps.append(JokerStep(i + 1, joker, joker.declared, source, moves, j + 1, slot.declared))
        for j, slot in open_slots:
            if hand[Joker()] <= 0:  # pragma: no cover - check_play counts the jokers
                raise PlanError("more jokers on the new table than the play can supply")
            hand[Joker()] -= 1
            arrivals.append(_Arrival(slot, j, None))
        return steps, arrivals

    def _freeing_card(self, card: Card, old_index: int, host_of: dict[int, int]) -> tuple[Source, bool]:
        """A real copy of ``card`` on the new table to credit with freeing a joker: one
        that lands in the meld built on the joker's old meld, else one from the hand,
        else any; each copy frees one joker."""
        places = self.real_places.get(card, [])
        if not places:  # pragma: no cover - check_play enforces the counting rule
            raise PlanError(f"no real {card} on the new table to free its joker")

        def rank(entry: tuple[Source, int, bool]) -> tuple[int, int]:
            source, target, _ = entry
            return (host_of.get(target) != old_index, source is not None)

        best = min(places, key=rank)
        places.remove(best)
        return best[0], best[2]


def _departures(
    host: int, new_index: int, arrivals: Sequence[_Arrival], joker_steps: Sequence[JokerStep]
) -> tuple[Departure, ...]:
    """What leaves old meld ``host`` (0-based), which new meld ``new_index`` is built on:
    its pieces that arrive elsewhere, and its freed jokers that go to another new meld;
    grouped by new meld, in new-table order."""
    going: defaultdict[int, list[Piece]] = defaultdict(list)
    for arrival in arrivals:
        if arrival.source == host + 1 and arrival.target != new_index:
            going[arrival.target].append(arrival.piece)
    for step in joker_steps:
        if step.old_meld == host + 1 and step.new_meld != new_index + 1:
            going[step.new_meld - 1].append(step.joker)
    return tuple(Departure(j + 1, tuple(Meld.of(going[j]).pieces)) for j in sorted(going))


def _flow_edges(steps: Sequence[Step], after: Table) -> list[FlowEdge]:
    """The flow's edges from the steps: an untouched meld stays whole; a built meld's
    arrivals move, and whatever else it holds stays on its old meld; a freed joker moves
    from its old meld."""
    edges: list[FlowEdge] = []
    freed_into: Counter[tuple[int, Piece]] = Counter(
        (step.new_meld, Joker(step.declared)) for step in steps if isinstance(step, JokerStep)
    )
    for step in steps:
        if isinstance(step, KeepStep):
            edges.extend(FlowEdge(old, new, stays=after.melds[new - 1].pieces) for old, new in step.pairs)
        elif isinstance(step, JokerStep):
            edges.append(FlowEdge(step.old_meld, step.new_meld, moves=(step.joker,)))
        else:
            arrived: Counter[Piece] = Counter()
            for transfer in step.transfers:
                edges.append(FlowEdge(transfer.source, step.new_meld, moves=transfer.pieces))
                arrived.update(transfer.pieces)
            for (number, joker), count in freed_into.items():
                if number == step.new_meld:
                    arrived[joker] += count
            if step.on_meld is not None:
                stays: list[Piece] = []
                for piece in step.meld.pieces:  # in the meld's order, less what arrived
                    if arrived[piece] > 0:
                        arrived[piece] -= 1
                    else:
                        stays.append(piece)
                edges.append(FlowEdge(step.on_meld, step.new_meld, stays=tuple(stays)))
    return edges


def _transfers(arrivals: Iterable[_Arrival]) -> tuple[Transfer, ...]:
    """Group a meld's arrivals by source: old melds in order, then the hand."""
    grouped: dict[Source, list[Piece]] = defaultdict(list)
    for arrival in arrivals:
        grouped[arrival.source].append(arrival.piece)
    order = sorted(grouped, key=lambda s: (s is None, s or 0))
    return tuple(Transfer(source, tuple(Meld.of(grouped[source]).pieces)) for source in order)


def _replay(steps: Sequence[Step], before: Position, new_count: int) -> Position:
    old = [Counter(meld.pieces) for meld in before.table]
    hand = Counter(before.hand.pieces)
    built: list[list[Piece]] = [[] for _ in range(new_count)]
    hosted: dict[int, int] = {}
    taken: defaultdict[int, Counter[Piece]] = defaultdict(Counter)
    """Per old meld (0-based): the pieces the steps take out of it."""
    freed: list[tuple[int, int, Joker]] = []
    """Freed jokers: (old meld, new meld, the joker), 0-based."""
    announced: dict[int, Counter[Piece]] = {}
    """Per old meld that hosts a new meld: what its step says it takes out."""

    def check_new(number: int) -> int:
        if not 1 <= number <= new_count:
            raise PlanError(f"new meld {number} does not exist")
        return number - 1

    def check_old(number: int) -> int:
        if not 1 <= number <= len(old):
            raise PlanError(f"meld {number} does not exist")
        return number - 1

    def take(source: Source, piece: Piece) -> None:
        pool = hand if source is None else old[check_old(source)]
        wanted = Joker() if source is None and isinstance(piece, Joker) else piece
        if pool[wanted] <= 0:
            raise PlanError(f"{piece} is not in {_source_name(source)}")
        pool[wanted] -= 1

    def host(old_number: int, new_index: int) -> None:
        index = check_old(old_number)
        if index in hosted:
            raise PlanError(f"meld {old_number} hosts two new melds")
        hosted[index] = new_index

    for step in steps:
        if isinstance(step, KeepStep):
            for old_number, new_number in step.pairs:
                host(old_number, check_new(new_number))
                announced[old_number - 1] = Counter()
        elif isinstance(step, JokerStep):
            take(step.old_meld, step.joker)
            built[check_new(step.new_meld)].append(Joker(step.declared))
            freed.append((step.old_meld - 1, step.new_meld - 1, step.joker))
        else:
            target = check_new(step.new_meld)
            if step.on_meld is not None:
                host(step.on_meld, target)
                announced[step.on_meld - 1] = Counter(p for d in step.removes for p in d.pieces)
            elif step.removes:
                raise PlanError(f"new meld {step.new_meld} takes cards out of no meld")
            for transfer in step.transfers:
                for piece in transfer.pieces:
                    take(transfer.source, piece)
                    built[target].append(piece)
                    if transfer.source is not None:
                        taken[transfer.source - 1][piece] += 1
    for index, target in hosted.items():
        built[target].extend(old[index].elements())
        old[index].clear()
    for index, rest in enumerate(old):
        if +rest:
            raise PlanError(f"meld {index + 1} still holds {_cards_text(sorted(rest.elements(), key=str))}")
    for index, target, joker in freed:  # a joker freed into its own meld's successor stays
        if hosted.get(index) != target:
            taken[index][joker] += 1
    for index, said in announced.items():
        if said != taken[index]:
            raise PlanError(
                f"the steps take {_cards_text(sorted(taken[index].elements(), key=str)) or 'nothing'} "
                f"out of meld {index + 1}, its step says "
                f"{_cards_text(sorted(said.elements(), key=str)) or 'nothing'}"
            )
    if any(not pieces for pieces in built):
        raise PlanError("a new meld gets no cards")
    # New-table order, not re-sorted: meld j of the result must equal new meld j.
    melds = tuple(Meld.of(pieces) for pieces in built)
    return Position(Table(melds), Hand.of(hand.elements()))
