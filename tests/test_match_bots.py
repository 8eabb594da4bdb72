"""The hoarder and the search bot: their rules at scripted decisions, legal actions in random
playouts of every variant, determinizations consistent with the view, reproducible choices."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

import pytest
from gamescript import pieces, scripted

from solver.game import Draw, Game, GameSettings, Knock, Pass, Play, PlayerView
from solver.game.deck import full_deck, piece_counts
from solver.position import Hand, Table
from solver.strategy import evaluator, make_bot
from solver.strategy.bots import Bot
from solver.strategy.candidates import Candidate
from solver.strategy.evaluator import Evaluator
from solver.strategy.hoarder import HoarderBot
from solver.strategy.opponents import Tally
from solver.strategy.pimc import PimcBot
from solver.strategy.rollout import Policy, Rollout, RolloutSettings, determinize, play_out, utility

TWO = GameSettings.manipulation(2)


class QuickPimc(PimcBot):
    """The search bot with a tiny budget, so that playouts stay fast in the default run."""

    samples = 2
    evaluator = Evaluator(rollout=RolloutSettings(horizon=2, time_limit=1.0))


def meld_view(hand: str, *, stock: str = "Kc 5d 9d", other: str = "As") -> PlayerView:
    """Seat 0 at its first meld decision holding ``hand`` plus the first stock card."""
    state = scripted(TWO, [hand, other], stock, dealer=1)
    assert state.phase == "meld" and state.to_move == 0
    return state.view(0)


def play_round(settings: GameSettings, bots: list[Bot], seed: int) -> int:
    """Play the first round of a seeded game, checking every action against the view's rules."""
    game = Game(settings, seed=seed)
    actions = 0
    while game.result is None and not game.records:
        seat = game.to_move
        view = game.view(seat)
        action = bots[seat].act(view)
        assert view.problems(action) == [], (view, action)
        game.apply(action)
        actions += 1
    return actions


# -- the hoarder ------------------------------------------------------------------


def test_hoarder_holds_a_meld_that_neither_goes_out_nor_lets_it_knock() -> None:
    view = meld_view("Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h")
    assert make_bot("greedy").act(view) != Draw()
    assert HoarderBot().act(view) == Draw()


def test_hoarder_melds_to_go_out() -> None:
    view = meld_view("Kh Kd", stock="Kc")
    action = HoarderBot().act(view)
    assert isinstance(action, Play) and not view.problems(action)


def test_hoarder_melds_when_the_play_lets_it_knock() -> None:
    view = meld_view("Kh Kd 2c", stock="Kc")  # K K K laid leaves 2 points
    assert isinstance(HoarderBot().act(view), Play)


def test_hoarder_melds_with_too_big_a_hand_or_at_the_last_chance() -> None:
    view = meld_view("Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h")
    big = replace(view, hand=Hand.of([*view.hand.pieces, *pieces("7c 7d 5h 2s")]))
    assert len(big.hand) == 15
    assert isinstance(HoarderBot().act(big), Play)
    assert isinstance(HoarderBot().act(replace(view, stock_size=0)), Play)


def test_hoarder_knocks_on_the_expert_rule() -> None:
    state = scripted(TWO, ["2s 3s 4s 5s 6s 7s 8s 9s 10s Ac", "Kh"], "Js", dealer=1)
    state.apply(Play(Table.parse("2s 3s 4s 5s 6s 7s 8s 9s 10s Js")))
    assert state.phase == "knock"
    view = replace(state.view(0), hand=Hand.of(pieces("Ac")), hand_sizes=(1, 9))
    assert HoarderBot(random.Random(1)).act(view) == Knock()
    risky = replace(state.view(0), hand=Hand.of(pieces("3c 2d")), hand_sizes=(2, 1))
    assert HoarderBot(random.Random(1)).act(risky) == Pass()


# -- determinizations -------------------------------------------------------------


def test_a_determinization_is_consistent_with_the_view_only() -> None:
    game = Game(TWO, seed=4)
    for _ in range(12):  # a few moves in, so the table and the stock have changed
        seat = game.to_move
        game.apply(make_bot("greedy").act(game.view(seat)))
    seat = game.to_move
    view = game.view(seat)
    state = determinize(view, random.Random(9))
    assert state.hands[seat] == list(view.hand.pieces)
    assert [len(hand) for hand in state.hands] == list(view.hand_sizes)
    assert len(state.stock) == view.stock_size
    assert state.table == view.table and state.phase == view.phase and state.draws == view.draws
    everything = list(state.stock) + list(state.table.pieces) + [p for hand in state.hands for p in hand]
    assert piece_counts(everything) == piece_counts(full_deck(TWO.variant))
    # Only the view matters: the real hidden hand does not change the guess.
    game.round.hands[1 - seat].reverse()
    assert determinize(game.view(seat), random.Random(9)).hands == state.hands
    other = determinize(view, random.Random(10))
    hidden = Counter(state.stock + state.hands[1 - seat])
    assert Counter(other.stock + other.hands[1 - seat]) == hidden == Counter(view.unseen())


