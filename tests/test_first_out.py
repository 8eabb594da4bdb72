"""The search bot in first-out games (Machiavelli, Rummikub): the race value of a round cut
at the horizon, guessed hands dealt without the plays a greedy player would have made,
the opponent model's count of such cards, and the evaluator's settings per scoring."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from solver.cards import Piece
from solver.game import Game, GameSettings, PlayerView
from solver.game.actions import Action
from solver.strategy import make_bot
from solver.strategy.candidates import Candidate
from solver.strategy.choice_rules import hoarders_choice, patient_choice
from solver.strategy.evaluator import EVALUATOR, RACE_6, SETTLED_3, Evaluator, Outcomes
from solver.strategy.opponents import OpponentModel
from solver.strategy.rollout import (
    GAME_WIN_WEIGHT,
    RolloutSettings,
    determinize,
    greedy_action,
    hoarder_action,
    patient_hoarder_action,
    play_out,
    race_chances,
    rollout_hint,
    utility,
)

RUMMIKUB = GameSettings.rummikub(2)


def midgame_view(settings: GameSettings = RUMMIKUB, *, plies: int = 24, seed: int = 3) -> PlayerView:
    """The view of the player to move after ``plies`` actions of two greedy bots."""
    game = Game(settings, seed=seed)
    bots = [make_bot("greedy", rng=random.Random(seat)) for seat in range(2)]
    for _ in range(plies):
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    return game.view(game.to_move)


# -- the race value ---------------------------------------------------------------


def test_a_hand_that_goes_out_next_wins_the_race_for_certain() -> None:
    # Seat 1 moves next and can go out: it wins whatever seat 0 holds.
    assert race_chances([0, 0], to_move=1) == (0.0, 1.0)
    assert race_chances([5, 0], to_move=0) == (0.0, 1.0)
    assert race_chances([0, 3, 0], to_move=1) == (0.0, 0.0, 1.0)


def test_with_a_slope_fewer_cards_left_is_a_better_chance_but_no_certainty() -> None:
    chances = race_chances([2, 6], to_move=0, slope=0.1)
    assert sum(chances) == pytest.approx(1.0)
    assert 0.5 < chances[0] < 0.75
    assert race_chances([4, 4], to_move=1, slope=0.1) == pytest.approx((0.5, 0.5))
    assert race_chances([1, 9], to_move=1, slope=0.1)[0] > chances[0]


def test_by_default_no_hand_leads_the_race_until_one_can_go_out() -> None:
    assert race_chances([1, 9], to_move=0) == pytest.approx((0.5, 0.5))
    assert race_chances([2, 5, 8], to_move=2) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_a_first_out_round_cut_at_the_horizon_is_worth_its_race() -> None:
    view = midgame_view()
    raced = determinize(view, random.Random(1))
    counted = determinize(view, random.Random(1))
    play_out(raced, RolloutSettings(horizon=1, settle=True, race=True))
    play_out(counted, RolloutSettings(horizon=1, settle=True))
    if raced.end is not None:
        pytest.skip("the round ended within the horizon")
    assert raced.race is not None and counted.race is None
    assert utility(raced, view.seat) == pytest.approx(GAME_WIN_WEIGHT * (2 * raced.race[view.seat] - 1))
    assert abs(utility(raced, view.seat)) <= GAME_WIN_WEIGHT
    # The counted (blocked) end gives the lowest hand the whole game bonus.
    assert abs(utility(counted, view.seat)) >= GAME_WIN_WEIGHT


def test_the_race_leaves_manipulation_rummy_alone() -> None:
    view = midgame_view(GameSettings.manipulation(2), plies=6)
    state = determinize(view, random.Random(2))
    play_out(state, RolloutSettings(horizon=1, settle=True, race=True))
    assert state.race is None


def test_the_evaluator_takes_its_first_out_settings_for_first_out_games_only() -> None:
    race = RolloutSettings(horizon=6, settle=True, race=True)
    evaluator = Evaluator(first_out=race)
    assert evaluator.rollout_for(RUMMIKUB) is race
    assert evaluator.rollout_for(GameSettings.machiavelli(2)) is race
    assert evaluator.rollout_for(GameSettings.manipulation(2)) is SETTLED_3
    assert Evaluator().rollout_for(RUMMIKUB) is SETTLED_3
    assert EVALUATOR.rollout_for(GameSettings.manipulation(2)) is EVALUATOR.rollout
    assert EVALUATOR.rollout_for(RUMMIKUB) is RACE_6 and RACE_6.race and RACE_6.race_slope == 0.0


def test_the_own_hoarding_line_is_patient_in_every_game() -> None:
    """Every game weighs the player's own later turns with the patient hoarding line (no
    meld forced by the hand's size); an evaluator can still give first-out games a line
    of their own (``benchmarks/unforced_continuation.py`` plays the forced one there)."""
    for settings in (GameSettings.manipulation(2), RUMMIKUB, GameSettings.machiavelli(2)):
        assert EVALUATOR.continuations_for(settings) == (greedy_action, patient_hoarder_action)
    forced = Evaluator(first_out_continuations=(greedy_action, hoarder_action))
    assert forced.continuations_for(RUMMIKUB) == (greedy_action, hoarder_action)
    assert forced.continuations_for(GameSettings.manipulation(2)) == forced.continuations
    assert Evaluator().continuations_for(RUMMIKUB) == Evaluator().continuations
    names = [EVALUATOR.continuation_name(index) for index in range(2)]
    assert names == ["greedy", "hoarding"]
    with pytest.raises(ValueError, match="name alike"):
        Evaluator(first_out_continuations=(hoarder_action, greedy_action))


# -- guessed hands without plays ----------------------------------------------------


def has_play(view: PlayerView, hand: list[Piece]) -> bool:
    return rollout_hint(view.table, hand, view.variant, opened=True, time_limit=1.0).has_play


def test_junk_deals_give_the_other_hand_no_play_and_keep_every_card() -> None:
    view = midgame_view()
    other = 1 - view.seat
    size = view.hand_sizes[other]
    plain = with_play = 0
    for index in range(12):
        uniform = determinize(view, random.Random(index))
        junk = determinize(view, random.Random(index), junk={other: size})
        junk.check_cards()
        assert len(junk.hands[other]) == size and len(junk.stock) == view.stock_size
        assert junk.hands[view.seat] == list(view.hand.pieces)
        plain += has_play(view, uniform.hands[other])
        with_play += has_play(view, junk.hands[other])
    assert plain >= 10  # uniform guesses nearly always hold a play on a big table
    assert with_play <= 3


def test_without_junk_the_deal_is_unchanged() -> None:
    view = midgame_view()
    a = determinize(view, random.Random(7))
    b = determinize(view, random.Random(7), junk={})
    assert a.hands == b.hands and a.stock == b.stock


# -- what the opponent model says is junk ---------------------------------------------


def sized(view: PlayerView, other: int, stock: int) -> PlayerView:
    sizes = list(view.hand_sizes)
    sizes[1 - view.seat] = other
    return replace(view, hand_sizes=tuple(sizes), stock_size=stock)


def test_a_greedy_player_keeps_junk_but_its_last_draw() -> None:
    view = replace(midgame_view(), draws=0)
    other = 1 - view.seat
    model = OpponentModel()
    model.observe(sized(view, 10, 40))
    assert model.junk(view) == {}  # one look: its last turn is unknown
    model.observe(sized(view, 7, 39))  # a meld: it keeps what it could not lay
    assert model.junk(sized(view, 7, 39)) == {other: 7}
    model.observe(sized(view, 8, 38))  # a draw: the drawn tile may fit
    assert model.junk(sized(view, 8, 38)) == {other: 7}


def hoarders_history(view: PlayerView) -> OpponentModel:
    """A model that has seen the other player hold to 19 tiles, meld down to 10 and draw
    eight more (the last look: 18 tiles, a stock of 46)."""
    model = OpponentModel()
    sizes = [14, 15, 16, 17, 18, 19, 10, 11, 12, 13, 14, 15, 16, 17, 18]
    for stock, size in enumerate(sizes):
        model.observe(sized(view, size, 60 - stock))
    return model


def test_a_hoarder_keeps_junk_from_its_last_meld_only() -> None:
    view = replace(midgame_view(), draws=0)
    other = 1 - view.seat
    model = hoarders_history(view)
    assert model.style(other) == "hoarder"
    # Melded from 19 tiles down to 10, then drew eight: ten are junk.
    assert model.junk(sized(view, 18, 46)) == {other: 10}


def _weighed(view: PlayerView, values: dict[str, list[float]]) -> list[Outcomes]:
    kinds = {"best": "play", "draw": "draw", "hold:meld": "play"}
    return [
        Outcomes(
            candidate=Candidate(label, kinds[label], steps=()),  # type: ignore[arg-type]
            continuation=0,
            values=tuple(v),
            points=tuple(v),
            wins=tuple(x > 0 for x in v),
        )
        for label, v in values.items()
    ]


def test_the_prior_keeps_the_hoarders_choice_unless_the_search_is_sure() -> None:
    """``PimcBot.prior_margin``: in first-out games the hoarder's choice (here: draw, the
    hand need not meld) stands unless another candidate's paired lead exceeds the margin
    in standard errors; without a margin, or in Manipulation Rummy, the best mean wins."""
    from solver.strategy.pimc import PimcBot

    view = midgame_view()
    assert view.phase == "meld" and len(view.hand) < view.variant.hand_size + 5

    class HoardersPrior(PimcBot):
        evaluator = TIES  # the hoarder's rule, no margin of the evaluator's own

    bot = HoardersPrior(random.Random(0))
    close = _weighed(view, {"best": [10.0, -10.0, 12.0, -8.0], "draw": [0.0, 0.0, 0.0, 0.0]})
    sure = _weighed(view, {"best": [10.0, 12.0, 11.0, 9.0], "draw": [0.0, 1.0, 0.0, 1.0]})
    assert bot.prior_choice(view, close) == 0  # no margin: the best mean (1.0 against 0.0)
    bot.prior_margin = 1.0
    assert bot.prior_choice(view, close) == 1  # a lead of 1.0 with a standard error of 6.0
    assert bot.prior_choice(view, sure) == 0 and bot.counters["prior_overruled"] == 1
    manipulation = midgame_view(GameSettings.manipulation(2), plies=6)
    assert (
        bot.prior_choice(manipulation, _weighed(manipulation, {"best": [1.0, 0.0], "draw": [0.0, 0.0]})) == 0
    )


TIES = replace(EVALUATOR, hoarder_breaks_ties=True, tie_rule=hoarders_choice, prior_margin=None)
FIRST_LISTED = replace(EVALUATOR, hoarder_breaks_ties=False, prior_margin=None)
PATIENT_PRIOR = replace(EVALUATOR, hoarder_breaks_ties=True, tie_rule=patient_choice, prior_margin=1.0)


def test_ties_go_to_the_hoarders_choice_in_first_out_games_only() -> None:
    """``Evaluator.preferred``: with ``hoarder_breaks_ties``, options of equal mean at a
    first-out meld decision go to the hoarder's choice (here the draw), in the bot's choice
    (``best_index``) and in the advice's order (``advice.rank``) alike; a better mean still
    wins; Manipulation Rummy and the flag off keep the first listed."""
    from solver.strategy.advice import rank
    from solver.strategy.evaluator import best_index

    view = midgame_view()
    tied = _weighed(view, {"best": [0.0, 0.0], "draw": [0.0, 0.0], "hold:meld": [0.0, 0.0]})
    prefer = TIES.preferred(view, [outcome.candidate for outcome in tied])
    assert prefer == 1
    assert best_index(tied, prefer) == 1 and rank(tied, evaluator=TIES, prefer=prefer)[0].label == "draw"
    assert best_index(tied) == 0 and FIRST_LISTED.preferred(view, [o.candidate for o in tied]) is None
    ahead = _weighed(view, {"best": [1.0, 0.0], "draw": [0.0, 0.0]})
    assert best_index(ahead, prefer) == 0 and rank(ahead, evaluator=TIES, prefer=prefer)[0].label == "best"
    big = replace(view, hand=replace(view.hand, pieces=view.hand.pieces * 3))
    assert TIES.preferred(big, [outcome.candidate for outcome in tied]) == 0  # the hoarder melds it
    manipulation = midgame_view(GameSettings.manipulation(2), plies=6)
    assert TIES.preferred(manipulation, [outcome.candidate for outcome in tied]) is None


def test_the_bot_and_the_advice_break_ties_alike_in_first_out_games() -> None:
    """One evaluator in first-out games too: on the same deals and candidates the advice's
    first option is the search bot's choice, with and without the hoarder's tie-break, and
    with the patient rule kept as a prior (``Evaluator.prior_margin``), on views of Rummikub
    and Machiavelli (some of them early, where every option ties)."""
    from solver.strategy.advice import evaluate
    from solver.strategy.candidates import BOT_SET, meld_candidates
    from solver.strategy.evaluator import deal_from_seed
    from solver.strategy.pimc import PimcBot

    seeds = [11, 22, 33, 44]
    views = [(RUMMIKUB, 2, 3), (RUMMIKUB, 10, 5), (RUMMIKUB, 4, 7)]
    views += [(GameSettings.machiavelli(2), plies, seed) for plies, seed in ((2, 3), (16, 5), (24, 4))]
    choices: dict[tuple[str, int, int], list[str]] = {}
    for evaluator in (FIRST_LISTED, TIES, PATIENT_PRIOR):

        class Fixed(PimcBot):
            samples = len(seeds)

            def deal_seeds(self, view: PlayerView) -> list[int]:
                return list(seeds)

        Fixed.evaluator = evaluator
        for settings, plies, seed in views:
            view = midgame_view(settings, plies=plies, seed=seed)
            bot = Fixed(random.Random(0))
            bot.junk_deals = False  # the advice deals uniform guesses
            best = bot.best_play(view)
            assert view.phase == "meld" and best.has_play and not best.goes_out
            choice = bot.act(view)
            candidates = meld_candidates(view, BOT_SET, best=best, time_limit=5.0)
            deal = deal_from_seed(view, seeds, others_opened=bot._others_opened(view))
            options, _, _ = evaluate(
                view, candidates, deal, samples=len(seeds), budget_seconds=None, evaluator=evaluator
            )
            assert options[0].candidate.action == choice, (settings.variant.name, plies, options[0].label)
            choices.setdefault((settings.variant.name, plies, seed), []).append(options[0].label)
    # Early in a round the six-turn rollouts see nobody go out: every option ties, and the
    # tie-break decides (the best play first, or the hoarder's draw).
    assert sum(labels[:2] == ["best", "draw"] for labels in choices.values()) >= 2, choices


def test_the_prior_plays_where_the_hoarder_must_meld() -> None:
    from solver.strategy.pimc import PimcBot

    view = midgame_view()
    big = replace(view, hand=replace(view.hand, pieces=view.hand.pieces * 3))
    assert len(big.hand) >= view.variant.hand_size + 5

    class HoardersPrior(PimcBot):
        evaluator = TIES

    bot = HoardersPrior(random.Random(0))
    bot.prior_margin = 1.0
    weighed = _weighed(big, {"best": [0.0, 0.0, 1.0], "draw": [5.0, -5.0, 6.0]})
    assert bot.prior_choice(big, weighed) == 0  # the hoarder melds a hand this big


# -- expert is greedy where a draw ends the turn ---------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        GameSettings.rummikub(2),
        GameSettings.machiavelli(2),
        GameSettings.rummikub(3),
        GameSettings.rummikub_peer(),
    ],
    ids=lambda s: f"{s.preset or s.variant.name}-{s.players}",
)
def test_expert_acts_as_greedy_in_first_out_games(settings: GameSettings) -> None:
    """A draw ends the turn in first-out games, so ``expert`` melds at once as ``greedy``
    does: the strength tables leave its column out there (``benchmarks.strength_family``)."""
    compared = plays = 0
    for seed in range(3):
        game = Game(settings, seed=seed)
        experts = [make_bot("expert", rng=random.Random(seat)) for seat in range(settings.players)]
        greedy = make_bot("greedy", rng=random.Random(0))
        for _ in range(60):
            if game.over:
                break
            view = game.view(game.to_move)
            action = experts[game.to_move].act(view)
            assert action == greedy.act(view)
            compared += 1
            plays += action.kind == "play"
            game.apply(action)
    assert compared >= 100 and plays >= 10


# -- a player who drew could not go out -------------------------------------------------


def test_a_stuck_hand_cannot_go_out_but_for_its_last_draw_and_keeps_every_card() -> None:
    from solver.strategy.rollout import _goes_out

    view = midgame_view(plies=60)
    other = 1 - view.seat
    free = stuck = 0
    for index in range(30):
        plain = determinize(view, random.Random(index))
        held = determinize(view, random.Random(index), stuck=(other,))
        held.check_cards()
        assert len(held.hands[other]) == view.hand_sizes[other] and len(held.stock) == view.stock_size
        assert held.hands[view.seat] == list(view.hand.pieces)
        free += _goes_out(view.table, plain.hands[other][:-1], view.variant)
        stuck += _goes_out(view.table, held.hands[other][:-1], view.variant)
        if not _goes_out(view.table, plain.hands[other][:-1], view.variant):
            assert held.hands == plain.hands and held.stock == plain.stock  # nothing to change
    assert free >= 8  # a uniform guess often goes out on this table
    assert stuck == 0
    unopened = determinize(view, random.Random(1), stuck=(other,), others_opened=False)
    assert unopened.hands == determinize(view, random.Random(1), others_opened=False).hands


def test_the_player_before_who_drew_is_stuck_unless_greedy() -> None:
    view = replace(midgame_view(), draws=0)
    other = 1 - view.seat
    model = hoarders_history(view)
    assert model.style(other) == "hoarder" and model.stuck(sized(view, 18, 46)) == (other,)
    model.observe(sized(view, 12, 45))  # a meld in its last turn: nothing known
    assert model.stuck(sized(view, 12, 45)) == ()
    greedy = OpponentModel()
    greedy.observe(sized(view, 10, 40))
    greedy.observe(sized(view, 11, 39))
    assert greedy.style(other) == "greedy" and greedy.stuck(sized(view, 11, 39)) == ()
    manipulation = replace(view, settings=GameSettings.manipulation(2))
    assert model.stuck(manipulation) == ()


def test_the_search_bot_deals_stuck_hands_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.strategy.pimc import PimcBot

    view = midgame_view(plies=60)
    other = 1 - view.seat
    monkeypatch.setattr(OpponentModel, "stuck", lambda self, view: (other,))
    bot = PimcBot(random.Random(0))
    assert bot.stuck_deals, "on by default"
    bot.stuck_deals = False
    seeds = list(range(30))
    plain = [bot.deals(view, seeds)(index).hands[other] for index in range(30)]
    bot.stuck_deals = True
    held = [bot.deals(view, seeds)(index).hands[other] for index in range(30)]
    assert plain != held
    assert plain == [determinize(view, random.Random(seed)).hands[other] for seed in seeds]


def test_a_running_race_reports_its_own_win_chance_and_points() -> None:
    """The round win and the points beside a first-out value are the race's (the value's
    own model), not a count of the hands as they stand: a player's share of the win is its
    chance to go out first, and the points are the net points expected over that race
    (the one who goes out collects what each other hand's best play would leave)."""
    from solver.strategy.evaluator import outcome

    running = 0
    for seed in range(12):
        view = midgame_view(plies=20 + 2 * seed, seed=seed)
        state = play_out(determinize(view, random.Random(seed)), RACE_6)
        if state.end is not None:
            continue
        running += 1
        assert state.race is not None and state.settled is not None
        me, other = view.seat, 1 - view.seat
        value, points, won = outcome(state, me)
        chance = state.race[me]
        assert won == chance and value == pytest.approx(100 * (2 * chance - 1))
        # 2 players: going out collects the other's points, the other collects mine if it does
        expected = chance * 2 * state.settled[other] - (1 - chance) * 2 * state.settled[me]
        assert points == pytest.approx(expected)
    assert running >= 3


def test_a_four_player_race_reports_the_points_against_the_best_other() -> None:
    """With 4 players the net points are against the best other player: when another
    goes out it collects every other hand, the player's own included."""
    from solver.strategy.evaluator import outcome

    settings = GameSettings.rummikub(4)
    game = Game(settings, seed=11)
    bots = [make_bot("greedy", rng=random.Random(seat)) for seat in range(4)]
    checked = 0
    for _ in range(60):
        if game.over:
            break
        view = game.view(game.to_move)
        state = play_out(determinize(view, random.Random(checked)), RACE_6)
        if state.end is None and state.race is not None and state.settled is not None:
            me, settled = view.seat, state.settled
            expected = 0.0
            for winner, chance in enumerate(state.race):
                scores = [-settled[s] for s in range(4)]
                scores[winner] = sum(settled[s] for s in range(4) if s != winner)
                expected += chance * (scores[me] - max(scores[s] for s in range(4) if s != me))
            _, points, won = outcome(state, me)
            assert won == state.race[me] and points == pytest.approx(expected)
            checked += 1
        game.apply(bots[game.to_move].act(view))
    assert checked >= 3


# -- the rule alone: an infinite prior margin plays the patient rule with no search ----


@pytest.mark.parametrize(
    "settings",
    [
        GameSettings.rummikub(2),
        GameSettings.machiavelli(2),
        GameSettings.rummikub(4),
        GameSettings.machiavelli(4),
    ],
    ids=lambda s: f"{s.variant.name}-{s.players}",
)
def test_the_search_bot_plays_the_patient_rule_without_a_search_until_the_stock_is_empty(
    settings: GameSettings,
) -> None:
    """With ``EVALUATOR``'s infinite margin the search bot's first-out game is the patient
    rule's (``benchmarks.patient_rule:PatientBot``) move for move while the stock holds
    cards, with no search; it searches only at an empty stock
    (``Evaluator.prior_until_stock_empty``); in Manipulation Rummy it still searches."""
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.patient_rule import PatientBot
    from solver.game.runner import play_game
    from solver.strategy.pimc import PimcBot

    class Recording(PimcBot):
        """``pimc`` noting the stock at each of its searches and every move it makes."""

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng)
            self.moves: list[tuple[int, str]] = []
            self.searched_at: list[int] = []

        def act(self, view: PlayerView) -> Action:
            searched = self.counters["searched"]
            action = super().act(view)
            if self.counters["searched"] > searched:
                self.searched_at.append(view.stock_size)
            self.moves.append((view.stock_size, repr(action)))
            return action

    class RecordingRule(PatientBot):
        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng)
            self.moves: list[tuple[int, str]] = []

        def act(self, view: PlayerView) -> Action:
            action = super().act(view)
            self.moves.append((view.stock_size, repr(action)))
            return action

    assert math.isinf(EVALUATOR.prior_margin or 0.0) and EVALUATOR.prior_until_stock_empty
    decided_by_rule = 0
    for seed in (3, 4):
        others = [make_bot("hoarder", rng=random.Random(seat)) for seat in range(1, settings.players)]
        searcher = Recording(random.Random(0))
        play_game(settings, [searcher, *others], seed=seed)
        others = [make_bot("hoarder", rng=random.Random(seat)) for seat in range(1, settings.players)]
        rule = RecordingRule(random.Random(0))
        play_game(settings, [rule, *others], seed=seed)
        stocked = [move for move in searcher.moves if move[0] > 0]
        assert stocked and stocked == [move for move in rule.moves if move[0] > 0], seed
        assert all(stock == 0 for stock in searcher.searched_at), seed
        decided_by_rule += searcher.counters["rule_alone"]
    assert decided_by_rule > 0  # meld decisions the rule took with no search
    manipulation = PimcBot(random.Random(0))
    play_game(GameSettings.manipulation(2), [manipulation, make_bot("greedy", rng=random.Random(1))], seed=3)
    assert manipulation.counters["rule_alone"] == 0 and manipulation.counters["searched"] > 0


def test_the_oracle_weighs_its_true_round_with_no_margin() -> None:
    """The ``oracle`` keeps searching in first-out games (no prior margin: one true deal
    could never overrule a margin), ties going to the patient rule."""
    from solver.strategy.oracle import ORACLE_EVALUATOR, OracleBot

    assert OracleBot.evaluator is ORACLE_EVALUATOR and ORACLE_EVALUATOR.prior_margin is None
    assert ORACLE_EVALUATOR.tie_rule is patient_choice and ORACLE_EVALUATOR.hoarder_breaks_ties
    bot = OracleBot(random.Random(0))
    view = midgame_view()
    one_deal = _weighed(view, {"best": [5.0], "draw": [0.0]})
    assert bot.prior_choice(view, one_deal) == 0, "the better outcome on the true round wins"
