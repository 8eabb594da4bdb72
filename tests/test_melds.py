"""Melds: groups, sequences, aces, jokers, canonical order, the catalogue."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import ALL_CARDS, Card, Joker, NotationError, Piece, Suit
from solver.melds import Meld, MeldTemplate, catalogue, formable, join_sequences, position_card
from solver.variants import Variant

MANIP = Variant.manipulation()
MACH = Variant.machiavelli()
RKUB = Variant.rummikub()
ALL_VARIANTS = [MANIP, MACH, RKUB]
ACE_HIGH_VARIANTS = [MANIP, MACH]

FULL_HEARTS_ACE_BOTH_ENDS = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"
FULL_HEARTS_A_TO_K = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"


def problem(text: str, variant: Variant = MANIP) -> str | None:
    return Meld.parse(text).problem(variant)


def legal(text: str, variant: Variant = MANIP) -> bool:
    return Meld.parse(text).is_legal(variant)


# --- groups ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("text", ["8s 8h 8d", "8s 8h 8c", "Kh Kd Kc", "As Ah Ad Ac", "10s 10h 10d 10c"])
def test_group_of_three_or_four_distinct_suits_is_legal(text: str, variant: Variant) -> None:
    assert legal(text, variant)
    assert Meld.parse(text).kind(variant) == "group"


def test_group_may_not_hold_two_cards_of_one_suit() -> None:
    reason = problem("8s 8s 8h")
    assert reason is not None
    assert "8s" in reason and "twice" in reason
    assert not legal("8s 8h 8d 8s")
    assert not legal("8s 8h 8d 8c 8s")


def test_group_holds_at_most_four_cards() -> None:
    # five cards of a rank always repeat a suit; the meld is rejected either way
    assert not legal("Qs Qh Qd Qc Qh")


def test_meld_needs_three_cards() -> None:
    reason = problem("8s 8h")
    assert reason is not None and "at least 3" in reason
    assert not legal("7h 8h")
    assert not legal("Ah")


def test_mixed_ranks_and_suits_are_no_meld() -> None:
    reason = problem("7h 8s 9h")
    assert reason is not None and "neither" in reason
    assert not legal("7h 7s 8s")


# --- sequences ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize(
    "text", ["7h 8h 9h", "2c 3c 4c 5c", "As 2s 3s", "Jd Qd Kd", FULL_HEARTS_A_TO_K, "9c 10c Jc Qc Kc"]
)
def test_sequence_of_three_or_more_consecutive_cards_of_one_suit(text: str, variant: Variant) -> None:
    assert legal(text, variant)
    assert Meld.parse(text).kind(variant) == "sequence"


def test_sequence_may_not_skip_a_rank() -> None:
    reason = problem("7h 8h 10h")
    assert reason is not None and "gap" in reason and "8h" in reason and "10h" in reason


def test_sequence_may_not_repeat_a_card() -> None:
    reason = problem("7h 8h 8h 9h")
    assert reason is not None and "8h" in reason and "twice" in reason


@pytest.mark.parametrize("variant", ACE_HIGH_VARIANTS, ids=lambda v: v.name)
def test_ace_high_ends_a_sequence(variant: Variant) -> None:
    assert legal("Qh Kh Ah", variant)
    assert legal("10s Js Qs Ks As", variant)
    assert str(Meld.parse("Ah Qh Kh")) == "Qh Kh Ah"


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_ace_low_starts_a_sequence(variant: Variant) -> None:
    assert legal("Ah 2h 3h", variant)
    assert str(Meld.parse("3h Ah 2h")) == "Ah 2h 3h"


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("text", ["Kh Ah 2h", "Qh Kh Ah 2h", "Kh Ah 2h 3h", "Jh Qh Kh Ah 2h"])
def test_ace_never_sits_inside_a_sequence(text: str, variant: Variant) -> None:
    reason = problem(text, variant)
    assert reason is not None
    assert "ace" in reason


@pytest.mark.parametrize("variant", ACE_HIGH_VARIANTS, ids=lambda v: v.name)
def test_ace_to_ace_run_of_fourteen_is_legal_with_ace_high(variant: Variant) -> None:
    meld = Meld.parse(FULL_HEARTS_ACE_BOTH_ENDS)
    assert len(meld) == 14
    assert meld.is_legal(variant)
    assert meld.kind(variant) == "sequence"
    assert str(meld) == FULL_HEARTS_ACE_BOTH_ENDS
    shuffled = FULL_HEARTS_ACE_BOTH_ENDS.split()
    random.Random(7).shuffle(shuffled)
    assert Meld.parse(" ".join(shuffled)) == meld


def test_ace_to_ace_run_must_be_complete() -> None:
    assert not legal("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Ah")  # no Kh
    assert not legal("Ah 2h 3h Ah")
    assert not legal("Ah Qh Kh Ah")
    reason = problem("Ah Ah Ah 2h 3h")
    assert reason is not None and "two aces" in reason


def test_rummikub_has_no_ace_high() -> None:
    # 13-1-2 and 12-13-1 are illegal, 1-2-3 is legal
    for text in ["13h 1h 2h", "12h 13h 1h", "11h 12h 13h 1h"]:
        reason = problem(text, RKUB)
        assert reason is not None, text
        assert "ace-high" in reason, (text, reason)
    assert not legal(FULL_HEARTS_ACE_BOTH_ENDS, RKUB)
    assert not legal("1h 1h 2h 3h", RKUB)
    assert legal("1h 2h 3h", RKUB)
    assert legal("11h 12h 13h", RKUB)
    # the same melds are legal in Manipulation Rummy when no ace sits inside
    assert legal("12h 13h 1h", MANIP)
    assert not legal("13h 1h 2h", MANIP)


def test_sequence_length_limits() -> None:
    assert legal(FULL_HEARTS_A_TO_K, RKUB)
    assert legal(FULL_HEARTS_ACE_BOTH_ENDS, MANIP)
    assert not legal(FULL_HEARTS_ACE_BOTH_ENDS + " 2h", MANIP)


# --- jokers ---------------------------------------------------------------------------------------


def test_joker_in_a_group_declares_a_missing_suit() -> None:
    assert legal("Qs Qd *Qh")
    assert legal("*Qh Qd Qs Qc")
    reason = problem("Qs Qh *Qh")
    assert reason is not None and "Qh" in reason
    reason = problem("Qs Qh Qd Qc *Qh")
    assert reason is not None


def test_joker_in_a_sequence_fills_one_position() -> None:
    assert legal("7h 8h *9h")
    assert legal("7h *8h 9h")
    assert legal("*6h 7h 8h")
    assert legal("7h 8h *9h 10h")
    assert not legal("7h 8h *10h")  # leaves a gap
    assert not legal("7h 8h *8h")  # no position to fill
    assert not legal("7h 8h *9s")  # wrong suit


def test_joker_must_fit_the_rank_of_a_group() -> None:
    assert not legal("7s 7h *8d")
    assert not legal("7s 7h *7s")


def test_joker_declared_as_an_ace_obeys_the_ace_rule() -> None:
    assert legal("*Ah 2h 3h")
    assert legal("Qh Kh *Ah")
    assert not legal("Kh *Ah 2h")
    assert not legal("Qh Kh *Ah", RKUB)
    assert legal("*Ah 2h 3h", RKUB)


def test_ace_to_ace_run_with_a_joker_ace_is_canonical() -> None:
    """A real Ah and a joker declared Ah in one 14-card run: input order must not matter."""
    low = Meld.parse("*Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah")
    high = Meld.parse("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh *Ah")
    assert low.is_legal(MANIP)
    assert low == high
    assert str(low) == str(high)


def test_table_joker_must_be_declared() -> None:
    reason = problem("7h 8h *")
    assert reason is not None and "declared" in reason


def test_meld_holds_at_least_one_real_card() -> None:
    reason = problem("*7h *8h *9h")
    assert reason is not None and "real card" in reason
    assert not legal("*7s *7h *7d")
    assert legal("*7h *8h 9h")
    assert legal("*7s *7h 7d")


def test_real_cards_and_jokers_accessors() -> None:
    meld = Meld.parse("7h *8h 9h")
    assert meld.real_cards == (Card.parse("7h"), Card.parse("9h"))
    assert meld.jokers == (Joker(Card.parse("8h")),)
    assert meld.cards == tuple(Card.parse(t) for t in ("7h", "8h", "9h"))


# --- canonical order ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9h 7h 8h", "7h 8h 9h"),
        ("Kc Qc Jc Ac", "Jc Qc Kc Ac"),
        ("3d Ad 2d", "Ad 2d 3d"),
        ("*9h 8h 7h", "7h 8h *9h"),
        ("Qc Qs Qd Qh", "Qs Qh Qd Qc"),
        ("8c *8d 8h", "8h *8d 8c"),
        ("10c 10s 10h", "10s 10h 10c"),
        ("th 9h jh", "9h 10h Jh"),
        ("12♠ 13♠ 1♠", "Qs Ks As"),
    ],
)
def test_meld_prints_canonically(text: str, expected: str) -> None:
    assert str(Meld.parse(text)) == expected
    assert Meld.parse(expected) == Meld.parse(text)


@given(st.sampled_from(catalogue(MANIP)), st.randoms(use_true_random=False))
def test_card_order_within_a_meld_does_not_matter(template: MeldTemplate, rnd: random.Random) -> None:
    cards = [str(c) for c in template.cards]
    canonical = str(Meld.parse(" ".join(cards)))
    rnd.shuffle(cards)
    assert str(Meld.parse(" ".join(cards))) == canonical


def test_sort_key_puts_sequences_first_by_suit_then_start_then_groups_by_rank() -> None:
    texts = ["Ks Kh Kd", "5s 5h 5d", "Jh Qh Kh", "2c 3c 4c", "As 2s 3s", "Qs Ks As", "7h 8h 9h"]
    melds = sorted((Meld.parse(t) for t in texts), key=Meld.sort_key)
    assert [str(m) for m in melds] == [
        "As 2s 3s",
        "Qs Ks As",
        "7h 8h 9h",
        "Jh Qh Kh",
        "2c 3c 4c",
        "5s 5h 5d",
        "Ks Kh Kd",
    ]


def test_repr_pastes_back() -> None:
    meld = Meld.parse("7h 8h *9h")
    assert repr(meld) == "Meld.parse('7h 8h *9h')"
    assert eval(repr(meld), {"Meld": Meld}) == meld


# --- parse errors ---------------------------------------------------------------------------------


def test_bad_card_in_a_meld_names_token_and_place() -> None:
    with pytest.raises(NotationError) as info:
        Meld.parse("7h 8x 9h", where="table meld 3")
    message = str(info.value)
    assert "'8x'" in message
    assert "table meld 3" in message
    assert "card 2" in message
    assert info.value.token == "8x"


def test_empty_meld_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        Meld.parse("   ")


# --- shared helpers of the backends ---------------------------------------------------------------


def _runs(*texts: str) -> list[tuple[Piece, ...]]:
    return [Meld.parse(text).pieces for text in texts]


def test_sequence_pieces_that_meet_end_to_end_are_joined() -> None:
    joined = join_sequences(_runs("8h 9h 10h", "3h 4h 5h", "6h 7h *8h"))
    assert [str(meld) for meld in joined] == ["3h 4h 5h 6h 7h *8h", "8h 9h 10h"]
    # The high ace ends a run at position 14; nothing joins past it or across suits.
    joined = join_sequences(_runs("Qs Ks As", "Js 10s 9s", "2s 3s 4s", "5h 6h 7h"))
    assert sorted(str(meld) for meld in joined) == ["2s 3s 4s", "5h 6h 7h", "9s 10s Js Qs Ks As"]
    # Two decks: two runs start at 3s, one follows each.
    joined = join_sequences(_runs("3s 4s 5s", "3s 4s 5s", "6s 7s 8s", "6s 7s 8s"))
    assert [str(meld) for meld in joined] == ["3s 4s 5s 6s 7s 8s"] * 2


def test_a_candidate_meld_is_formable_when_jokers_cover_its_missing_cards() -> None:
    available = [0] * 52
    for text in ("5h", "6h"):
        available[Card.parse(text).index] = 1
    run = [Card.parse(text).index for text in ("5h", "6h", "7h")]
    assert not formable(run, available, 0)  # 7h is missing and no joker
    assert formable(run, available, 1)
    lone = [Card.parse(text).index for text in ("9s", "10s", "Js")]
    assert not formable(lone, available, 3)  # a meld keeps at least one real card


# --- catalogue ------------------------------------------------------------------------------------


def _sequence_count(top: int, longest: int) -> int:
    return 4 * sum(top - length + 1 for length in range(3, longest + 1))


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_catalogue_holds_every_group_and_sequence_all_legal(variant: Variant) -> None:
    templates = catalogue(variant)
    assert len(templates) == len(set(templates))
    groups = [t for t in templates if t.kind == "group"]
    sequences = [t for t in templates if t.kind == "sequence"]
    assert len(groups) == 13 * 5
    top = 14 if variant.ace_high else 13
    assert len(sequences) == _sequence_count(top, top)
    for template in templates:
        meld = Meld.of(template.cards)
        assert meld.is_legal(variant), template
        assert meld.kind(variant) == template.kind
        assert Counter(meld.pieces) == Counter(template.cards)


def test_catalogue_max_sequence() -> None:
    templates = catalogue(MANIP, max_sequence=5)
    sequences = [t for t in templates if t.kind == "sequence"]
    assert len(sequences) == _sequence_count(14, 5)
    assert {len(t.cards) for t in sequences} == {3, 4, 5}
    assert any(str(t) == "Qh Kh Ah" for t in sequences)
    assert not any(str(t) == "Qh Kh Ah" for t in catalogue(RKUB))


def test_catalogue_is_complete_for_three_card_melds() -> None:
    """Every legal 3-card meld of real cards (checked by brute force) is in the catalogue."""
    cards = list(ALL_CARDS)
    expected = set()
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            for k in range(j + 1, len(cards)):
                meld = Meld.of((a, cards[j], cards[k]))
                if meld.is_legal(MANIP):
                    expected.add(meld.pieces)
    found = {t.cards for t in catalogue(MANIP) if len(t.cards) == 3}
    assert found == expected
    assert Counter(len(m) for m in expected) == Counter({3: 13 * 4 + 4 * 12})


def test_position_card() -> None:
    assert position_card(1, Suit.HEARTS) == Card.parse("Ah")
    assert position_card(14, Suit.HEARTS) == Card.parse("Ah")
    assert position_card(13, Suit.CLUBS) == Card.parse("Kc")


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("7h 8h", "TOO_FEW"),
        ("7h 8h *", "UNDECLARED_JOKER"),
        ("*7h *8h *9h", "ONLY_JOKERS"),
        ("7h 8d 9s", "NEITHER_RANK_NOR_SUIT"),
        ("7h 7d 7s 7c *7h", "GROUP_TOO_LONG"),
        ("7h 7h 7s", "GROUP_REPEATS_SUIT"),
        ("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah *2h", "SEQUENCE_TOO_LONG"),
        ("Kh Ah 2h", "SEQUENCE_ACES"),
        ("7h 8h 10h", "SEQUENCE_GAP"),
    ],
)
def test_every_fault_has_a_code(text: str, fault: str) -> None:
    """Issue 37: code told faults apart by their words ("must be declared"); each fault now
    has a code, and the sentence stays the people's."""
    from solver.melds import MeldFault
    from solver.position import Hand

    found = Meld(Hand.parse(text).pieces).fault(Variant.manipulation())
    assert found is not None and found.fault is MeldFault[fault]
    assert Meld(Hand.parse(text).pieces).problem(Variant.manipulation()) == found.text


def test_an_undeclared_table_joker_is_said_once_by_the_position_and_the_referee() -> None:
    from solver.position import Position, PositionError
    from solver.referee import check_play

    with pytest.raises(PositionError) as raised:
        Position.parse("7h 8h * / 2c").validate(Variant.manipulation())
    assert [p for p in raised.value.problems if "declared" in p] == [
        "table meld 7h 8h *: a joker on the table must be declared, e.g. *7h"
    ]
    verdict = check_play(Position.parse("7h 8h 9h / *"), "7h 8h 9h *")
    assert verdict.reasons == ["meld 7h 8h 9h *: every joker on the table must be declared, e.g. *7h"]
