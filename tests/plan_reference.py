"""The plan as it was first written, kept as the reference the fast one must agree with.

``solver.plan`` builds plans with integer keys, precomputed indices and without networkx,
for the service's sake (issue #35).  This module is the straightforward version it
replaced (``solver/plan.py`` and ``solver/flow.py`` at commit 0a57e08): Counters of
pieces, SciPy's assignment on a matrix built from them, sources found by scanning every
old meld, and the rearrangements as the connected components of the networkx flow.  It
returns the same step and rearrangement types, so a test can demand equality of
everything a plan says.  It trusts its input to be a legal play (the caller judges it).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

from solver.cards import Card, Joker, Piece
from solver.flow import HAND, FlowEdge, Node, Rearrangement, RearrangementKind, flow_graph
from solver.melds import Meld
from solver.plan import Departure, JokerStep, KeepStep, MeldStep, Source, Step, Transfer
from solver.position import Position, Table

__all__ = ["reference_plan"]

_KIND_ORDER: dict[RearrangementKind, int] = {
    "trade": 0,
    "split": 0,
    "join": 0,
    "grow": 1,
    "new": 2,
    "keep": 3,
}


def reference_plan(
    before: Position, after: Table
) -> tuple[tuple[Step, ...], int, int, tuple[Rearrangement, ...]]:
    """The steps, the pieces moved and kept, and the rearrangements, as the first plan made them."""
    old = [list(meld.pieces) for meld in before.table]
    new = [list(meld.pieces) for meld in after]
    steps, moved, kept = _Builder(before, after, _match_hosts(old, new)).build()
    edges = _flow_edges(steps, after)
    return steps, moved, kept, _rearrangements(edges, len(before.table), len(after), _step_numbers(steps))


def _match_hosts(old: list[list[Piece]], new: list[list[Piece]]) -> dict[int, int]:
    if not old or not new:
        return {}
    spread = max(len(old), len(new)) + 1
    tie_scale = len(old) * spread + 1
    untouched_scale = tie_scale * (len(old) + 1)
    shared_scale = untouched_scale * (len(old) + 1)
    holders: defaultdict[Piece, list[tuple[int, int]]] = defaultdict(list)
    for j, new_meld in enumerate(new):
        for piece, count in Counter(new_meld).items():
            holders[piece].append((j, count))
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
    weight[shared == 0] = 0
    rows, columns = linear_sum_assignment(weight, maximize=True)
    return {int(i): int(j) for i, j in zip(rows, columns, strict=True) if shared[i, j]}


@dataclass(slots=True)
class _Arrival:
    piece: Piece
    target: int
    source: Source = None


@dataclass(slots=True)
class _Builder:
    before: Position
    after: Table
    hosts: dict[int, int]
    leftover: list[Counter[Piece]] = field(default_factory=list)
    real_places: dict[Card, list[tuple[Source, int, bool]]] = field(default_factory=dict)
    routes: set[tuple[Source, int]] = field(default_factory=set)

    def build(self) -> tuple[tuple[Step, ...], int, int]:
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
        return tuple(steps), self.after.card_count() - kept_count, kept_count

    def _take(self, piece: Piece, target: int, hand: Counter[Piece]) -> Source:
        candidates = [i for i, left in enumerate(self.leftover) if left[piece] > 0]
        if candidates:
            chosen = min(candidates, key=lambda i: ((i + 1, target) not in self.routes, i))
            self.leftover[chosen][piece] -= 1
            self.routes.add((chosen + 1, target))
            return chosen + 1
        assert hand[piece] > 0
        hand[piece] -= 1
        return None

    def _real_arrivals(
        self,
        needed: list[Counter[Piece]],
        kept: list[Counter[Piece]],
        hand: Counter[Piece],
        host_of: dict[int, int],
    ) -> list[_Arrival]:
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
            position = next((n for n, (j, _) in enumerate(open_slots) if host_of.get(j) == i), 0)
            j, slot = open_slots.pop(position)
            self.leftover[i][joker] -= 1
            assert joker.declared is not None and slot.declared is not None
            source, moves = self._freeing_card(joker.declared, i, host_of)
            steps.append(JokerStep(i + 1, joker, joker.declared, source, moves, j + 1, slot.declared))
        for j, slot in open_slots:
            assert hand[Joker()] > 0
            hand[Joker()] -= 1
            arrivals.append(_Arrival(slot, j, None))
        return steps, arrivals

    def _freeing_card(self, card: Card, old_index: int, host_of: dict[int, int]) -> tuple[Source, bool]:
        places = self.real_places.get(card, [])

        def rank(entry: tuple[Source, int, bool]) -> tuple[int, int]:
            source, target, _ = entry
            return (host_of.get(target) != old_index, source is not None)

        best = min(places, key=rank)
        places.remove(best)
        return best[0], best[2]


def _departures(
    host: int, new_index: int, arrivals: Sequence[_Arrival], joker_steps: Sequence[JokerStep]
) -> tuple[Departure, ...]:
    going: defaultdict[int, list[Piece]] = defaultdict(list)
    for arrival in arrivals:
        if arrival.source == host + 1 and arrival.target != new_index:
            going[arrival.target].append(arrival.piece)
    for step in joker_steps:
        if step.old_meld == host + 1 and step.new_meld != new_index + 1:
            going[step.new_meld - 1].append(step.joker)
    return tuple(Departure(j + 1, tuple(Meld.of(going[j]).pieces)) for j in sorted(going))


def _transfers(arrivals: Iterable[_Arrival]) -> tuple[Transfer, ...]:
    grouped: dict[Source, list[Piece]] = defaultdict(list)
    for arrival in arrivals:
        grouped[arrival.source].append(arrival.piece)
    order = sorted(grouped, key=lambda s: (s is None, s or 0))
    return tuple(Transfer(source, tuple(Meld.of(grouped[source]).pieces)) for source in order)


def _flow_edges(steps: Sequence[Step], after: Table) -> list[FlowEdge]:
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
                for piece in step.meld.pieces:
                    if arrived[piece] > 0:
                        arrived[piece] -= 1
                    else:
                        stays.append(piece)
                edges.append(FlowEdge(step.on_meld, step.new_meld, stays=tuple(stays)))
    return edges


def _step_numbers(steps: Sequence[Step]) -> dict[Node, list[int]]:
    touched: defaultdict[Node, list[int]] = defaultdict(list)
    for number, step in enumerate(steps, start=1):
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


def _rearrangements(
    edges: Sequence[FlowEdge], old_count: int, new_count: int, steps: Mapping[Node, Sequence[int]]
) -> tuple[Rearrangement, ...]:
    graph = flow_graph(edges, old_count, new_count)
    tables: nx.Graph[Node] = nx.Graph()
    tables.add_nodes_from(node for node in graph if node != HAND)
    tables.add_edges_from((u, v) for u, v in graph.edges if u != HAND)
    found = []
    for nodes in nx.connected_components(tables):
        olds = tuple(sorted(number for kind, number in nodes if kind == "old"))
        news = tuple(sorted(number for kind, number in nodes if kind == "new"))
        from_hand: list[Piece] = []
        moved = count = 0
        for number in news:
            for source, _, data in graph.in_edges(("new", number), data=True):
                if source == HAND:
                    from_hand.extend(data["moves"])
                else:
                    moved += len(data["moves"])
                    count += 1
        tangle = count - len(nodes) + 1
        kind: RearrangementKind
        if not olds:
            kind = "new"
        elif len(olds) == 1 and len(news) == 1:
            kind = "grow" if moved or from_hand else "keep"
        elif len(olds) == 1:
            kind = "split"
        elif len(news) == 1:
            kind = "join"
        else:
            kind = "trade"
        numbers = sorted({number for node in nodes for number in steps.get(node, ())})
        found.append(Rearrangement(kind, olds, news, tuple(from_hand), moved, tangle, tuple(numbers)))
    return tuple(
        sorted(found, key=lambda r: (_KIND_ORDER[r.kind], min(r.old_melds or (0,)), min(r.new_melds)))
    )
