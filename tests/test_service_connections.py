"""The service over real sockets (issue 19, items 1 and 2): uvicorn with the service's
protocol, small limits from ``Settings``, and raw clients that misbehave: heads that
never end or never stop, silent and half-sent connections, too many connections, and
clients that leave while their job runs."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from service_kit import wait_for

from service import create_app
from service.deps import PoolDep
from service.pool import SolvePool
from service.server import guarded_protocol, listen
from service.settings import Settings

LIMITS = {
    "max_header_bytes": 2048,
    "max_headers": 20,
    "header_timeout": 0.6,
    "body_timeout": 0.6,
    "keep_alive": 0.6,
    "max_connections": 8,
}


class Running:
    """A uvicorn server on 127.0.0.1 in a thread of the test process."""

    def __init__(self, app: FastAPI, settings: Settings) -> None:
        self.app = app
        self.sock = listen("127.0.0.1", 0)
        self.port = int(self.sock.getsockname()[1])
        config = uvicorn.Config(app, http=guarded_protocol(settings), log_level="critical", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pool(self) -> SolvePool:
        pool: SolvePool = self.app.state.pool
        return pool

    def connections(self) -> int:
        return len(self.server.server_state.connections)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)


@contextmanager
def running(settings: Settings, app: FastAPI | None = None) -> Iterator[Running]:
    server = Running(app or create_app(settings), settings)
    server.thread.start()
    try:
        wait_for(lambda: server.server.started, 60)
        yield server
    finally:
        server.server.should_exit = True
        server.thread.join(30)
        server.sock.close()


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP answer (status, headers, body) and expect the server to close."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return status, headers, body


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` (reading any answer first) within ``seconds``."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running(Settings(executor="thread", workers=1, **LIMITS)) as started:  # type: ignore[arg-type]
        yield started


# --- heads: size, count, time --------------------------------------------------------------


def test_a_head_larger_than_the_limit_gets_431_and_memory_stays_bounded(server: Running) -> None:
    with server.connect() as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        try:
            for _ in range(2000):  # would be 2 MB of one header: refused long before
                sock.sendall(b"a" * 1024)
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, _, body = read_answer(sock)
    assert status == 431
    assert json.loads(body)["error"]["type"] == "headers_too_large"
    assert "2048 bytes" in json.loads(body)["error"]["message"]


@pytest.mark.parametrize("size", [2100, 6000, 60000])
def test_a_head_over_the_limit_that_arrives_in_one_piece_is_refused_too(server: Running, size: int) -> None:
    """A head that arrives whole in one read went to the parser in one go, past the
    count that runs between reads, and was served (a 120 KB header got 200)."""
    with server.connect() as sock:
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n"
        with suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head)
        status, _, body = read_answer(sock)
    assert status == 431
    assert json.loads(body)["error"]["type"] == "headers_too_large"


def test_heads_just_under_the_limit_are_served_one_after_another(server: Running) -> None:
    with httpx.Client(base_url=server.base) as client:  # one connection, kept alive
        for _ in range(3):
            answer = client.get("/healthz", headers={"x-big": "a" * 1700})
            assert answer.status_code == 200


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"FOO /v1/hint HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n",
    ],
)
def test_a_request_the_parser_cannot_read_gets_the_error_shape(server: Running, request_bytes: bytes) -> None:
    """uvicorn answers those with a plain-text line; every 4xx of the service has one shape."""
    with server.connect() as sock:
        sock.sendall(request_bytes)
        status, headers, body = read_answer(sock)
    assert status == 400 and headers["content-type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["type"] == "bad_request" and "not valid HTTP" in error["message"]


def test_many_small_headers_are_refused_too(server: Running) -> None:
    headers = {f"x-h{number}": "v" for number in range(30)}
    answer = httpx.get(f"{server.base}/healthz", headers=headers)
    assert answer.status_code == 431
    error = answer.json()["error"]
    assert error["type"] == "headers_too_many" and "limit is 20" in error["message"]
    assert error["field"] == "headers"


def test_a_head_within_the_limits_is_served(server: Running) -> None:
    answer = httpx.get(f"{server.base}/healthz", headers={f"x-h{n}": "v" * 50 for n in range(10)})
    assert answer.status_code == 200 and answer.json()["status"] == "ok"


def test_a_half_sent_head_times_out_with_408(server: Running) -> None:
    with server.connect() as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        sock.settimeout(5)
        status, _, body = read_answer(sock)
    assert status == 408 and json.loads(body)["error"]["type"] == "request_timeout"
    assert time.monotonic() - start < 3.0


def test_a_head_sent_a_byte_at_a_time_still_times_out(server: Running) -> None:
    with server.connect() as sock:
        start = time.monotonic()
        closed = False
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            time.sleep(0.05)
            if time.monotonic() - start > 3.0:
                break
        assert closed or closed_within(sock, 1.0)
    assert time.monotonic() - start < 3.0


def test_a_silent_connection_is_closed_after_the_idle_timeout(server: Running) -> None:
    with server.connect() as sock:
        start = time.monotonic()
        assert closed_within(sock, 5.0)
    assert time.monotonic() - start < 3.0


def test_an_idle_keep_alive_connection_is_closed(server: Running) -> None:
    with server.connect() as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(5)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        assert closed_within(sock, 5.0)
    assert time.monotonic() - start < 3.0


def test_a_half_sent_body_times_out_with_408(server: Running) -> None:
    with server.connect() as sock:
        sock.sendall(
            b"POST /v1/hint HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            b'content-length: 100\r\n\r\n{"position": '
        )
        start = time.monotonic()
        sock.settimeout(5)
        status, headers, body = read_answer(sock)
    assert status == 408 and headers["connection"] == "close"
    error = json.loads(body)["error"]
    assert error["type"] == "request_timeout" and error["field"] == "body"
    assert time.monotonic() - start < 3.0


# --- the connection cap ---------------------------------------------------------------------


def test_connections_beyond_the_cap_are_refused_and_the_server_still_answers() -> None:
    settings = Settings(executor="thread", workers=1, **{**LIMITS, "keep_alive": 5.0})  # type: ignore[arg-type]
    with running(settings) as server:
        idle = [server.connect() for _ in range(8)]
        try:
            wait_for(lambda: server.connections() == 8)
            with server.connect() as extra:
                extra.settimeout(5)
                status, headers, body = read_answer(extra)
            assert status == 503 and headers["retry-after"] == "1"
            assert "8 open connections" in json.loads(body)["error"]["message"]
        finally:
            for sock in idle:
                sock.close()
        wait_for(lambda: server.connections() == 0)
        assert httpx.get(f"{server.base}/healthz").status_code == 200


# --- HEAD ------------------------------------------------------------------------------------


def test_head_healthz_answers_without_a_body(server: Running) -> None:
    answer = httpx.head(f"{server.base}/healthz")
    assert answer.status_code == 200 and answer.content == b""
    assert answer.headers["content-type"] == "application/json"


# --- clients that leave --------------------------------------------------------------------


def sleeping_app(settings: Settings) -> FastAPI:
    """The service with one more POST endpoint whose job sleeps on the pool: a stand-in for
    a long puzzle or analysis that is the same every time."""
    app = create_app(settings)

    @app.post("/test/sleep")
    async def sleep(pool: PoolDep, seconds: float = 60.0) -> dict[str, Any]:
        await pool.run_async(120.0, time.sleep, seconds)
        return {"slept": seconds}

    return app


def post_and_leave(server: Running, path: str) -> socket.socket:
    sock = server.connect()
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        "content-length: 2\r\n\r\n{}".encode()
    )
    return sock


def test_a_client_that_leaves_frees_its_running_and_queued_jobs() -> None:
    settings = Settings(executor="process", workers=1, queue=2, worker_watchdog=1.0)
    app = sleeping_app(settings)
    with running(settings, app) as server:
        pool = server.pool
        assert pool.processes is not None
        first = pool.processes.pids()
        clients = [post_and_leave(server, "/test/sleep") for _ in range(3)]
        wait_for(lambda: pool.stats() == {"workers": 1, "queue": 2, "running": 1, "waiting": 2})
        time.sleep(0.3)  # the worker has taken the first job
        for sock in clients:
            sock.close()
        # Every slot frees at once: the queued jobs are dropped, the running one is stopped.
        assert wait_for(lambda: pool.stats()["running"] == 0 and pool.stats()["waiting"] == 0) < 2.0
        wait_for(lambda: pool.replaced() == 1, 60)
        assert pool.processes.pids() != first
        # A new client is served at once, not after the abandoned jobs.
        start = time.monotonic()
        answer = httpx.post(f"{server.base}/v1/hint", json={"position": "/ 7h 8h 9h"}, timeout=30)
        assert answer.status_code == 200 and answer.json()["goes_out"] is True, answer.text
        assert time.monotonic() - start < 5.0


def test_a_client_that_stays_gets_its_answer() -> None:
    settings = Settings(executor="process", workers=1, queue=1)
    with running(settings, sleeping_app(settings)) as server:
        answer = httpx.post(f"{server.base}/test/sleep?seconds=0.5", json={}, timeout=30)
        assert answer.status_code == 200 and answer.json() == {"slept": 0.5}
        assert server.pool.replaced() == 0


# --- open files --------------------------------------------------------------------------------


def test_the_open_files_limit_is_raised_to_fit_the_connection_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    from service import server as serving

    limits = {"soft": 256, "hard": 4096}
    monkeypatch.setattr(resource, "getrlimit", lambda _: (limits["soft"], limits["hard"]))
    monkeypatch.setattr(resource, "setrlimit", lambda _, pair: limits.update(soft=pair[0]))
    settings = Settings(max_connections=1000, workers=2)
    serving.ensure_open_files(settings)
    assert limits["soft"] >= 1000 + 64
    limits.update(soft=256, hard=512)
    with pytest.raises(serving.ServeError, match="RUMMY_MAX_CONNECTIONS=1000 needs about"):
        serving.ensure_open_files(settings)
