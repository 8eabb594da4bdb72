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
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, ParamSpec, TypeVar

from service.errors import Busy
from service.settings import ExecutorKind
from service.workers import JobAbandoned, JobTimeout, WorkerDied, WorkerProcesses, warm_up

__all__ = ["SolvePool"]

P = ParamSpec("P")
T = TypeVar("T")


class SolvePool:
    """At most ``workers`` jobs at once, ``queue`` more waiting, everything else refused.

    ``watchdog``: seconds a worker process has to take a job or answer a ping before it
    is replaced; ``start_seconds``: how long a new worker process may take to start;
    ``warm``: whether a worker imports and warms up the engine before its first job;
    ``spares``: worker processes started in reserve, so that a replacement is instant.
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
    ) -> None:
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

    def _executor(self) -> ThreadPoolExecutor | WorkerProcesses:
        with self._lock:
            if self.kind == "thread":
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="solve")
                return self._threads
            if self._processes is None:
                self._processes = WorkerProcesses(
                    self.workers,
                    watchdog=self.watchdog,
                    ping_interval=self.watchdog,
                    start_seconds=self.start_seconds,
                    warm=self.warm,
                    spares=self.spares,
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
        """The error for a request that finds the pool full."""
        return Busy(
            f"all {self.workers} solver workers are busy and {self.queue} requests are waiting; "
            f"retry after {self.retry_after} s",
            retry_after=self.retry_after,
        )

    def full(self) -> bool:
        """Whether a job submitted now would be refused (a hint, not a reservation)."""
        with self._lock:
            return self._pending >= self._capacity

    def _admit(self) -> None:
        with self._lock:
            if self._pending >= self._capacity:
                raise self.busy()
            self._pending += 1

    def _release(self, _: object = None) -> None:
        with self._lock:
            self._pending -= 1

    def _submit(
        self, seconds: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> Future[T]:
        """Admit the job and queue it for a worker, or raise ``Busy``."""
        self._admit()
        try:
            executor = self._executor()
            if isinstance(executor, WorkerProcesses):
                future: Future[T] = executor.submit(seconds, function, *args, **kwargs)
            else:
                future = executor.submit(function, *args, **kwargs)
        except RuntimeError:  # shut down meanwhile
            self._release()
            raise Busy("the solver pool is shutting down; retry", retry_after=self.retry_after) from None
        future.add_done_callback(self._release)
        return future

    def _abandon(self, future: Future[Any]) -> None:
        """The caller stopped waiting: drop the job, or stop it where it runs (processes)."""
        processes = self._processes
        if processes is not None and self.kind == "process":
            processes.abandon(future)
        else:
            future.cancel()  # a thread cannot be stopped: only a queued job is dropped

    def _late(self, timeout: float) -> Busy:
        return Busy(f"the solver did not answer within {timeout:g} s", retry_after=self.retry_after)

    def _failed(self, error: Exception, timeout: float) -> Busy:
        if isinstance(error, JobTimeout):
            return self._late(timeout)
        if isinstance(error, WorkerDied):
            return Busy("a solver worker died; retry", retry_after=self.retry_after)
        return Busy(f"the job was stopped: {error}; retry", retry_after=self.retry_after)

    def run(self, timeout: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` on a worker and return its result, or raise ``Busy``.

        Busy when the pool is full, when the job does not finish within ``timeout``
        seconds (the job is then stopped), or when its worker process died.  Exceptions
        of the job itself propagate unchanged.
        """
        future = self._submit(timeout, function, *args, **kwargs)
        try:
            return future.result(timeout=timeout)
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
        future = self._submit(timeout, function, *args, **kwargs)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            self._abandon(future)
            raise self._late(timeout) from None
        except asyncio.CancelledError:
            self._abandon(future)
            raise
        except (JobTimeout, WorkerDied, JobAbandoned) as error:
            raise self._failed(error, timeout) from None
