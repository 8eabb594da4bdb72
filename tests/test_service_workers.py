"""The solver pool's worker processes under abuse (issue 19, items 1 and 3): real
processes, real signals.  Abandoned jobs free their slot at once, a frozen worker is
replaced within the watchdog's bound, a dead worker fails only its own job.

The workers here skip the engine's warm-up (``warm=False``) so that a replacement
starts in well under a second; the jobs are standard-library functions, which a
spawned worker can unpickle without importing the tests."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest
from service_kit import wait_for

from service.errors import Busy
from service.pool import SolvePool


def busy_caller(pool: SolvePool, timeout: float, seconds: float) -> threading.Thread:
    """A thread whose job sleeps ``seconds`` and must end in Busy (timeout, stop or shutdown)."""

    def call() -> None:
        with pytest.raises(Busy):
            pool.run(timeout, time.sleep, seconds)

    thread = threading.Thread(target=call)
    thread.start()
    return thread


@pytest.fixture
def pool() -> Iterator[SolvePool]:
    pool = SolvePool(workers=2, queue=2, kind="process", retry_after=1, watchdog=0.5, warm=False)
    pool.start()
    try:
        yield pool
    finally:
        pool.close()


def pids(pool: SolvePool) -> list[int | None]:
    assert pool.processes is not None
    return pool.processes.pids()


def test_a_running_job_whose_caller_is_cancelled_is_stopped_and_its_slot_freed(pool: SolvePool) -> None:
    before = pids(pool)

    async def caller_goes_away() -> None:
        job = asyncio.ensure_future(pool.run_async(60.0, time.sleep, 60))
        while pool.stats()["running"] == 0:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the worker has taken it
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job

    asyncio.run(caller_goes_away())
    assert wait_for(lambda: pool.stats()["running"] == 0) < 2.0
    # Its worker was killed and replaced; the other one kept its process.
    wait_for(lambda: pool.replaced() == 1)
    assert len(set(pids(pool)) & set(before)) == 1
    assert pool.run(10.0, sum, [1, 2]) == 3


def test_a_spare_worker_replaces_a_stopped_one_at_once() -> None:
    pool = SolvePool(workers=1, queue=1, kind="process", retry_after=1, watchdog=0.5, warm=False, spares=1)
    pool.start()
    try:
        assert pool.processes is not None
        processes = pool.processes
        wait_for(lambda: processes.spares_ready() == 1)
        spare = processes._spares[0][0].pid
        with pytest.raises(Busy, match="did not answer"):
            pool.run(0.3, time.sleep, 60)
        start = time.monotonic()
        assert pool.run(10.0, sum, [1, 2]) == 3
        assert time.monotonic() - start < 1.0  # no process start in between
        assert pids(pool) == [spare]
        wait_for(lambda: processes.spares_ready() == 1)  # the reserve is refilled
    finally:
        pool.close()


def test_a_queued_job_whose_caller_is_cancelled_leaves_the_queue_at_once(pool: SolvePool) -> None:
    release = [busy_caller(pool, 4.0, 60) for _ in range(2)]  # both workers busy
    wait_for(lambda: pool.stats()["running"] == 2)

    async def queued_then_gone() -> None:
        job = asyncio.ensure_future(pool.run_async(60.0, time.sleep, 60))
        for _ in range(40):  # queued within moments, however loaded the machine
            await asyncio.sleep(0.05)
            if pool.stats()["waiting"] == 1:
                break
        assert pool.stats()["waiting"] == 1
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        assert pool.stats()["waiting"] == 0

    asyncio.run(queued_then_gone())
    for thread in release:
        thread.join()


def test_a_job_past_its_deadline_is_stopped_and_frees_its_slot(pool: SolvePool) -> None:
    start = time.monotonic()
    with pytest.raises(Busy, match=r"did not answer within 0\.5 s"):
        pool.run(0.5, time.sleep, 60)
    assert wait_for(lambda: pool.stats()["running"] == 0) < 2.0
    assert time.monotonic() - start < 3.0
    assert pool.run(10.0, sum, [2, 3]) == 5


def test_a_frozen_idle_worker_is_replaced_and_requests_keep_being_answered(pool: SolvePool) -> None:
    frozen = pids(pool)[0]
    assert frozen is not None
    os.kill(frozen, signal.SIGSTOP)
    try:
        start = time.monotonic()
        for number in range(6):
            assert pool.run(10.0, sum, [number, 1]) == number + 1
        # At worst one job waited the watchdog's 0.5 s for the frozen worker, then went elsewhere.
        assert time.monotonic() - start < 3.0
        wait_for(lambda: pool.replaced() >= 1)
        assert frozen not in pids(pool)
        assert pool.processes is not None and pool.processes.frozen >= 1
    finally:
        with contextlib.suppress(ProcessLookupError):  # the pool killed it; else do not leave it stopped
            os.kill(frozen, signal.SIGKILL)


def test_a_worker_frozen_before_taking_a_job_hands_the_job_on() -> None:
    pool = SolvePool(workers=1, queue=1, kind="process", retry_after=1, watchdog=0.5, warm=False)
    pool.start()
    try:
        frozen = pids(pool)[0]
        assert frozen is not None
        os.kill(frozen, signal.SIGSTOP)
        start = time.monotonic()
        assert pool.run(15.0, sum, [4, 5]) == 9  # answered by the replacement
        assert time.monotonic() - start < 10.0
        assert frozen not in pids(pool)
    finally:
        pool.close()


def test_a_dead_worker_fails_only_its_own_job(pool: SolvePool) -> None:
    before = pids(pool)
    outcome: dict[str, object] = {}

    def healthy() -> None:
        start = time.monotonic()
        outcome["value"] = pool.run(10.0, time.sleep, 1.5)
        outcome["seconds"] = time.monotonic() - start

    thread = threading.Thread(target=healthy)
    thread.start()
    wait_for(lambda: pool.stats()["running"] == 1)
    time.sleep(0.2)
    with pytest.raises(Busy, match="died"):
        pool.run(10.0, os._exit, 3)
    thread.join()
    assert outcome["value"] is None and 1.4 < float(str(outcome["seconds"])) < 5.0  # it ran to its end
    wait_for(lambda: None not in pids(pool))
    assert len(set(pids(pool)) & set(before)) == 1  # only the dead one was replaced
    assert pool.run(10.0, sum, [1, 1]) == 2


def test_a_killed_idle_worker_is_replaced(pool: SolvePool) -> None:
    victim = pids(pool)[1]
    assert victim is not None
    os.kill(victim, signal.SIGKILL)
    wait_for(lambda: victim not in pids(pool) and None not in pids(pool))
    assert [pool.run(10.0, sum, [n]) for n in range(4)] == [0, 1, 2, 3]


def test_closing_the_pool_stops_running_jobs_promptly() -> None:
    pool = SolvePool(workers=1, queue=1, kind="process", retry_after=1, watchdog=0.5, warm=False)
    pool.start()
    caller = busy_caller(pool, 60.0, 60)
    wait_for(lambda: pool.stats()["running"] == 1)
    start = time.monotonic()
    pool.close()
    caller.join(10)
    assert not caller.is_alive() and time.monotonic() - start < 5.0


def test_a_close_that_lands_as_a_job_starts_still_stops_it() -> None:
    """The pool closing between a job's start and its slot's first look at the wake-up
    pipe: that look drained the close's wake-up, and the job ran its whole minute (a CI
    run under load hit it).  The close here lands exactly there, from the start hook."""
    from service.workers import JobAbandoned, WorkerProcesses

    processes = WorkerProcesses(1, watchdog=0.5, ping_interval=0.5, start_seconds=60, warm=False, spares=0)
    processes.wait_ready(60)

    def close_now() -> None:
        with processes._lock:
            processes.closing = True
        for slot in processes.slots:
            slot.wake()

    start = time.monotonic()
    future = processes.submit(60.0, time.sleep, (60,), {}, on_start=close_now)
    try:
        with pytest.raises(JobAbandoned, match="shutting down"):
            future.result(timeout=20)
        assert time.monotonic() - start < 20
    finally:
        processes.shutdown()


def test_a_warm_worker_freezes_what_it_holds_after_warming_up() -> None:
    """After its warm-up (the engine, the catalogue, OR-Tools) a worker freezes its heap,
    so that no garbage collection walks those objects in the middle of a job (about
    100,000 objects measured; a worker without the warm-up holds about 15,000)."""
    pool = SolvePool(workers=1, queue=1, kind="process", retry_after=1, watchdog=5.0, warm=True)
    pool.start()
    try:
        frozen = pool.run(30.0, gc.get_freeze_count)
    finally:
        pool.close()
    assert isinstance(frozen, int) and frozen > 50_000
