"""Helpers for scripted game tests: cards from notation, hand-dealt rounds, state snapshots."""

from __future__ import annotations

from solver.cards import Piece, parse_piece
from solver.game import GameSettings, RoundState

__all__ = ["pieces", "scripted", "snapshot", "stock_of"]


def pieces(text: str) -> list[Piece]:
    return [parse_piece(token) for token in text.split()]


def stock_of(text: str) -> list[Piece]:
    """A stock written top card first (the game draws from the end of the list)."""
    return pieces(text)[::-1]


def scripted(settings: GameSettings, hands: list[str], stock: str, *, dealer: int) -> RoundState:
    """A round dealt by hand: the hands, and the stock with its top card written first."""
    return RoundState(settings, [pieces(hand) for hand in hands], stock_of(stock), dealer=dealer)


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
