"""The bots: what each one does at scripted decision points, and that they only see their view."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest
from gamescript import pieces, scripted

from solver.game import Draw, GameSettings, Knock, Pass, Play, PlayerView
from solver.position import Hand, Table
from solver.strategy import ExpertBot, GreedyBot, RandomBot
from solver.strategy.expert import undercut_risk

TWO = GameSettings.manipulation(2)


def knock_view(hand: str, other_size: int) -> PlayerView:
    """Seat 0 at its knock decision holding ``hand``; seat 1 holds ``other_size`` cards."""
    state = scripted(TWO, ["2s 3s 4s 5s 6s 7s 8s 9s 10s Ac", "Kh"], "Js", dealer=1)
    state.apply(Play(Table.parse("2s 3s 4s 5s 6s 7s 8s 9s 10s Js")))
    assert state.phase == "knock"
    return replace(state.view(0), hand=Hand.of(pieces(hand)), hand_sizes=(len(hand.split()), other_size))


def test_a_view_holds_no_other_hand_and_no_stock_order() -> None:
    names = {field.name for field in fields(PlayerView)}
    assert names.isdisjoint({"hands", "stock"})
    assert "hand_sizes" in names and "stock_size" in names


def test_undercut_risk_counts_samples_with_a_hand_as_low() -> None:
    view = knock_view("Ac 2c", other_size=2)  # 3 points
    samples = [pieces("Ad 2d"), pieces("Ad Kd"), pieces("Ah As"), pieces("5d 6d")]
    assert undercut_risk(view, samples) == 2 / 4


def test_expert_knocks_when_an_undercut_is_unlikely() -> None:
    expert = ExpertBot(random.Random(1))
    assert expert.act(knock_view("Ac", other_size=9)) == Knock()  # 1 point against nine cards
    risky = knock_view("3c 2d", other_size=1)  # 5 points; the other player holds one card
    every_card = [[card] for card in risky.unseen()]
    assert undercut_risk(risky, every_card) > ExpertBot.max_undercut_risk
    assert expert.act(risky) == Pass()


def test_greedy_knocks_whenever_it_may_and_plays_at_once() -> None:
    greedy = GreedyBot()
    assert greedy.act(knock_view("3c 2d", other_size=1)) == Knock()
    state = scripted(TWO, ["Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h", "As"], "Kc 5d", dealer=1)
    action = greedy.act(state.view(0))
    assert action == Play(Table.parse("Kh Kd Kc"))


def test_random_bot_only_chooses_legal_actions() -> None:
    bot = RandomBot(random.Random(3))
    state = scripted(TWO, ["Kh Kd 2c 4d 6s 8h 9c Jd Qs 3h", "As"], "Kc 5d 7d", dealer=1)
    seen = set()
    for _ in range(30):
        action = bot.act(state.view(0))
        assert state.view(0).problems(action) == []
        seen.add(action.kind)
    assert seen == {"play", "draw"}


@pytest.mark.parametrize("bot", [GreedyBot(), ExpertBot(random.Random(0))])
def test_bots_pass_a_final_turn_without_a_play(bot: GreedyBot | ExpertBot) -> None:
    state = scripted(TWO, ["Kh 2c 4d", "As 7h 9d"], "", dealer=1)
    assert state.final_turn
    assert bot.act(state.view(0)) == Pass()


def meld_view(position: str, *, draws: int) -> PlayerView:
    """Seat 0 of a two-player game at a meld decision after ``draws`` draws, in ``position``."""
    state = scripted(TWO, ["Kh", "As"], "5d 7d", dealer=1)
    table, hand = position.split("/")
    return replace(state.view(0), table=Table.parse(table), hand=Hand.parse(hand), draws=draws)


# A position from a greedy-vs-greedy game where a play exists but drawing first pays:
# melding now keeps 62 points, drawing and then melding keeps 55.3 on average.
DRAW_FIRST = "*Jh Qh Kh | 3s 3h 3d 3c | 10s 10h 10c / 8s 9s Ks 5h 7h Jh Ad 2d 5d 8d 9d Kd Ac 4c 6c"


def test_expert_follows_the_draw_or_meld_advice_while_a_meld_can_follow() -> None:
    view = meld_view(DRAW_FIRST, draws=1)
    assert isinstance(GreedyBot().act(view), Play)
    assert ExpertBot(random.Random(0)).act(view) == Draw()
    last_chance = meld_view(DRAW_FIRST, draws=2)  # declining would draw the third card and end the turn
    assert isinstance(ExpertBot(random.Random(0)).act(last_chance), Play)
