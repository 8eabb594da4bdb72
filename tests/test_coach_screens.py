"""The coach's screens' bots (``benchmarks.coach_screens``) and the calibration's --random-bot."""

from __future__ import annotations

import random

from benchmarks.coach_screens import COINLESS_RANDOM_BOT, CoinlessRandom, PatientHoarder
from benchmarks.review_calibration import CalibrationJob, review_game
from solver.game import Game, GameSettings
from solver.runs import Chunk
from solver.strategy.hoarder import HAND_MARGIN, HoarderBot


def test_the_patient_hoarder_melds_only_at_the_last_chance_not_for_its_hand_size() -> None:
    game = Game(GameSettings.manipulation(2), seed=1)
    view = game.view(game.to_move)
    too_big = view.variant.hand_size + HAND_MARGIN
    while view.stock_size > 0 and len(view.hand) < too_big:
        game.apply(view.decline())
        view = game.view(game.to_move)
    assert len(view.hand) >= too_big and view.stock_size > 0
    assert HoarderBot.must_meld(view) and not PatientHoarder.must_meld(view)


def test_the_coinless_random_bot_plays_whenever_its_part_has_a_play() -> None:
    view = Game(GameSettings.manipulation(2), seed=3).view(0)
    bot = CoinlessRandom(random.Random(0))
    assert bot.best_play(view).has_play
    kinds = {type(bot.act(view)).__name__ for _ in range(20)}
    assert "Play" in kinds  # the coin would draw in about half of these


def test_the_calibration_plays_randoms_seats_with_the_bot_it_is_given() -> None:
    base = CalibrationJob(seed=11, games=2, rounds=1)
    swapped = CalibrationJob(seed=11, games=2, rounds=1, random_bot=COINLESS_RANDOM_BOT)
    chunk = Chunk(start=0, items=(0,))  # random against greedy, random first
    before, after = review_game(base, chunk)[0], review_game(swapped, chunk)[0]
    assert {d["bot"] for d in after} == {"random", "greedy"}

    def randoms(decisions: list[dict[str, object]]) -> list[object]:
        return [decision["made"] for decision in decisions if decision["bot"] == "random"]

    assert randoms(before) != randoms(after)