def test_a_rollout_plays_on_to_its_horizon_or_the_end_of_the_round() -> None:
    view = meld_view("Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h")
    state = determinize(view, random.Random(1))
    play_out(state, RolloutSettings(horizon=3))
    assert state.end is not None or state.turns >= 3
    assert isinstance(utility(state, 0), float)


# -- the search bot ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "seed"),
    [
        (GameSettings.manipulation(2), 1),
        (GameSettings.manipulation(2), 2),
        (GameSettings.manipulation(3), 3),
        (GameSettings.machiavelli(2), 4),
        (GameSettings.rummikub(2), 5),
    ],
    ids=["manipulation", "manipulation-2", "manipulation-3p", "machiavelli", "rummikub"],
)
def test_search_and_hoarder_actions_are_always_legal(settings: GameSettings, seed: int) -> None:
    others: list[Bot] = [make_bot("random", rng=random.Random(seed)), HoarderBot(random.Random(seed))]
    bots: list[Bot] = [QuickPimc(random.Random(seed)), *others][: settings.players]
    assert play_round(settings, bots, seed) > 3


def test_the_search_bot_is_reproducible_from_its_generator() -> None:
    def choices(seed: int) -> list[str]:
        game = Game(TWO, seed=6)
        bots = [QuickPimc(random.Random(seed)), make_bot("greedy")]
        seen = []
        while game.result is None and not game.records:
            seat = game.to_move
            action = bots[seat].act(game.view(seat))
            seen.append(str(action))
            game.apply(action)
        return seen

    assert choices(1) == choices(1)


def test_the_search_bot_goes_out_at_once_and_weighs_the_others() -> None:
    bot = QuickPimc(random.Random(2))
    out = meld_view("Kh Kd", stock="Kc")
    action = bot.act(out)
    assert isinstance(action, Play) and not out.problems(action)
    assert bot.counters["searched"] == 0
    view = meld_view("Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h")
    action = bot.act(view)
    assert not view.problems(action)
    assert bot.counters["searched"] == 1
    assert bot.counters["played_best"] + bot.counters["held_back"] + bot.counters["drew_with_play"] >= 2


def test_the_search_bot_decides_knocks_by_search() -> None:
    state = scripted(TWO, ["2s 3s 4s 5s 6s 7s 8s 9s 10s Ac", "Kh"], "Js", dealer=1)
    state.apply(Play(Table.parse("2s 3s 4s 5s 6s 7s 8s 9s 10s Js")))
    bot = QuickPimc(random.Random(3))
    action = bot.act(state.view(0))
    assert action in (Knock(), Pass())
    assert bot.counters["knock_choices"] == 1


def test_the_search_bot_holds_back_only_against_players_it_does_not_call_hoarders() -> None:
    """Two melds to lay: a hold-back candidate is weighed, unless the other player is
    modelled as a hoarder (then holding back rates too well: see solver.strategy.pimc)."""
    view = meld_view("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd")
    bot = QuickPimc(random.Random(1))
    best = bot.best_play(view)
    assert len(best.played) == 6
    assert [candidate.label for candidate in bot.candidates(view, best)] == ["best", "hold:meld", "draw"]
    bot.opponents.tallies[1] = Tally(holds=1)
    assert bot.opponents.hoarders(view) == (1,)
    assert [candidate.label for candidate in bot.candidates(view, best)] == ["best", "draw"]


def test_the_search_bot_judges_each_candidate_by_its_better_continuation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every candidate is played out with the bot's own later turns greedy and hoarding
    (the same deals), and the choice is the candidate of the best (candidate,
    continuation) mean: here drawing, which wins only with the hoarding continuation."""
    view = meld_view("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd")
    seen: list[tuple[str, str]] = []
    worth = {("best", "greedy_action"): 5.0, ("draw", "patient_hoarder_action"): 7.0}

    def scripted_play(
        state: Rollout, candidate: Candidate, settings: RolloutSettings, policies: Mapping[int, Policy]
    ) -> Rollout:
        seen.append((candidate.label, policies[view.seat].__name__))
        return state

    def scripted_outcome(state: Rollout, seat: int) -> tuple[float, float, float]:
        return worth.get(seen[-1], 0.0), 0.0, 0.0

    monkeypatch.setattr(evaluator, "play_candidate", scripted_play)
    monkeypatch.setattr(evaluator, "outcome", scripted_outcome)
    bot = QuickPimc(random.Random(1))
    action = bot.act(view)
    assert isinstance(action, Draw)
    assert bot.counters["hoarding_line"] == 1 and bot.counters["drew_with_play"] == 1
    labels = {label for label, _ in seen}
    assert {"best", "draw"} <= labels
    for label in labels:
        assert Counter(own for seen_label, own in seen if seen_label == label) == Counter(
            {"greedy_action": QuickPimc.samples, "patient_hoarder_action": QuickPimc.samples}
        )
