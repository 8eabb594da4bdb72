"""A bounded pool for solves: a fixed number of workers and a short queue, then 503.

The hint engine spends about half of a mid-size hint building the model in Python
(which holds the GIL) and half in CP-SAT (which releases it), so worker *processes*
scale with cores where threads stop at about one core; threads remain available for
tests and small machines.  Either way every job passes one admission counter: at most
``workers`` jobs run and ``queue`` wait; a request beyond that is refused at once with
``Busy`` (503 + Retry-After) instead of waiting without bound.  A job's slot is freed
when the job really ends, not when its caller stops waiting, so the bound holds even
for callers that gave up.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

from service.errors import Busy
from service.settings import ExecutorKind

__all__ = ["SolvePool"]

P = ParamSpec("P")
T = TypeVar("T")


def _init_worker(server_pid: int) -> None:
    """Set up a worker process: Ctrl-C is the server's to handle (it shuts the pool down),
    and the worker exits when the server is gone, however it died, instead of lingering."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _warm_up() -> bool:
    """Import the engine and build its catalogue once, so the first real job is not slow."""
    from solver.engine import hint
    from solver.position import Position

    hint(Position.parse("/ 7h 8h 9h"), time_limit=1.0)
    return True


class SolvePool:
    """At most ``workers`` jobs at once, ``queue`` more waiting, everything else refused."""

    def __init__(self, *, workers: int, queue: int, kind: ExecutorKind, retry_after: int) -> None:
        self.workers = workers
        self.queue = queue
        self.kind = kind
        self.retry_after = retry_after
        self._capacity = workers + queue
        self._pending = 0
        self._lock = threading.Lock()
        self._executor: Executor | None = None

    def _new_executor(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="solve")
        # spawn, not fork: the server process has threads, and forking those is unsafe.
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(),)
        )

    def _get_executor(self) -> Executor:
        with self._lock:
            if self._executor is None:
                self._executor = self._new_executor()
            return self._executor

    def start(self) -> None:
        """Create the workers and warm each one up (the first job would otherwise pay it)."""
        executor = self._get_executor()
        futures = [executor.submit(_warm_up) for _ in range(self.workers)]
        for future in futures:
            future.result()

    def close(self) -> None:
        """Stop the workers: queued jobs are cancelled, running ones end (within their time limit)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

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

    def _broken(self, executor: Executor) -> None:
        """Replace a pool whose worker process died, so later requests work again."""
        with self._lock:
            if self._executor is executor:
                self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)

    def _submit(
        self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> tuple[Future[T], Executor]:
        """Admit the job and hand it to a worker, or raise ``Busy``."""
        self._admit()
        executor = self._get_executor()
        try:
            future: Future[T] = executor.submit(function, *args, **kwargs)
        except (BrokenProcessPool, RuntimeError):
            self._release()
            self._broken(executor)
            raise Busy("the solver pool was restarting; retry", retry_after=self.retry_after) from None
        future.add_done_callback(self._release)
        return future, executor

    def _late(self, timeout: float) -> Busy:
        return Busy(f"the solver did not answer within {timeout:g} s", retry_after=self.retry_after)

    def _died(self, executor: Executor) -> Busy:
        self._broken(executor)
        return Busy("a solver worker died; retry", retry_after=self.retry_after)

    def run(self, timeout: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` on a worker and return its result, or raise ``Busy``.

        Busy when the pool is full, when the job does not finish within ``timeout``
        seconds, or when its worker process died.  Exceptions of the job itself
        propagate unchanged.
        """
        future, executor = self._submit(function, *args, **kwargs)
        try:
            return future.result(timeout=timeout)
        except FutureTimeout:
            future.cancel()
            raise self._late(timeout) from None
        except BrokenProcessPool:
            raise self._died(executor) from None

    async def run_async(
        self, timeout: float, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``run`` for the event loop: the caller waits without holding a thread.

        A request handler that only parses and then waits should not occupy one of the
        server's threads for the length of a solve: with many requests waiting, those
        threads would fight over the GIL with the threads that do real work.  A job not
        yet started when its caller goes away (timeout, client disconnect) is cancelled.
        """
        future, executor = self._submit(function, *args, **kwargs)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            raise self._late(timeout) from None
        except BrokenProcessPool:
            raise self._died(executor) from None
