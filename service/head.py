"""HEAD answered as GET without the body (RFC 9110 9.3.2), for every route.

FastAPI's routes answer only the methods they name, so ``HEAD /`` got a 405 where Starlette's
static files answer it: a link checker or a monitor that probes with HEAD saw the page as
missing.  This middleware runs a HEAD request as the GET it stands for and sends the same
status and headers (content-length included) with an empty body.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HeadAsGetMiddleware"]


class HeadAsGetMiddleware:
    """Answer ``HEAD`` as ``GET`` with the body left out (module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
