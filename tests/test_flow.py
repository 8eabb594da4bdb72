"""The card flow of a play (solver.flow): the networkx graph read off a plan, its
independent rearrangements and their tangle, on worked examples and random positions;
and the plan layer imports without OR-Tools."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import networkx as nx
import pytest
from randpos import random_position

from solver import hint
from solver.cards import Joker, Piece
from solver.flow import HAND, CardFlow, FlowEdge, Node, Rearrangement, flow_graph, summary_lines
from solver.plan import JokerStep, plan_play
from solver.position import Position, Table
from solver.variants import Variant


def _flow(before: str, after: str) -> tuple[CardFlow, tuple[Rearrangement, ...]]:
    plan = plan_play(Position.parse(before), Table.parse(after))
    return plan.flow(), plan.rearrangements()


def test_three_groups_become_three_sequences_is_one_tangled_trade() -> None:
    plan = plan_play(
        Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"),
        Table.parse("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"),
    )
    flow = plan.flow()
    graph = flow.graph
    assert isinstance(graph, nx.DiGraph)
    assert set(graph) == {HAND} | {("old", n) for n in (1, 2, 3)} | {("new", n) for n in (1, 2, 3)}
    # Every old meld sends a card to every new meld: nine table edges, and the hand's ace.
    assert graph.number_of_edges() == 10
    assert graph.edges[HAND, ("new", 3)]["moves"] == tuple(Table.parse("Ac").pieces)
    assert [str(p) for p in graph.edges[("old", 1), ("new", 1)]["stays"]] == ["Jh"]
    assert [str(p) for p in graph.edges[("old", 2), ("new", 1)]["moves"]] == ["Qh"]
    assert graph.nodes["old", 2] == {"kind": "old", "number": 2}
    assert flow.tangle == 4  # 9 edges - 6 nodes + 1 component
    (group,) = plan.rearrangements()
    assert group.kind == "trade" and group.rearranges
    assert (group.old_melds, group.new_melds, group.steps) == ((1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert [str(p) for p in group.from_hand] == ["Ac"]
    assert (group.moved, group.tangle) == (6, 4)
    assert group.describe() == (
        "Melds 1, 2 and 3 trade cards into new melds 1, 2 and 3, with Ac from your hand "
        "(steps 1-3; tangle 4)."
    )
    assert group.describe(pretty=True).endswith("with A♣ from your hand (steps 1-3; tangle 4).")
    assert group.to_dict() == {
        "kind": "trade",
        "old_melds": [1, 2, 3],
        "new_melds": [1, 2, 3],
        "hand": ["Ac"],
        "moved": 6,
        "tangle": 4,
        "steps": [1, 2, 3],
        "text": group.describe(),
    }


def test_independent_parts_are_kept_apart() -> None:
    """Melds 2 and 3 pass cards one way (a tree, tangle 0); meld 1 is left alone."""
    plan = plan_play(
        Position.parse("2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh"),
        Table.parse("2h 3h 4h | *9c 10c Jc | Jc Qc Kc | Kc Kh *Ks"),
    )
    trade, keep = plan.rearrangements()
    assert (trade.kind, trade.old_melds, trade.new_melds, trade.tangle) == ("trade", (2, 3), (2, 3, 4), 0)
    assert trade.steps == (2, 3, 4, 5, 6)
    assert (keep.kind, keep.old_melds, keep.new_melds, keep.steps) == ("keep", (1,), (1,), (1,))
    assert keep.describe() == "Meld 1 stays as it is, now new meld 1 (step 1)."
    assert plan.flow().tangle == 0
    assert summary_lines(plan.rearrangements()) == [
        trade.describe(),
        "Meld 1 stays as it is.",
    ]


def test_a_cycle_of_three_melds_has_tangle_one() -> None:
    flow, groups = _flow(
        "3h 4h *5h | 4d 5d *6d 7d | 6s 6h 6d / As 8s", "6s *7s 8s | 3h 4h *5h 6h | 4d 5d 6d 7d"
    )
    (group,) = groups
    assert (group.kind, group.old_melds, group.tangle) == ("trade", (1, 2, 3), 1)
    assert flow.tangle == 1
    tables: nx.Graph[Node] = nx.Graph(flow.graph.subgraph(n for n in flow.graph if n != HAND))
    assert len(nx.cycle_basis(tables)) == 1


@pytest.mark.parametrize(
    ("before", "after", "kind", "text"),
    [
        (
            "5h 6h 7h 8h 9h 10h / 8h",
            "5h 6h 7h 8h | 8h 9h 10h",
            "split",
            "Meld 1 splits into new melds 1 and 2, with 8h from your hand (steps 1 and 2).",
        ),
        (
            "5h 6h 7h | 9h 10h Jh / 8h",
            "5h 6h 7h 8h 9h 10h Jh",
            "join",
            "Melds 1 and 2 join into new meld 1, with 8h from your hand (step 1).",
        ),
        (
            "5h 6h 7h | Kc Kd Ks / 8h",
            "5h 6h 7h 8h | Ks Kd Kc",
            "grow",
            "Meld 1 grows into new meld 1 with 8h from your hand (step 2).",
        ),
        (
            "Kc Kd Ks / 2c 3c 4c",
            "2c 3c 4c | Ks Kd Kc",
            "new",
            "New meld 1 comes from your hand alone: 2c 3c 4c (step 2).",
        ),
    ],
)
def test_kinds_of_rearrangement(before: str, after: str, kind: str, text: str) -> None:
    _, groups = _flow(before, after)
    assert groups[0].kind == kind
    assert groups[0].describe() == text


def test_summary_when_nothing_is_traded() -> None:
    plan = plan_play(
        Position.parse("5h 6h 7h | 9s 10s Js | Kc Kd Ks / 8h Qs 2c 3c 4c"),
        Table.parse("5h 6h 7h 8h | 9s 10s Js Qs | 2c 3c 4c | Ks Kd Kc"),
    )
    assert summary_lines(plan.rearrangements(), pretty=True) == [
        "No meld trades cards with another.",
        "Melds 1 and 2 only grow, with cards from your hand.",
        "New meld 3 comes from your hand alone.",
        "Meld 3 stays as it is.",
    ]


def test_flow_graph_refuses_a_meld_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="new meld 3"):
        flow_graph([FlowEdge(1, 3)], old_count=1, new_count=2)
    with pytest.raises(ValueError, match="old meld 2"):
        flow_graph([FlowEdge(2, 1)], old_count=1, new_count=2)


def test_edges_given_twice_merge() -> None:
    pieces = Table.parse("5h 6h 7h").pieces
    graph = flow_graph([FlowEdge(1, 1, stays=pieces[:1]), FlowEdge(1, 1, moves=pieces[1:])], 1, 1)
    assert graph.edges[("old", 1), ("new", 1)] == {"stays": pieces[:1], "moves": pieces[1:]}


VARIANTS = [Variant.manipulation(), Variant.machiavelli(), Variant.rummikub()]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_flow_invariants_on_random_positions(variant: Variant) -> None:
    """Every piece of the new table is on exactly one edge; every meld is in exactly one
    rearrangement; the tangles add up to the cycle rank, which networkx's cycle basis
    confirms; the hand cards and the steps are shared out without loss."""
    rng = random.Random(2020 + len(variant.name))
    checked = 0
    for _ in range(60):
        position = random_position(rng, variant, max_table_cards=30, max_hand=6)
        found = hint(position, variant=variant)
        if not found.has_play:
            continue
        plan = plan_play(position, found.table, variant=variant)
        flow = plan.flow()
        carried: Counter[Piece] = Counter()
        for source, target, data in flow.graph.edges(data=True):
            assert target[0] == "new" and source[0] in ("old", "hand")
            assert data["stays"] or data["moves"]
            assert not (source == HAND and data["stays"])
            carried.update(data["stays"])
            carried.update(data["moves"])
        # Freed jokers travel as they were declared; count them as the new table has them.
        for step in plan.steps:
            if isinstance(step, JokerStep):
                carried[step.joker] -= 1
                carried[type(step.joker)(step.declared)] += 1
        assert +carried == Counter(found.table.pieces), str(position)
        groups = plan.rearrangements()
        olds = sorted(n for g in groups for n in g.old_melds)
        news = sorted(n for g in groups for n in g.new_melds)
        assert olds == list(range(1, len(position.table) + 1))
        assert news == list(range(1, len(found.table) + 1))
        hand_cards = Counter("*" if isinstance(p, Joker) else str(p) for g in groups for p in g.from_hand)
        assert hand_cards == Counter(str(p) for p in found.played)
        assert {n for g in groups for n in g.steps} == set(range(1, len(plan.steps) + 1))
        tables: nx.Graph[Node] = nx.Graph(flow.graph.subgraph(n for n in flow.graph if n != HAND))
        assert flow.tangle == sum(g.tangle for g in groups) == len(nx.cycle_basis(tables))
        assert sum(g.moved for g in groups) == plan.moved - len(found.played)
        for group in groups:
            assert group.tangle >= 0
            assert group.kind != "keep" or (group.moved == 0 and not group.from_hand)
        checked += 1
    assert checked >= 20


def test_plan_and_flow_import_without_ortools() -> None:
    """DESIGN.md: the plan layer imports without OR-Tools (a hint type only for the checker)."""
    code = (
        "import sys\n"
        "sys.modules['ortools'] = None\n"
        "from solver.plan import plan_play\n"
        "from solver.position import Position, Table\n"
        "plan = plan_play(Position.parse('Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac'),"
        " Table.parse('Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac'))\n"
        "assert plan.flow().tangle == 4\n"
        "assert not any(name.startswith('ortools') and sys.modules[name] for name in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_texts_of_hand_built_rearrangements() -> None:
    """describe() reads well for every kind, also without hand cards or steps."""
    grow = Rearrangement("grow", (1,), (1,), (), 1, 0, (2,))
    assert grow.describe() == "Meld 1 grows into new meld 1 (step 2)."
    assert Rearrangement("keep", (4,), (2,), (), 0, 0).describe() == "Meld 4 stays as it is, now new meld 2."
    assert Rearrangement("trade", (1, 2), (1, 2), (), 2, 1, (1, 2, 3, 5)).describe() == (
        "Melds 1 and 2 trade cards into new melds 1 and 2 (steps 1-3 and 5; tangle 1)."
    )
