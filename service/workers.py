"""Solver worker processes that can be stopped one at a time.

``concurrent.futures.ProcessPoolExecutor`` cannot stop one job: a job that is running
can only be waited for, and a worker that dies or is killed breaks the whole pool,
failing the jobs of every other worker.  Its workers also share one call queue, so a
worker frozen while reading it (SIGSTOP) stalls them all.  Here every worker is a
process of its own with its own pipe and a thread in the server that drives it:

- a job whose caller is gone is *abandoned*: taken off the queue if it waits, or its
  worker is killed and replaced if it runs, so its slot frees at once;
- a worker that does not acknowledge a job or answer a ping within ``watchdog``
  seconds (frozen, swapped out) is killed and replaced; the job it had not taken goes
  back to the front of the queue for another worker;
- a job that runs past its deadline is stopped the same way;
- a worker that dies fails only the job it was running, and only it is replaced.

A replacement is a fresh process (spawned, not forked: the server has threads) that
imports and warms up the engine before it takes a job.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

__all__ = ["JobAbandoned", "JobTimeout", "WorkerDied", "WorkerProcesses", "lower_priority", "warm_up"]


class WorkerDied(Exception):
    """The worker process running the job died (killed, crashed, out of memory)."""


class JobTimeout(Exception):
    """The job ran past its deadline; its worker was stopped."""


class JobAbandoned(Exception):
    """The job's caller went away; the job was stopped."""


def _watch_server(server_pid: int) -> None:
    """Exit when the server is gone, however it died, instead of lingering."""
    while os.getppid() == server_pid:
        time.sleep(0.5)
    os._exit(0)


_PING = b"ping"
_STOP = b"stop"


def warm_up() -> None:
    """Import the engine and the jobs, build the catalogue, load OR-Tools and make one
    plan (about 0.6 s), so the first real job, and the first that needs CP-SAT, is not slow."""
    from service.jobs import hint_job  # what the jobs need, FastAPI's error types included
    from solver.engine import hint
    from solver.position import Position
    from solver.variants import Variant

    hint(Position.parse("/ 7h 8h 9h"), time_limit=1.0, fast_path=False)
    # A whole hint job: the search, and the plan of a rearranging play (its first call
    # imports SciPy's assignment solver, about 0.2 s).
    worked = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
    hint_job(
        worked, Variant.manipulation(), objective="points", keep_jokers=False, opened=True, time_limit=1.0
    )


def lower_priority(niceness: int) -> None:
    """Run the calling thread (and, in a new process, the whole worker) ``niceness`` steps
    below the priority it has (at most 19): the operating system then gives the cores to
    the hints' workers first.  The steps are relative, so a server started with ``nice``
    keeps its long lane below its short one (an absolute value would *raise* the
    priority of a worker whose server runs at a niceness above it, where allowed).  On
    Linux niceness is per thread, so a thread worker can be niced too; where the call is
    not available or not allowed, the worker keeps its priority."""
    if niceness <= 0:
        return
    with contextlib.suppress(AttributeError, OSError):
        thread = threading.get_native_id()
        now = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(now + niceness, 19))


def _worker_main(conn: Connection, server_pid: int, warm: bool, niceness: int = 0) -> None:
    """A worker's life: say ready, then answer pings and run jobs one at a time.

    A job arrives as bytes and is acknowledged *before* it is unpickled: unpickling may
    import modules for seconds, which is the job's time, not a sign of a frozen worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    lower_priority(niceness)
    threading.Thread(target=_watch_server, args=(server_pid,), name="server-watch", daemon=True).start()
    if warm:
        warm_up()
    # What the worker holds now (the imports, OR-Tools, the catalogue) lives as long as it
    # does: frozen, it is left out of every garbage collection.  A full collection would
    # otherwise walk over 100,000 objects (about 60 ms, measured) in the middle of a job.
    gc.collect()
    gc.freeze()
    conn.send(("ready", None))
    while True:
        try:
            message = conn.recv_bytes()
        except EOFError:
            return
        if message == _PING:
            conn.send(("pong", None))
            continue
        if message == _STOP:
            return
        conn.send(("taken", None))
        try:
            function, args, kwargs = pickle.loads(message)
            reply: tuple[str, Any] = ("ok", function(*args, **kwargs))
        except BaseException as error:
            reply = ("error", error)
        try:
            conn.send(reply)
        except Exception as error:  # an unpicklable result or exception
            conn.send(("error", RuntimeError(f"the job's answer could not be sent back: {error!r}")))


def _end(process: BaseProcess, conn: Connection) -> None:
    """Stop an idle worker: ask it to exit, then make sure."""
    with contextlib.suppress(OSError):
        conn.send_bytes(_STOP)
    process.join(2)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        process.kill()
    process.join(5)
    conn.close()


@dataclass(eq=False)
class _Job:
    future: Future[Any]
    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    seconds: float
    started: bool = False  # the future is marked running
    abandoned: bool = False
    slot: _Slot | None = None  # the slot that holds it, None while queued
    tries: int = 0
    on_start: Callable[[], None] | None = None  # told once, when a worker first takes it


def _settle(future: Future[Any], *, result: Any = None, error: BaseException | None = None) -> None:
    """Set a future's outcome unless it already has one (a race with cancellation)."""
    with contextlib.suppress(Exception):  # InvalidStateError: already settled
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


