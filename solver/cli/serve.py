"""``rummy serve``: run the HTTP hint service with uvicorn.

The command only starts the server: the application and the server set-up live in
``service`` (``service.server.serve``), imported by name when the command runs, so
the ``solver`` package never imports the service.  Limits come from ``RUMMY_*``
environment variables (see ``service.settings``); ``--workers`` and ``--queue`` set the
two most often tuned.  Every setting, the log level and the address are checked
before the command says it serves: a bad one is one line on stderr and exit 2.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer

from solver.cli.common import app, choices, err, fail

SERVER_MODULE = "service.server"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""uvicorn's log levels, listed in ``--help`` (``service.server`` checks the value)."""


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(help="Solves at once (RUMMY_WORKERS; default: one per core)."),
    ] = None,
    queue: Annotated[
        int | None,
        typer.Option(help="Requests that may wait before a 503 (RUMMY_QUEUE; default 4 per worker)."),
    ] = None,
    log_level: Annotated[
        str, typer.Option(metavar=choices(LOG_LEVELS), help="uvicorn's log level.")
    ] = "info",
    access_log: Annotated[
        bool, typer.Option(help="Log every request: one JSON line on stdout, with its time split.")
    ] = True,
) -> None:
    """Serve the web page and the HTTP API (uvicorn); Ctrl-C stops it.

    Endpoints:

    \b
    - GET  /                           the web page (hint, analyze, play...)
    - POST /v1/hint                    the best play, with its moves
    - POST /v1/check                   judge a play: {ok, reasons}
    - POST /v1/analyze                 playable cards, draw or meld, outs
    - POST /v1/advise                  the turn's options, ranked over deals
    - POST /v1/puzzles                 verified puzzles with solutions
    - POST /v1/games                   a game against the bots
    - GET  /v1/games/{game_id}         the game as you see it
    - POST /v1/games/{game_id}/act     play, draw, knock or pass
    - POST /v1/games/{game_id}/help    help level 1-3 for your decision
    - POST /v1/games/{game_id}/advise  your options, ranked
    - GET  /v1/games/{game_id}/review  your decisions reviewed (game over)
    - GET  /v1/games/{game_id}/export  the game as a log
    - POST /v1/games/import            a game log, to replay and review
    - GET  /v1/replays/{replay_id}     the game read-only (a link to share)
    - GET  /v1/variants                the rule variants
    - GET  /v1/version                 package, OR-Tools and engine build
    - GET  /healthz                    liveness and solver-pool load
    - HEAD /healthz                    liveness only
    - GET  /metrics                    Prometheus metrics
    - GET  /docs                       OpenAPI docs (also /redoc)

    Games are kept in RUMMY_DB: a SQLite file (default ~/.local/share/rummy/games.sqlite3)
    or a postgresql://USER:PASSWORD@HOST:PORT/DATABASE URL that several servers share; the
    server says where on start.

    Other limits are environment variables: RUMMY_MAX_TIME_LIMIT (s, default 10),
    RUMMY_DEFAULT_TIME_LIMIT (s, 3), RUMMY_MAX_ADVISE_SECONDS (s, 10),
    RUMMY_MAX_BODY_BYTES (65536), RUMMY_MAX_IMPORT_BYTES (4194304), RUMMY_EXECUTOR
    (process or thread), RUMMY_RETRY_AFTER (s, 1), RUMMY_MAX_HEADER_BYTES (16384),
    RUMMY_MAX_HEADERS (100), RUMMY_HEADER_TIMEOUT (s, 10), RUMMY_BODY_TIMEOUT (s, 10),
    RUMMY_KEEP_ALIVE (s, 5), RUMMY_MAX_CONNECTIONS (512), RUMMY_WORKER_WATCHDOG (s, 5),
    RUMMY_WORKER_SPARES (1); advice and puzzles run on workers of their own:
    RUMMY_LONG_WORKERS (1), RUMMY_LONG_QUEUE (4), RUMMY_LONG_WAIT (s, 10),
    RUMMY_LONG_NICE (10);
    the README lists them all.
    """
    server: Any = importlib.import_module(SERVER_MODULE)
    try:
        settings = server.load_settings(workers=workers, queue=queue)
        server.serve(
            host=host,
            port=port,
            settings=settings,
            log_level=log_level,
            access_log=access_log,
            announce=lambda line: err.print(line, markup=False),
        )
    except server.ServeError as error:
        fail(str(error))
