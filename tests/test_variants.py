"""Variants: the presets, their options, and card points."""

from __future__ import annotations

import dataclasses

import pytest

from solver.cards import ALL_CARDS, Card, Rank
from solver.position import Hand, Position
from solver.variants import VARIANT_NAMES, Variant

# --- Manipulation Rummy ---------------------------------------------------------------------------


def test_manipulation_two_players_use_one_deck_and_one_joker() -> None:
    v = Variant.manipulation(players=2)
    assert (v.decks, v.jokers, v.deck_size) == (1, 1, 53)
    assert v.players == 2


@pytest.mark.parametrize("players", [None, 3, 4, 5])
def test_manipulation_default_and_three_to_five_players_use_two_decks_and_two_jokers(
    players: int | None,
) -> None:
    v = Variant.manipulation(players=players)
    assert (v.decks, v.jokers, v.deck_size) == (2, 2, 106)
    assert v.players == players


def test_manipulation_rules() -> None:
    v = Variant.manipulation()
    assert v.name == "manipulation"
    assert v.ace_high is True
    assert v.max_position == 14
    assert v.hand_size == 10
    assert v.opening_points == 0
    assert v.joker_points == 25
    assert v.knock_threshold == 5
    assert v.target_score == 150
    assert v.knock_only_after_meld is False
    assert v.round_bonus_to_all is False


@pytest.mark.parametrize("players", [0, 1, 6])
def test_manipulation_player_count_out_of_range(players: int) -> None:
    with pytest.raises(ValueError, match=str(players)):
        Variant.manipulation(players=players)


def test_manipulation_options_are_switches() -> None:
    v = Variant.manipulation(knock_only_after_meld=True)
    assert v.knock_only_after_meld is True
    assert v.round_bonus_to_all is False
    w = Variant.manipulation(round_bonus_to_all=True, players=3)
    assert w.round_bonus_to_all is True
    assert w.knock_only_after_meld is False
    assert w.decks == 2


def test_with_options_returns_a_changed_copy() -> None:
    base = Variant.manipulation()
    changed = base.with_options(knock_only_after_meld=True, round_bonus_to_all=True)
    assert changed.knock_only_after_meld and changed.round_bonus_to_all
    assert not base.knock_only_after_meld and not base.round_bonus_to_all
    assert dataclasses.replace(changed, knock_only_after_meld=False, round_bonus_to_all=False) == base


def test_variant_is_immutable_and_hashable() -> None:
    v = Variant.manipulation()
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.decks = 3  # type: ignore[misc]
    assert hash(v) == hash(Variant.manipulation())
    assert v == Variant.manipulation()
    assert v != Variant.manipulation(players=2)


# --- Machiavelli ----------------------------------------------------------------------------------


def test_machiavelli_two_decks_no_jokers_fifteen_cards() -> None:
    v = Variant.machiavelli()
    assert v.name == "machiavelli"
    assert (v.decks, v.jokers, v.deck_size) == (2, 0, 104)
    assert v.hand_size == 15
    assert v.ace_high is True
    assert v.opening_points == 0
    assert v.knock_threshold is None
    # one joker too many is named in the singular
    assert Position.parse("/ * 7h").problems(v) == ["1 joker, but the machiavelli deck holds 0"]
    with pytest.raises(ValueError, match="Machiavelli is played here by 2-8 players, not 9"):
        Variant.machiavelli(players=9)


def test_machiavelli_dealer_may_deal_fewer_but_at_least_three() -> None:
    assert Variant.machiavelli(players=7, hand_size=3).hand_size == 3
    with pytest.raises(ValueError):
        Variant.machiavelli(hand_size=2)
    with pytest.raises(ValueError):
        Variant.machiavelli(hand_size=16)
    with pytest.raises(ValueError):
        Variant.machiavelli(players=1)


# --- Rummikub -------------------------------------------------------------------------------------


def test_rummikub_rules() -> None:
    v = Variant.rummikub()
    assert v.name == "rummikub"
    assert (v.decks, v.jokers, v.deck_size) == (2, 2, 106)
    assert v.ace_high is False
    assert v.max_position == 13
    assert v.opening_points == 30
    assert v.joker_points == 30
    assert v.hand_size == 14
    assert v.knock_threshold is None


def test_rummikub_tiles_count_face_value() -> None:
    v = Variant.rummikub()
    for card in ALL_CARDS:
        assert v.card_points(card) == int(card.rank)
        assert v.tile_value(card) == int(card.rank)
    assert Hand.parse("*").points(v) == 30


@pytest.mark.parametrize("players", [1, 5])
def test_rummikub_player_count_out_of_range(players: int) -> None:
    with pytest.raises(ValueError):
        Variant.rummikub(players=players)


# --- card points ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [Variant.manipulation(), Variant.machiavelli()], ids=lambda v: v.name)
def test_card_points(variant: Variant) -> None:
    for card in ALL_CARDS:
        expected = {Rank.ACE: 1, Rank.JACK: 10, Rank.QUEEN: 10, Rank.KING: 10}.get(card.rank, int(card.rank))
        assert variant.card_points(card) == expected, card
    assert variant.card_points(Card.parse("7h")) == 7
    assert variant.card_points(Card.parse("10s")) == 10
    assert variant.card_points(Card.parse("2c")) == 2


