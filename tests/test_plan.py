"""Plans: worked examples read as steps, replay rebuilds the hint's table exactly on random
positions, the plan moves the fewest pieces (checked against every host assignment), and
bad input is refused."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from randpos import random_position

from solver.cards import Joker, Piece
from solver.engine import hint
from solver.plan import JokerStep, KeepStep, MeldStep, PlanError, plan_play
from solver.position import Position, Table
from solver.report import hint_payload
from solver.variants import Variant


def _plan(text: str, variant: Variant | None = None) -> tuple[Position, Table, list[str]]:
    position = Position.parse(text)
    found = hint(position, variant=variant)
    assert found.has_play
    plan = plan_play(position, found.table, variant=variant)
    assert plan.replay().table == found.table
    return position, found.table, plan.lines()


def test_three_groups_become_three_sequences() -> None:
    position, table, lines = _plan("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    assert str(table) == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"
    assert lines == [
        "Meld 1 becomes new meld 1, Jh Qh Kh: take out Jd for new meld 2 and Jc for new meld 3; "
        "add Qh from meld 2 and Kh from meld 3.",
        "Meld 2 becomes new meld 2, Jd Qd Kd: take out Qh for new meld 1 and Qc for new meld 3; "
        "add Jd from meld 1 and Kd from meld 3.",
        "Meld 3 becomes new meld 3, Jc Qc Kc Ac: take out Kh for new meld 1 and Kd for new meld 2; "
        "add Jc from meld 1, Qc from meld 2 and Ac from your hand.",
    ]
    plan = plan_play(position, table)
    assert (plan.moved, plan.kept) == (7, 3)


def test_joker_replaced_from_the_hand_and_redeclared() -> None:
    position = Position.parse("7h 8h *9h / 9h Jh")
    plan = plan_play(position, Table.parse("7h 8h 9h *10h Jh"))
    joker, meld = plan.steps
    assert isinstance(joker, JokerStep) and isinstance(meld, MeldStep)
    assert joker.to_dict() == {
        "action": "joker",
        "old_meld": 1,
        "joker": "*9h",
        "freed_by": "9h",
        "freed_by_from": "hand",
        "new_meld": 1,
        "declared": "10h",
    }
    assert joker.text == (
        "Free the joker *9h in meld 1 with the 9h from your hand; the joker goes to new meld 1 as *10h."
    )
    assert meld.on_meld == 1 and meld.gets_freed_joker
    assert [t.to_dict() for t in meld.transfers] == [{"from": "hand", "cards": ["9h", "Jh"]}]
    assert meld.removes == ()  # the joker stays in its meld with a new declaration


def test_joker_freed_by_a_table_card_and_untouched_meld() -> None:
    position = Position.parse("2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh")
    after = Table.parse("2h 3h 4h | *9c 10c Jc | Jc Qc Kc | Kc Kh *Ks")
    plan = plan_play(position, after)
    keep = plan.steps[0]
    assert isinstance(keep, KeepStep) and keep.pairs == ((1, 1),)
    assert keep.text == "Leave meld 1 as it is (new meld 1)."
    # The freed joker leaving its meld is named among what that meld's step takes out.
    (built,) = [s for s in plan.steps if isinstance(s, MeldStep) and s.on_meld == 3]
    assert [d.to_dict() for d in built.removes] == [{"to": 4, "cards": ["*Qc", "Kc"]}]
    assert built.text == (
        "Meld 3 becomes new meld 2, *9c 10c Jc: take out *Qc Kc for new meld 4; add the freed joker."
    )
    jokers = [step for step in plan.steps if isinstance(step, JokerStep)]
    assert sorted((str(s.joker), str(s.freed_by), s.freed_by_moves, str(s.declared)) for s in jokers) == [
        ("*10c", "10c", False, "9c"),
        ("*Qc", "Qc", False, "Ks"),
    ]
    assert plan.replay().table == after


def test_joker_keeping_its_declaration_just_moves() -> None:
    position = Position.parse("*Qh Qd Qs Qc / 10h Jh")
    after = Table.parse("10h Jh *Qh | Qd Qs Qc")
    plan = plan_play(position, after)
    assert not any(isinstance(step, JokerStep) for step in plan.steps)
    start = next(s for s in plan.steps if isinstance(s, MeldStep) and s.on_meld is None)
    assert [t.to_dict() for t in start.transfers] == [
        {"from": 1, "cards": ["*Qh"]},
        {"from": "hand", "cards": ["10h", "Jh"]},
    ]
    assert plan.replay().table == after


def test_hand_joker_is_played_with_its_declaration() -> None:
    position = Position.parse("5s 6s 7s / * 9s")
    plan = plan_play(position, Table.parse("5s 6s 7s *8s 9s"))
    (step,) = plan.steps
    assert step.to_dict()["add"] == [{"from": "hand", "cards": ["*8s", "9s"]}]
    replayed = plan.replay()
    assert str(replayed.table) == "5s 6s 7s *8s 9s" and len(replayed.hand) == 0


def test_illegal_after_table_is_refused() -> None:
    position = Position.parse("10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s")
    with pytest.raises(PlanError, match="not a legal play"):
        plan_play(position, Table.parse("10h Jh Qh | 10d Jd Qd | 9s 10s Js"))
    with pytest.raises(PlanError):
        plan_play(position, position.table)  # nothing played


def test_steps_say_what_they_take_out() -> None:
    """Issue 20, item 8: a step built on an old meld names the cards that leave it."""
    position = Position.parse("5h 6h 7h 8h | 5s 5d 5c / 9h")
    after = Table.parse("6h 7h 8h 9h | 5s 5h 5d 5c")
    plan = plan_play(position, after)
    run = next(s for s in plan.steps if isinstance(s, MeldStep) and s.meld == after.melds[0])
    assert run.to_dict()["remove"] == [{"to": 2, "cards": ["5h"]}]
    assert run.text == (
        "Meld 1 becomes new meld 1, 6h 7h 8h 9h: take out 5h for new meld 2; add 9h from your hand."
    )
    group = next(s for s in plan.steps if isinstance(s, MeldStep) and s.meld == after.melds[1])
    assert group.removes == () and group.text.endswith("add 5h from meld 1.")
    assert plan.replay().table == after


def test_replay_detects_a_tampered_plan() -> None:
    position = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    after = Table.parse("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac")
    plan = plan_play(position, after)
    with pytest.raises(PlanError):
        plan.replay(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / 2c"))
    dropped = type(plan)(plan.before, plan.after, plan.steps[1:], plan.moved, plan.kept)
    with pytest.raises(PlanError, match="still holds"):
        dropped.replay()
    # A step that does not say what it takes out of its meld is caught.
    first = plan.steps[0]
    assert isinstance(first, MeldStep) and first.removes
    silent = dataclasses.replace(first, removes=first.removes[:1])
    quiet = type(plan)(plan.before, plan.after, (silent, *plan.steps[1:]), plan.moved, plan.kept)
    with pytest.raises(PlanError, match="out of meld 1, its step says"):
        quiet.replay()


def test_hint_payload_adds_moves() -> None:
    found = hint(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"))
    payload = hint_payload(found)
    assert {k: v for k, v in payload.items() if k not in ("moves", "old_table", "rearrangements")} == (
        found.to_dict()
    )
    assert payload["old_table"] == str(found.position.table)  # no 'before': canonical numbering
    rearrangements = payload["rearrangements"]
    assert isinstance(rearrangements, list)
    (group,) = rearrangements
    assert group["kind"] == "trade" and group["steps"] == [1, 2, 3] and group["tangle"] == 4
    moves = payload["moves"]
    assert isinstance(moves, list) and len(moves) == 3
    assert all(isinstance(m, dict) and m["action"] == "meld" and m["text"] for m in moves)
    nothing = hint(Position.parse("10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s"))
    assert hint_payload(nothing)["moves"] == []
    assert hint_payload(nothing)["rearrangements"] == []


def test_hint_payload_numbers_old_melds_as_entered() -> None:
    """'meld N' in the steps is the N-th meld as the user typed it, not as sorted."""
    typed = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
    entered = Position.parse(typed, keep_order=True)
    assert str(entered.table) == "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"
    assert str(Position.parse(typed).table) == "Jh Jd Jc | Qh Qd Qc | Kh Kd Kc"  # canonical: by rank
    found = hint(Position.parse(typed))
    payload = hint_payload(found, before=entered)
    assert payload["old_table"] == "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"
    moves = payload["moves"]
    assert isinstance(moves, list)
    first = moves[0]
    assert isinstance(first, dict) and first["on_meld"] == 1 and first["meld"] == "Jh Qh Kh"
    assert first["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Jh"]}]
    # The steps replay from the table as typed.
    plan = plan_play(entered, found.table)
    assert plan.replay().table == found.table
    with pytest.raises(ValueError, match="not the hint's position"):
        hint_payload(found, before=Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / 2c", keep_order=True))


def _best_kept(before: Position, after: Table) -> int:
    """Most pieces left in place over every way to host new melds on old ones."""
    old = [Counter(meld.pieces) for meld in before.table]
    new = [Counter(meld.pieces) for meld in after]
    best = 0
    slots = list(range(len(new))) + [-1] * len(old)  # -1: the old meld hosts nothing
    for chosen in set(itertools.permutations(slots, len(old))):
        kept = sum(sum((old[i] & new[j]).values()) for i, j in enumerate(chosen) if j >= 0)
        best = max(best, kept)
    return best


VARIANTS = [
    Variant.manipulation(),
    Variant.manipulation(players=2),
    Variant.machiavelli(),
    Variant.rummikub(),
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_replay_rebuilds_the_hint_table_on_random_positions(variant: Variant) -> None:
    rng = random.Random(4242 + variant.decks)
    plans = 0
    for _ in range(80):
        position = random_position(rng, variant, max_table_cards=24, max_hand=6)
        found = hint(position, variant=variant)
        if not found.has_play:
            continue
        plan = plan_play(position, found.table, variant=variant)
        replayed = plan.replay()
        assert replayed.table == found.table, (str(position), plan.lines())
        assert replayed.hand == found.hand
        assert plan.moved + plan.kept == found.table.card_count()
        # Every old meld is named at most once as a host, every new meld gets one line or a keep.
        named = [s.new_meld for s in plan.steps if isinstance(s, MeldStep)]
        kept = [new for s in plan.steps if isinstance(s, KeepStep) for _, new in s.pairs]
        assert sorted(named + kept) == list(range(1, len(found.table) + 1))
        # Only the jokers the counting rule lets go change their declaration.
        before_jokers = Counter(p.declared for p in position.table.pieces if isinstance(p, Joker))
        after_jokers = Counter(p.declared for p in found.table.pieces if isinstance(p, Joker))
        changed = sum((before_jokers - after_jokers).values())
        assert sum(isinstance(s, JokerStep) for s in plan.steps) == changed
        # What a built-on meld's step takes out is exactly what leaves that old meld.
        for step in plan.steps:
            if isinstance(step, MeldStep) and step.on_meld is not None:
                old: Counter[Piece] = Counter(position.table.melds[step.on_meld - 1].real_cards)
                left: Counter[Piece] = Counter(
                    p for d in step.removes for p in d.pieces if not isinstance(p, Joker)
                )
                assert not (old - left) - Counter(step.meld.pieces), plan.lines()
                assert all(d.target != step.new_meld for d in step.removes)
        plans += 1
    assert plans >= 25


def test_plan_moves_the_fewest_pieces() -> None:
    rng = random.Random(99)
    variant = Variant.manipulation()
    checked = 0
    while checked < 40:
        position = random_position(rng, variant, max_table_cards=15, max_hand=5)
        if len(position.table) > 5:
            continue
        found = hint(position, variant=variant)
        if not found.has_play:
            continue
        plan = plan_play(position, found.table, variant=variant)
        assert plan.kept == _best_kept(position, found.table), str(position)
        checked += 1


def test_cli_hint_shows_the_steps_and_json_moves() -> None:
    from typer.testing import CliRunner

    from solver.cli import app

    runner = CliRunner()
    text = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
    human = runner.invoke(app, ["hint", text])
    assert human.exit_code == 0
    assert "Steps" in human.stdout
    # Old melds are numbered as typed: meld 1 is Kh Kd Kc, meld 3 the jacks (issue 20).
    assert (
        "1. Meld 1 becomes new meld 1, J♥ Q♥ K♥: take out K♦ for new meld 2 and K♣ for new meld 3; "
        "add Q♥ from meld 2 and J♥ from meld 3." in human.stdout
    )
    assert "Rearrangements" in human.stdout
    assert (
        "- Melds 1, 2 and 3 trade cards into new melds 1, 2 and 3, with A♣ from your hand "
        "(steps 1-3; tangle 4)." in human.stdout
    )
    data = json.loads(runner.invoke(app, ["hint", text, "--json"]).stdout)
    assert [move["new_meld"] for move in data["moves"]] == [1, 2, 3]
    assert data["moves"][2]["add"][-1] == {"from": "hand", "cards": ["Ac"]}
    assert data["moves"][2]["remove"] == [{"to": 1, "cards": ["Jh"]}, {"to": 2, "cards": ["Jd"]}]
    assert [group["kind"] for group in data["rearrangements"]] == ["trade"]
    assert data["rearrangements"][0]["old_melds"] == [1, 2, 3]


def test_cli_numbers_old_melds_as_typed_in_text_json_batch_and_analyze(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from solver.cli import app

    runner = CliRunner()
    text = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
    human = runner.invoke(app, ["hint", text]).stdout
    before = human.split("Table before")[1].split("Hand")[0]
    assert before.split() == ["1.", "K♥", "K♦", "K♣", "2.", "Q♥", "Q♦", "Q♣", "3.", "J♥", "J♦", "J♣"]
    data = json.loads(runner.invoke(app, ["hint", text, "--json"]).stdout)
    assert data["old_table"] == "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"
    assert data["moves"][0]["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Jh"]}]
    batch = tmp_path / "positions.txt"
    batch.write_text(f"{text}\nJh Jd Jc | Qh Qd Qc | Kh Kd Kc / Ac\n")
    lines = runner.invoke(app, ["hint", "--batch", str(batch), "--json"]).stdout.splitlines()
    first, second = (json.loads(line) for line in lines)
    assert first["moves"][0]["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Jh"]}]
    assert second["moves"][0]["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Kh"]}]
    analysis = json.loads(runner.invoke(app, ["analyze", text, "--json"]).stdout)
    assert analysis["best"]["old_table"] == "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"
    assert analysis["best"]["moves"] == data["moves"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_replay_on_many_big_positions(variant: Variant) -> None:
    """Long run (pytest -m slow): plans for 300 positions with tables up to 40 cards a deck."""
    rng = random.Random(808 + variant.decks)
    for _ in range(300):
        position = random_position(rng, variant, max_table_cards=40 * variant.decks, max_hand=12)
        found = hint(position, variant=variant)
        if found.has_play:
            replayed = plan_play(position, found.table, variant=variant).replay()
            assert (replayed.table, replayed.hand) == (found.table, found.hand), str(position)


def test_plan_play_takes_notation_and_preset_names_as_check_play_does() -> None:
    before = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
    after = "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"
    typed_before = Position.parse(before, keep_order=True)
    typed_after = Table.parse(after, keep_order=True)
    from_objects = plan_play(typed_before, typed_after, variant=Variant.manipulation())
    from_text = plan_play(before, after, variant="manipulation")
    assert from_text.lines() == from_objects.lines()
    # Written melds keep their order: meld 1 is the first one typed, Kh Kd Kc.
    assert from_text.lines()[0].startswith("Meld 1 becomes new meld 1, Jh Qh Kh: take out Kd")
    with pytest.raises(TypeError, match="expected a Table or its notation"):
        plan_play(before, 3)  # type: ignore[arg-type]
    with pytest.raises(PlanError, match="not a legal play"):
        plan_play(before, "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc", variant="manipulation")
