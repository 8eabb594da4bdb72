"""Running the service with uvicorn, with the limits only the server can enforce.

Before a request exists there are only bytes on a connection, and uvicorn bounds few
of them: its httptools parser keeps a request head of any size in memory, a
connection that never sends a byte (or sends half a head) stays open for ever, and
nothing caps the number of open connections, so idle ones can use up the process's
open files.  ``guarded_protocol`` makes uvicorn's httptools protocol enforce, per
``Settings``:

- ``max_header_bytes``: a request head (request line and headers) larger than this is
  answered 431 and the connection closed, counted as the bytes arrive, so memory stays
  bounded whatever the client streams;
- ``header_timeout``: a head must be complete within this many seconds of its first
  byte (408, closed), so a half-sent head cannot hold a connection;
- ``keep_alive``: a connection with no request in progress is closed after this many
  idle seconds, a new connection that sends nothing included (uvicorn arms its
  keep-alive timer only after a response);
- ``max_connections``: a connection beyond this many is answered 503 and closed at once.

Header count, body size and body time are the application's (``service.limits``), so
they hold under any server.  ``load_settings`` and ``listen`` let ``rummy serve`` fail
with one line, before it claims to serve, on a bad ``RUMMY_*`` value or a port in use.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import socket
import sys
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.observe import ACCESS_LOGGER
from service.settings import Settings

__all__ = [
    "LOG_LEVELS",
    "ServeError",
    "ensure_open_files",
    "guarded_protocol",
    "listen",
    "load_settings",
    "serve",
]

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""uvicorn's log levels."""

_RESERVED_FILES = 64
"""Open files the server needs besides its connections: the listening socket, logs,
worker pipes, imports."""


class ServeError(Exception):
    """The server cannot start; the message is one line for the user."""


def load_settings(**overrides: Any) -> Settings:
    """The ``RUMMY_*`` settings (and ``overrides``), or ``ServeError`` naming each bad one."""
    try:
        return Settings(**{name: value for name, value in overrides.items() if value is not None})
    except ValidationError as error:
        problems = []
        for problem in error.errors():
            loc = [str(part) for part in problem.get("loc", ())]
            message = str(problem.get("msg", "invalid value")).removeprefix("Value error, ")
            if loc and overrides.get(loc[0]) is not None:
                problems.append(f"--{loc[0].replace('_', '-')} {overrides[loc[0]]}: {message}")
            elif loc:
                name = f"RUMMY_{loc[0].upper()}"
                shown = os.environ.get(name)
                value = f"={shown}" if shown is not None else ""
                problems.append(f"{name}{value}: {message}")
            else:
                problems.append(message)
        prefix = "bad setting " if len(problems) == 1 else "bad settings: "
        raise ServeError(prefix + "; ".join(problems)) from None


def open_files_needed(settings: Settings) -> int:
    """Open files the server may need at its connection cap."""
    return settings.max_connections + _RESERVED_FILES + 4 * settings.workers


def ensure_open_files(settings: Settings) -> None:
    """Raise the soft open-files limit to what the connection cap needs, or refuse to start."""
    needed = open_files_needed(settings)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard == resource.RLIM_INFINITY or hard >= needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        return
    raise ServeError(
        f"RUMMY_MAX_CONNECTIONS={settings.max_connections} needs about {needed} open files, "
        f"but this process may open only {hard} (ulimit -n); lower RUMMY_MAX_CONNECTIONS"
    )


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or ``ServeError`` (address in use, unknown host)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as error:
        sock.close()
        reason = error.strerror or str(error)
        if isinstance(error, socket.gaierror):
            reason = f"unknown host ({reason})"
        raise ServeError(f"cannot listen on {host}:{port}: {reason.lower()}") from None
    sock.set_inheritable(True)
    return sock


