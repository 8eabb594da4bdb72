"""Why a request on a game played on the page is refused, in words a player can act on.

Every refusal is a ``PlayError`` (a ``ValueError``) with a stable ``kind`` that a program
can branch on (the service answers each kind with its own HTTP status) and the
``reasons``: one line each, the referee's own for an illegal play.  A refused request
changes nothing: the session checks before it applies.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "BadSetup",
    "CorruptGame",
    "GameOver",
    "IllegalPlay",
    "NoDecision",
    "NotOver",
    "NotYourTurn",
    "PlayError",
]


class PlayError(ValueError):
    """A refused request: ``kind`` names the refusal, ``reasons`` say why (at least one)."""

    kind = "play"

    def __init__(
        self, message: str, reasons: Sequence[str] | None = None, *, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reasons = list(reasons) if reasons else [message]
        self.field = field
        """The part of the request at fault (``opponents``, ``seat``...), when one is."""

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the constructor's arguments, so the error crosses a process pool whole."""
        return (_rebuild, (type(self), self.message, self.reasons, self.field))


def _rebuild(kind: type[PlayError], message: str, reasons: list[str], field: str | None) -> PlayError:
    return kind(message, reasons, field=field)


class BadSetup(PlayError):
    """A new game that cannot be set up: an unknown variant or bot, a seat out of range."""

    kind = "bad_setup"


class NotYourTurn(PlayError):
    """The player asked to act (or for help) while another player is to move."""

    kind = "not_your_turn"


class GameOver(PlayError):
    """The game is over (or was left): nothing more can be played in it."""

    kind = "game_over"


class IllegalPlay(PlayError):
    """The rules refuse the action; ``reasons`` are the referee's, every one of them."""

    kind = "illegal_play"


class NoDecision(PlayError):
    """The player's situation has nothing to weigh: advice is for a meld decision."""

    kind = "no_decision"


class NotOver(PlayError):
    """The game is still being played: its review comes at the end."""

    kind = "not_over"


class CorruptGame(PlayError):
    """The stored entries or an imported log do not replay: the message says where."""

    kind = "corrupt_game"
