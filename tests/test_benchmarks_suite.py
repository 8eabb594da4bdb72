"""The benchmark suites: deterministic, valid, covering what they promise, and written
files that match their generator; plus the tile mapping ``benchmarks.peers`` relies on.

``benchmarks`` is not an installed package (it ships with the repository, not the
library), so the repository root goes on ``sys.path`` here.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.midgame import MIDGAME_SUITES, freeable, sample_games, wanted  # noqa: E402
from benchmarks.peers import card_tile, peer_table, piece_tile, tile_card  # noqa: E402
from benchmarks.report import _collection  # noqa: E402
from benchmarks.speed import freeze_startup  # noqa: E402
from benchmarks.suite import SUITES, SuiteEntry, coverage_problems, suite  # noqa: E402
from solver.cards import ALL_CARDS, Card, Joker  # noqa: E402
from solver.position import Position  # noqa: E402
from solver.variants import Variant  # noqa: E402


@pytest.mark.parametrize("mode", ["any", "free", "locked"])
@pytest.mark.parametrize("name", ["manipulation", "machiavelli", "rummikub"])
def test_suite_is_deterministic_valid_and_keeps_its_joker_promise(name: str, mode: str) -> None:
    variant = Variant.named(name)
    if mode == "locked" and not variant.jokers:
        with pytest.raises(ValueError, match="no jokers"):
            next(suite(5, 3, variant, jokers="locked"))
        return
    first = list(suite(5, 30, variant, jokers=mode))  # type: ignore[arg-type]
    again = list(suite(5, 30, variant, jokers=mode))  # type: ignore[arg-type]
    assert [str(e.position) for e in first] == [str(e.position) for e in again]
    for entry in first:
        entry.position.validate(variant)
        assert entry == SuiteEntry.of(entry.position)
        if mode != "any":  # the original generator may add a joker on top of the hand size
            assert 1 <= entry.hand_cards <= 20
        if mode == "free":
            assert entry.table_jokers == 0
        if mode == "locked" and entry.table_cards >= 6:
            assert entry.table_jokers >= 1
    assert first[0].table_cards == 0
    assert max(e.table_cards for e in first) >= 60


def test_entry_json_round_trip() -> None:
    for entry in suite(11, 8, Variant.rummikub(), jokers="locked"):
        assert SuiteEntry.from_json(entry.to_json(0)) == entry


def test_written_suites_match_their_generator_and_cover_the_ranges() -> None:
    for spec in SUITES:
        entries = spec.generate()
        assert coverage_problems(spec, entries) == []
        assert spec.path.read_text() == spec.text(entries), "rebuild with: python -m benchmarks.suite --write"


def test_peer_tile_numbers() -> None:
    tiles = [card_tile(card) for card in ALL_CARDS]
    assert sorted(tiles) == list(range(1, 53))
    assert all(tile_card(card_tile(card)) == card for card in ALL_CARDS)
    assert card_tile(Card.parse("As")) == 1
    assert card_tile(Card.parse("Kc")) == 52
    assert piece_tile(Joker()) == 53
    assert tile_card(53) is None


def test_peer_sets_get_joker_declarations() -> None:
    """The peer's sets carry undeclared jokers; the referee needs a declaration each."""
    five, six, seven, five_h = (card_tile(Card.parse(text)) for text in ("5s", "6s", "7s", "5h"))
    table = peer_table([(five, six, 53), (five, seven, 53), (five, five_h, 53)])
    assert table is not None
    assert sorted(str(meld) for meld in table) == ["*4s 5s 6s", "5s *6s 7s", "5s 5h *5d"]
    assert peer_table([(five, card_tile(Card.parse("8s")), 53)]) is None  # 5 and 8 need two jokers
    assert peer_table([(five, card_tile(Card.parse("6h")), 53)]) is None


def test_midgame_suites_hold_what_they_promise() -> None:
    # Every written position: valid, a table of 30-100 cards with one or two jokers, at
    # least one freeable by a real card on the table or in the hand.
    for spec in MIDGAME_SUITES:
        entries = spec.load()
        assert len(entries) == spec.count
        for entry in entries:
            entry.position.validate(spec.variant)
            assert wanted(entry.position), str(entry.position)
            assert entry == SuiteEntry.of(entry.position)


def test_midgame_sampling_is_deterministic() -> None:
    spec = replace(MIDGAME_SUITES[0], count=6)
    first, again = sample_games(spec), sample_games(spec)
    assert [str(p) for p in first] == [str(p) for p in again]
    assert len(first) == 6 and all(freeable(p) for p in first)
    assert not freeable(Position.parse("4s *5s 6s / 7s")) and freeable(Position.parse("4s *5s 6s / 5s"))


def test_the_timed_runs_freeze_their_start_up_unless_asked_for_the_old_method() -> None:
    """``freeze_startup`` leaves what the process holds out of later collections (so the
    collection before each timed call does not walk the whole heap); ``collect_all``
    keeps the old method; the README's text says which a run used."""
    gc.unfreeze()
    try:
        freeze_startup(collect_all=True)
        assert gc.get_freeze_count() == 0
        freeze_startup()
        assert gc.get_freeze_count() > 1_000
    finally:
        gc.unfreeze()
    assert "start-up frozen" in _collection({"gc": "startup frozen"})
    assert "whole heap" in _collection({})  # results written before the option existed