def _error_bytes(status: int, phrase: str, kind: str, message: str, extra: str = "") -> bytes:
    body = json.dumps(
        {"error": {"type": kind, "message": message, "field": None, "problems": [message]}}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{extra}connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


REFUSED_LINGER = 1.0
"""Seconds a refused connection stays open after its answer, reading and dropping what
the client still sends (see ``GuardedHttpToolsProtocol._refuse``)."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with bounded request heads, timeouts and a connection cap.

    The limits are class attributes, set by ``guarded_protocol`` for one server.
    """

    max_header_bytes = 16 * 1024
    header_timeout = 10.0
    keep_alive = 5.0
    max_connections = 512
    retry_after = 1

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.keep_alive  # type: ignore[assignment]  # uvicorn types it int
        self._head_open = False  # between a request's first byte and the end of its head
        self._head_bytes = 0
        self._head_timer: asyncio.TimerHandle | None = None
        self._refused = False
        self._scanned = 0  # bytes of the head being read before the parser sees them
        self._scan_tail = b""  # the last bytes of the scan, where a head's end may start

    # --- the connection ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            message = f"the server has {self.max_connections} open connections, its limit; retry"
            self._refuse(
                _error_bytes(
                    503, "Service Unavailable", "busy", message, f"retry-after: {self.retry_after}\r\n"
                ),
                linger=False,
            )
            return
        # uvicorn arms the idle timer only after a response: a silent new connection gets one too.
        self.timeout_keep_alive_task = self.loop.call_later(self.keep_alive, self.timeout_keep_alive_handler)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _refuse(self, answer: bytes, *, linger: bool = True) -> None:
        """Answer with ``answer`` and close, reading nothing more.

        With ``linger``, the answer goes out with the end of the stream after it, and the
        connection stays open for ``REFUSED_LINGER`` seconds more, what the client still
        sends dropped unread: closed at once while a client is still sending (a head too
        large), the socket would answer the unread bytes with a reset, and the client's
        system may then throw the answer away before the client reads it.  A connection
        over the cap is closed at once (it has sent nothing yet, and lingering would let a
        flood hold more sockets than the cap)."""
        self._refused = True
        self._cancel_head_timer()
        if self.transport.is_closing():
            return
        self.transport.write(answer)
        if linger and self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(REFUSED_LINGER, self.transport.close)
        else:
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request the HTTP parser cannot read (a bad request line, method, length or
        chunk, bytes a header may not hold): the error shape every 4xx of the service has,
        instead of uvicorn's plain-text line."""
        message = "the request is not valid HTTP/1.1 (its request line, a header or the body's framing)"
        self._refuse(_error_bytes(400, "Bad Request", "bad_request", message), linger=False)

    def _in_request(self) -> bool:
        cycle = self.cycle
        return cycle is not None and not cycle.response_complete

    # --- the head: size and time -------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return
        if self._head_timer is None and not self._in_request():
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_too_slow)
        if not self._in_request() and self._head_exceeds(data):
            return
        super().data_received(data)
        if self._head_open:
            self._head_bytes += len(data)
            if self._head_bytes > self.max_header_bytes:
                message = f"the request head exceeds the limit of {self.max_header_bytes} bytes"
                self._refuse(
                    _error_bytes(431, "Request Header Fields Too Large", "headers_too_large", message)
                )

    def _head_exceeds(self, data: bytes) -> bool:
        """Count the bytes of a request head before the parser reads them, and refuse a
        head over the limit: the parser takes a head that arrives whole in one read in one
        go, before ``data_received`` could count it, and the request would be served."""
        seen = self._scan_tail + data
        end = seen.find(b"\r\n\r\n")
        self._scanned += len(data) if end < 0 else max(0, end + 4 - len(self._scan_tail))
        if self._scanned > self.max_header_bytes:
            message = f"the request head exceeds the limit of {self.max_header_bytes} bytes"
            self._refuse(_error_bytes(431, "Request Header Fields Too Large", "headers_too_large", message))
            return True
        if end < 0:
            self._scan_tail = seen[-3:]
        else:
            self._scanned, self._scan_tail = 0, b""
        return False

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_open = True
        self._head_bytes = 0

    def on_headers_complete(self) -> None:
        self._head_open = False
        self._cancel_head_timer()
        super().on_headers_complete()

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._in_request():
            return
        message = f"the request head did not arrive within {self.header_timeout:g} s"
        self._refuse(_error_bytes(408, "Request Timeout", "request_timeout", message))

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None


def guarded_protocol(settings: Settings) -> type[GuardedHttpToolsProtocol]:
    """The protocol class uvicorn should use, with ``settings``'s limits."""
    return type(
        "RummyHttpProtocol",
        (GuardedHttpToolsProtocol,),
        {
            "max_header_bytes": settings.max_header_bytes,
            "header_timeout": settings.header_timeout,
            "keep_alive": settings.keep_alive,
            "max_connections": settings.max_connections,
            "retry_after": settings.retry_after,
        },
    )


def _access_log(enabled: bool, log_level: str) -> None:
    """One JSON line per request on standard output (``service.observe``), at info level
    and below; nothing when ``enabled`` is False."""
    logger = logging.getLogger(ACCESS_LOGGER)
    logger.propagate = False
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    level = 5 if log_level.lower() == "trace" else logging.getLevelName(log_level.upper())  # uvicorn's TRACE
    if not enabled or not isinstance(level, int) or level > logging.INFO:
        logger.setLevel(logging.WARNING)
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def serve(
    *,
    host: str,
    port: int,
    settings: Settings,
    log_level: str = "info",
    access_log: bool = True,
    announce: Callable[[str], None] = print,
) -> None:
    """Listen on ``host:port`` and serve until stopped (Ctrl-C, SIGTERM).

    Everything that can fail on bad input fails first, with ``ServeError``: the log
    level, the open-files limit the connection cap needs, the game store (``RUMMY_DB``:
    opened, its schema created or migrated), the address.  Only then is ``announce``
    called with the lines that say where the service is and where it keeps the games.
    """
    import uvicorn  # the server is needed only here

    from service.app import create_app
    from service.games import StoreError, describe, open_store

    if log_level.lower() not in LOG_LEVELS:
        raise ServeError(f"unknown log level {log_level!r}: use one of {', '.join(LOG_LEVELS)}")
    ensure_open_files(settings)
    try:
        store = open_store(settings.db)
    except StoreError as error:
        raise ServeError(f"cannot keep games: {error}") from None
    try:
        sock = listen(host, port)
    except BaseException:
        store.close()
        raise
    shown = f"[{host}]" if ":" in host else host
    bound_port = sock.getsockname()[1]
    base = f"http://{shown}:{bound_port}"
    announce(f"rummy: serving the page on {base}/  (API docs: {base}/docs)")
    announce(f"rummy: games are kept in the {describe(settings.db)} (RUMMY_DB)")
    config = uvicorn.Config(
        create_app(settings, store=store),
        host=host,
        port=bound_port,
        http=guarded_protocol(settings),
        log_level=log_level.lower(),
        access_log=False,  # the service writes its own, with the time split (service.observe)
    )
    _access_log(access_log, log_level)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it handled, once it has stopped
        pass
    finally:
        sock.close()
        store.close()
    if not server.started:
        raise ServeError("the service did not start (see the log above)")
