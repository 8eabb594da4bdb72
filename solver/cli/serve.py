"""``rummy serve``: run the HTTP hint service with uvicorn.

The command only starts the server: the application lives in ``service`` and is
loaded by uvicorn from its import path, so the ``solver`` package never imports the
service.  Limits come from ``RUMMY_*`` environment variables (see
``service.settings``); ``--workers`` and ``--queue`` set the two most often tuned.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from solver.cli.common import app, err

APP_FACTORY = "service.app:create_app"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(min=1, help="Solves at once (RUMMY_WORKERS; default: one per core)."),
    ] = None,
    queue: Annotated[
        int | None,
        typer.Option(min=0, help="Requests that may wait before a 503 (RUMMY_QUEUE; default 8 per worker)."),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level: error, warning, info, debug.")] = "info",
    access_log: Annotated[bool, typer.Option(help="Log every request.")] = True,
) -> None:
    """Serve the web page at / and the API: POST /v1/hint, /v1/check, /v1/analyze; docs at /docs.

    Other limits are environment variables: RUMMY_MAX_TIME_LIMIT (s, default 10),
    RUMMY_DEFAULT_TIME_LIMIT (s, 3), RUMMY_MAX_BODY_BYTES (65536), RUMMY_EXECUTOR
    (process or thread), RUMMY_RETRY_AFTER (s, 1).
    """
    import uvicorn  # the server is needed only here

    if workers is not None:
        os.environ["RUMMY_WORKERS"] = str(workers)
    if queue is not None:
        os.environ["RUMMY_QUEUE"] = str(queue)
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{port}"
    err.print(f"rummy: serving the page on {base}/  (API docs: {base}/docs)", markup=False)
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=host,
        port=port,
        log_level=log_level.lower(),
        access_log=access_log,
    )
