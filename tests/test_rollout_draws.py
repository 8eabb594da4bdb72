"""Rollout draws: each seat reads the dealt stock from a place of its own, so that the
candidates of a decision, played in the same deal, see the other players draw the same
cards (common random numbers), while every draw stays a uniformly random card of the
stock left."""

from __future__ import annotations

import random
from collections import Counter

from scipy.stats import chisquare  # type: ignore[import-untyped]

from solver.cards import Piece
from solver.game import Game, GameSettings
from solver.strategy.rollout import Rollout, determinize

TWO = GameSettings.manipulation(2)
THREE = GameSettings.manipulation(3)


def dealt(settings: GameSettings, seed: int) -> Rollout:
    """A rollout dealt from the first view of a seeded game, with generator ``seed``."""
    game = Game(settings, seed=7)
    view = game.view(game.to_move)
    return determinize(view, random.Random(seed))


def draw(state: Rollout, seat: int) -> Piece:
    """One draw by ``seat`` (the step every turn's draw takes)."""
    state.to_move = seat
    before = len(state.hands[seat])
    state._draw_card()
    assert len(state.hands[seat]) == before + 1
    return state.hands[seat][-1]


def test_the_other_players_draw_the_same_cards_whatever_this_player_does() -> None:
    for seed in range(40):
        played = dealt(THREE, seed)
        drew = dealt(THREE, seed)
        drew_mine = [draw(drew, played.to_move) for _ in range(2)]  # this player draws twice first
        me = played.to_move
        for seat in ((me + 1) % 3, (me + 2) % 3):
            assert draw(played, seat) == draw(drew, seat), seed
        # and this player's own next card is the one it drew first in the other line
        assert draw(played, me) == drew_mine[0]


def test_every_draw_is_a_uniform_card_of_the_stock_left() -> None:
    """Seat 1's first card after seat 0 drew three, and seat 0's fourth: over many deals
    each is spread evenly over the cards they could be (a chi-square test far from its
    critical value; the old shared top card passes it too, a biased reader would not)."""
    deals = 6000
    theirs: Counter[str] = Counter()
    mine: Counter[str] = Counter()
    for seed in range(deals):
        state = dealt(TWO, seed)
        me, other = state.to_move, 1 - state.to_move
        for _ in range(3):
            draw(state, me)
        theirs[str(draw(state, other))] += 1
        mine[str(draw(state, me))] += 1
    first = dealt(TWO, 0)  # the unseen cards: the stock and the other hand, in any deal
    unseen = Counter(str(piece) for piece in first.dealt + tuple(first.hands[1 - first.to_move]))
    total = sum(unseen.values())
    for seen in (theirs, mine):
        assert set(seen) <= set(unseen)
        observed = [seen[card] for card in unseen]
        expected = [deals * count / total for count in unseen.values()]
        assert chisquare(observed, expected).pvalue > 1e-4


def test_the_stock_is_read_to_its_last_card_and_the_count_holds() -> None:
    state = dealt(TWO, 3)
    size = len(state.stock)
    seen = [draw(state, k % 2) for k in range(size)]
    assert not state.stock and Counter(map(str, seen)) == Counter(map(str, state.dealt))
    assert state.last_card_drawer == (size - 1) % 2
    state.check_cards()
