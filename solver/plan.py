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

Cost.  The service answers every hint with its plan (``solver.report.hint_payload``), so the plan is
built for speed without changing a word of it: pieces become integer keys (a Counter of
cards would call a Python ``__hash__`` on every lookup), the old melds that must shed each
key are indexed, the assignment matrix is filled only where melds share pieces, and the
rearrangements are read off the steps without building the networkx graph.  The plan as
first written is kept in ``tests/plan_reference.py``; the tests hold this one equal to it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.cards import ALL_CARDS, CARD_KINDS, Card, Joker, Piece
from solver.flow import CardFlow, FlowEdge, Link, Node, Rearrangement, cards_text, numbered, rearrangements_of
from solver.melds import Meld
from solver.position import Hand, Position, Table, as_position, as_table
from solver.referee import check_play
from solver.variants import Variant, as_variant

__all__ = [
    "Departure",
    "JokerStep",
    "KeepStep",
    "MeldStep",
    "Plan",
    "PlanError",
    "Step",
    "Transfer",
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


@dataclass(frozen=True, slots=True)
class Transfer:
    """Pieces that go from one source (an old meld, or the hand) to a new meld."""

    source: Source
    pieces: tuple[Piece, ...]

    def to_dict(self) -> dict[str, object]:
        return {"from": _source_json(self.source), "cards": list(map(str, self.pieces))}

    def describe(self, *, pretty: bool = False) -> str:
        return f"{cards_text(self.pieces, pretty)} from {_source_name(self.source)}"


@dataclass(frozen=True, slots=True)
class Departure:
    """Pieces taken out of the old meld a new meld is built on, and the new meld they go to."""

    target: int
    pieces: tuple[Piece, ...]

    def to_dict(self) -> dict[str, object]:
        return {"to": self.target, "cards": list(map(str, self.pieces))}

    def describe(self, *, pretty: bool = False) -> str:
        return f"{cards_text(self.pieces, pretty)} for new meld {self.target}"


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
        return f"Leave {numbered('meld', olds)} as {verb} ({numbered('new meld', news)})."


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

    def lines_of_another(self, *, pretty: bool = False) -> list[str]:
        """``lines`` told of another player's play: the steps speak to the person holding
        the hand ("from your hand"); here that is someone else ("from their hand").  How
        ``rummy play`` tells the bots' plays, and the page the bots' turns."""
        return [line.replace("your hand", "their hand") for line in self.lines(pretty=pretty)]

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
        links = _flow_links(self.steps)
        return rearrangements_of(links, len(self.before.table), len(self.after), self.step_numbers())


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
    return _Builder(before, after).build()


# The builder works on integer keys, not pieces: a Counter of Card objects hashes each
# card through a Python-level __hash__ on every lookup, and a plan does thousands.
_JOKER_KEYS = CARD_KINDS
"""A joker declared as card c has key ``_JOKER_KEYS + c.index``; a real card, its index."""
_HAND_JOKER = 2 * CARD_KINDS
"""The key of an undeclared joker (a hand joker)."""
_PIECE_OF: tuple[Piece, ...] = (*ALL_CARDS, *(Joker(card) for card in ALL_CARDS), Joker())
"""The piece of each key."""
_TEXT_OF: tuple[str, ...] = tuple(str(piece) for piece in _PIECE_OF)
"""The notation of each key's piece (jokers are ordered by it, as ``sorted(key=str)``)."""


def _keys(pieces: Iterable[Piece]) -> list[int]:
    """The key of each piece, in order."""
    return [
        piece.index
        if isinstance(piece, Card)
        else _HAND_JOKER
        if piece.declared is None
        else _JOKER_KEYS + piece.declared.index
        for piece in pieces
    ]


def _counts(keys: list[int]) -> dict[int, int]:
    """Copies of each key, in the order of first appearance (as a Counter holds them).
    Legal melds rarely hold a piece twice (only a sequence with an ace at each end)."""
    counts = dict.fromkeys(keys, 1)
    if len(counts) < len(keys):
        counts = dict.fromkeys(counts, 0)
        for key in keys:
            counts[key] += 1
    return counts


def _match_hosts(
    old: list[dict[int, int]], new: list[dict[int, int]], old_lengths: list[int], new_lengths: list[int]
) -> dict[int, int]:
    """Heaviest matching old meld -> new meld (0-based) by shared pieces, ties broken
    toward untouched melds, then toward equal numbers.  ``old`` and ``new`` hold each
    meld's copies per key, ``*_lengths`` each meld's size."""
    if not old or not new:
        return {}
    spread = max(len(old), len(new)) + 1
    tie_scale = len(old) * spread + 1  # above any sum of distance terms
    untouched_scale = tie_scale * (len(old) + 1)  # above any tie term
    shared_scale = untouched_scale * (len(old) + 1)  # above any untouched bonus
    # Shared pieces per (old, new) pair, from where each piece lies in the new table.
    holders: dict[int, list[tuple[int, int]]] = {}
    for j, counts in enumerate(new):
        for key, count in counts.items():
            holders.setdefault(key, []).append((j, count))
    # The weight of each pair that shares pieces, by its cell in the flattened matrix; the
    # others weigh 0 (no edge: never worth more than leaving both unmatched).
    width = len(new)
    weights: dict[int, int] = {}
    for i, counts in enumerate(old):
        shared = [0] * width
        for key, count in counts.items():
            for j, held in holders.get(key, ()):
                shared[j] += count if count < held else held
        for j, pieces in enumerate(shared):
            if pieces:
                untouched = old_lengths[i] == new_lengths[j] == pieces
                weights[i * width + j] = (
                    pieces * shared_scale + untouched * untouched_scale + spread - abs(i - j)
                )
    # NumPy and SciPy load here, on the first plan, not with the module: every CLI command
    # imports the plan layer, and SciPy's optimizer costs a third of a second to import.
    import numpy as np
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    matrix = np.zeros(len(old) * width, dtype=np.int64)
    matrix[list(weights)] = list(weights.values())  # a nested list would cost more to convert
    rows, columns = linear_sum_assignment(matrix.reshape(len(old), width), maximize=True)
    return {i: j for i, j in zip(rows.tolist(), columns.tolist(), strict=True) if i * width + j in weights}


_Arrival = tuple[int, int, Source]
"""A piece that reaches a new meld: (its key, the new meld 0-based, its source)."""


class _Builder:
    """Works out the sources of every piece that moves, then the steps (0-based inside).

    Pieces are integer keys (``_keys``) throughout; ``shedding`` indexes, per key, the
    old melds that must still give a copy away, so that finding a source does not scan
    every old meld."""

    __slots__ = (
        "after",
        "before",
        "host_of",
        "hosts",
        "kept",
        "leftover",
        "needed",
        "new",
        "old",
        "real_places",
        "routes",
        "shedding",
    )

    def __init__(self, before: Position, after: Table) -> None:
        self.before = before
        self.after = after
        old_keys = [_keys(meld.pieces) for meld in before.table]
        new_keys = [_keys(meld.pieces) for meld in after]
        self.old = [_counts(keys) for keys in old_keys]
        self.new = [_counts(keys) for keys in new_keys]
        self.hosts = _match_hosts(self.old, self.new, [len(k) for k in old_keys], [len(k) for k in new_keys])
        self.host_of = {j: i for i, j in self.hosts.items()}
        self.kept: list[dict[int, int]] = [{} for _ in self.new]
        """Per new meld: pieces that stay on the old meld it is built on."""
        self.leftover = [dict(counts) if i not in self.hosts else {} for i, counts in enumerate(self.old)]
        """Per old meld: pieces that must leave it."""
        self.needed = [dict(counts) if j not in self.host_of else {} for j, counts in enumerate(self.new)]
        """Per new meld: pieces that must come to it."""
        for i, j in self.hosts.items():  # Counter's &, and the two -, in one pass
            kept, left, new = self.kept[j], self.leftover[i], self.new[j]
            for key, count in self.old[i].items():
                held = new.get(key, 0)
                if held:
                    kept[key] = count if count < held else held
                if count > held:
                    left[key] = count - held
            self.needed[j] = {
                key: count - kept.get(key, 0) for key, count in new.items() if count > kept.get(key, 0)
            }
        self.shedding: dict[int, list[int]] = {}
        """Per key: the old melds (0-based, ascending) whose leftover still holds it."""
        for i, left in enumerate(self.leftover):
            for key in left:
                self.shedding.setdefault(key, []).append(i)
        self.routes: set[tuple[int, int]] = set()
        """(old meld, new meld) pairs already used, 0-based."""
        self.real_places: dict[int, list[tuple[Source, int, bool]]] = {}
        """Per real card (key), once asked: (source, new meld, moves) of every copy on the
        new table not yet credited with freeing a joker."""

    def build(self) -> Plan:
        needed = self.needed
        hand_left = _counts(_keys(self.before.hand.pieces))
        arrivals: list[_Arrival] = []
        for j, counts in enumerate(needed):
            if not counts:  # an untouched meld, or one that only loses pieces
                continue
            cards = [key for key, count in counts.items() if key < _JOKER_KEYS for _ in range(count)]
            cards.sort()
            arrivals.extend((key, j, self._take(key, j, hand_left)) for key in cards)
        joker_steps = self._jokers(needed, hand_left, arrivals)
        steps: list[Step] = []
        # A host equal to its new meld needs nothing, so nothing arrives there.
        untouched = [(i + 1, j + 1) for i, j in sorted(self.hosts.items()) if self.old[i] == self.new[j]]
        if untouched:
            steps.append(KeepStep(tuple(untouched)))
        steps.extend(joker_steps)
        freed_targets = {step.new_meld - 1 for step in joker_steps}
        untouched_new = {new_number - 1 for _, new_number in untouched}
        incoming: list[list[tuple[Source, int]]] = [[] for _ in self.new]
        outgoing: dict[int, list[tuple[int, int]]] = {}
        """Per old meld number: (new meld, key) of what it sends, in arrival order."""
        for key, target, source in arrivals:
            incoming[target].append((source, key))
            if source is not None:
                outgoing.setdefault(source, []).append((target, key))
        for step in joker_steps:  # a freed joker leaves its old meld too
            outgoing.setdefault(step.old_meld, []).append(
                (step.new_meld - 1, _JOKER_KEYS + step.freed_by.index)
            )
        for j, meld in enumerate(self.after):
            if j in untouched_new:
                continue
            host = self.host_of.get(j)
            steps.append(
                MeldStep(
                    new_meld=j + 1,
                    on_meld=None if host is None else host + 1,
                    meld=meld,
                    transfers=_transfers(incoming[j]),
                    gets_freed_joker=j in freed_targets,
                    removes=() if host is None else _departures(j, outgoing.get(host + 1, ())),
                )
            )
        kept_count = sum(sum(kept.values()) for kept in self.kept)
        moved = self.after.card_count() - kept_count
        return Plan(self.before, self.after, tuple(steps), moved, kept_count)

    def _take(self, key: int, target: int, hand: dict[int, int]) -> Source:
        """A source for one copy of ``key``: an old meld that must shed it (one already
        sending cards to ``target`` first, so that steps stay few, then the lowest
        number), else the hand.  Old melds go first: every piece they shed must land
        somewhere, and what is left to find then is exactly the played cards."""
        holders = self.shedding.get(key)
        if holders:
            chosen = next((i for i in holders if (i, target) in self.routes), holders[0])
            left = self.leftover[chosen]
            left[key] -= 1
            if not left[key]:
                holders.remove(chosen)
            self.routes.add((chosen, target))
            return chosen + 1
        if hand.get(key, 0) <= 0:  # pragma: no cover - check_play guarantees the pieces exist
            raise PlanError(f"no source for {_TEXT_OF[key]}")
        hand[key] -= 1
        return None

    def _jokers(
        self, needed: list[dict[int, int]], hand: dict[int, int], arrivals: list[_Arrival]
    ) -> list[JokerStep]:
        """Joker slots of the new table not kept in place: table jokers of the same
        declaration first (they just move), then freed table jokers, then hand jokers;
        their arrivals are added to ``arrivals``."""
        open_slots: list[tuple[int, int]] = []
        for j, counts in enumerate(needed):
            if not counts or max(counts) < _JOKER_KEYS:  # no joker needed here
                continue
            slots = [key for key, count in counts.items() if key >= _JOKER_KEYS for _ in range(count)]
            for key in sorted(slots, key=_TEXT_OF.__getitem__):
                if self.shedding.get(key):
                    arrivals.append((key, j, self._take(key, j, hand)))
                else:
                    open_slots.append((j, key))
        steps: list[JokerStep] = []
        for i, left in enumerate(self.leftover):
            if not left or max(left) < _JOKER_KEYS:  # no joker leaves this meld
                continue
            freed = [key for key, count in left.items() if key >= _JOKER_KEYS for _ in range(count)]
            for key in sorted(freed, key=_TEXT_OF.__getitem__):
                # Prefer a slot in the meld built on the joker's own old meld: it stays put.
                position = next((n for n, (j, _) in enumerate(open_slots) if self.host_of.get(j) == i), 0)
                if position >= len(open_slots):  # pragma: no cover - check_play keeps jokers on the table
                    raise PlanError(f"no place for the joker {_TEXT_OF[key]} of meld {i + 1}")
                j, slot = open_slots.pop(position)
                card = ALL_CARDS[key - _JOKER_KEYS]
                source, moves = self._freeing_card(card.index, i, arrivals)
                joker = _PIECE_OF[key]
                assert isinstance(joker, Joker)
                steps.append(
                    JokerStep(i + 1, joker, card, source, moves, j + 1, ALL_CARDS[slot - _JOKER_KEYS])
                )
        for j, slot in open_slots:
            if hand.get(_HAND_JOKER, 0) <= 0:  # pragma: no cover - check_play counts the jokers
                raise PlanError("more jokers on the new table than the play can supply")
            hand[_HAND_JOKER] -= 1
            arrivals.append((slot, j, None))
        return steps

    def _freeing_card(self, card: int, old_index: int, arrivals: list[_Arrival]) -> tuple[Source, bool]:
        """A real copy of ``card`` (a key) on the new table to credit with freeing a joker:
        one that lands in the meld built on the joker's old meld, else one from the hand,
        else any; each copy frees one joker.  The copies are listed on the first ask:
        those that move (in arrival order), then those that stay (in new-table order)."""
        places = self.real_places.get(card)
        if places is None:
            places = [(source, j, True) for key, j, source in arrivals if key == card]
            for j, kept in enumerate(self.kept):
                if card in kept:
                    places.extend([(self.host_of[j] + 1, j, False)] * kept[card])
            self.real_places[card] = places
        if not places:  # pragma: no cover - check_play enforces the counting rule
            raise PlanError(f"no real {_TEXT_OF[card]} on the new table to free its joker")
        host_of = self.host_of

        def rank(entry: tuple[Source, int, bool]) -> tuple[bool, bool]:
            source, target, _ = entry
            return (host_of.get(target) != old_index, source is not None)

        best = min(places, key=rank)
        places.remove(best)
        return best[0], best[2]


def _departures(new_index: int, sent: Iterable[tuple[int, int]]) -> tuple[Departure, ...]:
    """What leaves the old meld that new meld ``new_index`` (0-based) is built on: of what
    it sends (``sent``: (new meld, key), freed jokers included), the pieces that go to
    another new meld; grouped by new meld, in new-table order."""
    going: dict[int, list[int]] = {}
    for target, key in sent:
        if target != new_index:
            going.setdefault(target, []).append(key)
    return tuple(Departure(j + 1, _arranged(tuple(sorted(going[j])))) for j in sorted(going))


@lru_cache(maxsize=16384)
def _arranged(keys: tuple[int, ...]) -> tuple[Piece, ...]:
    """The pieces of these keys (sorted, so that equal multisets share an entry) in
    ``Meld.of``'s canonical order, which depends on the multiset alone.  Cached: the
    same few cards travel in plan after plan."""
    return Meld.of(_PIECE_OF[key] for key in keys).pieces


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


def _flow_links(steps: Sequence[Step]) -> list[Link]:
    """The flow's edges as the rearrangements read them (``solver.flow.Link``): the walk of
    ``_flow_edges`` without working out what stays, since only what moves is counted; an
    untouched meld, and a built meld's host, link with nothing moved."""
    links: list[Link] = []
    for step in steps:
        if isinstance(step, KeepStep):
            links.extend((old, new, ()) for old, new in step.pairs)
        elif isinstance(step, JokerStep):
            links.append((step.old_meld, step.new_meld, (step.joker,)))
        else:
            links.extend((transfer.source, step.new_meld, transfer.pieces) for transfer in step.transfers)
            if step.on_meld is not None:
                links.append((step.on_meld, step.new_meld, ()))
    return links


def _transfers(arrivals: Iterable[tuple[Source, int]]) -> tuple[Transfer, ...]:
    """Group a meld's arrivals ((source, key) in arrival order) by source: old melds in
    order, then the hand."""
    grouped: dict[Source, list[int]] = {}
    for source, key in arrivals:
        grouped.setdefault(source, []).append(key)
    order = sorted(grouped, key=lambda s: (s is None, s or 0))
    return tuple(Transfer(source, _arranged(tuple(sorted(grouped[source])))) for source in order)


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
            raise PlanError(f"meld {index + 1} still holds {cards_text(sorted(rest.elements(), key=str))}")
    for index, target, joker in freed:  # a joker freed into its own meld's successor stays
        if hosted.get(index) != target:
            taken[index][joker] += 1
    for index, said in announced.items():
        if said != taken[index]:
            raise PlanError(
                f"the steps take {cards_text(sorted(taken[index].elements(), key=str)) or 'nothing'} "
                f"out of meld {index + 1}, its step says "
                f"{cards_text(sorted(said.elements(), key=str)) or 'nothing'}"
            )
    if any(not pieces for pieces in built):
        raise PlanError("a new meld gets no cards")
    # New-table order, not re-sorted: meld j of the result must equal new meld j.
    melds = tuple(Meld.of(pieces) for pieces in built)
    return Position(Table(melds), Hand.of(hand.elements()))
