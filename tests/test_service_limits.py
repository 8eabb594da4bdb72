"""Limits of the HTTP service: body size, the bounded solver pool (503 + Retry-After),
job timeouts, worker processes (and their recovery), and settings from the environment."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from service_kit import error_of, wait_for

from service import create_app
from service.errors import MAX_PROBLEMS, Busy
from service.pool import SolvePool
from service.settings import Settings

WORKED = {"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"}
JSON = {"content-type": "application/json"}


# --- body size -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_body_client() -> Iterator[TestClient]:
    settings = Settings(executor="thread", workers=1, max_body_bytes=2048)
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_declared_oversized_body_gets_413(small_body_client: TestClient) -> None:
    body = b'{"position": "/ 2c", "pad": "' + b"x" * 4000 + b'"}'
    error = error_of(
        small_body_client.post("/v1/hint", content=body, headers={"content-type": "application/json"}), 413
    )
    assert error["type"] == "body_too_large" and "2048" in error["message"] and error["field"] == "body"


def test_a_chunked_oversized_body_gets_413(small_body_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"position": "/ 2c", "pad": "'
        for _ in range(10):
            yield b"x" * 500
        yield b'"}'

    answer = small_body_client.post(
        "/v1/hint", content=chunks(), headers={"content-type": "application/json"}
    )
    assert error_of(answer, 413)["type"] == "body_too_large"


def test_a_body_within_the_limit_passes_whole(small_body_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"position": "Kh Kd Kc | Qh Qd Qc | '
        yield b'Jh Jd Jc / Ac"}'

    answer = small_body_client.post(
        "/v1/hint", content=chunks(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 200 and answer.json()["goes_out"] is True


# --- the pool through the API ----------------------------------------------------------


def test_a_full_pool_answers_503_with_retry_after_and_recovers() -> None:
    settings = Settings(executor="thread", workers=1, queue=0, retry_after=7)
    app = create_app(settings)
    pool: SolvePool = app.state.pool
    release = threading.Event()
    with TestClient(app) as client:
        blocker = threading.Thread(target=pool.run, args=(30.0, release.wait, 30.0))
        blocker.start()
        try:
            wait_for(lambda: pool.stats()["running"] == 1)
            checked = {**WORKED, "after": "Kh Kd Kc"}
            for path, body in (("/v1/hint", WORKED), ("/v1/analyze", WORKED), ("/v1/check", checked)):
                answer = client.post(path, json=body)
                assert answer.headers["retry-after"] == "7"
                assert error_of(answer, 503)["type"] == "busy"
            # Meta endpoints need no solver and stay available (checks use the pool: issue 19).
            assert client.get("/healthz").json()["pool"]["running"] == 1
        finally:
            release.set()
            blocker.join()
        wait_for(lambda: pool.stats()["running"] == 0)
        assert client.post("/v1/hint", json=WORKED).status_code == 200


def test_bad_input_is_refused_before_it_takes_a_pool_slot() -> None:
    app = create_app(Settings(executor="thread", workers=1, queue=1))
    pool: SolvePool = app.state.pool
    release = threading.Event()
    with TestClient(app) as client:
        blocker = threading.Thread(target=pool.run, args=(30.0, release.wait, 30.0))
        blocker.start()
        try:
            wait_for(lambda: pool.stats()["running"] == 1)
            assert error_of(client.post("/v1/hint", json={"position": "Xx / 2c"}), 422)["type"] == "notation"
            assert pool.stats()["waiting"] == 0
        finally:
            release.set()
            blocker.join()


def test_a_full_pool_refuses_before_reading_the_request() -> None:
    """Under overload a refusal must be cheap: even a body that is not JSON gets the 503."""
    app = create_app(Settings(executor="thread", workers=1, queue=0))
    pool: SolvePool = app.state.pool
    release = threading.Event()
    with TestClient(app) as client:
        blocker = threading.Thread(target=pool.run, args=(30.0, release.wait, 30.0))
        blocker.start()
        try:
            wait_for(lambda: pool.stats()["running"] == 1)
            answer = client.post("/v1/hint", content=b"not json", headers=JSON)
            assert error_of(answer, 503)["type"] == "busy" and answer.headers["retry-after"] == "1"
            assert client.get("/v1/variants").status_code == 200
        finally:
            release.set()
            blocker.join()


# --- the pool itself -------------------------------------------------------------------


def test_the_pool_admits_workers_plus_queue_then_refuses() -> None:
    pool = SolvePool(workers=2, queue=1, kind="thread", retry_after=3)
    release = threading.Event()
    callers = [threading.Thread(target=pool.run, args=(30.0, release.wait, 30.0)) for _ in range(3)]
    try:
        for caller in callers:
            caller.start()
        wait_for(lambda: pool.stats() == {"workers": 2, "queue": 1, "running": 2, "waiting": 1})
        with pytest.raises(Busy) as refused:
            pool.run(30.0, time.sleep, 0)
        assert refused.value.status == 503 and refused.value.headers == {"Retry-After": "3"}
    finally:
        release.set()
        for caller in callers:
            caller.join()
        pool.close()
    assert pool.stats()["running"] == 0


def test_a_caller_that_gives_up_keeps_the_slot_until_the_job_ends() -> None:
    pool = SolvePool(workers=1, queue=0, kind="thread", retry_after=1)
    release = threading.Event()
    try:
        with pytest.raises(Busy, match="did not answer"):
            pool.run(0.05, release.wait, 30.0)
        assert pool.stats()["running"] == 1
        with pytest.raises(Busy, match="busy"):
            pool.run(1.0, time.sleep, 0)
        release.set()
        wait_for(lambda: pool.stats()["running"] == 0)
        assert pool.run(5.0, sum, [1, 2]) == 3
    finally:
        release.set()
        pool.close()


def test_a_job_error_reaches_the_caller_and_frees_the_slot() -> None:
    pool = SolvePool(workers=1, queue=0, kind="thread", retry_after=1)
    try:
        with pytest.raises(ZeroDivisionError):
            pool.run(5.0, divmod, 1, 0)
        wait_for(lambda: pool.stats()["running"] == 0)
    finally:
        pool.close()


def test_worker_processes_solve_and_a_dead_worker_is_replaced() -> None:
    app = create_app(Settings(executor="process", workers=1, queue=2))
    pool: SolvePool = app.state.pool
    with TestClient(app) as client:
        answer = client.post("/v1/hint", json=WORKED)
        assert answer.status_code == 200 and answer.json()["moves"]
        error = error_of(client.post("/v1/analyze", json={"position": "/ 2c", "unseen": "2c 2c"}), 422)
        assert error["field"] == "unseen"
        with pytest.raises(Busy, match="died"):
            pool.run(30.0, os._exit, 3)
        wait_for(lambda: pool.stats()["running"] == 0)
        assert client.post("/v1/hint", json=WORKED).status_code == 200
        assert client.post("/v1/analyze", json=WORKED).status_code == 200


# --- settings --------------------------------------------------------------------------


def test_settings_come_from_rummy_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY_WORKERS", "3")
    monkeypatch.setenv("RUMMY_QUEUE", "5")
    monkeypatch.setenv("RUMMY_EXECUTOR", "thread")
    monkeypatch.setenv("RUMMY_MAX_TIME_LIMIT", "4")
    monkeypatch.setenv("RUMMY_DEFAULT_TIME_LIMIT", "1.5")
    settings = Settings()
    assert (settings.workers, settings.queue_size, settings.executor) == (3, 5, "thread")
    with TestClient(create_app()) as client:
        health = client.get("/healthz").json()
        assert health["pool"]["workers"] == 3 and health["pool"]["queue"] == 5
        assert (health["max_time_limit"], health["default_time_limit"]) == (4.0, 1.5)
        error = error_of(client.post("/v1/hint", json={"position": "/ 2c", "time_limit": 4.5}), 422)
        assert "cap of 4 s" in error["message"]


def test_default_settings_are_one_worker_per_core_and_a_short_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("RUMMY_"):
            monkeypatch.delenv(name)
    settings = Settings()
    assert settings.workers == (os.cpu_count() or 1)
    assert settings.queue_size == 4 * settings.workers
    assert settings.executor == "process"
    assert settings.default_time_limit <= settings.max_time_limit <= 10
    assert settings.max_body_bytes == 64 * 1024


@pytest.mark.parametrize(
    "values",
    [
        {"RUMMY_WORKERS": "0"},
        {"RUMMY_QUEUE": "-1"},
        {"RUMMY_EXECUTOR": "fork"},
        {"RUMMY_MAX_TIME_LIMIT": "0"},
        {"RUMMY_MAX_TIME_LIMIT": "2", "RUMMY_DEFAULT_TIME_LIMIT": "3"},
    ],
)
def test_bad_settings_are_refused_at_startup(monkeypatch: pytest.MonkeyPatch, values: dict[str, str]) -> None:
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(executor="thread", workers=1))) as made:
        yield made


def test_a_key_given_twice_is_refused_not_taken_last(client: TestClient) -> None:
    """``{"position": "/ Ac", "position": "/ Kc"}`` was answered for ``/ Kc``: a question
    the client may not have meant.  Nested objects are held to it too."""
    headers = {"content-type": "application/json"}
    twice = '{"position": "/ Ac", "position": "/ Kc"}'
    refused = error_of(client.post("/v1/hint", content=twice, headers=headers), 422)
    assert refused["message"] == "the body names the key 'position' twice: give it once"
    nested = '{"turn": 1, "action": {"type": "draw", "type": "knock"}}'
    assert error_of(client.post("/v1/games/x/act", content=nested, headers=headers), 422)["field"] == "body"
    assert client.post("/v1/hint", content='{"position": "/ Ac"}', headers=headers).status_code == 200


def test_an_error_lists_a_bounded_number_of_problems(client: TestClient) -> None:
    """6,000 unknown keys in a body under 64 KB made a 239 KB error answer."""
    body = {"position": "/ Ac", **{f"k{number}": 0 for number in range(6000)}}
    answer = client.post("/v1/hint", json=body)
    refused = error_of(answer, 422)
    assert len(refused["problems"]) == MAX_PROBLEMS and len(answer.content) < 10_000
    assert refused["problems"][-1] == f"and {6000 - MAX_PROBLEMS + 1:,} more problems of the same request"