def test_hand_points_in_manipulation() -> None:
    v = Variant.manipulation()
    assert Hand.parse("*").points(v) == 25
    assert Hand.parse("* Ah 10s Kd Qc Jh 2d").points(v) == 25 + 1 + 10 + 10 + 10 + 10 + 2
    assert Hand.parse("Ah As 3c").points(v) == 5
    assert Hand.parse("").points(v) == 0


# --- lookup by name -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_named_returns_the_preset(name: str) -> None:
    v = Variant.named(name)
    assert v.name == name
    assert v == getattr(Variant, name)()
    assert Variant.named(f"  {name.upper()} ") == v


def test_named_passes_players() -> None:
    assert Variant.named("manipulation", players=2) == Variant.manipulation(players=2)


def test_named_unknown_lists_the_names() -> None:
    with pytest.raises(ValueError) as info:
        Variant.named("x")
    message = str(info.value)
    assert "'x'" in message
    for name in ("manipulation", "machiavelli", "rummikub"):
        assert name in message


def test_the_presets_are_one_table_per_kind() -> None:
    """Issue 37: ``named()`` was an if-chain in ``GameSettings``.  Each of ``Variant`` and
    ``GameSettings`` reads one table of presets, with every variant name in order."""
    from solver.game.settings import GAME_PRESETS, PEER_PRESET, PRESET_NAMES, GameSettings
    from solver.variants import PRESETS

    assert tuple(PRESETS) == VARIANT_NAMES
    assert tuple(GAME_PRESETS) == PRESET_NAMES == (*VARIANT_NAMES, PEER_PRESET)
    assert GameSettings.named(PEER_PRESET) == GameSettings.rummikub_peer()
    for name in VARIANT_NAMES:
        assert Variant.named(name, players=3) == PRESETS[name](players=3)
        assert GameSettings.named(f" {name.title()}", 3) == getattr(GameSettings, name)(3)
    flags = {"knock_only_after_meld": True, "round_bonus_to_all": True}
    assert GameSettings.named("manipulation", 3, **flags) == GameSettings.manipulation(3, **flags)
    assert GameSettings.named("machiavelli", 3, **flags).variant == Variant.machiavelli(players=3)
    assert GameSettings.named("machiavelli", 6, hand_size=12).variant.hand_size == 12
    assert GameSettings.named("rummikub", 3, hand_size=12) == GameSettings.rummikub(3)
    for named in (Variant.named, GameSettings.named):
        with pytest.raises(
            ValueError, match="unknown variant 'poker'; choose one of manipulation, machiavelli, rummikub"
        ):
            named("poker")


def test_describe_is_plain_data() -> None:
    d = Variant.manipulation(players=2).describe()
    assert d["name"] == "manipulation"
    assert d["deck_size"] == 53
    assert d["jokers"] == 1
    assert d["ace_high"] is True
    assert Variant.rummikub().describe()["opening_points"] == 30


def test_describe_says_every_rule_and_reads_back() -> None:
    """Issue 37: ``describe()`` left out the face and ace points and had no inverse."""
    from solver.variants import VARIANT_NAMES

    for name in VARIANT_NAMES:
        for players in (None, 2, 3, 4, 5):
            try:
                variant = Variant.named(name, players=players)
            except ValueError:
                continue
            described = variant.describe()
            assert described["face_points"] == variant.face_points
            assert described["ace_points"] == variant.ace_points
            assert Variant.from_description(described) == variant
    options = Variant.manipulation().with_options(knock_only_after_meld=True, round_bonus_to_all=True)
    assert Variant.from_description(options.describe()) == options


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"face_points": "10"}, "face_points"),
        ({"ace_high": 1}, "ace_high"),
        ({"decks": True}, "decks"),
        ({"name": "poker"}, "unknown variant 'poker'"),
        ({"deck_size": 99}, "deck_size 99"),
        ({"colour": "red"}, "unknown variant field"),
    ],
)
def test_a_bad_description_is_named(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Variant.from_description({**Variant.manipulation().describe(), **change})
    missing = Variant.manipulation().describe()
    del missing["hand_size"]
    with pytest.raises(ValueError, match="needs hand_size"):
        Variant.from_description(missing)


def test_every_preset_names_itself() -> None:
    """``Variant.preset`` reads back with ``Variant.named`` for every variant and count, and
    only the peer's jokerless 2-player Rummikub is ``rummikub-peer``."""
    for name in VARIANT_NAMES:
        for players in (None, 2, 3, 4):
            variant = Variant.named(name, players=players)
            assert variant.preset == name
            assert Variant.named(variant.preset, players=players) == variant
    peer = Variant.named("rummikub-peer")
    assert peer.preset == "rummikub-peer" and peer.jokers == 0 and peer.players == 2
    assert Variant.rummikub(players=3).with_options(jokers=0).preset == "rummikub"


def test_the_draw_ends_the_turn_exactly_where_the_game_is_meld_or_draw() -> None:
    """``Variant.draw_ends_turn`` (what the analysis's wording reads) and the game
    settings' turn say the same for every preset: RULES.md's turns."""
    from solver.game.settings import GAME_PRESETS, GameSettings

    for name in GAME_PRESETS:
        settings = GameSettings.named(name, 2)
        assert settings.variant.draw_ends_turn == (settings.turn == "meld_or_draw"), name
    assert not Variant.named("manipulation").draw_ends_turn
    assert Variant.named("rummikub").draw_ends_turn and Variant.named("machiavelli").draw_ends_turn
