"""Cards and jokers: notation (strict output, lenient input), order, errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import (
    ALL_CARDS,
    Card,
    Joker,
    NotationError,
    Rank,
    Suit,
    effective_card,
    parse_piece,
    piece_sort_key,
)

RANK_SPELLINGS = {
    Rank.ACE: ["A", "a", "1"],
    Rank.TWO: ["2"],
    Rank.THREE: ["3"],
    Rank.FOUR: ["4"],
    Rank.FIVE: ["5"],
    Rank.SIX: ["6"],
    Rank.SEVEN: ["7"],
    Rank.EIGHT: ["8"],
    Rank.NINE: ["9"],
    Rank.TEN: ["10", "T", "t"],
    Rank.JACK: ["J", "j", "11"],
    Rank.QUEEN: ["Q", "q", "12"],
    Rank.KING: ["K", "k", "13"],
}
SUIT_SPELLINGS = {
    Suit.SPADES: ["s", "S", "♠"],
    Suit.HEARTS: ["h", "H", "♥"],
    Suit.DIAMONDS: ["d", "D", "♦"],
    Suit.CLUBS: ["c", "C", "♣"],
}


# --- the deck -------------------------------------------------------------------------------------


def test_there_are_52_distinct_cards_13_ranks_4_suits() -> None:
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52
    assert [r.label for r in Rank] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [s.letter for s in Suit] == ["s", "h", "d", "c"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]


def test_card_index_is_dense_and_invertible() -> None:
    assert sorted(card.index for card in ALL_CARDS) == list(range(52))
    for card in ALL_CARDS:
        assert Card.from_index(card.index) == card


def test_red_suits() -> None:
    assert [s for s in Suit if s.is_red] == [Suit.HEARTS, Suit.DIAMONDS]


# --- formatting and round trips -------------------------------------------------------------------


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_card_round_trips_through_its_string(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert parse_piece(str(card)) == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7h", Rank.SEVEN, Suit.HEARTS),
        ("10s", Rank.TEN, Suit.SPADES),
        ("Qd", Rank.QUEEN, Suit.DIAMONDS),
        ("Ac", Rank.ACE, Suit.CLUBS),
        ("Kc", Rank.KING, Suit.CLUBS),
        ("2s", Rank.TWO, Suit.SPADES),
    ],
)
def test_card_canonical_string(text: str, rank: Rank, suit: Suit) -> None:
    card = Card(rank, suit)
    assert str(card) == text
    assert Card.parse(text) == card


def test_repr_pastes_back_as_code() -> None:
    card = Card(Rank.TEN, Suit.HEARTS)
    assert repr(card) == "Card.parse('10h')"
    assert eval(repr(card), {"Card": Card}) == card
    # a joker's repr names what solver exports (issue 37: it named parse_piece, which it does not)
    assert eval(repr(Joker(card)), {"Card": Card, "Joker": Joker}) == Joker(card)
    assert eval(repr(Joker()), {"Joker": Joker}) == Joker()


def test_pretty_uses_suit_symbols_and_parses_back() -> None:
    card = Card(Rank.QUEEN, Suit.SPADES)
    assert card.pretty == "Q♠"
    assert Card.parse(card.pretty) == card
    for c in ALL_CARDS:
        assert Card.parse(c.pretty) == c


# --- input leniency -------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", list(Rank), ids=lambda r: r.label)
def test_every_rank_spelling_is_accepted(rank: Rank) -> None:
    for spelling in RANK_SPELLINGS[rank]:
        for suit in Suit:
            for suit_spelling in SUIT_SPELLINGS[suit]:
                assert Card.parse(spelling + suit_spelling) == Card(rank, suit), spelling + suit_spelling


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Th", "10h"),
        ("tH", "10h"),
        ("1s", "As"),
        ("11d", "Jd"),
        ("12c", "Qc"),
        ("13h", "Kh"),
        ("KH", "Kh"),
        ("ac", "Ac"),
        ("q♠", "Qs"),
        ("10♥", "10h"),
        ("T♦", "10d"),
        ("k♣", "Kc"),
        ("  7h ", "7h"),
    ],
)
def test_lenient_input_prints_canonically(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@given(
    card=st.sampled_from(ALL_CARDS),
    data=st.data(),
)
def test_any_lenient_spelling_parses_to_the_same_card(card: Card, data: st.DataObject) -> None:
    rank_text = data.draw(st.sampled_from(RANK_SPELLINGS[card.rank]))
    suit_text = data.draw(st.sampled_from(SUIT_SPELLINGS[card.suit]))
    assert Card.parse(rank_text + suit_text) == card
    assert str(parse_piece(rank_text + suit_text)) == str(card)
    assert parse_piece("*" + rank_text + suit_text) == Joker(card)


def test_suit_and_rank_parse_alone() -> None:
    assert Suit.parse("♦") is Suit.DIAMONDS
    assert Suit.parse("C") is Suit.CLUBS
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("13") is Rank.KING
    assert Rank.parse("1") is Rank.ACE


# --- jokers ---------------------------------------------------------------------------------------


def test_hand_joker_is_a_bare_star() -> None:
    joker = parse_piece("*")
    assert joker == Joker()
    assert joker.declared is None
    assert str(joker) == "*"


def test_table_joker_carries_its_declared_card() -> None:
    joker = parse_piece("*7h")
    assert isinstance(joker, Joker)
    assert joker.declared == Card(Rank.SEVEN, Suit.HEARTS)
    assert str(joker) == "*7h"
    assert str(parse_piece("*th")) == "*10h"
    assert str(parse_piece("*Q♠")) == "*Qs"


def test_declare_gives_a_new_joker() -> None:
    joker = Joker()
    declared = joker.declare(Card.parse("9h"))
    assert declared == Joker(Card.parse("9h"))
    assert joker.declared is None  # immutable


def test_effective_card() -> None:
    assert effective_card(Card.parse("7h")) == Card.parse("7h")
    assert effective_card(Joker(Card.parse("7h"))) == Card.parse("7h")
    assert effective_card(Joker()) is None


def test_card_order_is_rank_then_suit() -> None:
    cards = [Card.parse(t) for t in ["Kc", "As", "2h", "Ac", "Ah", "10d"]]
    assert [str(c) for c in sorted(cards)] == ["As", "Ah", "Ac", "2h", "10d", "Kc"]


def test_hand_order_is_suit_then_rank_jokers_last() -> None:
    pieces = [parse_piece(t) for t in ["*", "Kc", "*7h", "2s", "Ah", "Qs", "10h"]]
    ordered = sorted(pieces, key=piece_sort_key)
    assert [str(p) for p in ordered] == ["2s", "Qs", "Ah", "10h", "Kc", "*7h", "*"]


# --- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Kx", "7", "", "h", "0h", "14h", "Ph", "10", "**", "*7x", "7hh", "1Oh"])
def test_malformed_card_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_piece(text)


def test_notation_error_is_a_value_error_and_names_the_token() -> None:
    assert issubclass(NotationError, ValueError)
    with pytest.raises(ValueError, match="'x'") as info:
        Card.parse("Kx")
    assert isinstance(info.value, NotationError)
    assert info.value.token == "x"
    with pytest.raises(NotationError, match="'Z'") as info:
        Card.parse("Zh")
    assert info.value.token == "Z"


def test_notation_error_message_includes_where() -> None:
    error = NotationError("bad card 'Kx'", token="Kx", where="table meld 1, card 2")
    assert str(error) == "bad card 'Kx' (table meld 1, card 2)"
    assert error.token == "Kx"
    assert error.where == "table meld 1, card 2"


# --- Rummikub tiles as printed (issue 37) ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("k13", "Ks"), ("K13", "Ks"), ("r1", "Ah"), ("b12", "Qd"), ("o7", "7c"), ("b10", "10d"), ("r11", "Jh")],
)
def test_a_tile_as_printed_reads_as_its_card(text: str, expected: str) -> None:
    assert parse_piece(text) == Card.parse(expected)


def test_jokers_read_as_printed() -> None:
    assert parse_piece("★") == Joker()
    assert parse_piece("★b12") == parse_piece("*b12") == Joker(Card.parse("Qd"))
    assert parse_piece("★Q♥") == Joker(Card.parse("Qh"))


@pytest.mark.parametrize("text", ["k14", "r0", "b99", "o00"])
def test_a_bad_tile_says_how_to_write_one(text: str) -> None:
    with pytest.raises(NotationError, match=r"a tile is its colour \(k black, r red, b blue, o orange\)"):
        parse_piece(text)


def test_every_tile_round_trips_through_what_the_commands_print() -> None:
    from solver.cli.faces import tile_name

    for card in ALL_CARDS:
        assert Card.parse(tile_name(card)) == card


def test_the_lookup_of_spellings_agrees_with_the_step_by_step_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Card.parse`` looks the common spellings up in a table; that table must say what the
    parse's own steps say, for every key, and hold every token of up to 3 characters they
    accept."""
    import itertools

    from solver import cards

    table = dict(cards._CARD_BY_TEXT)
    monkeypatch.setattr(cards, "_CARD_BY_TEXT", {})  # the steps alone
    assert all(Card.parse(text) is card for text, card in table.items())
    alphabet = sorted(set("".join(table)) | set("xz0*,"))
    accepted = set()
    for length in (1, 2, 3):
        for letters in itertools.product(alphabet, repeat=length):
            text = "".join(letters)
            try:
                Card.parse(text)
            except NotationError:
                continue
            accepted.add(text)
    assert accepted == set(table)


