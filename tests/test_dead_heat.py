"""The dead-heat stop of ``weigh`` (``dead_heat_after``; ``PimcBot.dead_heat_deals``): a
decision whose first deals are a dead heat is decided on them alone, one they split is
weighed exactly as without the stop."""

from __future__ import annotations

import random

from test_first_out import RUMMIKUB, midgame_view

from solver.game import GameSettings
from solver.game.view import PlayerView
from solver.strategy.candidates import BOT_SET, meld_candidates
from solver.strategy.evaluator import EVALUATOR, dead_heat, deal_from_seed, weigh
from solver.strategy.pimc import PimcBot

SEEDS = [11, 22, 33, 44, 55, 66, 77, 88]


def test_a_dead_heat_is_every_line_worth_the_same_in_each_deal() -> None:
    assert dead_heat([[(0.5, 1.0, 0.5), (0.5, 2.0, 0.5)], [(0.5, 3.0, 0.5), (0.5, 0.0, 0.5)]])
    assert not dead_heat([[(0.5, 0.0, 0.5), (0.5, 0.0, 0.5)], [(0.5, 0.0, 0.5), (1.0, 0.0, 1.0)]])
    # The same mean is not a dead heat: the deals must agree one by one.
    assert not dead_heat([[(0.0, 0.0, 0.0), (1.0, 0.0, 1.0)], [(1.0, 0.0, 1.0), (0.0, 0.0, 0.0)]])
    assert dead_heat([])


def _weigh_both(settings: GameSettings, plies: int, seed: int) -> tuple[list[int], list[int], bool, bool]:
    """The deals each candidate played, with the stop after 4 deals and without it, and
    whether the outcomes are the same and whether the first 4 deals were a dead heat."""
    view = midgame_view(settings, plies=plies, seed=seed)
    bot = PimcBot(random.Random(0))
    best = bot.best_play(view)
    assert view.phase == "meld" and best.has_play and not best.goes_out
    candidates = meld_candidates(view, BOT_SET, best=best, time_limit=5.0)
    deal = deal_from_seed(view, SEEDS, others_opened=bot._others_opened(view))
    full, _ = weigh(view, candidates, deal, len(SEEDS), evaluator=EVALUATOR)
    stopped, _ = weigh(view, candidates, deal, len(SEEDS), evaluator=EVALUATOR, dead_heat_after=4)
    first = [[value for value in line[:4]] for outcome in full for line in outcome.lines]
    tied = all(line == first[0] for line in first)
    same = [o.values for o in full] == [o.values for o in stopped] and [o.lines for o in full] == [
        o.lines for o in stopped
    ]
    return [len(o.values) for o in full], [len(o.values) for o in stopped], same, tied


def test_a_dead_heat_in_the_first_deals_stops_there_and_a_split_plays_every_deal() -> None:
    seen_tie = seen_split = False
    views = [(RUMMIKUB, 2, 3), (RUMMIKUB, 30, 5), (RUMMIKUB, 40, 5), (GameSettings.machiavelli(2), 50, 3)]
    for settings, plies, seed in views:
        full, stopped, same, tied = _weigh_both(settings, plies, seed)
        assert full == [len(SEEDS)] * len(full)
        if tied:
            seen_tie = True
            assert stopped == [4] * len(full), (settings.variant.name, plies, seed)
        else:
            seen_split = True
            assert same and stopped == full, (settings.variant.name, plies, seed)
    assert seen_tie and seen_split, "the views should show both kinds of decision"


