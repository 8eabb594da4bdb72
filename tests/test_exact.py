"""The exact oracle (solver.exact): rule cases, the reference suite, and trust checks.

The oracle is only useful if it is right, so besides hand-made cases every answer it
gives on random positions comes with a table that the referee must accept and whose
left-over hand is worth exactly the answer, and on tiny positions it is compared with
a naive brute force (tests/bruteforce.py) that shares none of its code.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from bruteforce import brute_force_value
from randpos import random_position

from solver.cards import Card
from solver.exact import best_play, best_value
from solver.position import Position, Table
from solver.referee import check_play, melds_broken, played_pieces
from solver.variants import Variant

MANIP = Variant.manipulation()
MANIP_2P = Variant.manipulation(players=2)
MACH = Variant.machiavelli()
RKUB = Variant.rummikub()
VARIANTS = [MANIP, MANIP_2P, MACH, RKUB]
REFERENCE = Path(__file__).parent / "data" / "reference_manipulation_small.jsonl"


def value(text: str, variant: Variant = MANIP, **options: object) -> int | None:
    return best_value(Position.parse(text), variant=variant, **options)  # type: ignore[arg-type]


def left_in_hand(position: Position, table: Table, variant: Variant, objective: str) -> int:
    """What the hand is worth after the play that leads to ``table``."""
    real, jokers = played_pieces(position, table)
    left = Counter(piece for piece in position.hand if isinstance(piece, Card))
    left.subtract(real)
    joker_count = position.hand.joker_count - jokers
    if objective == "cards":
        return sum(left.values()) + joker_count
    return sum(variant.card_points(card) * count for card, count in left.items()) + (
        joker_count * variant.joker_points
    )


def assert_backed_by_play(
    position: Position,
    variant: Variant,
    *,
    objective: str = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> int | None:
    """The oracle's answer, after checking the play behind it with the referee."""
    found = best_play(
        position,
        variant=variant,
        objective=objective,  # type: ignore[arg-type]
        keep_jokers=keep_jokers,
        opened=opened,
    )
    if found is None:
        return None
    verdict = check_play(position, found.table, variant=variant, opened=opened)
    assert verdict.ok, (str(position), str(found.table), verdict.reasons)
    assert left_in_hand(position, found.table, variant, objective) == found.value, (
        str(position),
        str(found.table),
    )
    if keep_jokers:
        _, jokers_played = played_pieces(position, found.table)
        goes_out = left_in_hand(position, found.table, variant, "cards") == 0
        assert jokers_played == 0 or goes_out, (str(position), str(found.table))
    return found.value


# -- RULES.md worked examples ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac", 0),
        ("10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s", None),
        ("10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s Qs Qh", 0),
        ("7h 8h *9h / 9h Jh", 0),
        ("2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh", 0),
        ("*Qh Qd Qs Qc / 10h Jh", 0),
    ],
)
def test_worked_examples(text: str, expected: int | None) -> None:
    assert assert_backed_by_play(Position.parse(text), MANIP) == expected


def test_joker_keeps_its_card_when_it_moves() -> None:
    """RULES.md: with ``*Qh Qd Qs Qc / 10d Jd`` the table ``10d Jd *Qd | Qd Qs Qc`` is
    illegal (the joker's card changed without a real Qh).  The play is still possible
    with the joker keeping its card: ``10d Jd Qd | Qs *Qh Qc``."""
    position = Position.parse("*Qh Qd Qs Qc / 10d Jd")
    assert not check_play(position, Table.parse("10d Jd *Qd | Qd Qs Qc"), variant=MANIP).ok
    assert check_play(position, Table.parse("10d Jd Qd | Qs *Qh Qc"), variant=MANIP).ok
    assert assert_backed_by_play(position, MANIP) == 0


def test_locked_joker_blocks_its_position() -> None:
    # The joker stands for 9h until a real 9h frees it: Jh cannot join 7h 8h *9h.
    assert value("7h 8h *9h / Jh") is None
    assert value("7h 8h *9h / 10h") == 0
    # A locked joker moves only as its card: *Qh may leave the group for Jh Qh Kh,
    # but the group must keep three cards.
    assert value("*Qh Qd Qc / Qs") == 0
    assert value("*Qh Qd Qc / Jh Kh") is None
    assert value("*Qh Qd Qc Qs / Jh Kh") == 0


def test_freed_joker_must_be_used_and_may_keep_its_card() -> None:
    # The real 9h frees the joker, which goes on as 10h.
    assert value("7h 8h *9h / 9h 10h") == 0
    # The real Qh frees the joker, which goes on as Qs in the same group.
    assert value("*Qh Qd Qc / Qh") == 0
    assert value("5s 5h *5d / 5d") == 0
    # A freed joker never goes back to the hand: with a full group of fives there is
    # no place for it, and kept as 5d it cannot share the group with the real 5d.
    assert value("*5d 5s 5h 5c / 5d") is None


