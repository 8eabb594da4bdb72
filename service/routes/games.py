"""``/v1/games``: a game against the bots, kept in the game store, played one request at a time.

A game belongs to whoever holds its secret id; its replay id opens it read-only.  Every
request rebuilds the game from its kept entries on a worker (``service.play_jobs``), so
any server process sharing the store can serve any request of any game.  A request that
moves the game on sends the turn counter it last saw (``turn``, the number of entries):
the work is done on a worker (the bots' turns and help on the short lane, advice and the
review on the long lane, as ``/v1/advise``), its new entries are kept (all or none)
*before* the answer is sent, and a counter that is not the game's, or that another
request took meanwhile, is a 409 ``stale`` that changes nothing.
"""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar, cast

import anyio.to_thread
from fastapi import Depends, Path, Request, Response

from service import edge
from service.bodies import compressed_body
from service.deps import BotPoolDep, LongPoolDep, PoolDep, SettingsDep
from service.encoded import EncodedJSON
from service.errors import ERROR_RESPONSES, ErrorResponse, ServiceError
from service.games import Entry, GameHeader, GameStore, StaleAction, StoreError, UnknownGame
from service.keeper import GameKeeper
from service.play_jobs import (
    GameRef,
    advance_job,
    advise_job,
    export_job,
    help_job,
    import_job,
    move_job,
    refused,
    review_job,
    state_job,
)
from service.play_schemas import (
    ActRequest,
    AdviseGameRequest,
    GameState,
    HelpRequest,
    HelpResponse,
    NewGameRequest,
    NewGameResponse,
    ReviewResponse,
)
from service.pool import SolvePool
from service.routes import api_router
from service.routes.advise import budget_of
from service.schemas import AdviseResponse
from solver.play.errors import PlayError
from solver.play.session import MAX_SEED, GameSetup
from solver.play.session import Entry as PlayEntry
from solver.strategy.advice import DEFAULT_SAMPLES
from solver.strategy.review import DEFAULT_SAMPLES as REVIEW_DEFAULT_SAMPLES

__all__ = ["BOT_TURNS_SECONDS", "REVIEW_SAMPLES", "fresh_seed", "router"]

router = api_router(tags=["games"])

READ_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorResponse, "description": "No game has this id (or replay id)."},
    422: {"model": ErrorResponse, "description": "An id longer than any the service makes."},
    503: {"model": ErrorResponse, "description": "The game store cannot be used, or every worker is busy."},
}
"""Error answers of the endpoints that read a game."""
MOVE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    **READ_ERRORS,
    409: {
        "model": ErrorResponse,
        "description": "stale: the turn counter is not the game's (someone acted first); not_your_turn; "
        "game_over; read_only (an imported game); no_decision (advice at a knock decision).",
    },
    422: {
        "model": ErrorResponse,
        "description": "illegal_play with the referee's reasons, bad notation, or a field of the wrong type.",
    },
}
"""Error answers of the endpoints that take a body and move a game on."""

BOT_TURNS_SECONDS = 300.0
"""Seconds the bots' turns after one action may take on a worker before the request gets a
503 (a search-bot decision takes well under a second, rarely a few)."""
MOVE_SECONDS = 30.0
"""What the human's action alone may take (replaying the game and the referee: milliseconds)."""
REVIEW_SAMPLES = REVIEW_DEFAULT_SAMPLES
"""Deals per evaluation of the review on the page: ``rummy review``'s default, and no clock
in it, so that the page's review of a game is the one ``rummy review --seat N`` gives for
its exported log, on any machine and under any load."""
REVIEW_SECONDS_PER_DECISION = 0.5
"""What one reviewed decision is expected to take on a worker (about 0.1-0.3 s at the
default deals on a 2026 server core): the review's stated work on the long lane only (the
review itself is not cut by the clock)."""
REVIEW_MAX_SECONDS = 600.0
"""The most seconds a review is expected to take (its work on the long lane)."""
ADVICE_SAMPLES = DEFAULT_SAMPLES
"""Deals of the advice on the page: ``/v1/advise``'s default, so that the answer is the one
``/v1/advise`` gives for the same position and facts (within the same budget)."""

T = TypeVar("T")
GameId = Annotated[str, Path(min_length=1, max_length=64, description="The game's secret id.")]
ReplayId = Annotated[str, Path(min_length=1, max_length=64, description="The game's replay id.")]


IMPORT_PATH = "import"
"""The last part of the import route's path, which ``GET /games/{game_id}`` would take for
a game id: it answers 405 (POST only) there, as any route does for another method."""


def fresh_seed() -> int:
    """A new game's seed when the player names none: any of the 2^53 a game may have.  The
    seed and the code give every deal, and the player sees a hand of it from the start, so
    a narrower range (2^31 seeds) could be searched for the seed that deals that hand."""
    return random.SystemRandom().randrange(MAX_SEED + 1)


