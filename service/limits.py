"""Refuse oversized request bodies before the application reads them (413).

A pure ASGI middleware: a declared ``Content-Length`` over the limit is refused
without reading a byte; a body without one (chunked) is read only up to the limit.
Bodies within the limit are buffered (they are small by definition) and replayed to
the application unchanged.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import error_response

__all__ = ["BodyLimitMiddleware"]


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
