"""The card flow of a play as a graph, the independent rearrangements it falls into, and
how tangled each one is.

The flow is a networkx ``DiGraph``.  Its nodes are every old meld (``("old", 2)``:
meld 2 of the old table), every new meld (``("new", 3)``) and the hand (``HAND``).  An
edge from an old meld or the hand to a new meld carries the pieces that go that way,
in two lists: ``stays`` (pieces that lie where they are, because the new meld is built
on that old meld) and ``moves`` (pieces that change meld, or come from the hand; a
freed table joker is listed as it was declared on the old table).  Every piece of the
new table is on exactly one edge.

Independent rearrangements are the connected components of the flow once the hand is
left out: the hand feeds many melds without tying them to each other, while a card
that goes from old meld 2 to new meld 5 does tie the two.  Each component is one
``Rearrangement``, which a player can carry out without looking at the others: melds
that only grow from the hand, melds left as they are, new melds laid from the hand
alone, and the real rearrangements, where old melds split, join or trade cards.

Tangle: the cycle rank (circuit rank) of a component, ``edges - nodes + 1``, counting
each (old meld, new meld) pair once.  Cards that pass one way along a chain (a meld
split in two, two melds joined, a card taken from one meld to another) form a tree,
rank 0; every independent cycle, as when two melds swap cards or three groups become
three sequences (rank 4), is one more thing to see at once.  The whole play's tangle is
the sum over its components, the cycle rank of the flow without the hand.

``rearrangements_of`` finds the rearrangements from what moves along each edge (a
union-find over the melds), which is how a plan reads them for every hint the service
answers;
``CardFlow`` holds the networkx graph for whoever wants to look at it, and reads its
rearrangements the same way.

This module knows nothing of how a plan is found (``solver.plan`` builds the edges), and
imports neither backend.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import networkx as nx

from solver.cards import Piece

__all__ = [
    "HAND",
    "CardFlow",
    "FlowEdge",
    "Link",
    "Node",
    "Rearrangement",
    "RearrangementKind",
    "cards_text",
    "flow_graph",
    "numbered",
    "rearrangements_of",
    "summary_lines",
]

Node = tuple[Literal["old", "new", "hand"], int]
"""A node of the flow: ``("old", n)`` / ``("new", n)`` (1-based meld numbers) or ``HAND``."""

HAND: Node = ("hand", 0)

RearrangementKind = Literal["trade", "split", "join", "grow", "new", "keep"]
"""trade: several old melds give cards to several new melds; split: one old meld becomes
several new melds; join: several old melds become one; grow: one old meld becomes one
new meld with cards from the hand; new: a new meld laid from the hand alone; keep: an
old meld left as it is."""

_KIND_ORDER: dict[RearrangementKind, int] = {
    "trade": 0,
    "split": 0,
    "join": 0,
    "grow": 1,
    "new": 2,
    "keep": 3,
}


@dataclass(frozen=True, slots=True)
class FlowEdge:
    """Pieces going from one source (an old meld's number, None for the hand) to a new meld."""

    source: int | None
    target: int
    stays: tuple[Piece, ...] = ()
    moves: tuple[Piece, ...] = ()


def cards_text(pieces: Iterable[Piece], pretty: bool = False) -> str:
    """Pieces written one after another: notation, or the pretty faces (``Q♥ ★``).  The
    plan's steps and the rearrangements' summaries write cards this one way."""
    return " ".join([piece.pretty for piece in pieces] if pretty else map(str, pieces))


def numbered(label: str, numbers: Sequence[int]) -> str:
    """``meld 3`` / ``melds 1 and 4`` / ``melds 1, 2 and 5`` (the plan's words too)."""
    if len(numbers) == 1:
        return f"{label} {numbers[0]}"
    listed = ", ".join(str(n) for n in numbers[:-1])
    return f"{label}s {listed} and {numbers[-1]}"


def _spans(numbers: Sequence[int]) -> str:
    """``step 4`` / ``steps 1 and 3`` / ``steps 2-5`` / ``steps 1-3 and 6``: runs of three
    or more consecutive numbers written as a range."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts: list[str] = []
    for run in runs:
        parts.extend([f"{run[0]}-{run[-1]}"] if len(run) >= 3 else [str(n) for n in run])
    label = "step" if len(numbers) == 1 else "steps"
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{label} {listed}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class Rearrangement:
    """One connected part of the flow: old and new melds tied by table cards, with the
    hand cards it takes and the steps of the plan that carry it out."""

    kind: RearrangementKind
    old_melds: tuple[int, ...]
    new_melds: tuple[int, ...]
    from_hand: tuple[Piece, ...]
    """Pieces played from the hand into these new melds."""
    moved: int
    """Table pieces that change meld inside this rearrangement."""
    tangle: int
    """Cycle rank of this part of the flow (0: cards pass one way, a tree)."""
    steps: tuple[int, ...] = ()
    """1-based numbers of the plan's steps that belong to it."""

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "old_melds": list(self.old_melds),
            "new_melds": list(self.new_melds),
            "hand": list(map(str, self.from_hand)),
            "moved": self.moved,
            "tangle": self.tangle,
            "steps": list(self.steps),
            "text": self.describe(),
        }

    def describe(self, *, pretty: bool = False) -> str:
        """One line of plain English, e.g. ``Melds 1, 2 and 3 trade cards into new melds
        1, 2 and 3, with Ac from your hand (steps 1-3; tangle 4).``"""
        olds = numbered("meld", self.old_melds) if self.old_melds else ""
        news = numbered("new meld", self.new_melds)
        hand = cards_text(self.from_hand, pretty)
        if self.kind == "keep":
            head = f"{_capital(olds)} stays as it is, now {news}"
        elif self.kind == "grow":
            head = f"{_capital(olds)} grows into {news}" + (f" with {hand} from your hand" if hand else "")
        elif self.kind == "new":
            head = f"{_capital(news)} comes from your hand alone: {hand}"
        else:
            verb = {"split": "splits into", "join": "join into", "trade": "trade cards into"}[self.kind]
            head = f"{_capital(olds)} {verb} {news}"
            if hand:
                head += f", with {hand} from your hand"
        notes = [_spans(self.steps)] if self.steps else []
        if self.tangle:
            notes.append(f"tangle {self.tangle}")
        return head + (f" ({'; '.join(notes)})." if notes else ".")

    @property
    def rearranges(self) -> bool:
        """True when table cards change meld here (split, join or trade)."""
        return self.kind in ("trade", "split", "join")