async def get_keeper(request: Request) -> GameKeeper:
    """The game store of the application serving this request."""
    return cast(GameKeeper, request.app.state.games)


KeeperDep = Annotated[GameKeeper, Depends(get_keeper)]


async def _stored(keeper: GameKeeper, call: Callable[[GameStore], T]) -> T:
    """``call(store)`` on a thread (the store blocks); its errors as the service's."""
    try:
        return await anyio.to_thread.run_sync(lambda: call(keeper.get()))
    except UnknownGame as error:  # its message says which id: the game's, or the replay's
        raise ServiceError(str(error) or "no game has this id", kind="not_found", status=404) from None
    except StaleAction:
        raise _stale("another request moved the game on first") from None
    except StoreError as error:
        raise ServiceError(f"the game store cannot be used: {error}", kind="store", status=503) from None


def _stale(why: str) -> ServiceError:
    return ServiceError(f"{why}: reload the game and act again", kind="stale", status=409, field="turn")


def _ref(header: GameHeader, *, replay: bool = False) -> GameRef:
    return GameRef(
        settings=dict(header.settings),
        seed=header.seed,
        players=tuple(header.players),
        human_seat=header.human_seat,
        game_id=None if replay else header.game_id,
        replay_id=header.replay_id,
        source=header.source,
    )


def _plain(entries: Sequence[Entry]) -> list[PlayEntry]:
    return [(entry.kind, dict(entry.data)) for entry in entries]


async def _playable(keeper: GameKeeper, game_id: str, turn: int) -> tuple[GameRef, list[PlayEntry]]:
    """The game to move on, when the request's turn counter is the game's; else the error."""
    header, entries = await _stored(keeper, lambda store: store.load(game_id))
    if header.source != "played":
        message = "an imported game is read-only: it can be replayed and reviewed, not played"
        raise ServiceError(message, kind="read_only", status=409)
    if turn != len(entries):
        raise _stale(f"the game is at turn {len(entries)}, not {turn}")
    return _ref(header), _plain(entries)


async def _keep(keeper: GameKeeper, game_id: str, first: int, entries: Sequence[PlayEntry]) -> None:
    """Keep the new entries (all or none) before the answer goes out."""
    if entries:
        await _stored(keeper, lambda store: store.append_many(game_id, first, list(entries)))


async def _work(job: Awaitable[T]) -> T:
    """Await a job; a refusal of the library becomes the service's error (nothing kept)."""
    try:
        return await job
    except PlayError as error:
        raise refused(error) from None


def _header(setup: GameSetup, source: str) -> GameHeader:
    """A new game's header, with fresh secret ids."""
    return GameHeader(
        game_id=secrets.token_urlsafe(16),
        replay_id=secrets.token_urlsafe(16),
        created=datetime.now(UTC).isoformat(),
        settings=setup.settings.describe(),
        seed=setup.seed,
        players=list(setup.players),
        human_seat=setup.human_seat,
        source=source,
    )


async def _create(keeper: GameKeeper, header: GameHeader, entries: Sequence[PlayEntry]) -> None:
    """Keep a new game and its first entries."""

    def create(store: GameStore) -> None:
        store.create(header)
        if entries:
            store.append_many(header.game_id, 0, list(entries))

    await _stored(keeper, create)


@router.post(
    "/games",
    status_code=201,
    response_model=NewGameResponse,
    responses={**ERROR_RESPONSES, 503: READ_ERRORS[503]},
    summary="Start a game against the bots",
)
async def post_game(body: NewGameRequest, keeper: KeeperDep, pool: BotPoolDep) -> Response:
    """A new game: its secret id, its replay id and the state once the bots who move
    before you have moved.  Opponents are the service's bots by name, never a module."""
    seed = body.seed if body.seed is not None else fresh_seed()
    try:
        setup = GameSetup.new(body.variant, body.players, body.opponents, seed, body.seat)
    except PlayError as error:
        raise refused(error) from None
    header = _header(setup, "played")
    added, answer = await _work(
        pool.run_async(BOT_TURNS_SECONDS, advance_job, _ref(header), [], new_game=True)
    )
    await _create(keeper, header, added)
    return EncodedJSON(answer, status_code=201)


