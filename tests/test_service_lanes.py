"""Long work cannot starve short work: advice and puzzles run on a pool of their own (the
long lane), with its own workers, queue and a lower priority, and a long job that could not
start within the lane's wait is refused at once with 503 and Retry-After."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from service_kit import wait_for

from service import create_app
from service.app import LONG_PATHS, SHORT_PATHS
from service.errors import Busy
from service.pool import SolvePool
from service.settings import Settings
from service.workers import lower_priority

WORKED = {"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"}
ADVICE = {"position": "5h 6h 7h | 9s 9d 9c / 8h 4h Kc Ks Kd 2c", "players": 2, "samples": 8, "seed": 1}


def _within(pool: SolvePool, work: float, function: Callable[..., Any], *args: Any) -> Any:
    """``pool.run_within`` called from a plain thread (it is a coroutine)."""

    async def call() -> Any:
        return await pool.run_within(work, function, *args)

    return anyio.run(call)


def test_every_solving_path_has_one_lane() -> None:
    assert SHORT_PATHS.isdisjoint(LONG_PATHS)
    assert {"/v1/hint", "/v1/analyze", "/v1/check"} <= SHORT_PATHS
    assert {"/v1/advise", "/v1/puzzles"} <= LONG_PATHS


def test_hints_are_answered_while_the_long_lane_is_full() -> None:
    """Advice fills its own workers and queue; hints still get their answers, and the next
    advice request is refused at once instead of waiting for a worker."""
    settings = Settings(executor="thread", workers=1, queue=1, long_workers=1, long_queue=0)
    app = create_app(settings)
    long_pool: SolvePool = app.state.long_pool
    release = threading.Event()
    with TestClient(app) as client:
        blocker = threading.Thread(target=_within, args=(long_pool, 5.0, release.wait, 30.0))
        blocker.start()
        try:
            wait_for(lambda: long_pool.stats()["running"] == 1)
            for _ in range(3):
                answer = client.post("/v1/hint", json=WORKED)
                assert answer.status_code == 200 and answer.json()["goes_out"] is True
            started = time.monotonic()
            refused = client.post("/v1/advise", json=ADVICE)
            assert refused.status_code == 503 and "Retry-After" in refused.headers
            assert "long-job worker is busy" in refused.json()["error"]["message"]
            assert time.monotonic() - started < 2.0  # refused at once, not after a wait
            puzzles = client.post("/v1/puzzles", json={"count": 1, "difficulty": "easy", "seed": 1})
            assert puzzles.status_code == 503
        finally:
            release.set()
            blocker.join()
        wait_for(lambda: long_pool.stats()["running"] == 0)
        assert client.post("/v1/advise", json=ADVICE).status_code == 200


def test_a_long_job_that_could_not_start_in_time_is_refused_at_once() -> None:
    """One worker runs a job with a budget of 6 s: a second job (queue room to spare) would
    wait up to 6 s, more than the lane's 2 s wait, so it is refused at once with a
    Retry-After of the excess; with a 10 s wait it is admitted and runs after the first."""
    pool = SolvePool(workers=1, queue=4, kind="thread", retry_after=1, name="long", max_wait=2.0)
    release = threading.Event()
    first = threading.Thread(target=_within, args=(pool, 6.0, release.wait, 30.0))
    try:
        first.start()
        wait_for(lambda: pool.stats()["running"] == 1)
        assert 5.0 < pool.expected_wait() <= 6.0
        started = time.monotonic()
        with pytest.raises(Busy, match="may take 6 s before this one could start") as refused:
            _within(pool, 1.0, sum, [1, 2])
        assert time.monotonic() - started < 1.0
        assert refused.value.status == 503 and int(refused.value.headers["Retry-After"]) in (3, 4)
        assert pool.refused == {"full": 0, "wait": 1}
        pool.max_wait = 10.0
        second: list[Any] = []
        waiter = threading.Thread(target=lambda: second.append(_within(pool, 1.0, sum, [1, 2])))
        waiter.start()
        wait_for(lambda: pool.stats()["waiting"] == 1)
        assert 6.0 < pool.expected_wait() <= 7.0  # the running job's rest, then the queued one
        release.set()
        waiter.join()
        assert second == [3]
    finally:
        release.set()
        first.join()
        pool.close()
    assert pool.stats()["running"] == 0 and pool.expected_wait() == 0.0


def test_the_expected_wait_shares_the_jobs_among_the_workers() -> None:
    """Two workers, three running-or-waiting jobs of 4 s: the first two run at once, the
    third starts when one of them ends; a fourth would start when the next worker frees."""
    pool = SolvePool(workers=2, queue=4, kind="thread", retry_after=1, name="long", max_wait=30.0)
    release = threading.Event()
    callers = [threading.Thread(target=_within, args=(pool, 4.0, release.wait, 30.0)) for _ in range(3)]
    try:
        for caller in callers:
            caller.start()
        wait_for(lambda: pool.stats() == {"workers": 2, "queue": 4, "running": 2, "waiting": 1})
        assert 3.0 < pool.expected_wait() <= 4.0  # the third takes the first free worker
    finally:
        release.set()
        for caller in callers:
            caller.join()
        pool.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")
def test_long_lane_workers_run_at_a_lower_priority() -> None:
    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    app = create_app(Settings(executor="thread", workers=1, long_workers=1, long_nice=7))
    with TestClient(app):
        base = os.getpriority(os.PRIO_PROCESS, 0)
        assert app.state.pool.run(5.0, niceness) == base
        assert _within(app.state.long_pool, 5.0, niceness) == min(base + 7, 19)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="niceness via os.nice")
def test_long_lane_worker_processes_run_at_a_lower_priority() -> None:
    pool = SolvePool(workers=1, queue=1, kind="process", retry_after=1, warm=False, spares=0, niceness=5)
    try:
        pool.start()
        base = os.getpriority(os.PRIO_PROCESS, 0)
        assert pool.run(30.0, os.nice, 0) == min(base + 5, 19)
    finally:
        pool.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness")
def test_a_lane_is_lowered_from_the_priority_it_has() -> None:
    """``lower_priority`` counts its steps from the thread's own niceness: a server started
    with ``nice`` keeps its long lane below its short one (an absolute 7 would have
    raised a worker started at niceness 9 back to 7, where allowed)."""
    seen: list[int] = []

    def body() -> None:
        thread = threading.get_native_id()
        start = os.getpriority(os.PRIO_PROCESS, thread) + 2
        os.setpriority(os.PRIO_PROCESS, thread, start)  # raising niceness is always allowed
        lower_priority(5)
        seen.extend([start, os.getpriority(os.PRIO_PROCESS, thread)])

    worker = threading.Thread(target=body)
    worker.start()
    worker.join()
    start, now = seen
    assert now == min(start + 5, 19)
