"""Cheap refusals before the application does any work, and the end of work nobody awaits.

Both are pure ASGI middleware, so they hold under any ASGI server (the limits only a
server can enforce, on bytes before a request exists, are in ``service.server``).

``RequestLimitMiddleware`` reads every request's body before the application sees it:
too many header lines are refused (431), a declared ``Content-Length`` over the limit
is refused without reading a byte and a body without one (chunked) is read only up to
the limit (413), and a body that does not arrive within ``body_timeout`` seconds is
refused (408); the connection is then closed.  Bodies within the limit are buffered
(they are small by definition) and replayed to the application unchanged, and kept in
the scope (``BODY_KEY``) so that an error handler can say what is wrong with them.
Once the body is read, nothing else can arrive on the request but ``http.disconnect``:
on a POST (the endpoints that queue work), the middleware listens for it and cancels the
application when the client goes away, so that the job it waits for is abandoned
instead of occupying the solver pool for nobody.

``LoadShedMiddleware``: under overload most requests are refused, so a refusal must
cost far less than a request; this one answers 503 before the JSON is parsed and the
position validated.
"""

from __future__ import annotations

from collections.abc import Mapping

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.bodies import BODY_KEY, duplicate_key, not_utf8_json
from service.errors import error_response
from service.pool import SolvePool

__all__ = ["LoadShedMiddleware", "RequestLimitMiddleware"]

_CLOSE = {"Connection": "close"}


class RequestLimitMiddleware:
    """Header count (431), body size (413) and body time (408) limits, in the service's
    error shape; then the application, cancelled if the client disconnects during a POST
    (to a path in ``watch``, or any when ``watch`` is None)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_bytes: int,
        max_headers: int = 100,
        body_timeout: float = 10.0,
        watch: frozenset[str] | None = None,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = dict(larger or {})
        """Paths whose bodies may be larger than ``max_bytes``, and their own limit (a game
        log to import is longer than any position)."""
        self.max_headers = max_headers
        self.body_timeout = body_timeout
        self.watch = watch or frozenset()
        self.watch_all = watch is None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", ())
        if len(headers) > self.max_headers:
            await self._refuse(
                scope, receive, send, 431, "headers_too_many",
                f"the request has {len(headers)} header lines; the limit is {self.max_headers}",
                "headers",
            )  # fmt: skip
            return
        limit = self.larger.get(scope["path"], self.max_bytes)
        for name, value in headers:
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await self._too_large(scope, receive, send, limit)
                return
        chunks: list[bytes] = []
        size = 0
        first: Message | None = None
        try:
            with anyio.fail_after(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        first = message  # a disconnect: hand it on as is
                        break
                    body = message.get("body", b"")
                    size += len(body)
                    if size > limit:
                        await self._too_large(scope, receive, send, limit)
                        return
                    chunks.append(body)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await self._refuse(
                scope, receive, send, 408, "request_timeout",
                f"the request body did not arrive within {self.body_timeout:g} s",
                "body",
            )  # fmt: skip
            return
        whole = b"".join(chunks)
        scope[BODY_KEY] = whole
        named = {k.decode("latin-1"): v.decode("latin-1") for k, v in headers}
        wrong = not_utf8_json(named, whole) or duplicate_key(named, whole)
        if wrong is not None:
            await self._refuse(scope, receive, send, wrong.status, wrong.kind, wrong.message, "body")
            return
        replay: Message = first or {"type": "http.request", "body": whole, "more_body": False}
        if first is None and scope["method"] == "POST" and (self.watch_all or scope["path"] in self.watch):
            await self._watched(scope, receive, send, replay)
            return
        replayed = False

        async def receive_again() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return replay
            return await receive()

        await self.app(scope, receive_again, send)

    async def _watched(self, scope: Scope, receive: Receive, send: Send, replay: Message) -> None:
        """Run the application, and cancel it if the client disconnects before the answer is sent."""
        gone = anyio.Event()
        answered = False
        replayed = False

        async def receive_app() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return replay
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send_app(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                answered = True
            await send(message)

        async with anyio.create_task_group() as group:

            async def listen() -> None:
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        gone.set()
                        if not answered:
                            group.cancel_scope.cancel()
                        return

            group.start_soon(listen)
            try:
                await self.app(scope, receive_app, send_app)
            finally:
                group.cancel_scope.cancel()

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        await self._refuse(
            scope, receive, send, 413, "body_too_large",
            f"request body exceeds the limit of {limit} bytes", "body",
        )  # fmt: skip

    @staticmethod
    async def _refuse(
        scope: Scope, receive: Receive, send: Send, status: int, kind: str, message: str, field: str
    ) -> None:
        response = error_response(status, kind, message, field=field, headers=_CLOSE)
        await response(scope, receive, send)


class LoadShedMiddleware:
    """Answer 503 + Retry-After at once to a POST on a path of ``lanes`` while its pool is full.

    The pool's own admission check stays the authority (the pool may fill between this
    look and the job's submission); this one only spares the server the parsing of
    requests it would refuse anyway.  It sits inside ``RequestLimitMiddleware``, which has
    read the body by then, so the connection stays usable.
    """

    def __init__(self, app: ASGIApp, *, lanes: dict[str, SolvePool]) -> None:
        self.app = app
        self.lanes = lanes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        pool = (
            self.lanes.get(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        )
        if pool is not None and pool.full():
            busy = pool.busy()
            response = error_response(busy.status, busy.kind, busy.message, headers=busy.headers)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