# -- the reference suite ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        # Laid off at the end: nothing broken.
        ("5h 6h 7h | Kc Kd Ks / 8h", 0),
        # Three groups become three sequences for the ace.
        ("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac", 3),
        # The real Js takes the joker's place, the joker becomes the fourth suit.
        ("10d Jd Qd | *Js Jh Jd / Js", 0),
        # RULES.md's example: the freed joker moves up to 10h in its own meld.
        ("7h 8h *9h / 9h Jh", 0),
        # The joker passes the other old meld of its suit, which lies whole inside.
        ("*4h 5h 6h | 7h 8h 9h / 4h Jh", 0),
        # Two melds kept in one: 5s 6s 7s with its joker as Js, around 8s 9s 10s.
        (
            "As 2s 3s 4s | 5s 6s 7s *8s | 8s 9s 10s | Js Qs Ks As | Jd Qd Kd | *8s 8d 8c | Ks Kd Kc"
            " / 8s Jh Jd Ac",
            2,
        ),
        # The joker may not change its card: the meld keeps it as 7h.
        ("*7h 8h 9h / 10h", 0),
    ],
)
def test_tie_break(text: str, broken: int) -> None:
    position = Position.parse(text)
    found = best_play(position, tie_break=True)
    assert found is not None and found.value == 0
    assert found.melds_broken == broken
    assert check_play(position, found.table).ok, str(found.table)
    assert melds_broken(position.table, found.table) == broken, str(found.table)
    # Without the tie-break the answer names no count; the value is the same.
    plain = best_play(position)
    assert plain is not None and (plain.value, plain.melds_broken) == (0, None)


def test_tie_break_of_an_opening_and_of_no_play() -> None:
    # An opening leaves the table as it is: nothing is broken.
    found = best_play(Position.parse("5s 6s 7s / 10h Jh Qh 8s"), variant=RKUB, opened=False, tie_break=True)
    assert found is not None and found.melds_broken == 0 and str(found.table) == "5s 6s 7s | 10h Jh Qh"
    assert best_play(Position.parse("5h 6h 7h / Kc"), tie_break=True) is None


def test_reference_suite() -> None:
    lines = REFERENCE.read_text().splitlines()
    assert len(lines) == 120
    for line in lines:
        entry = json.loads(line)
        position = Position.parse(entry["position"])
        assert assert_backed_by_play(position, MANIP) == entry["hand_points"], entry["position"]


# -- rule cases ----------------------------------------------------------------


def test_ace_high() -> None:
    assert value("/ Qs Ks As") == 0
    assert value("/ Qs Ks As", MACH) == 0
    assert value("/ Qs Ks As", RKUB) is None
    assert value("/ As 2s 3s", RKUB) == 0


def test_ace_never_inside_a_sequence() -> None:
    assert value("/ Ks As 2s") is None
    assert value("/ Ks As 2s 3s") == 10  # As 2s 3s, the Ks stays


def test_ace_at_both_ends() -> None:
    king_run = "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks"
    assert value(f"{king_run} / As") == 0
    assert value(f"{king_run} / As", MACH) == 0
    assert value(f"{king_run} / As", RKUB) is None
    assert check_play(Position.parse(f"{king_run} / As"), Table.parse(f"{king_run} As"), variant=MANIP).ok
    assert value(f"{king_run} / Ah") is None
    # The 14-card sequence on the table takes a second 5s or a joker only by splitting.
    full_run = f"{king_run} As"
    assert value(f"{full_run} / 5h") is None
    assert value(f"{full_run} / 5s") == 0
    assert value(f"{full_run} / *") == 0


def test_groups_need_distinct_suits() -> None:
    assert value("Ks Kh Kd / Ks") is None
    assert value("Ks Kh Kd / Kc") == 0
    assert value("Ks Kh Kd Kc / Ks") is None


def test_long_sequences_are_found_without_splitting() -> None:
    # The whole suit from 3 to Q has to stay in one meld.
    assert value("3d 4d 5d 6d 7d 8d 9d 10d Jd Qd / 2d Kd") == 0
    assert value("/ 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad") == 0


def test_keep_jokers() -> None:
    assert value("7h 8h 9h / * 5c") == 5
    assert value("7h 8h 9h / * 5c", keep_jokers=True) is None
    assert value("7h 8h 9h / *", keep_jokers=True) == 0
    assert value("7h 8h 9h / * 10h") == 0
    assert value("7h 8h 9h / * 10h", keep_jokers=True) == 0
    assert value("7h 8h 9h / * 10h 2c", keep_jokers=True) == 25 + 2
    assert value("7h 8h 9h / * 10h 2c") == 2