def flow_graph(edges: Iterable[FlowEdge], old_count: int, new_count: int) -> nx.DiGraph[Node]:
    """The flow as a networkx DiGraph: a node per old meld, per new meld and the hand
    (each with ``kind`` and ``number``), an edge per source and new meld that pieces
    travel between, with the ``stays`` and ``moves`` lists (edges given twice merge)."""
    graph: nx.DiGraph[Node] = nx.DiGraph()
    graph.add_node(HAND, kind="hand", number=0)
    graph.add_nodes_from((("old", n), {"kind": "old", "number": n}) for n in range(1, old_count + 1))
    graph.add_nodes_from((("new", n), {"kind": "new", "number": n}) for n in range(1, new_count + 1))
    for edge in edges:
        source: Node = HAND if edge.source is None else ("old", edge.source)
        target: Node = ("new", edge.target)
        for node in (source, target):
            if node not in graph:
                raise ValueError(f"flow edge names {node[0]} meld {node[1]}, which does not exist")
        if graph.has_edge(source, target):
            data = graph.edges[source, target]
            data["stays"] = (*data["stays"], *edge.stays)
            data["moves"] = (*data["moves"], *edge.moves)
        else:
            graph.add_edge(source, target, stays=tuple(edge.stays), moves=tuple(edge.moves))
    return graph


@dataclass(frozen=True, slots=True)
class CardFlow:
    """The card flow of one play (see the module docstring)."""

    graph: nx.DiGraph[Node]
    _tables: nx.Graph[Node] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tables: nx.Graph[Node] = nx.Graph()
        tables.add_nodes_from(node for node in self.graph if node != HAND)
        tables.add_edges_from((u, v) for u, v in self.graph.edges if u != HAND)
        object.__setattr__(self, "_tables", tables)

    @classmethod
    def of(cls, edges: Iterable[FlowEdge], old_count: int, new_count: int) -> CardFlow:
        return cls(flow_graph(edges, old_count, new_count))

    @property
    def tangle(self) -> int:
        """Cycle rank of the flow without the hand: edges - nodes + components."""
        tables = self._tables
        return tables.number_of_edges() - tables.number_of_nodes() + nx.number_connected_components(tables)

    def rearrangements(self, steps: Mapping[Node, Sequence[int]] | None = None) -> tuple[Rearrangement, ...]:
        """The independent rearrangements (``rearrangements_of`` on this graph's edges and
        melds); ``steps`` gives the step numbers that touch each meld node (optional)."""
        old_count = max((number for kind, number in self.graph if kind == "old"), default=0)
        new_count = max((number for kind, number in self.graph if kind == "new"), default=0)
        links = [
            (None if source == HAND else source[1], target[1], data["moves"])
            for source, target, data in self.graph.edges(data=True)
        ]
        return rearrangements_of(links, old_count, new_count, steps)

    def to_dicts(self, steps: Mapping[Node, Sequence[int]] | None = None) -> list[dict[str, object]]:
        return [group.to_dict() for group in self.rearrangements(steps)]


Link = tuple[int | None, int, Sequence[Piece]]
"""An edge of the flow as the rearrangements read it: (source, new meld, pieces moved);
the source is an old meld's number or None for the hand, and an edge whose pieces all
stay where they lie has no pieces moved."""


