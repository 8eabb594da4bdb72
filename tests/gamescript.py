"""Helpers for scripted game tests: cards from notation, hand-dealt rounds, state snapshots."""

from __future__ import annotations

import random
from collections.abc import Iterable

from solver.cards import Piece, parse_piece
from solver.game import GameSettings, RoundState
from solver.game.game import Game, Listener
from solver.variants import Variant

__all__ = ["pieces", "scripted", "scripted_game", "snapshot", "stock_of"]


def pieces(text: str) -> list[Piece]:
    return [parse_piece(token) for token in text.split()]


def stock_of(text: str) -> list[Piece]:
    """A stock written top card first (the game draws from the end of the list)."""
    return pieces(text)[::-1]


def scripted(settings: GameSettings, hands: list[str], stock: str, *, dealer: int) -> RoundState:
    """A round dealt by hand: the hands, and the stock with its top card written first."""
    return RoundState(settings, [pieces(hand) for hand in hands], stock_of(stock), dealer=dealer)


def scripted_game(
    settings: GameSettings, hands: list[str], stock: str, *, dealer: int, listeners: Iterable[Listener] = ()
) -> Game:
    """A game whose first round is dealt by hand (as ``scripted``), told to ``listeners``
    from its deal on; a second round would need a second deal, so it stops there."""
    deals = iter([([pieces(hand) for hand in hands], stock_of(stock))])

    def dealing(variant: Variant, players: int, rng: random.Random) -> tuple[list[list[Piece]], list[Piece]]:
        return next(deals)

    return Game(settings, seed=0, first_dealer=dealer, dealing=dealing, listeners=listeners)


def snapshot(state: RoundState) -> tuple[object, ...]:
    """Everything an action could change, to check that a rejected one changed nothing."""
    return (
        [list(hand) for hand in state.hands],
        list(state.stock),
        state.table,
        list(state.opened),
        state.phase,
        state.to_move,
        state.draws,
        state.melded,
        list(state.drawn),
        state.final_turns_left,
        state.idle_turns,
        state.end,
    )