def test_cards_objective() -> None:
    # One joker: Kh Kd *K leaves the four small clubs (16 points, 4 cards); the run
    # 2c 3c *4c 5c 6c leaves the two kings (20 points, 2 cards).
    position = "/ * Kh Kd 2c 3c 5c 6c"
    assert value(position) == 16
    assert value(position, objective="cards") == 2
    assert value("7h 8h 9h / * 10h 2c", objective="cards") == 1
    assert value("10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s", objective="cards") is None


def test_rummikub_opening() -> None:
    assert value("/ 10h Jh Qh", RKUB, opened=False) == 0  # worth 33
    assert value("/ 2h 3h 4h", RKUB, opened=False) is None  # worth 9
    assert value("/ 2h 3h 4h", RKUB) == 0
    assert value("/ 10h Jh Qh 2c", RKUB, opened=False) == 2
    # A joker counts as the tile it stands for: 9 10 *J makes 30, 8 9 *10 only 27.
    assert value("/ 9h 10h *", RKUB, opened=False) == 0
    assert value("/ 8h 9h *", RKUB, opened=False) is None
    # The opening leaves the table alone: the Ks may not join the table's kings.
    assert value("Kh Kd Kc / Ks 10s", RKUB, opened=False) is None
    assert value("Kh Kd Kc / Ks 10s", RKUB) == 10
    assert value("Kh Kd Kc / Ks Qs Js 2c", RKUB, opened=False) == 2  # 13 + 12 + 11 = 36
    # No opening rule once opened, nor in a variant without one.
    assert value("Kh Kd Kc / Ks", MANIP, opened=False) == 0
    # Rummikub counts the tiles at face value and a joker as 30.
    assert value("/ 10h Jh Qh Kh Kd", RKUB) == 13
    assert value("/ 10h Jh Qh *", RKUB) == 0
    assert value("/ 10h Jh Qh * 5c", RKUB, keep_jokers=True) == 30 + 5


def test_machiavelli() -> None:
    assert value("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac", MACH) == 0
    assert value("7h 8h 9h / 10h 2c", MACH) == 2
    assert value("7h 8h 9h / 7h 8h 9h 10h Jh Qh", MACH) == 0


def test_one_deck_game() -> None:
    assert value("7h 8h *9h / 9h Jh", MANIP_2P) == 0
    assert value("/ 2c 3c 4c * Kd", MANIP_2P) == 10


def test_nothing_to_play() -> None:
    assert value("Kh Kd Kc / ") is None
    assert value("/ ") is None
    assert value("/ 2c 9d") is None
    assert value("/ *") is None


# -- trust: random positions ------------------------------------------------------


def _random_options(rng: random.Random, variant: Variant) -> dict[str, object]:
    roll = rng.random()
    if roll < 0.2:
        return {"objective": "cards"}
    if roll < 0.35 and variant.jokers:
        return {"keep_jokers": True}
    if roll < 0.55 and variant.opening_points:
        return {"opened": False}
    return {}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_random_answers_are_backed_by_legal_plays(variant: Variant) -> None:
    rng = random.Random(20240611 + variant.decks + 7 * variant.jokers)
    answered = 0
    for _ in range(150):
        position = random_position(rng, variant, max_table_cards=20, max_hand=7)
        if assert_backed_by_play(position, variant, **_random_options(rng, variant)) is not None:  # type: ignore[arg-type]
            answered += 1
    assert answered >= 30  # the generator does produce plays


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_tiny_positions_agree_with_brute_force(variant: Variant) -> None:
    rng = random.Random(7 + variant.decks + variant.jokers)
    for _ in range(30):
        position = random_position(rng, variant, max_table_cards=6, max_hand=3)
        options = _random_options(rng, variant)
        expected = brute_force_value(position, variant, **options)  # type: ignore[arg-type]
        assert assert_backed_by_play(position, variant, **options) == expected, (str(position), options)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_many_tiny_positions_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(250):
        variant = rng.choice(VARIANTS)
        position = random_position(rng, variant, max_table_cards=6, max_hand=4, min_hand=2)
        options = _random_options(rng, variant)
        expected = brute_force_value(position, variant, **options)  # type: ignore[arg-type]
        assert assert_backed_by_play(position, variant, **options) == expected, (str(position), options)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}")
def test_many_random_answers_are_backed_by_legal_plays(variant: Variant) -> None:
    rng = random.Random(99 + variant.decks + 7 * variant.jokers)
    for _ in range(2000):
        position = random_position(rng, variant, max_table_cards=20, max_hand=7, min_table_cards=12)
        assert_backed_by_play(position, variant, **_random_options(rng, variant))  # type: ignore[arg-type]


def test_random_positions_are_valid() -> None:
    rng = random.Random(5)
    for variant in VARIANTS:
        for _ in range(200):
            position = random_position(rng, variant, max_table_cards=20, max_hand=7)
            assert position.problems(variant) == []
            assert position.table.card_count() <= 20
            assert 1 <= len(position.hand) <= 7
            assert all(isinstance(p, Card) or p.declared is None for p in position.hand)
