"""A bounded pool for solves: a fixed number of workers and a short queue, then 503.

The hint engine spends about half of a mid-size hint building the model in Python
(which holds the GIL) and half in CP-SAT (which releases it), so worker *processes*
scale with cores where threads stop at about one core; threads remain available for
tests and small machines.  Either way every job passes one admission counter: at most
``workers`` jobs run and ``queue`` wait; a request beyond that is refused at once with
``Busy`` (503 + Retry-After) instead of waiting without bound.  A job's slot is freed
when the job really ends, not when its caller stops waiting, so the bound holds even
for callers that gave up; but a caller that gives up (timeout, client gone) *ends* its
job: a queued job is dropped, and a running one has its worker process killed and
replaced (``service.workers``), so the slot frees at once.  Thread workers cannot be
stopped: with them only queued jobs are dropped.

The service keeps two pools, one per *lane* (``service.app``): hints, checks and
analyses (milliseconds each) on one, advice and puzzles (seconds each) on another with
workers of their own at a lower priority, so long work can never take the short work's
workers or queue.  A long job also states the most seconds its work may take (its
budget): the pool keeps a ledger of what runs and waits, and a request that the jobs
ahead, counted at their budgets, would keep waiting longer than ``max_wait`` is refused
at once with a Retry-After of that excess, instead of timing out after the wait.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from service.errors import Busy
from service.settings import ExecutorKind
from service.timing import Timed, current_times, timed_call
from service.workers import JobAbandoned, JobTimeout, WorkerDied, WorkerProcesses, lower_priority, warm_up

__all__ = ["SolvePool"]

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(eq=False)
class _Entry:
    """A job the pool admitted and that has not ended: its budget and when it started."""

    work: float
    admitted: float
    started: float | None = None


class SolvePool:
    """At most ``workers`` jobs at once, ``queue`` more waiting, everything else refused.

    ``watchdog``: seconds a worker process has to take a job or answer a ping before it
    is replaced; ``start_seconds``: how long a new worker process may take to start;
    ``warm``: whether a worker imports and warms up the engine before its first job;
    ``spares``: worker processes started in reserve, so that a replacement is instant;
    ``name``: the lane, in messages and metrics; ``niceness``: the workers' priority
    (``service.workers.lower_priority``); ``max_wait``: seconds a job given with its budget
    (``run_within``) may wait for a worker before it starts.
    """

    def __init__(
        self,
        *,
        workers: int,
        queue: int,
        kind: ExecutorKind,
        retry_after: int,
        watchdog: float = 5.0,
        start_seconds: float = 120.0,
        warm: bool = True,
        spares: int = 1,
        name: str = "short",
        niceness: int = 0,
        max_wait: float | None = None,
        grace: float = 30.0,
    ) -> None:
        self.name = name
        self.niceness = niceness
        self.max_wait = max_wait
        self.grace = grace
        self.workers = workers
        self.queue = queue
        self.kind = kind
        self.retry_after = retry_after
        self.watchdog = watchdog
        self.start_seconds = start_seconds
        self.warm = warm
        self.spares = spares
        self._capacity = workers + queue
        self._pending = 0
        self._lock = threading.Lock()
        self._threads: ThreadPoolExecutor | None = None
        self._processes: WorkerProcesses | None = None
        self._ledger: set[_Entry] = set()
        self.refused: dict[str, int] = {"full": 0, "wait": 0}
        """Requests refused with 503 before they ran, by reason: the pool and its queue
        were full, or the jobs ahead would have kept it waiting past ``max_wait``."""
        self.failed: dict[str, int] = {"timeout": 0, "died": 0, "stopped": 0}
        """Admitted jobs that ended in a 503: past their time, their worker died, stopped."""

    def _executor(self) -> ThreadPoolExecutor | WorkerProcesses:
        with self._lock:
            if self.kind == "thread":
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(
                        max_workers=self.workers,
                        thread_name_prefix=f"solve-{self.name}",
                        initializer=lower_priority,
                        initargs=(self.niceness,),
                    )
                return self._threads
            if self._processes is None:
                self._processes = WorkerProcesses(
                    self.workers,
                    watchdog=self.watchdog,
                    ping_interval=self.watchdog,
                    start_seconds=self.start_seconds,
                    warm=self.warm,
                    spares=self.spares,
                    niceness=self.niceness,
                )
            return self._processes

    @property
    def processes(self) -> WorkerProcesses | None:
        """The worker processes (None with thread workers or before the first job)."""
        return self._processes

    def start(self) -> None:
        """Create the workers and warm each one up (the first job would otherwise pay it)."""
        executor = self._executor()
        if isinstance(executor, WorkerProcesses):
            executor.wait_ready(self.start_seconds)
            return
        if not self.warm:
            return
        futures = [executor.submit(warm_up) for _ in range(self.workers)]
        for future in futures:
            future.result()

    def close(self) -> None:
        """Stop the workers: queued jobs are cancelled; running jobs are stopped (processes)
        or waited for (threads, within their time limit)."""
        with self._lock:
            threads, self._threads = self._threads, None
            processes, self._processes = self._processes, None
        if threads is not None:
            threads.shutdown(wait=True, cancel_futures=True)
        if processes is not None:
            processes.shutdown()

    def stats(self) -> dict[str, int]:
        """Sizes and current load, for the health endpoint."""
        with self._lock:
            pending = self._pending
        return {
            "workers": self.workers,
            "queue": self.queue,
            "running": min(pending, self.workers),
            "waiting": max(pending - self.workers, 0),
        }

    def replaced(self) -> int:
        """Worker processes started in place of one that died, froze or had its job stopped."""
        processes = self._processes
        return processes.replaced if processes is not None else 0

    def busy(self) -> Busy:
        """The error for a request that finds the pool full (counted as refused)."""
        with self._lock:
            self.refused["full"] += 1
        workers = f"{self.workers} solver worker" + ("s are" if self.workers != 1 else " is")
        if self.name != "short":
            workers = f"{self.workers} {self.name}-job worker" + ("s are" if self.workers != 1 else " is")
        return Busy(
            f"all {workers} busy and {self.queue} requests are waiting; retry after {self.retry_after} s",
            retry_after=self.retry_after,
        )

    def expected_wait(self) -> float:
        """Seconds a job admitted now would wait for a worker at most, counting every job
        ahead at its whole budget (running ones from when they started)."""
        with self._lock:
            return self._expected_wait(time.monotonic())

    def _expected_wait(self, now: float) -> float:
        free_at = [
            max(now, entry.started + entry.work) for entry in self._ledger if entry.started is not None
        ]
        free_at.sort()
        free_at = free_at[: self.workers]
        free_at += [now] * (self.workers - len(free_at))
        heapq.heapify(free_at)
        waiting = sorted((entry for entry in self._ledger if entry.started is None), key=lambda e: e.admitted)
        for entry in waiting:
            heapq.heappush(free_at, heapq.heappop(free_at) + entry.work)
        return free_at[0] - now

    def _too_long(self, wait: float, max_wait: float) -> Busy:
        self.refused["wait"] += 1
        retry = max(self.retry_after, math.ceil(wait - max_wait))
        return Busy(
            f"the {self.name} jobs ahead may take {wait:.0f} s before this one could start, "
            f"more than this server's {max_wait:g} s; retry after {retry} s",
            retry_after=retry,
        )

    def full(self) -> bool:
        """Whether a job submitted now would be refused (a hint, not a reservation)."""
        with self._lock:
            return self._pending >= self._capacity

    def _admit(self, work: float | None) -> _Entry:
        """Count the job in, or raise ``Busy``: the pool is full, or (``work`` given, and a
        ``max_wait``) the jobs ahead would keep it waiting too long."""
        with self._lock:
            now = time.monotonic()
            full = self._pending >= self._capacity
            if not full and work is not None and self.max_wait is not None:
                wait = self._expected_wait(now)
                if wait > self.max_wait:
                    raise self._too_long(wait, self.max_wait)
            entry = _Entry(work=work if work is not None else 0.0, admitted=now)
            if not full:
                self._pending += 1
                self._ledger.add(entry)
        if full:  # busy() takes the lock to count the refusal
            raise self.busy()
        return entry

    def _release(self, entry: _Entry) -> None:
        with self._lock:
            self._pending -= 1
            self._ledger.discard(entry)

    def _started(self, entry: _Entry) -> None:
        entry.started = time.monotonic()

    def _submit(
        self, seconds: float, work: float | None, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Future[Timed[T]], _Entry]:
        """Admit the job and queue it for a worker (run through ``timed_call``), or raise ``Busy``."""
        entry = self._admit(work)
        try:
            executor = self._executor()
            if isinstance(executor, WorkerProcesses):
                future: Future[Timed[T]] = executor.submit(
                    seconds, timed_call, (function, *args), kwargs, on_start=lambda: self._started(entry)
                )
            else:
                future = executor.submit(
                    _mark_started,
                    self._started,
                    entry,
                    functools.partial(timed_call, function, *args, **kwargs),
                )
        except RuntimeError:  # shut down meanwhile
            self._release(entry)
            raise Busy("the solver pool is shutting down; retry", retry_after=self.retry_after) from None
        future.add_done_callback(lambda _: self._release(entry))
        return future, entry

    def _unwrap(self, timed: Timed[T], entry: _Entry) -> T:
        """The job's result; its times go to the request's ``RequestTimes``, if any."""
        times = current_times.get()
        if times is not None:
            ended = time.monotonic()
            started = entry.started if entry.started is not None else entry.admitted
            times.lane = self.name
            times.queue_ms = (started - entry.admitted) * 1000
            times.worker_ms = timed.worker_ms
            times.transfer_ms = max((ended - started) * 1000 - timed.worker_ms, 0.0)
            times.phases.update(timed.phases)
        return timed.result

    def _abandon(self, future: Future[Any]) -> None:
        """The caller stopped waiting: drop the job, or stop it where it runs (processes)."""
        processes = self._processes
        if processes is not None and self.kind == "process":
            processes.abandon(future)
        else:
            future.cancel()  # a thread cannot be stopped: only a queued job is dropped

    def _count(self, reason: str) -> None:
        with self._lock:
            self.failed[reason] += 1

    def _late(self, timeout: float) -> Busy:
        self._count("timeout")
        return Busy(f"the solver did not answer within {timeout:g} s", retry_after=self.retry_after)

    def _failed(self, error: Exception, timeout: float) -> Busy:
        if isinstance(error, JobTimeout):
            return self._late(timeout)
        if isinstance(error, WorkerDied):
            self._count("died")
            return Busy("a solver worker died; retry", retry_after=self.retry_after)
        self._count("stopped")
        return Busy(f"the job was stopped: {error}; retry", retry_after=self.retry_after)

    def run(self, timeout: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` on a worker and return its result, or raise ``Busy``.

        Busy when the pool is full, when the job does not finish within ``timeout``
        seconds (the job is then stopped), or when its worker process died.  Exceptions
        of the job itself propagate unchanged.
        """
        future, entry = self._submit(timeout, None, function, *args, **kwargs)
        try:
            return self._unwrap(future.result(timeout=timeout), entry)
        except FutureTimeout:
            self._abandon(future)
            raise self._late(timeout) from None
        except (JobTimeout, WorkerDied, JobAbandoned) as error:
            raise self._failed(error, timeout) from None
        except CancelledError:  # dropped from the queue: the pool is closing
            raise Busy("the solver pool is shutting down; retry", retry_after=self.retry_after) from None

    async def run_async(
        self, timeout: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``run`` for the event loop: the caller waits without holding a thread.

        A request handler that only parses and then waits should not occupy one of the
        server's threads for the length of a solve: with many requests waiting, those
        threads would fight over the GIL with the threads that do real work.  When the
        caller goes away (timeout, or the task is cancelled because the client
        disconnected) the job is abandoned: dropped if it waits, stopped if it runs.
        """
        return await self._await(*self._submit(timeout, None, function, *args, **kwargs), timeout)

    async def run_within(self, work: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``run_async`` for a job whose work takes at most ``work`` seconds (its budget):
        refused at once (``Busy``) when the jobs ahead would keep it from starting within
        ``max_wait``; once admitted it may take ``work`` + ``max_wait`` + ``grace`` seconds."""
        timeout = work + (self.max_wait or 0.0) + self.grace
        return await self._await(*self._submit(timeout, work, function, *args, **kwargs), timeout)

    async def _await(self, future: Future[Timed[T]], entry: _Entry, timeout: float) -> T:
        try:
            return self._unwrap(await asyncio.wait_for(asyncio.wrap_future(future), timeout), entry)
        except TimeoutError:
            self._abandon(future)
            raise self._late(timeout) from None
        except asyncio.CancelledError:
            self._abandon(future)
            raise
        except (JobTimeout, WorkerDied, JobAbandoned) as error:
            raise self._failed(error, timeout) from None


def _mark_started(started: Callable[[_Entry], None], entry: _Entry, call: Callable[[], T]) -> T:
    """Run ``call`` on a thread worker, noting first that the job has started."""
    started(entry)
    return call()
