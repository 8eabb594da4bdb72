"""Candidates are the real state their action produces: held-back cards stay in the hand,
a knock is offered only to a hand that may knock, going out is going out; rollouts lose
and make no card.  Worked positions (the issue's) and a property over game positions of
every variant and every option kind."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from gamescript import scripted

from solver.cards import Joker, Piece
from solver.engine import hint
from solver.game import Game, GameSettings, Knock, Play, PlayerView
from solver.position import Hand, Position
from solver.strategy import make_bot
from solver.strategy.advice import advise
from solver.strategy.bots import best_play
from solver.strategy.candidates import (
    BOT_SET,
    COACH_SET,
    Candidate,
    knock_candidates,
    made_candidate,
    meld_candidates,
    rebase,
)
from solver.strategy.evaluator import EVALUATOR, deal_from_key, play_candidate
from solver.strategy.rollout import PlayedHint, RolloutError, determinize

HELD_KINGS = "5h 6h 7h | 9s 9d 9c / 8h 4h Kc Ks Kd 2c"
RUMMIKUB_OUT = "1s 2s 3s | 11h 12h *13h | 5d 5c 5s / 13h 13h 4s *"
TWO = GameSettings.manipulation(2)


def minus(hand: Hand, played: tuple[Piece, ...]) -> Counter[str]:
    left = Counter(str(piece) for piece in hand.pieces)
    left.subtract(str(Joker()) if isinstance(piece, Joker) else str(piece) for piece in played)
    assert all(count >= 0 for count in left.values())
    return +left


# -- the positions --------------------------------------------------------------


def test_a_play_that_holds_the_kings_back_keeps_them_and_cannot_knock() -> None:
    found = advise(HELD_KINGS, players=2, samples=6, seed=1)
    position = found.position
    for option in found.options:
        data = option.to_dict()
        if option.hint is None:
            continue
        assert Counter(data["hand"]) == minus(position.hand, option.hint.played), option.label
        assert data["hand_points"] == Hand.parse(" ".join(data["hand"])).points(option.hint.variant)
        if option.knock is not None:
            assert option.hint.can_knock, (option.label, data["hand"])
    held = [o for o in found.options if o.hint is not None and "Ks" not in map(str, o.played)]
    assert held, "a play that keeps the kings is weighed"
    for option in held:
        assert option.hint is not None and option.hint.hand_points >= 30
        assert option.knock is None, "a hand holding three kings may not knock"


def test_going_out_is_ranked_first_in_rummikub() -> None:
    found = advise(RUMMIKUB_OUT, variant="rummikub", samples=6, seed=1)
    assert found.best.hint is not None and found.best.hint.goes_out
    for option in found.options:
        if option.hint is not None:
            assert Counter(option.to_dict()["hand"]) == minus(found.position.hand, option.hint.played)


# -- one place builds candidates ----------------------------------------------------------


def meld_view(hand: str, *, stock: str = "Kc 5d 9d", other: str = "As") -> PlayerView:
    state = scripted(TWO, [hand, other], stock, dealer=1)
    return state.view(0)


def test_rebase_puts_a_part_of_the_hand_back_in_the_whole() -> None:
    view = meld_view("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd")
    part = best_play(view, hand=Hand.parse("3h 4h 5h 2s 7d 8c Jd Kc"))
    assert Counter(map(str, part.hand.pieces)) == Counter(["2s", "7d", "8c", "Jd", "Kc"])
    real = rebase(view, part)
    assert Counter(map(str, real.hand.pieces)) == Counter(["2s", "7d", "8c", "Jd", "Kc", "9c", "9d", "9s"])
    assert real.position == view.position and real.table == part.table
    with pytest.raises(ValueError, match="not in the hand"):
        rebase(meld_view("2s 7d 8c Jd Kd"), part)


def test_a_made_play_is_counted_by_the_referee() -> None:
    view = meld_view("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd")
    found = hint(view.position)
    made = made_candidate(view, Play(found.table))
    assert made.found is not None and made.kind == "play"
    assert Counter(made.played_key) == Counter(map(str, found.played))
    assert Counter(made.found.hand.pieces) == Counter(found.hand.pieces)
    assert made.found.melds_broken == found.melds_broken


def test_a_rollout_refuses_to_lose_or_make_cards() -> None:
    view = meld_view("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd")
    foreign = hint(Position(view.table, Hand.parse("Ah 2h 3h")))
    state = determinize(view, random.Random(1))
    with pytest.raises(RolloutError, match="does not hold"):
        state.act(PlayedHint(foreign))
    state = determinize(view, random.Random(1))
    with pytest.raises(RolloutError, match="may not knock"):
        state.act(Knock())
    state = determinize(view, random.Random(1))
    state.hands[1].append(Joker())
    with pytest.raises(RolloutError, match="made joker"):
        state.check_cards()
    state = determinize(view, random.Random(1))
    state.stock.pop()
    with pytest.raises(RolloutError, match="lost"):
        state.act(knock_candidates()[1].steps[0])


def test_a_reduced_hand_answer_played_in_a_rollout_keeps_the_held_cards() -> None:
    """The bug the candidates module closes: a hold-back found on part of the hand,
    played in a rollout, used to set the hand to that part's rest."""
    view = meld_view("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd")
    part = best_play(view, hand=Hand.parse("3h 4h 5h 2s 7d 8c Jd Kc"))
    state = determinize(view, random.Random(3))
    state.act(PlayedHint(part))
    assert Counter(map(str, state.hands[0])) == Counter(["2s", "7d", "8c", "Jd", "Kc", "9c", "9d", "9s"])


