"""Pure rule functions of the game: which actions are allowed now, and why one is not.

They read a ``PlayerView`` (everything the player to move may know) and nothing else,
so a bot or a user interface can judge an action exactly as the game will.  A play is
judged by ``solver.referee.check_play``; with an opening rule (Rummikub) the player's
first meld is judged with ``opened=False``.
"""

from __future__ import annotations

from typing import Protocol

from solver.game.actions import Action, ActionKind, Draw, Pass, Play
from solver.game.settings import GameSettings
from solver.position import Position
from solver.referee import check_play
from solver.variants import Variant

__all__ = ["RuleView", "decline", "knock_allowed", "legal_kinds", "problems"]


class RuleView(Protocol):
    """What the rules read of a decision point; ``solver.game.view.PlayerView`` is one.

    A protocol rather than the view class itself, so that the rules import nothing of the
    view (which is built on them)."""

    @property
    def phase(self) -> str: ...

    @property
    def final_turn(self) -> bool: ...

    @property
    def opened(self) -> bool: ...

    @property
    def variant(self) -> Variant: ...

    @property
    def position(self) -> Position: ...


def knock_allowed(settings: GameSettings, hand_points: int, *, melded: bool) -> bool:
    """Whether a turn that ends with this hand may knock (RULES.md, with its option)."""
    return settings.variant.may_knock(hand_points, melded=melded)


def legal_kinds(view: RuleView) -> tuple[ActionKind, ...]:
    """The kinds of action allowed at this decision point."""
    if view.phase == "meld":
        return ("play", "pass") if view.final_turn else ("play", "draw")
    if view.phase == "knock":
        return ("knock", "pass")
    return ()


def decline(view: RuleView) -> Action:
    """The action that neither melds nor knocks: draw, or pass where no draw is due."""
    return Draw() if "draw" in legal_kinds(view) else Pass()


def problems(view: RuleView, action: Action) -> list[str]:
    """Every rule ``action`` breaks in ``view``'s situation; empty when it is legal."""
    allowed = legal_kinds(view)
    if action.kind not in allowed:
        return [_wrong_kind(view, action.kind, allowed)]
    if isinstance(action, Play):
        verdict = check_play(view.position, action.table, variant=view.variant, opened=view.opened)
        return list(verdict.reasons)
    return []


def _wrong_kind(view: RuleView, kind: ActionKind, allowed: tuple[ActionKind, ...]) -> str:
    """One sentence saying why this kind of action is not allowed now."""
    if view.phase == "over":
        return "the round is over"
    if view.phase == "wait":
        return "it is another player's turn"
    choices = " or ".join(allowed)
    threshold = view.variant.knock_threshold
    if kind == "knock":
        if threshold is None:
            return f"{view.variant.name} has no knocking"
        return (
            f"a player knocks only at the end of a turn, with a hand worth {threshold} points or fewer"
            + (" after a meld" if view.variant.knock_only_after_meld else "")
            + f": {choices} now"
        )
    if view.phase == "knock":
        return f"this turn's meld and draws are over: {choices}"
    if kind == "draw":
        return f"the stock is exhausted: this last turn has no draw, {choices}"
    return f"a turn does not end here without a draw: {choices}"