def test_the_bot_stops_on_a_dead_heat_in_first_out_games_only() -> None:
    """With ``dead_heat_deals`` the search bot plays a seeded Rummikub game through, and in
    Manipulation Rummy it plays exactly as without it."""
    from solver.game.runner import play_game

    class Stopping(PimcBot):
        dead_heat_deals = 2
        prior_margin = 2.0  # a search behind the rule (``pimc`` plays the rule alone there)

    class AllDeals(PimcBot):
        dead_heat_deals = None
        prior_margin = 2.0

    assert PimcBot.dead_heat_deals == 1, "on since the test declared for it (firstout-experiments)"
    manipulation = GameSettings.manipulation(2)
    plain = play_game(manipulation, [AllDeals(random.Random(1)), AllDeals(random.Random(2))], seed=5)
    stopping = play_game(manipulation, [Stopping(random.Random(1)), Stopping(random.Random(2))], seed=5)
    assert plain.final == stopping.final and plain.winners == stopping.winners
    rummikub = play_game(RUMMIKUB, [Stopping(random.Random(1)), AllDeals(random.Random(2))], seed=5)
    assert rummikub.winners


def test_crowded_samples_count_deals_only_in_first_out_games_of_three_or_more() -> None:
    """``crowded_samples`` replaces ``samples`` in first-out games of 3 or more players and
    nowhere else (off by default), and a seeded 3-player Machiavelli game weighs that many
    deals at each searched decision."""
    from solver.game.game import Game
    from solver.game.runner import play_game
    from solver.strategy.registry import make_bot

    class Crowded(PimcBot):
        crowded_samples = 2
        prior_margin = 2.0  # a search behind the rule (``pimc`` plays the rule alone there)

    assert PimcBot.crowded_samples is None, "off by default"
    bot = Crowded(random.Random(0))
    for name, players, deals in [
        ("manipulation", 3, 8),
        ("manipulation", 4, 8),
        ("rummikub", 2, 8),
        ("machiavelli", 2, 8),
        ("rummikub", 4, 2),
        ("machiavelli", 3, 2),
    ]:
        view = Game(GameSettings.named(name, players), seed=1).view(0)
        assert bot.deal_count(view) == deals, (name, players)
        assert PimcBot(random.Random(0)).deal_count(view) == 8, (name, players)
    counted: list[int] = []

    class Counting(Crowded):
        def deal_seeds(self, view: PlayerView) -> list[int]:
            seeds = super().deal_seeds(view)
            counted.append(len(seeds))
            return seeds

    greedy = [make_bot("greedy", rng=random.Random(seat)) for seat in (1, 2)]
    play_game(GameSettings.named("machiavelli", 3), [Counting(random.Random(0)), *greedy], seed=7)
    assert counted and set(counted) == {2}, counted


def test_the_probe_counts_nested_dead_heats_and_the_experiments_weigh_every_deal() -> None:
    """``benchmarks.dead_heat_probe``: a dead heat over a prefix is one over each shorter
    prefix, and the probe plays ``pimc``'s choice over every deal; the experiments' bots
    that reproduce earlier runs weigh every deal as they did then."""
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.dead_heat import PimcAllDeals
    from benchmarks.dead_heat_probe import PimcStopProbe, dead_heat_over
    from benchmarks.patient_rule import PimcHoardersTies, PimcPatientPrior2
    from benchmarks.tie_rule import PimcTies
    from solver.strategy.match import run_match

    for bot in (PimcStopProbe, PimcAllDeals, PimcHoardersTies, PimcPatientPrior2, PimcTies):
        assert bot.dead_heat_deals is None, bot
    probe = "benchmarks.dead_heat_probe:PimcStopProbe"
    found = run_match(probe, "greedy", pairs=1, seed=4, settings=RUMMIKUB)
    totals: dict[str, int] = {}
    for game in found.pairs[0].games:
        for counters in game.counters:
            for key, value in counters.items():
                totals[key] = totals.get(key, 0) + value
    heats = [totals.get(f"probe_dead_heat_{deals}", 0) for deals in (1, 2, 4)]
    assert totals["probe_searched"] == totals["searched"] > 0
    assert totals["probe_searched"] >= heats[0] >= heats[1] >= heats[2] > 0, totals
    for deals, heat in zip((1, 2, 4), heats, strict=True):
        assert totals.get(f"probe_changed_{deals}", 0) <= heat
    assert dead_heat_over([], 3)
