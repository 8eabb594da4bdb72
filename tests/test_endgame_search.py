"""The search once the stock is empty (``Evaluator.prior_until_stock_empty``): in first-out
games the patient rule's choice stands while the stock holds cards, and the search bot,
the advice and the review weigh the options with no prior once it is empty."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from solver.game import Game, GameSettings, PlayerView
from solver.strategy.advice import evaluate
from solver.strategy.evaluator import EVALUATOR, deal_from_seed
from solver.strategy.pimc import PimcBot


def empty_stock_view(settings: GameSettings, seed: int) -> PlayerView:
    """The view of the player to move once every player has drawn instead of playing
    until the stock is empty (a meld decision with a big hand)."""
    game = Game(settings, seed=seed)
    view = game.view(game.to_move)
    while view.stock_size > 0:
        game.apply(view.decline())
        view = game.view(game.to_move)
    return view


def midgame_view(settings: GameSettings, seed: int, plies: int = 6) -> PlayerView:
    """The view of the player to move after ``plies`` draws: the stock still holds cards."""
    game = Game(settings, seed=seed)
    for _ in range(plies):
        game.apply(game.view(game.to_move).decline())
    return game.view(game.to_move)


SETTINGS = [GameSettings.machiavelli(2), GameSettings.rummikub(2), GameSettings.machiavelli(4)]


def test_the_evaluator_keeps_its_prior_while_the_stock_holds_cards() -> None:
    assert EVALUATOR.prior_until_stock_empty and math.isinf(EVALUATOR.prior_margin or 0.0)
    for settings in SETTINGS:
        empty = empty_stock_view(settings, seed=1)
        assert empty.stock_size == 0 and empty.phase == "meld"
        assert EVALUATOR.at(empty).prior_margin is None, settings.variant.name
        assert EVALUATOR.at(empty).tie_rule is EVALUATOR.tie_rule  # ties still go to the rule
        assert EVALUATOR.at(midgame_view(settings, seed=1)) is EVALUATOR
        kept = replace(EVALUATOR, prior_until_stock_empty=False)
        assert kept.at(empty) is kept
    manipulation = midgame_view(GameSettings.manipulation(2), seed=1, plies=0)
    assert EVALUATOR.at(manipulation) is EVALUATOR


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: f"{s.variant.name}-{s.players}")
def test_at_an_empty_stock_the_bot_searches_and_the_advice_agrees(settings: GameSettings) -> None:
    """One evaluator: at an empty stock the search bot weighs its options (no rule alone),
    and on the same deals and candidates the advice's first option is its choice; while
    the stock holds cards it plays the rule's choice without a search."""
    seeds = [11, 22, 33, 44]

    class Fixed(PimcBot):
        samples = len(seeds)
        junk_deals = False  # the advice deals uniform guesses

        def deal_seeds(self, view: PlayerView) -> list[int]:
            return list(seeds)

    labels = []
    for seed in (1, 2, 3):
        view = empty_stock_view(settings, seed)
        bot = Fixed(random.Random(0))
        best = bot.best_play(view)
        assert best.has_play and not best.goes_out
        choice = bot.act(view)
        assert bot.counters["searched"] == 1 and bot.counters["rule_alone"] == 0
        candidates = bot.candidates(view, best)
        deal = deal_from_seed(view, seeds, others_opened=bot._others_opened(view))
        options, _, _ = evaluate(view, candidates, deal, samples=len(seeds), budget_seconds=None)
        assert options[0].candidate.action == choice, (settings.variant.name, seed, options[0].label)
        labels.append(options[0].label)
        before = midgame_view(settings, seed)
        waiting = Fixed(random.Random(0))
        if waiting.best_play(before).has_play and not waiting.best_play(before).goes_out:
            waiting.act(before)
            assert waiting.counters["searched"] == 0 and waiting.counters["rule_alone"] == 1
    if settings.variant.name == "machiavelli":
        # The rule would play its best play at an empty stock; the search often holds.
        assert any(label != "best" for label in labels), labels


def test_a_bot_with_its_own_margin_keeps_it_at_an_empty_stock() -> None:
    """The experiments' bots that pin a margin (``PimcBot.prior_margin``) play as they did."""

    class RuleOnly(PimcBot):
        prior_margin = math.inf

    view = empty_stock_view(GameSettings.machiavelli(2), seed=1)
    bot = RuleOnly(random.Random(0))
    bot.act(view)
    assert bot.counters["rule_alone"] == 1 and bot.counters["searched"] == 0
    assert PimcBot(random.Random(0))._margin(view) is None and bot._margin(view) == math.inf