def test_a_card_index_outside_the_deck_is_refused() -> None:
    """Issue 37: ``Card.from_index(-1)`` was the king of clubs (a tuple index)."""
    assert Card.from_index(0) == Card.parse("As") and Card.from_index(51) == Card.parse("Kc")
    for index in (-1, 52, 100):
        with pytest.raises(ValueError, match="a card index is 0-51"):
            Card.from_index(index)


@pytest.mark.parametrize("piece", [Joker(), Joker(Card.parse("7h")), Card.parse("10s")])
def test_a_piece_repr_reads_back_with_what_solver_exports(piece: Card | Joker) -> None:
    """Issue 37: the joker's repr named ``parse_piece``, which ``solver`` does not export."""
    import solver

    assert eval(repr(piece), {name: getattr(solver, name) for name in solver.__all__}) == piece


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("K\u2665\ufe0f", "Kh"),  # K♥ as phone keyboards write it (emoji presentation)
        ("10\u2660\ufe0e", "10s"),  # text presentation
        ("A\u2663\ufe0f", "Ac"),
        ("7\u2661\ufe0f", "7h"),
    ],
)
def test_a_suit_symbol_with_a_presentation_selector_is_the_same_card(text: str, card: str) -> None:
    assert Card.parse(text) == Card.parse(card)
    assert parse_piece("*" + text) == parse_piece("*" + card)


@pytest.mark.parametrize("text", ["Kh\ufe0f", "K\ufe0f", "\u2665\ufe0f"])
def test_a_presentation_selector_anywhere_else_is_still_an_error(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


@pytest.mark.parametrize("text", ["10", "11", "13", "14", "19", "7", "K"])
def test_a_rank_without_its_suit_says_so(text: str) -> None:
    """``10`` was read as rank 1 with the suit "0" ("unknown suit '0'")."""
    with pytest.raises(NotationError, match="a card needs a rank and a suit"):
        Card.parse(text)
