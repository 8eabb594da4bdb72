"""Table, Hand, Position: notation, canonical output, round trips, deck checks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from randpos import random_position
from strategies import DECK, positions, scrambled_text

from solver.cards import ALL_CARDS, Card, Joker, NotationError
from solver.engine import hint
from solver.melds import Meld
from solver.position import Hand, Position, PositionError, Table
from solver.referee import check_play
from solver.variants import Variant

MANIP = Variant.manipulation()
DECK_CARDS = list(ALL_CARDS)

# --- parsing and printing -------------------------------------------------------------------------


def test_position_parse_splits_table_and_hand() -> None:
    pos = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    assert len(pos.table) == 3
    assert pos.hand == Hand((Card.parse("Ac"),))
    assert str(pos) == "Jh Jd Jc | Qh Qd Qc | Kh Kd Kc / Ac"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/ 7h 8h 9h", "/ 7h 8h 9h"),
        ("/", "/"),
        ("  /  ", "/"),
        ("7h 8h 9h /", "7h 8h 9h /"),
        ("7h 8h 9h/7s", "7h 8h 9h / 7s"),
        ("7h 8h *9h / 9h Jh", "7h 8h *9h / 9h Jh"),
        ("/ *", "/ *"),
    ],
)
def test_empty_parts_are_written_as_nothing(text: str, expected: str) -> None:
    pos = Position.parse(text)
    assert str(pos) == expected
    assert Position.parse(expected) == pos


def test_empty_position() -> None:
    pos = Position.parse("/")
    assert pos == Position()
    assert len(pos.table) == 0
    assert len(pos.hand) == 0
    assert Table.parse("   ") == Table()


def test_table_canonical_order_example_from_the_issue() -> None:
    table = Table.parse("Kc Qc Jc Ac | Jd Qd Kd | Jh Kh Qh")
    assert str(table) == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"


def test_table_prints_sequences_by_suit_then_start_then_groups_by_rank() -> None:
    table = Table.parse("Kd Ks Kh | 5c 5s 5h | 9c 10c Jc | Qs Ks As | 3h 4h 5h | As 2s 3s | 2d 3d 4d")
    assert str(table) == "As 2s 3s | Qs Ks As | 3h 4h 5h | 2d 3d 4d | 9c 10c Jc | 5s 5h 5c | Ks Kh Kd"


def test_equal_melds_of_different_lengths_sort_stably() -> None:
    a = Table.parse("7h 8h 9h 10h | 7h 8h 9h | 7h *8h 9h")
    b = Table.parse("7h *8h 9h | 7h 8h 9h | 7h 8h 9h 10h")
    assert a == b
    assert str(a) == str(b)


def test_hand_prints_by_suit_then_rank_with_jokers_last() -> None:
    hand = Hand.parse("* Kc 10h 2s Ah Qs 3c *")
    assert str(hand) == "2s Qs Ah 10h 3c Kc * *"
    assert hand.joker_count == 2
    assert len(hand) == 8


def test_position_equality_and_hash_ignore_input_order() -> None:
    a = Position.parse("Qh Qd Qc | 7h 8h *9h / 9h * 2c")
    b = Position.parse("*9h 8h 7h | Qc Qh Qd / 2c 9h *")
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


def test_lenient_input_gives_the_canonical_string() -> None:
    text = "kH KD kc | 12♥ q♦ Q♣ | 11h th 9H / 1c *"
    assert str(Position.parse(text)) == "9h 10h Jh | Qh Qd Qc | Kh Kd Kc / Ac *"


def test_repr_pastes_back() -> None:
    pos = Position.parse("7h 8h *9h / 9h *")
    assert repr(pos) == "Position.parse('7h 8h *9h / 9h *')"
    assert eval(repr(pos), {"Position": Position}) == pos
    assert eval(repr(pos.table), {"Table": Table}) == pos.table
    assert eval(repr(pos.hand), {"Hand": Hand}) == pos.hand


def test_table_accessors() -> None:
    table = Table.parse("7h 8h *9h | Qs Qh Qd")
    assert table.card_count() == 6
    assert len(table.pieces) == 6
    assert Joker(Card.parse("9h")) in table.pieces
    assert [str(m) for m in table] == ["7h 8h *9h", "Qs Qh Qd"]
    assert table.melds == (Meld.parse("7h 8h *9h"), Meld.parse("Qs Qh Qd"))


def test_pretty() -> None:
    pos = Position.parse("7h 8h *9h / Qs *")
    assert pos.pretty == "table: 7♥ 8♥ ★9♥\nhand:  Q♠ ★"
    assert Position().pretty == "table: (empty)\nhand:  (empty)"


# --- notation errors ------------------------------------------------------------------------------


def test_bad_table_card_names_token_and_meld() -> None:
    with pytest.raises(NotationError) as info:
        Position.parse("Kh Kx / 7h")
    message = str(info.value)
    assert "Kx" in message
    assert "table meld 1" in message
    assert isinstance(info.value, ValueError)


def test_bad_card_in_a_later_meld_names_that_meld() -> None:
    with pytest.raises(NotationError) as info:
        Position.parse("7h 8h 9h | Qs Qh Zd / 7c")
    message = str(info.value)
    assert "Zd" in message
    assert "table meld 2" in message
    assert "card 3" in message


def test_bad_hand_card_names_token_and_place() -> None:
    with pytest.raises(NotationError) as info:
        Position.parse("7h 8h 9h / 10h 11x")
    message = str(info.value)
    assert "11x" in message
    assert "hand card 2" in message


@pytest.mark.parametrize("text", ["7h 8h 9h", "7h / 8h / 9h", ""])
def test_position_needs_exactly_one_slash(text: str) -> None:
    with pytest.raises(NotationError, match="'/'"):
        Position.parse(text)


@pytest.mark.parametrize("text", ["Kh Kd Kc || Qh Qd Qc / Ac", "Kh Kd Kc | / Ac", "| Kh Kd Kc / Ac"])
def test_empty_meld_between_bars(text: str) -> None:
    with pytest.raises(NotationError, match="empty"):
        Position.parse(text)


def test_hand_may_not_contain_a_bar() -> None:
    with pytest.raises(NotationError, match=r"'\|'"):
        Position.parse("7h 8h 9h / 7s | 8s")


# --- deck and rule checks (PositionError) ---------------------------------------------------------


def test_valid_position_validates_to_itself() -> None:
    pos = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    assert pos.problems(MANIP) == []
    assert pos.validate(MANIP) is pos


def test_joker_declared_as_a_card_is_not_a_copy_of_it() -> None:
    pos = Position.parse("7s 7h 7d | 7s 7h 7c | *7h 8h 9h / *")
    assert pos.validate(MANIP) is pos


def test_too_many_copies_of_a_card() -> None:
    pos = Position.parse("7h 8h 9h | 7s 7h 7d / 7h")
    with pytest.raises(PositionError) as info:
        pos.validate(MANIP)
    assert "7h" in str(info.value)
    assert "3 copies" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_two_copies_are_too_many_with_one_deck() -> None:
    pos = Position.parse("7h 8h 9h / 7h")
    assert pos.problems(MANIP) == []
    problems = pos.problems(Variant.manipulation(players=2))
    assert len(problems) == 1
    assert "7h" in problems[0]


def test_more_copies_than_any_deck_of_the_game_says_so() -> None:
    """Three copies of a card are refused by the 2-player deck and by every other: the
    error says no deck of the game holds them (it named the 2-player deck's 1, and a
    reader tried more players)."""
    two = Variant.manipulation(players=2)
    assert Position.parse("Kh Kd Kc / Kh Kh").problems(two) == [
        "3 copies of Kh, but no manipulation deck holds more than 2"
    ]
    assert Position.parse("Kh Kd Kc / * * *").problems(two) == [
        "3 jokers, but no manipulation deck holds more than 2"
    ]
    # Copies that more players' deck holds still name the deck of the count given.
    assert Position.parse("Kh Kd Kc / Kh").problems(two) == [
        "2 copies of Kh, but the 2-player manipulation deck holds 1"
    ]
    assert Position.parse("Kh Kd Kc / Kh Kh").problems(MANIP) == [
        "3 copies of Kh, but the manipulation deck holds 2"
    ]


def test_too_many_jokers() -> None:
    pos = Position.parse("7h 8h *9h | *Qs Qh Qd / *")
    with pytest.raises(PositionError, match="3 jokers"):
        pos.validate(MANIP)
    assert Position.parse("7h 8h *9h / *").problems(MANIP) == []
    assert Position.parse("7h 8h *9h / *").problems(Variant.manipulation(players=2)) != []
    with pytest.raises(PositionError, match="joker"):
        Position.parse("/ *").validate(Variant.machiavelli())


def test_undeclared_table_joker() -> None:
    with pytest.raises(PositionError) as info:
        Position.parse("7h 8h * / 2c").validate(MANIP)
    assert info.value.problems == ["table meld 7h 8h *: a joker on the table must be declared, e.g. *7h"]


def test_declared_hand_joker() -> None:
    with pytest.raises(PositionError) as info:
        Position.parse("7h 8h 9h / *10h").validate(MANIP)
    assert len(info.value.problems) == 1
    assert "*10h" in info.value.problems[0]
    assert "hand" in info.value.problems[0]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("7h 8h 10h / 2c", "7h 8h 10h"),
        ("Ks As 2s / 2c", "As 2s Ks"),
        ("Ks Ks Kd / 2c", "Ks Ks Kd"),
        ("7h 8h | Qs Qh Qd / 2c", "7h 8h"),
    ],
)
def test_illegal_table_meld_is_named(text: str, named: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.parse(text).validate(MANIP)
    assert len(info.value.problems) == 1
    assert named in info.value.problems[0]


def test_table_meld_of_jokers_only_is_named() -> None:
    many_jokers = MANIP.with_options(jokers=3)
    problems = Position.parse("*7h *8h *9h / 2c").problems(many_jokers)
    assert problems == ["table meld *7h *8h *9h: a meld needs at least one real card"]


def test_ace_high_table_meld_is_illegal_in_rummikub() -> None:
    pos = Position.parse("12h 13h 1h / 5c")
    assert pos.problems(MANIP) == []
    problems = pos.problems(Variant.rummikub())
    assert len(problems) == 1
    assert "Qh Kh Ah" in problems[0]


def test_position_error_lists_every_problem() -> None:
    pos = Position.parse("7h 8h * | Ks Ks Kd | 7h 7s 7d / *7s * * 7h")
    with pytest.raises(PositionError) as info:
        pos.validate(MANIP)
    problems = info.value.problems
    assert len(problems) == 5
    assert str(info.value) == "; ".join(problems)
    joined = " ".join(problems)
    for part in ["7h 8h *", "Ks Ks Kd", "*7s", "3 copies of 7h", "4 jokers"]:
        assert part in joined


def _spoiled(rng: random.Random, pos: Position) -> Position:
    """``pos`` with a few random changes that may break it: extra copies and jokers in
    the hand, a hand joker declared, a table joker undeclared, a card moved between
    melds, a meld cut short (each unchecked, as ``Position(...)`` builds it)."""
    melds = [list(meld.pieces) for meld in pos.table]
    hand = list(pos.hand.pieces)
    for _ in range(rng.randint(0, 3)):
        roll = rng.random()
        if roll < 0.3:
            hand.append(rng.choice([*hand, *DECK_CARDS]) if hand else rng.choice(DECK_CARDS))
        elif roll < 0.45:
            hand.append(Joker(rng.choice([None, rng.choice(DECK_CARDS)])))
        elif roll < 0.6 and melds:
            meld = rng.choice(melds)
            meld[rng.randrange(len(meld))] = Joker()
        elif roll < 0.8 and len(melds) > 1:
            source, target = rng.sample(melds, 2)
            target.append(source.pop(rng.randrange(len(source))))
        elif melds:
            rng.choice(melds).pop()
    table = Table(tuple(Meld(tuple(meld)) for meld in melds if meld))
    return Position(table, Hand(tuple(hand)))


def test_problems_are_decided_as_the_full_check_decides_them() -> None:
    """``problems`` answers a valid position from cached per-meld facts; on random valid
    and spoiled positions it must say exactly what the full, piece-by-piece check says."""
    rng = random.Random(5)
    variants = [MANIP, Variant.manipulation(players=2), Variant.rummikub(), Variant.machiavelli()]
    outcomes = {True: 0, False: 0}
    for _ in range(1500):
        variant = rng.choice(variants)
        pos = random_position(rng, variant, max_table_cards=rng.choice((0, 12, 40)), max_hand=12)
        if rng.random() < 0.6:
            pos = _spoiled(rng, pos)
        for judge in variants:
            found = pos.problems(judge)
            assert found == pos.every_problem(judge)
            outcomes[not found] += 1
    assert min(outcomes.values()) > 1000  # valid and invalid positions alike


# --- properties -----------------------------------------------------------------------------------


@given(positions())
def test_generated_positions_are_valid(pos: Position) -> None:
    assert pos.problems(DECK) == []
    for meld in pos.table:
        assert meld.is_legal(DECK)


@given(positions())
def test_position_round_trips_through_its_string(pos: Position) -> None:
    text = str(pos)
    again = Position.parse(text)
    assert again == pos
    assert str(again) == text
    assert Table.parse(str(pos.table)) == pos.table
    assert Hand.parse(str(pos.hand)) == pos.hand


@given(positions(), st.randoms(use_true_random=False))
def test_order_of_melds_and_cards_in_the_input_does_not_matter(pos: Position, rnd: random.Random) -> None:
    text = scrambled_text(pos, rnd)
    assert Position.parse(text) == pos
    assert str(Position.parse(text)) == str(pos)


@given(positions(), st.randoms(use_true_random=False))
def test_lenient_spellings_give_the_canonical_string(pos: Position, rnd: random.Random) -> None:
    text = scrambled_text(pos, rnd, respell=True)
    assert str(Position.parse(text)) == str(pos)


@given(positions())
def test_canonical_table_is_sorted_by_meld_sort_key(pos: Position) -> None:
    keys = [meld.sort_key() for meld in pos.table]
    assert keys == sorted(keys)
    assert Table.of(reversed(pos.table.melds)) == pos.table


def test_keep_order_keeps_the_melds_as_written_and_canonical_restores_the_order() -> None:
    typed = "Kh Kd Kc | 7h 5h 6h | Qh Qd Qc / Ac 2c"
    entered = Position.parse(typed, keep_order=True)
    assert str(entered.table) == "Kh Kd Kc | 5h 6h 7h | Qh Qd Qc"  # each meld canonical inside
    assert str(entered.hand) == "Ac 2c"
    assert entered.canonical() == Position.parse(typed)
    assert Table.parse("Kh Kd Kc | Qh Qd Qc", keep_order=True) != Table.parse("Kh Kd Kc | Qh Qd Qc")
    assert Table.parse("  ", keep_order=True) == Table()
    with pytest.raises(NotationError, match="meld 2 of the table is empty"):
        Position.parse("Kh Kd Kc || Qh Qd Qc / Ac", keep_order=True)


def _shuffled(position: Position, rng: random.Random) -> Position:
    """The same position built with the constructors, each meld's pieces and the melds in
    a random order (what a library user may write: ``Meld((8h, *9h, 7h))``)."""
    melds = []
    for meld in position.table.melds:
        pieces = list(meld.pieces)
        rng.shuffle(pieces)
        melds.append(Meld(tuple(pieces)))
    rng.shuffle(melds)
    hand = list(position.hand.pieces)
    rng.shuffle(hand)
    return Position(Table(tuple(melds)), Hand(tuple(hand)))


def test_a_position_built_in_any_order_gets_the_answer_of_its_notation() -> None:
    """Built with the constructors and meld cards out of order, a position passed
    validation and the engines read the melds in the order given: illegal plays came back
    as optimal (189 of 400 shuffled positions).  ``validate`` now returns the canonical
    position, which every engine takes."""
    rng = random.Random(20261127)
    variant = Variant.manipulation()
    checked = 0
    while checked < 60:
        parsed = random_position(rng, variant)
        if not len(parsed.table):
            continue
        built = _shuffled(parsed, rng)
        assert built.canonical() == parsed and built.validate(variant) == parsed
        for fast_path in (True, False):
            answer = hint(built, variant=variant, fast_path=fast_path)
            expected = hint(parsed, variant=variant, fast_path=fast_path)
            assert (answer.status, answer.table) == (expected.status, expected.table)
            assert answer.hand == expected.hand
            if answer.has_play:
                assert check_play(built, answer.table, variant=variant).ok
        checked += 1
