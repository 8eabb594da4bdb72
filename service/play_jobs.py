"""The games API's work: rebuild a game from its entries, move it on, answer encoded.

Each job gets what a worker needs to rebuild the game (``GameRef``: the header's
settings, seed, players and seat, and the ids the answer names) and the entries kept so
far, as plain data, so it runs the same on a thread or a worker process
(``service.pool``).  It returns the new entries for the server to keep and the answer
already encoded (its response model built and checked on the worker, as
``service.jobs`` does).  A refusal is the library's ``PlayError`` (it pickles whole),
which ``refused`` turns into the service's error; nothing is kept then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.errors import InputError, ServiceError
from service.play_schemas import GameState, HelpResponse, NewGameResponse, ReviewResponse
from service.schemas import AdviseResponse
from solver.game.actions import Action, Play, action_from_dict
from solver.game.settings import GameSettings
from solver.play.coach import give_advice, review_game
from solver.play.errors import NotOver, PlayError
from solver.play.helps import give_help
from solver.play.logs import export_log, import_log
from solver.play.session import Entry, GameSetup, Session
from solver.play.state import game_state
from solver.position import Table

__all__ = [
    "GameRef",
    "advance_job",
    "advise_job",
    "export_job",
    "help_job",
    "import_job",
    "move_job",
    "refused",
    "review_job",
    "state_job",
]

STATUS = {
    "bad_setup": 422,
    "illegal_play": 422,
    "not_your_turn": 409,
    "game_over": 409,
    "no_decision": 409,
    "not_over": 409,
    "corrupt_game": 500,
}
"""The HTTP status of each refusal of ``solver.play`` (``PlayError.kind``)."""


def refused(error: PlayError, *, field: str | None = None) -> ServiceError:
    """The service's error for a refusal of the library (``STATUS``; 422 for any other)."""
    status = STATUS.get(error.kind, 422)
    where = field or error.field
    return ServiceError(error.message, kind=error.kind, status=status, field=where, problems=error.reasons)


@dataclass(frozen=True, slots=True)
class GameRef:
    """A kept game as a job needs it: how to rebuild it, and how its answers name it."""

    settings: dict[str, Any]
    seed: int
    players: tuple[str, ...]
    human_seat: int
    game_id: str | None
    """None in a replay (the answer must not name the secret id)."""
    replay_id: str
    source: str

    @property
    def read_only(self) -> bool:
        return self.game_id is None or self.source != "played"

    def setup(self) -> GameSetup:
        return GameSetup(
            GameSettings.from_description(self.settings), self.seed, self.players, self.human_seat
        )


def _session(ref: GameRef, entries: list[Entry]) -> Session:
    return Session(ref.setup(), entries)


def state_payload(ref: GameRef, session: Session) -> dict[str, Any]:
    """The game's state as ``GameState`` states it: the ids, then the library's state (a
    read-only game, imported or a replay, allows no action: ``can`` is empty)."""
    state = game_state(session)
    if ref.read_only:
        state["can"] = []
    return {
        "id": ref.game_id,
        "replay_id": ref.replay_id,
        "read_only": ref.read_only,
        "source": ref.source,
        "seed": ref.seed if session.over else None,
        **state,
    }


def _state(ref: GameRef, session: Session) -> GameState:
    return GameState.model_validate(state_payload(ref, session))


def state_job(ref: GameRef, entries: list[Entry], *, new_game: bool = False) -> tuple[bool, bytes]:
    """The state, encoded (as ``NewGameResponse`` for a game just kept), and whether a bot
    is to move in a game that plays on (its bots' turns were not kept: ``advance_job``
    catches up)."""
    session = _session(ref, entries)
    behind = not ref.read_only and session.bots_to_move
    return behind, _encoded(ref, _state(ref, session), new_game)


def _encoded(ref: GameRef, state: GameState, new_game: bool) -> bytes:
    if not new_game:
        return state.model_dump_json().encode()
    assert ref.game_id is not None
    return NewGameResponse(id=ref.game_id, replay_id=ref.replay_id, state=state).model_dump_json().encode()


def advance_job(ref: GameRef, entries: list[Entry], *, new_game: bool = False) -> tuple[list[Entry], bytes]:
    """Every bot turn up to the human's decision (a new game's first turns): the new
    entries and the state after them (``NewGameResponse`` for a new game)."""
    session = _session(ref, entries)
    added = session.run_bots()
    return added, _encoded(ref, _state(ref, session), new_game)


def _action(described: dict[str, Any]) -> Action:
    """The action of the request, a play's table in the order laid out (checked by the route)."""
    if described.get("type") == "play":
        return Play(Table.parse(str(described["table"]), keep_order=True))
    return action_from_dict(described)


def move_job(ref: GameRef, entries: list[Entry], action: dict[str, Any]) -> tuple[list[Entry], bytes | None]:
    """The human's action alone (milliseconds: the hints' lane): its entries, and the state
    after it, or None when a bot is to move next (``advance_job`` plays the bots on their
    own lane, so that a help or a hint never waits behind a bot's turn)."""
    session = _session(ref, entries)
    added = session.act(_action(action), bots=False)
    if session.bots_to_move:
        return added, None
    return added, _state(ref, session).model_dump_json().encode()


def help_job(ref: GameRef, entries: list[Entry], level: int, *, time_limit: float) -> tuple[Entry, bytes]:
    """The help of ``level`` (the engine within ``time_limit`` seconds) and its entry."""
    entry, answer = give_help(_session(ref, entries), level, time_limit=time_limit)
    return entry, HelpResponse.model_validate(answer).model_dump_json().encode()


def advise_job(
    ref: GameRef, entries: list[Entry], *, budget_seconds: float, samples: int
) -> tuple[Entry, bytes]:
    """The advice for the human's meld decision (``/v1/advise``'s answer) and its entry."""
    entry, answer = give_advice(_session(ref, entries), budget_seconds=budget_seconds, samples=samples)
    return entry, AdviseResponse.model_validate(answer).model_dump_json().encode()


def review_job(ref: GameRef, entries: list[Entry], *, samples: int, budget_seconds: float | None) -> bytes:
    """The review of the human's decisions in the finished game."""
    found = review_game(_session(ref, entries), samples=samples, budget_seconds=budget_seconds)
    return ReviewResponse.model_validate(found).model_dump_json().encode()


def export_job(ref: GameRef, entries: list[Entry]) -> str:
    """The finished game as the JSON-lines log ``rummy replay`` reads; ``NotOver`` before
    the end, since the log holds every deal (the bots' hands, the stock's order)."""
    session = _session(ref, entries)
    if not session.over:
        raise NotOver("the game can be exported when it is over: its log shows every hand and the stock")
    return export_log(session)


def import_job(text: str) -> tuple[GameSetup, list[Entry]]:
    """The game a log records, checked by replaying it (the route keeps it)."""
    try:
        setup, entries = import_log(text)
        Session(setup, entries)
    except PlayError as error:
        raise InputError(error.message, kind="bad_log", field="body", problems=error.reasons) from None
    return setup, entries
