"""The opponent model: crafted histories of hand sizes classify as hoarder or greedy, and the
search bot plays a modelled hoarder with the hoarder's rollout policy, legally and
reproducibly, in every variant; a settled rollout counts only what each hand cannot lay."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from gamescript import scripted

from solver.engine import hint
from solver.game import Action, Game, GameSettings, PlayerView
from solver.position import Hand, Position
from solver.strategy import make_bot
from solver.strategy.bots import Bot, GreedyBot
from solver.strategy.hoarder import HoarderBot
from solver.strategy.opponents import OpponentModel, Tally, classify
from solver.strategy.pimc import PimcBot
from solver.strategy.rollout import RolloutSettings, determinize, greedy_action, hoarder_action, play_out

TWO = GameSettings.manipulation(2)


def first_view(settings: GameSettings = TWO) -> PlayerView:
    """Seat 0 at the first decision of its first turn."""
    state = scripted(settings, ["Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h", "As"], "Kc 5d 9d", dealer=1)
    view = state.view(0)
    assert view.phase == "meld"
    return view


def history(sizes: list[int], *, view: PlayerView | None = None, stock: int = 20) -> OpponentModel:
    """A model that saw seat 1 with ``sizes`` cards at the start of seat 0's successive turns."""
    base = view if view is not None else first_view()
    model = OpponentModel()
    for size in sizes:
        model.observe(replace(base, hand_sizes=(base.hand_sizes[0], size), stock_size=stock))
    return model


def test_classify_weighs_holds_against_small_melds() -> None:
    assert classify(Tally()) == "greedy"
    assert classify(Tally(holds=1)) == "hoarder"
    assert classify(Tally(holds=3, small_melds=1)) == "hoarder"
    assert classify(Tally(holds=2, small_melds=1)) == "greedy"


def test_a_player_that_sits_on_a_big_hand_is_a_hoarder() -> None:
    # A whole turn of draws to 13 cards, a big meld at 15, draws, and 14 cards held again.
    model = history([10, 13, 5, 8, 11, 14])
    assert model.tallies[1] == Tally(holds=2, small_melds=0)
    assert model.style(1) == "hoarder"
    assert model.hoarders(first_view()) == (1,)


def test_a_player_that_melds_as_it_goes_is_greedy() -> None:
    # Draws a card and lays three, turn after turn: small melds from small hands.
    model = history([10, 8, 6, 9, 7])
    assert model.tallies[1] == Tally(holds=0, small_melds=3)
    assert model.style(1) == "greedy"
    assert model.hoarders(first_view()) == ()


def test_a_greedy_player_without_a_play_is_not_taken_for_a_hoarder() -> None:
    # One turn without any play (10 -> 13), then melds from 11 and 9 cards leaving plenty.
    model = history([10, 13, 11, 9, 7])
    assert model.tallies[1] == Tally(holds=1, small_melds=2)
    assert model.style(1) == "greedy"


def test_what_does_not_tell_a_style_is_ignored() -> None:
    assert history([14]).tallies == {}  # the first look of a round has nothing to compare
    assert history([10, 13], stock=0).tallies == {}  # an empty stock: draws may have come up empty
    # A meld from a hand that its size forced (13 + 2 draws = 15 cards) is no small meld.
    assert history([13, 5]).tallies[1] == Tally()
    # A meld that leaves 3 cards or fewer may be going for a knock; a jump is no one turn.
    assert history([6, 3]).tallies[1] == Tally()
    assert history([6, 13]).tallies[1] == Tally()
    # Later decisions of a turn (a second draw, the knock phase) are not turn starts.
    model = OpponentModel()
    view = first_view()
    model.observe(replace(view, hand_sizes=(11, 10)))
    model.observe(replace(view, hand_sizes=(12, 13), draws=2))
    model.observe(replace(view, hand_sizes=(12, 13), phase="knock"))
    assert model.tallies == {}


def test_a_new_round_starts_a_new_comparison_but_keeps_the_counts() -> None:
    model = history([10, 13])
    view = first_view()
    model.observe(replace(view, hand_sizes=(11, 10), round_number=2, stock_size=20))
    assert model.tallies[1] == Tally(holds=1)
    model.observe(replace(view, hand_sizes=(11, 13), round_number=2, stock_size=20))
    assert model.tallies[1] == Tally(holds=2)


def test_under_an_opening_rule_holds_count_only_after_the_first_meld() -> None:
    rummikub = GameSettings.rummikub(2)
    view = replace(first_view(), settings=rummikub, draws=0)
    # Rummikub: a turn without a meld draws one tile; 17 tiles are 3 over the dealt 14.
    closed = history([14, 15, 16, 17], view=view)
    assert closed.tallies[1] == Tally()
    opened = history([14, 10, 11, 12], view=view)
    assert opened.tallies[1] == Tally(holds=0, small_melds=1)
    later = history([14, 10, 16, 17, 18], view=view)
    assert later.tallies[1].holds == 2


