"""Scripted rounds that reach every scoring ruling of RULES.md, with exact expected scores.

Each round is dealt by hand (hands, and the stock with its top card written first) and
played action by action through the game's own flow, so the turn structure, the knock
decision, going out, the exhausted stock and the final turns are exercised on the way
to the score.  The pure scoring functions are also checked on their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import pytest
from gamescript import pieces, scripted, snapshot, stock_of

from solver.cards import Piece
from solver.game import Action, Draw, Game, GameSettings, IllegalActionError, Knock, Pass, Play, RoundState
from solver.game.scoring import (
    RoundEnd,
    first_out_score,
    game_bonuses,
    game_over,
    lowest_hand_score,
    winners_of,
)
from solver.position import Table
from solver.variants import Variant

TWO = GameSettings.manipulation(2)
THREE = GameSettings.manipulation(3)


def play(state: RoundState, table: str) -> None:
    state.apply(Play(Table.parse(table)))


# -- knocking -------------------------------------------------------------------------


def test_knocker_lowest_alone_wins_the_difference() -> None:
    state = scripted(
        TWO,
        ["3h 4h 5h 6h 7h 8h 9h 10h Jh 2c", "Ks Kd Qs Qd Js Jd 10s 10d 9s 9d"],
        "Ac 5d 6d 7d",
        dealer=1,
    )
    assert state.to_move == 0 and state.drawn == pieces("Ac")  # the turn opens with a forced draw
    play(state, "3h 4h 5h 6h 7h 8h 9h 10h Jh")
    assert state.phase == "knock"  # 2c Ac: 3 points
    state.apply(Knock())
    assert state.end == RoundEnd("knock", (3, 98), knocker=0)
    score = lowest_hand_score(state.end, TWO)
    assert score.scores == (95, 0)
    assert score.winners == (0,)
    assert score.undercut == ()


def test_undercut_adds_ten_to_the_winner() -> None:
    state = scripted(
        TWO,
        ["2s 3s 4s 5s 6s 7s 8s 9s 10s 5c", "2h 3h 4h 5h 6h 7h 8h 9h Ad 3c"],
        "Js Qs Ks 10h As 9c",
        dealer=1,
    )
    state.apply(Draw())
    state.apply(Draw())  # the third draw ends the turn without a meld
    assert state.to_move == 1 and state.hand(0).points(TWO.variant) == 54 + 5 + 30
    play(state, "2h 3h 4h 5h 6h 7h 8h 9h 10h")
    assert state.phase == "knock"  # Ad 3c: 4 points, may knock, does not
    state.apply(Pass())
    play(state, "2h 3h 4h 5h 6h 7h 8h 9h 10h | 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    state.apply(Knock())  # 5c: 5 points, but the other hand holds 4
    assert state.end == RoundEnd("knock", (5, 4), knocker=0)
    score = lowest_hand_score(state.end, TWO)
    assert score.scores == (0, 1 + 10)
    assert score.winners == (1,)
    assert score.undercut == (1,)


def _three_player_knock(p2_hand: str, p2_draw: str, p2_meld: str, p0_left: str, p1_left: str) -> RoundState:
    """P0 draws three cards, P1 melds its hearts, P2 melds, P0 melds its spades and knocks."""
    state = scripted(
        THREE,
        [f"2s 3s 4s 5s 6s 7s 8s 9s 10s {p0_left}", f"2h 3h 4h 5h 6h 7h 8h 9h {p1_left}", p2_hand],
        f"Js Qs Ks 10h {p2_draw} As 9c",
        dealer=2,
    )
    state.apply(Draw())
    state.apply(Draw())
    hearts = "2h 3h 4h 5h 6h 7h 8h 9h 10h"
    play(state, hearts)
    if state.phase == "knock":
        state.apply(Pass())
    play(state, f"{hearts} | {p2_meld}")
    if state.phase == "knock":
        state.apply(Pass())
    play(state, f"{hearts} | {p2_meld} | 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    state.apply(Knock())
    return state


def test_knocker_tied_for_lowest_loses_to_the_others() -> None:
    state = _three_player_knock(
        "Qc Qh Qd 2d 3d 4d 5d 6d 7d 9c", "10c", "2d 3d 4d 5d 6d 7d", p0_left="4c", p1_left="Ad 3c"
    )
    assert state.end == RoundEnd("knock", (4, 4, 49), knocker=0)
    score = lowest_hand_score(state.end, THREE)
    assert score.scores == (0, (4 - 4) + (49 - 4) + 10, 0)
    assert score.winners == (1,)
    assert score.undercut == (1,)


def test_two_players_other_than_the_knocker_tied_for_lowest_each_win() -> None:
    state = _three_player_knock(
        "2d 3d 4d 5d 6d 7d 8d 9d Ac 2h", "10d", "2d 3d 4d 5d 6d 7d 8d 9d 10d", p0_left="5c", p1_left="Ad 2c"
    )
    assert state.end == RoundEnd("knock", (5, 3, 3), knocker=0)
    score = lowest_hand_score(state.end, THREE)
    assert score.scores == (0, (5 - 3) + 0 + 10, (5 - 3) + 0 + 10)
    assert score.winners == (1, 2)
    assert score.undercut == (1, 2)


@pytest.mark.parametrize(
    ("points", "knocker", "scores", "winners"),
    [
        ((2, 9, 14), 0, (7 + 12, 0, 0), (0,)),  # knocker lowest alone
        ((6, 2, 14), 0, (0, 4 + 12 + 10, 0), (1,)),  # undercut by one player
        ((3, 3, 3, 20), 0, (0, 17 + 10, 17 + 10, 0), (1, 2)),  # knocker tied with two others
        ((5, 2, 2, 20), 3, (0, 3 + 18 + 10, 3 + 18 + 10, 0), (1, 2)),  # two others tied, undercut
        ((5, 5), 1, (0 + 10, 0), (0,)),  # two players, knocker tied: the other wins 0 + 10
    ],
)
def test_knock_rulings_pure(
    points: tuple[int, ...], knocker: int, scores: tuple[int, ...], winners: tuple[int, ...]
) -> None:
    settings = GameSettings.manipulation(len(points))
    score = lowest_hand_score(RoundEnd("knock", points, knocker=knocker), settings)
    assert score.scores == scores
    assert score.winners == winners
    assert score.undercut == (() if winners == (knocker,) else winners)


# -- going out --------------------------------------------------------------------------


def test_going_out_adds_twenty_five_and_ends_the_round_at_once() -> None:
    state = scripted(
        TWO, ["3h 4h 5h 6h 7h 8h 9h 10h Jh Qh", "Ks Kd Qs Qd Js Jd 10s 10d 9s 9d"], "Kh 2c 3c", dealer=1
    )
    play(state, "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh")
    assert state.over and state.phase == "over"
    assert state.end == RoundEnd("out", (0, 98), out=0)
    score = lowest_hand_score(state.end, TWO)
    assert score.scores == (98 + 25, 0)
    assert score.winners == (0,)
    assert score.undercut == ()


def test_going_out_with_three_players_scores_every_difference() -> None:
    state = scripted(
        THREE,
        ["2c 3c 4c 5c 6c 7c 8c 9c 10c Jc", "Ad 2d 3d 4d 5d 6d 7d 9s 9h Ks", "* 2s 2h 6c 6d 7s 8s Qd Qh Kh"],
        "Ah 6s Ac 9d",
        dealer=0,
    )
    assert state.to_move == 1
    play(state, "Ad 2d 3d 4d 5d 6d 7d")  # P1 keeps 9s 9h Ks Ah: 29 points
    play(state, "Ad 2d 3d 4d 5d 6d 7d | 6d 6c *6h 6s")  # P2 declares its joker 6h
    assert state.table == Table.parse("Ad 2d 3d 4d 5d 6d 7d | 6s 6d 6c *6h")
    play(state, "Ad 2d 3d 4d 5d 6d 7d | 6s 6d 6c *6h | Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc")
    assert state.end == RoundEnd("out", (0, 29, 2 + 2 + 7 + 8 + 10 + 10 + 10), out=0)
    score = lowest_hand_score(state.end, THREE)
    assert score.scores == (29 + 49 + 25, 0, 0)


# -- the exhausted stock ------------------------------------------------------------------


def test_exhausted_stock_final_turns_and_sole_winner_without_undercut() -> None:
    state = scripted(
        TWO,
        ["2s 3s 4s 5s 6s 7s 8s 9s Kd Kc", "Ks Qs Js 9d 9c 8d 8c 7d 7c 6d"],
        "Ac 2c 3c Kh",
        dealer=1,
    )
    state.apply(Draw())
    state.apply(Draw())
    assert state.to_move == 1 and state.drawn == pieces("Kh") and not state.stock  # P1 drew the last card
    assert state.final_turns_left is None  # the turn that drew it goes on as if cards were drawn
    state.apply(Draw())
    assert state.draws == 2 and len(state.hands[1]) == 11
    state.apply(Draw())
    # Every player has one more turn without drawing, ending with the one who drew the last card.
    assert state.to_move == 0 and state.final_turns_left == 2 and state.draws == 0
    view = state.view(0)
    assert view.final_turn and view.legal_kinds() == ("play", "pass")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="no draw"):
        state.apply(Draw())
    assert snapshot(state) == before
    play(state, "2s 3s 4s 5s 6s 7s 8s 9s | Ac 2c 3c")
    assert state.to_move == 1
    play(state, "2s 3s 4s 5s 6s 7s 8s 9s | Ac 2c 3c | Js Qs Ks")
    assert state.end == RoundEnd("exhausted", (20, 9 + 9 + 8 + 8 + 7 + 7 + 6 + 10))
    score = lowest_hand_score(state.end, TWO)
    assert score.scores == (64 - 20, 0)
    assert score.undercut == ()


def test_exhausted_stock_tie_each_scores_as_a_sole_winner() -> None:
    state = scripted(
        THREE,
        ["As 2s 3s 4s 5s 6s 7s 8s 9s 10d", "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10c", "Kc Kd Kh Qc Qd Qh Jc Jd Jh 9c"],
        "10s Js",
        dealer=2,
    )
    state.apply(Draw())  # P0 draws the last card
    state.apply(Draw())  # a third draw is due; the stock is empty, so nothing is drawn
    assert state.final_turns_left == 3 and state.to_move == 1
    play(state, "Ah 2h 3h 4h 5h 6h 7h 8h 9h")
    state.apply(Pass())
    play(state, "Ah 2h 3h 4h 5h 6h 7h 8h 9h | As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js")
    assert state.end == RoundEnd("exhausted", (10, 10, 99))
    score = lowest_hand_score(state.end, THREE)
    assert score.scores == (89, 89, 0)
    assert score.winners == (0, 1)
    assert score.undercut == ()


def test_knock_in_a_final_turn_ends_the_round_as_a_knock() -> None:
    state = scripted(
        TWO, ["2s 3s 4s 5s 6s 7s 8s 9s Ac 4d", "Ks Qs Js 9d 9c 8d 8c 7d 7c 6d"], "2c 3c", dealer=1
    )
    state.apply(Draw())  # draws 3c, the last card
    state.apply(Draw())  # the third draw finds nothing; final turns: P1, then P0 who drew the last card
    assert state.to_move == 1 and state.final_turns_left == 2
    state.apply(Pass())
    assert state.to_move == 0 and state.final_turn
    play(state, "2s 3s 4s 5s 6s 7s 8s 9s | Ac 2c 3c")
    assert state.phase == "knock"  # 4d: 4 points
    state.apply(Knock())
    assert state.end == RoundEnd("knock", (4, 84), knocker=0)
    assert lowest_hand_score(state.end, TWO).scores == (80, 0)


# -- the knock option ---------------------------------------------------------------------


@pytest.mark.parametrize("only_after_meld", [False, True])
def test_knock_only_after_meld_option(only_after_meld: bool) -> None:
    settings = GameSettings.manipulation(2, knock_only_after_meld=only_after_meld)
    state = scripted(
        settings,
        ["2s 3s 4s 5s 6s 7s 8s 9s 10s Ac", "Kh Qh Jh 9d 9c 8d 8c 7d 7c 6d"],
        "Js 5h 4h 3h Ad Ah As 2h",
        dealer=1,
    )
    play(state, "2s 3s 4s 5s 6s 7s 8s 9s 10s Js")
    assert state.phase == "knock"  # after a meld knocking is allowed either way
    state.apply(Pass())
    state.apply(Draw())
    state.apply(Draw())
    assert state.to_move == 0
    state.apply(Draw())
    state.apply(Draw())  # the turn ends with Ac Ad Ah As (4 points) and no meld
    if not only_after_meld:
        assert state.phase == "knock"
        state.apply(Knock())
        assert state.end == RoundEnd("knock", (4, 96), knocker=0)
        assert lowest_hand_score(state.end, settings).scores == (92, 0)
    else:
        # mypy keeps the "knock" narrowing from before the apply() calls, which changed the phase.
        assert state.phase == "meld" and state.to_move == 1  # type: ignore[comparison-overlap]
        assert state.end is None


def test_knock_is_rejected_before_the_end_of_the_turn() -> None:
    settings = GameSettings.manipulation(2, knock_only_after_meld=True)
    state = scripted(
        settings, ["Ac Ad Ah 2c 3c 4c 5c 6c 7c 8c", "Ks Kd Kh Qs Qd Qh Js Jd Jh 9s"], "As", dealer=1
    )
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Knock())
    assert "end of a turn" in caught.value.reasons[0] and "after a meld" in caught.value.reasons[0]
    assert snapshot(state) == before


def test_illegal_actions_are_rejected_with_reasons_and_change_nothing() -> None:
    state = scripted(
        TWO, ["3h 4h 5h 6h 7h 8h 9h 10h Jh 2c", "Ks Kd Qs Qd Js Jd 10s 10d 9s 9d"], "Ac", dealer=1
    )
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as caught:
        play(state, "3h 4h 5h 6h | Ks Kd Kc")
    assert isinstance(caught.value, ValueError)
    assert any("Ks" in reason for reason in caught.value.reasons)
    assert snapshot(state) == before
    with pytest.raises(IllegalActionError, match="does not end here without a draw"):
        state.apply(Pass())
    assert snapshot(state) == before
    assert state.view(1).problems(Draw()) == ["it is another player's turn"]


# -- the end of the game --------------------------------------------------------------------


Dealt = tuple[list[list[Piece]], list[Piece]]


def _scripted_dealing(deals: list[tuple[list[str], str]]) -> Callable[[Variant, int, random.Random], Dealt]:
    queue = list(deals)

    def dealing(variant: Variant, players: int, rng: random.Random) -> Dealt:
        hands, stock = queue.pop(0)
        return [pieces(hand) for hand in hands], stock_of(stock)

    return dealing


@pytest.mark.parametrize("bonus_to_all", [False, True])
def test_game_end_bonuses(bonus_to_all: bool) -> None:
    settings = GameSettings.manipulation(3, round_bonus_to_all=bonus_to_all)
    round_one = (
        ["2s 3s 4s 5s 6s 7s 8s 9s 10s 5c", "2h 3h 4h 5h 6h 7h 8h 9h Ad 2c", "2d 3d 4d 5d 6d 7d 8d 9d Ac 2h"],
        "Js Qs Ks 10h 10d As 9c",
    )
    round_two = (
        ["2c 3c 4c 5c 6c 7c 8c 9c 10c Jc", "Ks Kd Kh Kc Qs Qd Qh Qc Js Jd", "Ks Kd Kh Kc Qs Qd Qh Qc Jh Jc"],
        "Ad Ah As 2d 2h 2s Ac 5d",
    )
    game = Game(settings, seed=0, first_dealer=2, dealing=_scripted_dealing([round_one, round_two]))
    hearts, diamonds = "2h 3h 4h 5h 6h 7h 8h 9h 10h", "2d 3d 4d 5d 6d 7d 8d 9d 10d"
    actions: list[Action] = [
        Draw(),
        Draw(),
        Play(Table.parse(hearts)),
        Pass(),
        Play(Table.parse(f"{hearts} | {diamonds}")),
        Pass(),
        Play(Table.parse(f"{hearts} | {diamonds} | 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")),
        Knock(),
    ]
    for action in actions:
        game.apply(action)
    assert game.records[0].score.scores == (0, 12, 12)
    assert game.dealer == 0 and game.to_move == 1  # the deal passes left; its left starts
    for _ in range(4):
        game.apply(Draw())  # P1 and P2 draw three cards each
    assert game.to_move == 0
    game.apply(Play(Table.parse("Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc")))
    result = game.result
    assert result is not None
    assert result.rounds[1].end == RoundEnd("out", (0, 103, 106), out=0)
    assert result.totals == (234, 12, 12)
    reacher_bonus = 100 + (25 if bonus_to_all else 0)
    assert result.bonuses == (reacher_bonus, 25, 25)
    assert result.final == (234 + reacher_bonus, 37, 37)
    assert result.winners == (0,)


def test_game_bonuses_pure() -> None:
    settings = GameSettings.manipulation(3)
    assert game_bonuses((150, 151, 20), (2, 3, 1), settings) == (100, 100, 25)
    everyone = GameSettings.manipulation(3, round_bonus_to_all=True)
    assert game_bonuses((150, 151, 20), (2, 3, 1), everyone) == (150, 175, 25)
    assert not game_over((149, 0, 148), settings)
    assert game_over((0, 150, 0), settings)


def test_a_tie_shares_the_win() -> None:
    assert winners_of((200, 180, 200)) == (0, 2)
    assert winners_of((10, 30)) == (1,)


# -- Machiavelli and Rummikub ------------------------------------------------------------------


def test_machiavelli_first_out_takes_the_others_hand_points() -> None:
    settings = GameSettings.machiavelli(2)
    state = scripted(
        settings,
        [
            "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ac Ad As 5c",
            "2s 2s 3d 3d 4c 4c 5s 6d 7c 8s 9d 10c Js Qd Kc",
        ],
        "Ah 2c",
        dealer=1,
    )
    assert state.drawn == [] and state.view(0).legal_kinds() == ("play", "draw")  # no forced draw
    play(state, "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | Ac Ad As")
    assert state.to_move == 1  # a meld ends the turn
    state.apply(Draw())  # so does a draw: one card
    assert state.to_move == 0 and len(state.hands[1]) == 16
    state.apply(Draw())  # P0 draws the last card and holds 5c 2c
    state.apply(Draw())  # the stock is empty: a pass
    assert state.end is None and state.idle_turns == 1
    state.apply(Draw())  # a full cycle without a play: blocked
    p1_points = 2 + 2 + 3 + 3 + 4 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 10 + 1
    assert state.end == RoundEnd("blocked", (7, p1_points))
    # mypy keeps the "is None" narrowing from before the apply() calls; the round has ended since.
    score = first_out_score(cast(RoundEnd, state.end), settings)
    assert score.scores == (p1_points - 7, -(p1_points - 7))
    assert score.winners == (0,)


def test_machiavelli_going_out() -> None:
    settings = GameSettings.machiavelli(2)
    state = scripted(
        settings,
        ["3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ac Ad As Ah", "2s 2s 3d 3d 4c 4c 5s 6d 7c 8s 9d 10c Js Qd Kc"],
        "2c",
        dealer=1,
    )
    play(state, "3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | Ac Ad As Ah")
    assert state.end == RoundEnd("out", (0, 93), out=0)
    assert first_out_score(state.end, settings).scores == (93, -93)


def test_rummikub_opening_rule_then_manipulation() -> None:
    settings = GameSettings.rummikub(2)
    state = scripted(settings, ["10h Jh Qh 2h 3h 4h 9h", "* 5d 6c 7c 8c 13d 13s"], "1c 9d 9s", dealer=1)
    with pytest.raises(IllegalActionError, match="at least 30 points"):
        play(state, "2h 3h 4h")  # 9 points from the rack
    play(state, "10h Jh Qh")  # 10 + 11 + 12 = 33
    assert state.opened == [True, False]
    with pytest.raises(IllegalActionError, match="leaves the table as it was"):
        play(state, "10h Jh Qh *13h | 6c 7c 8c")  # an opening may not touch the table
    play(state, "10h Jh Qh | 6c 7c 8c | 13d 13s *13h")  # 21 + 39 = 60, the joker as 13h
    assert state.opened == [True, True]
    play(state, "9h 10h Jh Qh | 6c 7c 8c | 13d 13s *13h | 2h 3h 4h")  # opened: extends a table meld
    assert state.end == RoundEnd("out", (0, 5), out=0)
    assert first_out_score(state.end, settings).scores == (5, -5)


def test_rummikub_going_out_counts_the_joker_thirty() -> None:
    settings = GameSettings.rummikub(2)
    state = scripted(settings, ["10h Jh Qh", "* 9h 13d"], "1c", dealer=1)
    play(state, "10h Jh Qh")
    assert state.end == RoundEnd("out", (0, 30 + 9 + 13), out=0)
    assert first_out_score(state.end, settings).scores == (52, -52)