async def _state(keeper: GameKeeper, pool: SolvePool, header: GameHeader, entries: list[Entry]) -> bytes:
    """The state of a game that plays on (the one kept in memory for this turn, if any);
    bots' turns never kept (a server stopped between keeping a game and its first turns)
    are played and kept first."""
    kept = keeper.state(header.game_id, len(entries))
    if kept is not None:
        return kept
    ref, plain = _ref(header), _plain(entries)
    behind, answer = await anyio.to_thread.run_sync(state_job, ref, plain)
    if not behind:
        keeper.keep_state(header.game_id, len(entries), answer)
        return answer
    added, answer = await _work(pool.run_async(BOT_TURNS_SECONDS, advance_job, ref, plain))
    try:
        await _keep(keeper, header.game_id, len(entries), added)
    except ServiceError as error:
        if error.kind != "stale":
            raise
        # Another request caught up first: the game as it kept it.
        _, entries = await _stored(keeper, lambda store: store.load(header.game_id))
        return (await anyio.to_thread.run_sync(state_job, ref, _plain(entries)))[1]
    keeper.keep_state(header.game_id, len(entries) + len(added), answer)
    return answer


@router.get(
    "/games/{game_id}", response_model=GameState, responses=READ_ERRORS, summary="The game as you see it"
)
async def get_game(game_id: GameId, keeper: KeeperDep, pool: BotPoolDep) -> Response:
    """Your hand, the table, the hands' sizes, whose turn, the bots' turns since your last
    action, the last round's end and the result."""
    if game_id == IMPORT_PATH:  # no game has this id (ids are 22 characters): the import route
        raise ServiceError(
            "Method Not Allowed", kind="method_not_allowed", status=405, headers={"Allow": "POST"}
        )
    header, entries = await _stored(keeper, lambda store: store.load(game_id))
    return EncodedJSON(await _state(keeper, pool, header, entries))


@router.get(
    "/replays/{replay_id}",
    response_model=GameState,
    responses=READ_ERRORS,
    summary="A game's read-only replay",
)
async def get_replay(replay_id: ReplayId, keeper: KeeperDep, pool: PoolDep) -> Response:
    """The game as its player saw it (the player's hand shown), with ``read_only`` true and
    no id: a replay link can be shared, and cannot act, ask for help or advice."""
    header, entries = await _stored(keeper, lambda store: store.load_replay(replay_id))
    ref = _ref(header, replay=True)
    return EncodedJSON((await anyio.to_thread.run_sync(state_job, ref, _plain(entries)))[1])


@router.post(
    "/games/{game_id}/act",
    response_model=GameState,
    responses=MOVE_ERRORS,
    summary="Play, draw, knock or pass",
)
async def post_act(
    game_id: GameId, body: ActRequest, keeper: KeeperDep, pool: PoolDep, bot_pool: BotPoolDep
) -> Response:
    """Your action, judged by the referee (409 ``not_your_turn``, 409 ``stale``, 422
    ``illegal_play`` with every reason; nothing kept then), then every bot turn up to your
    next decision or the game's end: the state after them."""
    action = body.action.model_dump()
    if body.action.type == "play":
        edge.table_of(body.action.table, "action.table", keep_order=True)  # a notation error names the field
    ref, entries = await _playable(keeper, game_id, body.turn)
    if bot_pool.full():  # refused before anything is kept, not between the action and the bots
        raise bot_pool.busy()
    # The action on the hints' lane (milliseconds), kept; the bots' turns after it on
    # their own lane, as a game that is behind plays them (``_state``).
    added, answer = await _work(pool.run_async(MOVE_SECONDS, move_job, ref, entries, action))
    await _keep(keeper, game_id, body.turn, added)
    if answer is not None:
        keeper.keep_state(game_id, body.turn + len(added), answer)
        return EncodedJSON(answer)
    header, stored = await _stored(keeper, lambda store: store.load(game_id))
    return EncodedJSON(await _state(keeper, bot_pool, header, stored))


@router.post(
    "/games/{game_id}/help",
    response_model=HelpResponse,
    responses=MOVE_ERRORS,
    summary="Help for your decision",
)
async def post_help(
    game_id: GameId, body: HelpRequest, keeper: KeeperDep, settings: SettingsDep, pool: PoolDep
) -> Response:
    """Level 1: whether a play exists and the points the best play leaves; 2: also the cards
    it lays; 3: the whole play with its steps.  Kept in the game (the turn counter goes up by one)."""
    ref, entries = await _playable(keeper, game_id, body.turn)
    limit = settings.default_time_limit
    job = pool.run_async(limit + settings.wait_grace, help_job, ref, entries, body.level, time_limit=limit)
    entry, answer = await _work(job)
    await _keep(keeper, game_id, body.turn, [entry])
    return EncodedJSON(answer)


@router.post(
    "/games/{game_id}/advise",
    response_model=AdviseResponse,
    responses=MOVE_ERRORS,
    summary="Advice for your decision",
)
async def post_advise(
    game_id: GameId,
    body: AdviseGameRequest,
    keeper: KeeperDep,
    settings: SettingsDep,
    long_pool: LongPoolDep,
) -> Response:
    """The options of your meld decision ranked over sampled deals, as ``/v1/advise`` ranks
    them for this position and these facts.  Kept in the game (the counter goes up by one)."""
    ref, entries = await _playable(keeper, game_id, body.turn)
    budget = budget_of(None, settings.max_advise_seconds)
    job = long_pool.run_within(
        budget, advise_job, ref, entries, budget_seconds=budget, samples=ADVICE_SAMPLES
    )
    entry, answer = await _work(job)
    await _keep(keeper, game_id, body.turn, [entry])
    return EncodedJSON(answer)