class _Slot:
    """One worker process and the server thread that feeds it."""

    def __init__(self, owner: WorkerProcesses, number: int) -> None:
        self.owner = owner
        self.number = number
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._wake_lock = threading.Lock()
        self.thread = threading.Thread(target=self._serve, name=f"solve-worker-{number}", daemon=True)

    # --- signals from other threads ----------------------------------------------------

    def wake(self) -> None:
        with self._wake_lock:
            if self._wake_w < 0:  # stopped: the descriptor may belong to another file by now
                return
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"!")

    def _drain(self) -> None:
        os.set_blocking(self._wake_r, False)
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._wake_r, 512):
                pass

    @property
    def pid(self) -> int | None:
        process = self.process
        return process.pid if process is not None else None

    # --- the process -------------------------------------------------------------------

    def _spawn(self) -> bool:
        """Give this slot a ready worker (a spare if one waits, else a new one); False if the
        pool is closing."""
        owner = self.owner
        while not owner.closing:
            spare = owner.take_spare()
            started = spare or owner.launch(f"rummy-solver-{self.number}")
            if started is not None:
                self.process, self.conn = started
                owner.note_started(self)
                self.ready.set()
                return True
            if owner.closing:
                break
            self.failure = RuntimeError(f"a solver worker did not start within {owner.start_seconds:g} s")
            self.ready.set()  # start() reports the failure; this thread keeps trying
            time.sleep(min(owner.watchdog, 1.0))
        return False

    def _kill(self) -> None:
        process, conn = self.process, self.conn
        self.process = self.conn = None
        self.ready.clear()
        if process is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()  # SIGKILL: works on a stopped process too
            process.join(5)
            with contextlib.suppress(ValueError):
                process.close()
        if conn is not None:
            conn.close()

    def _receive(self, seconds: float) -> tuple[str, Any] | None:
        """The worker's next message within ``seconds``: None when nothing came in time,
        ``("died", None)`` when the worker is gone, ``("woken", None)`` when this slot was
        woken (the caller re-checks why)."""
        conn, process = self.conn, self.process
        assert conn is not None and process is not None
        ready = wait([conn, process.sentinel, self._wake_r], timeout=max(seconds, 0.0))
        if conn in ready:
            try:
                message: tuple[str, Any] = conn.recv()
            except (EOFError, OSError):
                return ("died", None)
            return message
        if process.sentinel in ready:
            return ("died", None)
        if self._wake_r in ready:
            self._drain()
            return ("woken", None)
        return None

    def _ping(self) -> bool:
        """Whether the idle worker answers a ping within the watchdog's bound."""
        assert self.conn is not None
        try:
            self.conn.send_bytes(_PING)
        except OSError:
            return False
        deadline = time.monotonic() + self.owner.watchdog
        while True:
            reply = self._receive(deadline - time.monotonic())
            if reply is None or reply[0] == "died":
                return False
            if reply[0] == "pong":
                return True
            if self.owner.closing:
                return True

    # --- the loop ----------------------------------------------------------------------

    def _serve(self) -> None:
        owner = self.owner
        try:
            while not owner.closing:
                if self.process is None and not self._spawn():
                    break
                job = owner.take(self, timeout=owner.ping_interval)
                if job is None:
                    if not owner.closing and not self._ping():
                        owner.note_frozen()
                        self._kill()
                    continue
                self._run(job)
        finally:
            self._stop()

    def _run(self, job: _Job) -> None:
        owner = self.owner
        if not job.started:
            if not job.future.set_running_or_notify_cancel():
                owner.forget(job)  # cancelled while it waited
                return
            job.started = True
            if job.on_start is not None:
                job.on_start()
        self._drain()
        # A wake-up this drain swallowed may have been the caller leaving or the pool
        # closing (both can land between the job's start and here): look at both again.
        if job.abandoned or owner.closing:
            reason = "the job's caller went away" if job.abandoned else "the solver pool is shutting down"
            owner.finish(job, error=JobAbandoned(reason))
            return
        job.tries += 1
        assert self.conn is not None
        try:
            message = pickle.dumps((job.function, job.args, job.kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # the job cannot be pickled
            owner.finish(job, error=error)
            return
        try:
            self.conn.send_bytes(message)
        except OSError:
            self._kill()
            owner.requeue(job)
            return
        # The worker must take the job within the watchdog's bound, else it is frozen.
        deadline = time.monotonic() + owner.watchdog
        while True:
            reply = self._receive(deadline - time.monotonic())
            if reply is None or reply[0] == "died":
                if reply is None:
                    owner.note_frozen()
                self._kill()
                owner.requeue(job)
                return
            if reply[0] == "taken":
                break
            if self._stopped(job):
                return
        # Then it must finish within the job's own bound.
        deadline = time.monotonic() + job.seconds
        while True:
            reply = self._receive(deadline - time.monotonic())
            if reply is None:
                self._kill()
                owner.finish(job, error=JobTimeout(f"the job did not finish within {job.seconds:g} s"))
                return
            kind, payload = reply
            if kind == "ok":
                owner.finish(job, result=payload)
                return
            if kind == "error":
                owner.finish(job, error=payload)
                return
            if kind == "died":
                self._kill()
                owner.finish(job, error=WorkerDied("the solver worker running the job died"))
                return
            if self._stopped(job):
                return

    def _stopped(self, job: _Job) -> bool:
        """After a wake-up: stop the job (killing its worker) if it was abandoned or the pool closes."""
        if job.abandoned or self.owner.closing:
            self._kill()
            reason = "the job's caller went away" if job.abandoned else "the solver pool is shutting down"
            self.owner.finish(job, error=JobAbandoned(reason))
            return True
        return False

    def _stop(self) -> None:
        conn = self.conn
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.send_bytes(_STOP)
        process = self.process
        if process is not None:
            process.join(2)
        self._kill()
        self.ready.set()
        with self._wake_lock:
            for fd in (self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._wake_w = -1


class WorkerProcesses:
    """``count`` worker processes fed from one queue; jobs can be abandoned one by one.

    ``watchdog``: seconds a worker has to acknowledge a job or answer a ping;
    ``ping_interval``: how often an idle worker is pinged; ``start_seconds``: how long a
    new worker may take to import and warm up the engine; ``spares``: started workers
    kept in reserve, so that a worker stopped or lost is replaced at once instead of
    after a start (seconds: the engine's imports); ``niceness``: the workers' priority
    (``lower_priority``).
    """

    def __init__(
        self,
        count: int,
        *,
        watchdog: float,
        ping_interval: float,
        start_seconds: float,
        warm: bool = True,
        spares: int = 1,
        niceness: int = 0,
    ) -> None:
        self.watchdog = watchdog
        self.niceness = niceness
        self.ping_interval = ping_interval
        self.start_seconds = start_seconds
        self.warm = warm
        self.context = multiprocessing.get_context("spawn")
        self.closing = False
        self.replaced = 0  # workers started in place of one that died, froze or was stopped
        self.frozen = 0  # workers the watchdog found unresponsive
        self._lock = threading.Lock()
        self._work = threading.Condition(self._lock)
        self._queue: deque[_Job] = deque()
        self._jobs: dict[Future[Any], _Job] = {}
        self._seen: set[int] = set()
        self.spares = spares
        self._spares: list[tuple[BaseProcess, Connection]] = []
        self._spare_wanted = threading.Condition(self._lock)
        self.slots = [_Slot(self, number) for number in range(count)]
        for slot in self.slots:
            slot.thread.start()
        self._spare_keeper = threading.Thread(target=self._keep_spares, name="solve-spares", daemon=True)
        if spares:
            self._spare_keeper.start()

    def launch(self, name: str) -> tuple[BaseProcess, Connection] | None:
        """Start a worker process and wait until it is ready (None: it did not start in
        time, or the pool is closing)."""
        parent, child = multiprocessing.Pipe(duplex=True)
        process = self.context.Process(
            target=_worker_main, args=(child, os.getpid(), self.warm, self.niceness), name=name
        )
        process.daemon = True
        process.start()
        child.close()
        deadline = time.monotonic() + self.start_seconds
        while not self.closing and time.monotonic() < deadline:
            ready = wait([parent, process.sentinel], timeout=min(0.5, max(deadline - time.monotonic(), 0.0)))
            if parent in ready:
                try:
                    message = parent.recv()
                except (EOFError, OSError):
                    break
                if message[0] == "ready":
                    return process, parent
                break
            if process.sentinel in ready:
                break
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
        process.join(5)
        parent.close()
        return None

    def take_spare(self) -> tuple[BaseProcess, Connection] | None:
        """A started worker kept in reserve, if one is ready (the reserve is then refilled)."""
        with self._lock:
            if not self._spares:
                return None
            spare = self._spares.pop()
            self._spare_wanted.notify()
            return spare

    def spares_ready(self) -> int:
        with self._lock:
            return len(self._spares)

    def _keep_spares(self) -> None:
        """Keep ``spares`` started workers in reserve, so that a replacement is instant."""
        while True:
            with self._lock:
                while not self.closing and len(self._spares) >= self.spares:
                    self._spare_wanted.wait()
                if self.closing:
                    break
            started = self.launch("rummy-solver-spare")
            if started is None:
                if self.closing:
                    break
                time.sleep(min(self.watchdog, 1.0))
                continue
            with self._lock:
                if not self.closing:
                    self._spares.append(started)
                    continue
            _end(*started)
        with self._lock:
            spares, self._spares = self._spares, []
        for process, conn in spares:
            _end(process, conn)

    def note_started(self, slot: _Slot) -> None:
        """Count a worker started in a slot that had one before (a replacement)."""
        with self._lock:
            if slot.number in self._seen:
                self.replaced += 1
            self._seen.add(slot.number)

    def note_frozen(self) -> None:
        with self._lock:
            self.frozen += 1

    def pids(self) -> list[int | None]:
        """The process id of each slot's worker (None while one is being replaced)."""
        return [slot.pid for slot in self.slots]

    def wait_ready(self, seconds: float) -> None:
        """Block until every worker has started once; raise if one could not."""
        deadline = time.monotonic() + seconds
        for slot in self.slots:
            if not slot.ready.wait(max(deadline - time.monotonic(), 0.0)):
                raise RuntimeError(f"the solver workers did not start within {seconds:g} s")
            if slot.failure is not None and slot.process is None:
                raise RuntimeError(str(slot.failure))

    def submit(
        self,
        seconds: float,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        on_start: Callable[[], None] | None = None,
    ) -> Future[Any]:
        """Queue ``function(*args, **kwargs)``; it must finish within ``seconds`` once taken.
        ``on_start`` is called (on a server thread) when a worker first takes the job."""
        future: Future[Any] = Future()
        job = _Job(future, function, args, kwargs, seconds, on_start=on_start)
        with self._lock:
            if self.closing:
                raise RuntimeError("the solver pool is shut down")
            self._queue.append(job)
            self._jobs[future] = job
            self._work.notify()
        return future

    def take(self, slot: _Slot, timeout: float) -> _Job | None:
        """The next queued job for ``slot``, or None after ``timeout`` idle seconds."""
        with self._lock:
            if not self._queue:
                self._work.wait(timeout)
            if self.closing or not self._queue:
                return None
            job = self._queue.popleft()
            job.slot = slot
            return job

    def requeue(self, job: _Job) -> None:
        """Put a job its worker never took back at the front of the queue."""
        with self._lock:
            if not job.abandoned and not self.closing and job.tries < 3:
                job.slot = None
                self._queue.appendleft(job)
                self._work.notify()
                return
        reason: BaseException = (
            JobAbandoned("the job's caller went away")
            if job.abandoned or self.closing
            else WorkerDied("the solver workers kept failing to take the job")
        )
        self.finish(job, error=reason)

    def finish(self, job: _Job, *, result: Any = None, error: BaseException | None = None) -> None:
        self.forget(job)
        _settle(job.future, result=result, error=error)

    def forget(self, job: _Job) -> None:
        with self._lock:
            self._jobs.pop(job.future, None)

    def abandon(self, future: Future[Any]) -> None:
        """The caller of ``future`` is gone: drop the job if queued, stop it if running."""
        with self._lock:
            job = self._jobs.get(future)
            if job is None or future.done():
                return
            job.abandoned = True
            slot = job.slot
            if slot is None:
                with contextlib.suppress(ValueError):
                    self._queue.remove(job)
                self._jobs.pop(future, None)
        if slot is not None:
            slot.wake()
        elif not future.cancel():
            _settle(future, error=JobAbandoned("the job's caller went away"))

    def shutdown(self) -> None:
        """Stop every worker: queued jobs are cancelled, running ones are stopped."""
        with self._lock:
            self.closing = True
            queued = list(self._queue)
            self._queue.clear()
            self._work.notify_all()
            self._spare_wanted.notify_all()
        for job in queued:
            self.forget(job)
            if not job.future.cancel():
                _settle(job.future, error=JobAbandoned("the solver pool is shutting down"))
        for slot in self.slots:
            slot.wake()
        for slot in self.slots:
            slot.thread.join(10)
        if self._spare_keeper.is_alive():
            self._spare_keeper.join(10)
