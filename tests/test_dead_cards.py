"""The dead cards' bound (``solver.strategy.dead_cards``): never above what the best play
keeps, so the hoarding policies that decline on it decide as the best play would."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_rollout_points import hoarder_by_hint, patient_by_hint, views

from solver.engine import hint
from solver.game import Game, GameSettings
from solver.position import Hand, Position, Table
from solver.strategy import make_bot, rollout
from solver.strategy.dead_cards import dead_points, hopeless
from solver.strategy.rollout import (
    RolloutSettings,
    determinize,
    hoarder_action,
    patient_hoarder_action,
    play_out,
)
from solver.variants import Variant

MANIPULATION = Variant.manipulation(players=2)


def test_a_card_no_meld_could_hold_is_dead() -> None:
    # Kd: no other king, no Qd/Jd/Ad near it; 2c: no other two, no Ac/3c/4c.
    table = Table.parse("5h 6h 7h | 9s 9d 9c")
    assert dead_points(table.pieces, Hand.parse("Kd 2c 8h").pieces, MANIPULATION) == 12
    assert hopeless(table.pieces, Hand.parse("Kd 8h").pieces, MANIPULATION)
    # 4h and 9h extend the run and the group takes 9h: nothing is dead, the hand may knock.
    assert dead_points(table.pieces, Hand.parse("4h 9h").pieces, MANIPULATION) == 0
    assert not hopeless(table.pieces, Hand.parse("4h 9h").pieces, MANIPULATION)


def test_an_ace_counts_low_and_high() -> None:
    table = Table.parse("Qs Ks *As")
    assert dead_points(table.pieces, Hand.parse("As").pieces, MANIPULATION) == 0
    assert dead_points(Table.parse("2s 3s 4s").pieces, Hand.parse("As").pieces, MANIPULATION) == 0


def test_one_joker_holds_one_meld_of_the_cards_that_need_it() -> None:
    # Qd and Kd need the joker (Qd Kd *), so do 2c and 3c (2c 3c *); one joker lies in
    # one meld, which holds one suit: the clubs (5 points) or the diamonds (20) stay.
    assert dead_points((), Hand.parse("Kd Qd 2c 3c *").pieces, MANIPULATION) == 5
    # Two jokers could hold both.
    two = Variant.manipulation(players=4)
    assert dead_points((), Hand.parse("Kd Qd 2c 3c * *").pieces, two) == 0


def _positions(settings: GameSettings, games: int) -> list[Position]:
    """Every hand of rollouts dealt from greedy games, early to late, on their tables."""
    found: list[Position] = []
    for seed in range(games):
        game = Game(settings, seed=seed)
        bots = [make_bot("greedy", rng=random.Random(seat)) for seat in range(settings.players)]
        for step in range(60):
            if game.over:
                break
            view = game.view(game.to_move)
            if step % 6 == 0 and view.phase == "meld":
                state = determinize(view, random.Random(seed * 100 + step))
                found.extend(Position(state.table, Hand.of(hand)) for hand in state.hands if hand)
            game.apply(bots[game.to_move].act(view))
    return found


@pytest.mark.parametrize(
    "settings",
    [GameSettings.manipulation(2), GameSettings.manipulation(4), GameSettings.rummikub(2)],
    ids=lambda s: f"{s.variant.name}-{s.players}",
)
def test_the_bound_never_passes_what_the_best_play_keeps(settings: GameSettings) -> None:
    variant = settings.variant
    positive = 0
    positions = _positions(settings, 6)
    assert len(positions) >= 40
    for position in positions:
        bound = dead_points(position.table.pieces, position.hand.pieces, variant)
        best = hint(position, variant=variant, time_limit=10.0)
        kept = best.hand.points(variant) if best.has_play else position.hand.points(variant)
        assert bound <= kept, position
        positive += bound > 0
    assert positive >= len(positions) // 4, "the bound should often say something"


def _play_both_ways(settings: GameSettings, forced: bool) -> None:
    """Rollouts of ``settings`` with the hoarding line and with its best-play-every-turn
    reference, deal for deal: the same hands, table, end, turns and stock."""
    policy = hoarder_action if forced else patient_hoarder_action
    reference = hoarder_by_hint if forced else patient_by_hint
    race = RolloutSettings(horizon=6, settle=True)
    seats = range(settings.players)
    for index, view in enumerate(views(settings, 5)):
        for deal in range(2):
            quick = determinize(view, random.Random(7 * index + deal))
            slow = determinize(view, random.Random(7 * index + deal))
            play_out(quick, race, {seat: policy for seat in seats})
            play_out(slow, race, {seat: reference for seat in seats})
            assert quick.hands == slow.hands
            assert sorted(map(str, quick.table.melds)) == sorted(map(str, slow.table.melds))
            assert (quick.end, quick.turns, quick.stock) == (slow.end, slow.turns, slow.stock)


def _counting(monkeypatch: pytest.MonkeyPatch) -> tuple[list[bool], list[bool | None]]:
    """The answers of the bound and of the capped search, as the hoarding lines ask them."""
    spared: list[bool] = []
    capped: list[bool | None] = []
    bound, reaches = hopeless, rollout.rollout_reaches

    def counted_bound(*given: Any) -> bool:
        spared.append(bound(*given))
        return spared[-1]

    def counted_reaches(*given: Any) -> bool | None:
        capped.append(reaches(*given))
        return capped[-1]

    monkeypatch.setattr(rollout, "hopeless", counted_bound)
    monkeypatch.setattr(rollout, "rollout_reaches", counted_reaches)
    return spared, capped


@pytest.mark.parametrize("forced", [True, False], ids=["hoarder", "patient"])
def test_one_deck_hoarding_lines_play_as_with_the_best_play_every_turn(
    forced: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """2-player Manipulation Rummy (one deck: no points program; the capped search spares
    the best play, and is cheaper there than the bound, which is not asked): the hoarding
    lines play the same rollouts as a policy that asks for the best play every turn, and
    the capped search decided some of their turns."""
    spared, capped = _counting(monkeypatch)
    _play_both_ways(GameSettings.manipulation(2), forced)
    assert spared == []
    assert capped.count(False) >= 10 and capped.count(True) >= 1


@pytest.mark.parametrize("forced", [True, False], ids=["hoarder", "patient"])
@pytest.mark.parametrize(
    "settings",
    [GameSettings.manipulation(4), GameSettings.rummikub(2)],
    ids=lambda s: f"{s.variant.name}-{s.players}",
)
def test_two_deck_hoarding_lines_play_as_with_the_best_play_every_turn(
    settings: GameSettings, forced: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two decks: the bound declines first (cheaper than the points program), and the
    rollouts are still those of the best play every turn."""
    spared, _ = _counting(monkeypatch)
    _play_both_ways(settings, forced)
    assert sum(spared) >= 10