@router.get(
    "/games/{game_id}/review",
    response_model=ReviewResponse,
    responses={
        **READ_ERRORS,
        409: {"model": ErrorResponse, "description": "not_over: the game is still played."},
    },
    summary="The review of your decisions",
)
async def get_review(game_id: GameId, keeper: KeeperDep, long_pool: LongPoolDep) -> Response:
    """Once the game is over (409 ``not_over`` before): your decisions against the advised
    ones, their bands, your accuracy, the luck of your draws, the plot as an SVG and your
    clear mistakes as puzzles (``rummy review --seat N --puzzles`` on the exported log)."""
    header, entries = await _stored(keeper, lambda store: store.load(game_id))
    kept = keeper.review(game_id, len(entries))
    if kept is not None:
        return EncodedJSON(kept)
    mine = [
        entry for entry in entries if entry.kind == "action" and entry.data.get("seat") == header.human_seat
    ]
    work = min(REVIEW_MAX_SECONDS, max(10.0, len(mine) * REVIEW_SECONDS_PER_DECISION))
    job = long_pool.run_within(
        work,
        review_job,
        _ref(header),
        _plain(entries),
        samples=REVIEW_SAMPLES,
        budget_seconds=None,
    )
    answer = await _work(job)
    keeper.keep_review(game_id, len(entries), answer)
    return EncodedJSON(answer)


@router.get(
    "/games/{game_id}/export",
    response_class=Response,
    responses={
        200: {"content": {"application/x-ndjson": {}}, "description": "The game's JSON-lines log."},
        **READ_ERRORS,
        409: {"model": ErrorResponse, "description": "not_over: the game is still played."},
    },
    summary="The game as a log for rummy replay and rummy review",
)
async def get_export(game_id: GameId, keeper: KeeperDep) -> Response:
    """The finished game as the JSON-lines log that ``rummy replay`` and ``rummy review``
    read (the header, every deal, action, round and the end); 409 ``not_over`` before the
    end, since the log shows the other hands and the stock."""
    header, entries = await _stored(keeper, lambda store: store.load(game_id))
    text = await _work(anyio.to_thread.run_sync(export_job, _ref(header), _plain(entries)))
    name = f"rummy-{header.settings.get('variant', 'game')}-{header.seed}.jsonl"
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


IMPORT_MEDIA_TYPE = "application/x-ndjson"
"""What an imported log's body is declared as (the export's own type)."""

IMPORT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "A game log as rummy play --log, rummy tournament --logs or the export write it.",
        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
    }
}


@router.post(
    f"/games/{IMPORT_PATH}",
    status_code=201,
    response_model=NewGameResponse,
    responses={
        **READ_ERRORS,
        400: ERROR_RESPONSES[400],
        413: ERROR_RESPONSES[413],
        415: {"model": ErrorResponse, "description": "The body is not declared as application/x-ndjson."},
        422: ERROR_RESPONSES[422],
    },
    openapi_extra=IMPORT_BODY,
    summary="Import a game log to replay and review it",
)
async def post_import(request: Request, keeper: KeeperDep) -> Response:
    """A JSON-lines game log, checked by replaying it (422 ``bad_log`` naming the line and
    the problem), kept as a read-only game (``source`` imported): its ids and its state.
    The body must say it is one (``application/x-ndjson``, as documented): 415 otherwise,
    as the JSON endpoints answer a body of another type."""
    declared = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if declared != IMPORT_MEDIA_TYPE:
        got = f"content-type {declared!r}" if declared else "no content-type"
        raise ServiceError(
            f"a game log is sent with 'content-type: {IMPORT_MEDIA_TYPE}'; this request has {got}",
            kind="unsupported_media_type",
            status=415,
        )
    body = await request.body()
    compressed = compressed_body(request.headers, body)
    if compressed is not None:
        raise ServiceError(compressed.message, kind=compressed.kind, status=compressed.status)
    try:
        text = body.decode("utf-8-sig")  # a byte-order mark, as the JSON endpoints take it
    except UnicodeDecodeError:
        raise ServiceError(
            "the log is not UTF-8 text", kind="unreadable_body", status=400, field="body"
        ) from None
    setup, entries = await anyio.to_thread.run_sync(import_job, text)
    header = _header(setup, "imported")
    await _create(keeper, header, entries)
    _, answer = await anyio.to_thread.run_sync(
        functools.partial(state_job, _ref(header), entries, new_game=True)
    )
    return EncodedJSON(answer, status_code=201)