# -- the property: every option of random game positions is its real state --------------


def game_views(settings: GameSettings, seed: int, every: int) -> list[PlayerView]:
    """Meld decisions with a legal play from a seeded game of random and greedy players."""
    game = Game(settings, seed=seed)
    bots = [make_bot("random" if seat % 2 else "greedy", rng=random.Random(seed + seat)) for seat in range(2)]
    views: list[PlayerView] = []
    step = 0
    while game.result is None and not game.records and len(views) < 6:
        view = game.view(game.to_move)
        step += 1
        if view.phase == "meld" and step % every == 0 and hint(view.position, variant=view.variant).has_play:
            views.append(view)
        game.apply(bots[game.to_move].act(view))
    return views


def check_candidate(view: PlayerView, candidate: Candidate, index: int) -> None:
    found = candidate.found
    if found is not None:
        assert found.position == view.position
        assert Counter(map(str, found.hand.pieces)) == minus(view.hand, found.played), candidate.label
        assert found.goes_out == (len(found.hand) == 0)
        if candidate.knock is not None:
            assert found.can_knock and not found.goes_out
    deal = deal_from_key(view, f"property {index}")
    state = deal(0)
    before = state.piece_counts()
    seat = view.seat
    for step in candidate.steps[:1]:
        state.act(step)
    assert state.piece_counts() == before
    if found is not None:
        assert Counter(map(str, state.hands[seat])) == Counter(map(str, found.hand.pieces))
        assert (state.end is not None and state.end.out == seat) == found.goes_out
    play_candidate(deal(0), candidate, EVALUATOR.rollout)  # every step checks the cards


@pytest.mark.parametrize("name", ["manipulation", "machiavelli", "rummikub"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_option_is_the_state_its_action_produces(name: str, seed: int) -> None:
    settings = GameSettings.named(name, 2)
    views = game_views(settings, seed, every=3)
    assert views, "the game has meld decisions with a play"
    kinds: Counter[str] = Counter()
    for number, view in enumerate(views):
        for options in (BOT_SET, COACH_SET):
            for candidate in meld_candidates(view, options, time_limit=5.0):
                kinds[candidate.label.split("+")[0].split(":")[0]] += 1
                check_candidate(view, candidate, number)
    assert kinds["best"] and kinds["draw"] + kinds["pass"]


def test_the_bot_chooses_the_advice_best_on_the_same_deals() -> None:
    """One evaluator: on the same deals and candidates, the advice's best option is the
    search bot's choice."""
    from solver.strategy.advice import evaluate
    from solver.strategy.evaluator import deal_from_seed
    from solver.strategy.pimc import PimcBot

    seeds = [11, 22, 33, 44]

    class Fixed(PimcBot):
        samples = len(seeds)

        def deal_seeds(self, view: PlayerView) -> list[int]:
            return list(seeds)

    for hand in ("3h 4h 5h 9c 9d 9s 2s 7d 8c Jd", "Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h", "5s 6s 7s 8s * 2d 9h"):
        view = meld_view(hand)
        bot = Fixed(random.Random(0))
        choice = bot.act(view)
        candidates = meld_candidates(view, BOT_SET, time_limit=5.0)
        deal = deal_from_seed(view, seeds, others_opened=False, last_card_mine=False)
        options, _, _ = evaluate(view, candidates, deal, samples=len(seeds), budget_seconds=None)
        assert options[0].candidate.action == choice, (hand, options[0].label, choice)


def test_the_bot_knocks_or_passes_as_the_advice_says_on_the_same_deals() -> None:
    """One evaluator for the knock decision too: ``advise(decision="knock")``'s view and
    candidates, weighed on the bot's deals, give the bot's choice."""
    import dataclasses

    from solver.strategy.advice import evaluate, game_facts, player_view
    from solver.strategy.candidates import knock_candidates
    from solver.strategy.evaluator import deal_from_seed
    from solver.strategy.pimc import PimcBot

    seeds = [11, 22, 33, 44]

    class Fixed(PimcBot):
        samples = len(seeds)

        def deal_seeds(self, view: PlayerView) -> list[int]:
            return list(seeds)

    table = "3s 4s 5s 6s *7s | 9s 10s Js Qs | 2h 3h 4h 5h | 7d 8d 9d 10d Jd Qd | Ac 2c 3c | As Ah Ad"
    settings = GameSettings.manipulation(2)
    chosen = set()
    for hand, other in (("3d", 2), ("2d 2s", 9), ("5d", 12)):
        position = Position.parse(f"{table} / {hand}")
        facts, hidden = game_facts(position, settings, hand_sizes=[other])  # the stock: the rest
        facts = dataclasses.replace(facts, draws_left=0)
        view = player_view(position, settings, facts, hidden, decision="knock")
        choice = Fixed(random.Random(0)).act(view)
        deal = deal_from_seed(view, seeds, others_opened=True, last_card_mine=False)
        options, _, _ = evaluate(view, knock_candidates(), deal, samples=len(seeds), budget_seconds=None)
        assert options[0].candidate.action == choice, (hand, options[0].label, choice)
        chosen.add(type(choice).__name__)
    assert "Knock" in chosen