def rearrangements_of(
    links: Iterable[Link],
    old_count: int,
    new_count: int,
    steps: Mapping[Node, Sequence[int]] | None = None,
) -> tuple[Rearrangement, ...]:
    """The independent rearrangements of the flow whose edges are ``links``, between old
    melds 1..``old_count`` (or the hand) and new melds 1..``new_count``: real ones (split,
    join, trade) first, then melds that grow, new melds from the hand, untouched melds;
    by lowest meld number within.  An edge given twice counts once (as the graph merges
    it); ``steps`` gives the step numbers that touch each meld node.

    The connected parts are found with a union-find over the melds, without building the
    networkx graph (``CardFlow`` has it): a plan's rearrangements are part of every hint
    the service answers, and the graph costs more than the rest of the plan.  What is
    read per new meld is what the graph's in-edges hold: the hand's pieces (in edge
    order), the pieces moved from old melds, and how many old melds send it pieces."""
    parent = list(range(old_count + new_count))
    """Old meld n is element n - 1, new meld n is element old_count + n - 1."""
    from_hand: list[list[Piece]] = [[] for _ in range(new_count)]
    moved = [0] * new_count
    senders = [0] * new_count
    """Per new meld: how many old melds send it pieces (each pair once, as the graph has it)."""
    pairs: set[tuple[int, int]] = set()
    for source, target, moves in links:
        if not 1 <= target <= new_count:
            raise ValueError(f"flow edge names new meld {target}, which does not exist")
        if source is None:
            from_hand[target - 1].extend(moves)
            continue
        if not 1 <= source <= old_count:
            raise ValueError(f"flow edge names old meld {source}, which does not exist")
        moved[target - 1] += len(moves)
        if (source, target) in pairs:
            continue
        pairs.add((source, target))
        senders[target - 1] += 1
        low, high = source - 1, old_count + target - 1
        while parent[low] != low:
            low = parent[low]
        while parent[high] != high:
            high = parent[high]
        parent[low] = high
    parts: dict[int, list[int]] = {}
    for element in range(old_count + new_count):
        top = element
        while parent[top] != top:
            top = parent[top]
        parts.setdefault(top, []).append(element)
    touched = steps or {}
    found = []
    for elements in parts.values():  # each part's elements ascend: old melds, then new ones
        olds: list[int] = []
        news: list[int] = []
        hand: list[Piece] = []
        moved_here = links_in = 0
        numbers: set[int] = set()
        for element in elements:
            if element < old_count:
                olds.append(element + 1)
                numbers.update(touched.get(("old", element + 1), ()))
                continue
            new = element - old_count
            news.append(new + 1)
            hand.extend(from_hand[new])
            moved_here += moved[new]
            links_in += senders[new]
            numbers.update(touched.get(("new", new + 1), ()))
        # The cycle rank of one connected part: edges - nodes + 1.
        tangle = links_in - len(olds) - len(news) + 1
        found.append(_component(tuple(olds), tuple(news), tuple(hand), moved_here, tangle, sorted(numbers)))
    return tuple(
        sorted(found, key=lambda r: (_KIND_ORDER[r.kind], min(r.old_melds or (0,)), min(r.new_melds)))
    )


def _component(
    olds: tuple[int, ...],
    news: tuple[int, ...],
    from_hand: tuple[Piece, ...],
    moved: int,
    tangle: int,
    steps: list[int],
) -> Rearrangement:
    """One connected part, its kind read off what it holds (melds ascending)."""
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
    return Rearrangement(kind, olds, news, from_hand, moved, tangle, tuple(steps))


def summary_lines(groups: Sequence[Rearrangement], *, pretty: bool = False) -> list[str]:
    """Lines for a person: each real rearrangement on its own line, then the melds that
    only grow, the new melds laid from the hand alone and the melds left as they are,
    each kind on one line."""
    lines = [group.describe(pretty=pretty) for group in groups if group.rearranges]
    tied = bool(lines)
    grows = [number for group in groups if group.kind == "grow" for number in group.old_melds]
    if grows:
        verb = "only grows" if len(grows) == 1 else "only grow"
        lines.append(f"{_capital(numbered('meld', grows))} {verb}, with cards from your hand.")
    fresh = [number for group in groups if group.kind == "new" for number in group.new_melds]
    if fresh:
        verb = "comes" if len(fresh) == 1 else "come"
        lines.append(f"{_capital(numbered('new meld', fresh))} {verb} from your hand alone.")
    kept = [number for group in groups if group.kind == "keep" for number in group.old_melds]
    if kept:
        verb = "stays as it is" if len(kept) == 1 else "stay as they are"
        lines.append(f"{_capital(numbered('meld', kept))} {verb}.")
    if not tied and lines:
        lines.insert(0, "No meld trades cards with another.")
    return lines