def test_a_hoarder_in_a_rollout_holds_what_a_greedy_player_lays() -> None:
    view = first_view()
    greedy_state = determinize(view, random.Random(3))
    hoard_state = determinize(view, random.Random(3))
    settings = RolloutSettings(horizon=2)
    play_out(greedy_state, settings)
    play_out(hoard_state, settings, {1: hoarder_action})
    if hoard_state.end is None and greedy_state.end is None:
        assert len(hoard_state.hands[1]) >= len(greedy_state.hands[1])
    # The default policy is greedy_action: naming it for a seat changes nothing.
    again = determinize(view, random.Random(3))
    play_out(again, settings, {1: greedy_action})
    assert again.hands == greedy_state.hands and again.table == greedy_state.table


class QuickModelPimc(PimcBot):
    """The search bot with a tiny budget that models every other player as a hoarder."""

    samples = 2
    rollout = RolloutSettings(horizon=2, time_limit=1.0, settle=True)
    model_opponents = True

    def __init__(self, rng: random.Random | None = None, *, time_limit: float = 10.0) -> None:
        super().__init__(rng, time_limit=time_limit)
        for seat in range(5):
            self.opponents.tallies[seat] = Tally(holds=1)


def play_game_checked(settings: GameSettings, bots: list[Bot], seed: int, *, rounds: int = 1) -> list[str]:
    """Play the first ``rounds`` rounds of a seeded game, checking every action against the view's rules."""
    game = Game(settings, seed=seed)
    seen: list[str] = []
    while game.result is None and len(game.records) < rounds:
        seat = game.to_move
        view = game.view(seat)
        action = bots[seat].act(view)
        assert view.problems(action) == [], (view, action)
        seen.append(str(action))
        game.apply(action)
    return seen


@pytest.mark.parametrize(
    ("settings", "seed"),
    [
        (GameSettings.manipulation(2), 11),
        (GameSettings.manipulation(3), 12),
        (GameSettings.machiavelli(2), 13),
        (GameSettings.rummikub(2), 14),
    ],
    ids=["manipulation", "manipulation-3p", "machiavelli", "rummikub"],
)
def test_the_search_bot_with_a_modelled_hoarder_plays_legally(settings: GameSettings, seed: int) -> None:
    others: list[Bot] = [HoarderBot(random.Random(seed)), make_bot("greedy")]
    bot = QuickModelPimc(random.Random(seed))
    bots: list[Bot] = [bot, *others][: settings.players]
    assert len(play_game_checked(settings, bots, seed)) > 3
    assert bot.counters["searched"] == 0 or bot.counters["modelled_hoarder"] > 0


def test_the_search_bot_with_a_modelled_hoarder_is_reproducible() -> None:
    def run(seed: int) -> list[str]:
        return play_game_checked(TWO, [QuickModelPimc(random.Random(seed)), HoarderBot(random.Random(1))], 6)

    assert run(4) == run(4)


class Watcher(GreedyBot):
    """A greedy player that keeps an opponent model, to see what the model learns in real play."""

    def __init__(self) -> None:
        super().__init__(random.Random(0))
        self.model = OpponentModel()

    def act(self, view: PlayerView) -> Action:
        self.model.observe(view)
        return super().act(view)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_model_tells_the_hoarder_from_the_greedy_players_in_real_games(seed: int) -> None:
    styles = {}
    for name in ("hoarder", "expert", "greedy"):
        watcher = Watcher()
        play_game_checked(TWO, [watcher, make_bot(name, rng=random.Random(seed))], seed, rounds=2)
        styles[name] = watcher.model.style(1)
    assert styles == {"hoarder": "hoarder", "expert": "greedy", "greedy": "greedy"}


def test_a_settled_rollout_counts_what_each_hand_cannot_lay() -> None:
    game = Game(TWO, seed=4)
    view = game.view(game.to_move)
    counted = determinize(view, random.Random(5))
    settled = determinize(view, random.Random(5))
    # Seat 1 hoards, so its hand still holds melds at the horizon.
    other = 1 - view.seat
    play_out(counted, RolloutSettings(horizon=1), {other: hoarder_action})
    play_out(settled, RolloutSettings(horizon=1, settle=True), {other: hoarder_action})
    assert counted.end is None and settled.table == counted.table
    # Settling scores the hands; it leaves them and the table as they are.
    assert settled.hands == counted.hands and settled.piece_counts() == settled.cards
    counted_points = counted.hand_points()
    settled_points = settled.hand_points()
    for seat, hand in enumerate(counted.hands):
        found = hint(Position(counted.table, Hand.of(hand)), variant=TWO.variant, opened=True)
        left = found.hand if found.has_play else Hand.of(hand)
        assert settled_points[seat] == left.points(TWO.variant)
        assert settled_points[seat] <= counted_points[seat]
    assert any(a < b for a, b in zip(settled_points, counted_points, strict=True))
