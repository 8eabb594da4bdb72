"""Rollouts with two decks (first-out games, and Manipulation Rummy for 3-5 players)
decline and settle from the points program's number (``rollout.rollout_points``) instead
of the best play: the number must be the hint's, and every rollout must play exactly as
one that asks the hint engine for every decision."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from gamescript import scripted

from solver.game import Game, GameSettings, PlayerView
from solver.game.actions import Draw, Knock, Pass
from solver.position import Hand
from solver.strategy import make_bot, rollout
from solver.strategy.rollout import (
    HOARD_MARGIN,
    PlayedHint,
    Rollout,
    RolloutSettings,
    determinize,
    hoarder_action,
    patient_hoarder_action,
    play_out,
    race_chances,
    rollout_hint,
    rollout_points,
    settle,
)

TWO_DECKS = [
    GameSettings.rummikub(2),
    GameSettings.machiavelli(2),
    GameSettings.rummikub(4),
    GameSettings.manipulation(3),
    GameSettings.manipulation(4),
]
RACE = RolloutSettings(horizon=6, settle=True, race=True)


def views(settings: GameSettings, count: int) -> list[PlayerView]:
    """Views of the player to move in greedy games, from early to late in the round."""
    found: list[PlayerView] = []
    for seed in range(count):
        game = Game(settings, seed=seed)
        bots = [make_bot("greedy", rng=random.Random(seat)) for seat in range(settings.players)]
        for _ in range(8 + 6 * seed):
            if game.over:
                break
            game.apply(bots[game.to_move].act(game.view(game.to_move)))
        if not game.over:
            found.append(game.view(game.to_move))
    return found


def hinted(state: Rollout, seat: int) -> tuple[int, bool, bool]:
    """The hint engine's points left, play and going out for ``seat`` (the reference)."""
    found = rollout_hint(
        state.table, state.hands[seat], state.settings.variant, opened=state.opened[seat], time_limit=10.0
    )
    points = (
        found.hand_points if found.has_play else Hand.of(state.hands[seat]).points(state.settings.variant)
    )
    return points, found.has_play, found.goes_out


def hoarder_by_hint(
    state: Rollout, settings: RolloutSettings, *, forced_by_size: bool = True
) -> Draw | Pass | Knock | PlayedHint:
    """The hoarder's policy decided from the best play alone, every time (no points
    program); without ``forced_by_size`` the patient line (no meld forced by the hand's size)."""
    if state.phase == "knock":
        return Knock()
    seat = state.to_move
    found = rollout_hint(
        state.table, state.hands[seat], state.settings.variant, opened=state.opened[seat], time_limit=10.0
    )
    decline = Pass() if state.final_turn else Draw()
    if not found.has_play:
        return decline
    oversized = len(state.hands[seat]) >= state.settings.variant.hand_size + HOARD_MARGIN
    must = state.final_turn or not state.stock or (forced_by_size and oversized)
    return PlayedHint(found) if found.goes_out or found.can_knock or must else decline


def patient_by_hint(state: Rollout, settings: RolloutSettings) -> Draw | Pass | Knock | PlayedHint:
    """The patient hoarding line decided from the best play alone, every time."""
    return hoarder_by_hint(state, settings, forced_by_size=False)


@pytest.mark.parametrize("settings", TWO_DECKS, ids=lambda s: f"{s.variant.name}-{s.players}")
def test_the_points_number_is_the_best_plays(settings: GameSettings) -> None:
    answered = 0
    for index, view in enumerate(views(settings, 6)):
        for deal in range(3):
            state = determinize(view, random.Random(100 * index + deal))
            for seat in range(settings.players):
                known = rollout_points(state, seat)
                if known is None:
                    continue
                answered += 1
                points, has_play, goes_out = hinted(state, seat)
                assert (known.points, known.has_play, known.points == 0) == (points, has_play, goes_out)
    assert answered >= 10


LINES = [(hoarder_action, hoarder_by_hint), (patient_hoarder_action, patient_by_hint)]


