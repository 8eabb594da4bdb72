"""Cheap refusals before the application does any work: oversized bodies (413) and
solving requests that would find the pool full (503).

Both are pure ASGI middleware.  ``BodyLimitMiddleware``: a declared ``Content-Length``
over the limit is refused without reading a byte; a body without one (chunked) is read
only up to the limit; bodies within the limit are buffered (they are small by
definition) and replayed to the application unchanged.  ``LoadShedMiddleware``: under
overload most requests are refused, so a refusal must cost far less than a request;
this one answers 503 before the JSON is parsed and the position validated.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import error_response
from service.pool import SolvePool

__all__ = ["BodyLimitMiddleware", "LoadShedMiddleware"]


class BodyLimitMiddleware:
    """Answer 413 in the service's error shape when a request body exceeds ``max_bytes``."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413,
            "body_too_large",
            f"request body exceeds the limit of {self.max_bytes} bytes",
            field="body",
            headers={"Connection": "close"},
        )
        await response(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        first: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":
                first = message  # a disconnect: hand it on as is
                break
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replay: Message = first or {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        replayed = False

        async def receive_again() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return replay
            return await receive()

        await self.app(scope, receive_again, send)


class LoadShedMiddleware:
    """Answer 503 + Retry-After at once to a POST on ``paths`` while ``pool`` is full.

    The pool's own admission check stays the authority (the pool may fill between this
    look and the job's submission); this one only spares the server the parsing of
    requests it would refuse anyway.  It sits inside ``BodyLimitMiddleware``, which has
    read the body by then, so the connection stays usable.
    """

    def __init__(self, app: ASGIApp, *, pool: SolvePool, paths: frozenset[str]) -> None:
        self.app = app
        self.pool = pool
        self.paths = paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"] in self.paths
            and self.pool.full()
        ):
            busy = self.pool.busy()
            response = error_response(busy.status, busy.kind, busy.message, headers=busy.headers)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