@pytest.mark.parametrize("lines", LINES, ids=["hoarder", "patient"])
@pytest.mark.parametrize("settings", TWO_DECKS, ids=lambda s: f"{s.variant.name}-{s.players}")
def test_hoarders_play_out_as_with_the_best_play_every_turn(
    settings: GameSettings,
    lines: tuple[rollout.Policy, rollout.Policy],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    policy, reference_policy = lines
    turns: list[int] = []  # the quick hoarders' turns, and their best plays asked for
    asked: list[int] = []
    best = rollout._best

    def counted_best(state: Rollout, settings: RolloutSettings) -> object:
        asked.append(1)
        return best(state, settings)

    def quick_hoarder(state: Rollout, settings: RolloutSettings) -> object:
        turns.append(1)
        return policy(state, settings)

    settled = 0
    for index, view in enumerate(views(settings, 5)):
        for deal in range(2):
            quick = determinize(view, random.Random(7 * index + deal))
            slow = determinize(view, random.Random(7 * index + deal))
            seats = range(settings.players)
            with monkeypatch.context() as patched:
                patched.setattr(rollout, "_best", counted_best)
                play_out(quick, RACE, {seat: quick_hoarder for seat in seats})  # type: ignore[misc]
            play_out(slow, RACE, {seat: reference_policy for seat in seats})
            assert quick.hands == slow.hands
            assert sorted(map(str, quick.table.melds)) == sorted(map(str, slow.table.melds))
            assert (quick.end, quick.turns, quick.stock) == (slow.end, slow.turns, slow.stock)
            if quick.end is None:
                # The settled count is the best plays', seat by seat (from the hint engine).
                reference = [hinted(quick, seat) for seat in seats]
                assert quick.settled == tuple(points for points, _, _ in reference)
                if settings.scoring == "first_out":
                    tiles = [0 if out else 1 for _, _, out in reference]
                    assert quick.race == race_chances(tiles, quick.to_move)
                settled += 1
    # Most hoarder turns declined from the number alone (no best play asked for), and
    # enough rounds were still running at the horizon to check the settled count.
    assert len(asked) < len(turns) / 2
    assert settled >= 3


def test_a_sloped_race_counts_the_cards_by_the_best_play() -> None:
    view = views(GameSettings.rummikub(2), 4)[-1]
    state = determinize(view, random.Random(5))
    settle(state, RolloutSettings(horizon=0, settle=True, race=True, race_slope=0.1))
    tiles = []
    for seat, hand in enumerate(state.hands):
        found = rollout_hint(
            state.table, hand, state.settings.variant, opened=state.opened[seat], time_limit=10.0
        )
        tiles.append(len(found.hand) if found.has_play else len(hand))
    assert state.race == race_chances(tiles, state.to_move, slope=0.1)


def test_manipulation_rummy_with_one_deck_asks_the_hint_engine() -> None:
    settings = GameSettings.manipulation(2)
    view = views(settings, 2)[-1]
    state = determinize(view, random.Random(1))
    assert all(rollout_points(state, seat) is None for seat in range(2))


def test_the_settled_race_names_a_hand_that_goes_out() -> None:
    """On a late table guessed hands often go out at once: the settled race must give that
    hand (the first in turn order) the round, as the best plays say."""
    late = [view for view in views(GameSettings.rummikub(2), 10) if len(view.table.melds) >= 12]
    decided = 0
    for index, view in enumerate(late):
        for deal in range(6):
            state = determinize(view, random.Random(31 * index + deal))
            settle(state, RACE)
            reference = [hinted(state, seat) for seat in range(2)]
            assert state.settled == tuple(points for points, _, _ in reference)
            assert state.race == race_chances([0 if out else 1 for _, _, out in reference], state.to_move)
            decided += any(out for _, _, out in reference)
    assert decided >= 3


def test_the_patient_line_is_not_forced_to_meld_by_a_big_hand() -> None:
    """With the dealt size plus ``HOARD_MARGIN`` cards and a play that neither goes out nor
    allows a knock, the hoarder melds (its size rule) and the patient line draws; with the
    same play and a smaller hand both draw."""
    manipulation = GameSettings.manipulation(2)
    size = manipulation.variant.hand_size + HOARD_MARGIN
    big = "3h 4h 5h Kc Kd Qs Qd Jc Jd 9s 9d 8c 7s 6d 2c Ks 10h Qc Jh 9h 8s 7d 6c"
    pieces = big.split()[: size - 1]  # the turn's first draw (Kh) makes the size
    view = scripted(manipulation, [" ".join(pieces), "As"], "Kh 5d 7d", dealer=1).view(0)
    assert view.phase == "meld" and len(view.hand.pieces) == size
    dealt = determinize(view, random.Random(1))
    assert isinstance(hoarder_action(dealt, RACE), PlayedHint)
    assert isinstance(patient_hoarder_action(dealt, RACE), Draw)
    smaller = replace(
        view, hand=Hand.parse(" ".join([*pieces[:-1], "Kh"])), hand_sizes=(size - 1, *view.hand_sizes[1:])
    )
    small = determinize(smaller, random.Random(1))
    assert isinstance(hoarder_action(small, RACE), Draw)
    assert isinstance(patient_hoarder_action(small, RACE), Draw)
