"""One execution layer for batch work: in this process, a local process pool, or Dask.

Tournaments, mirrored matches, puzzle sets and ``rummy hint --batch`` are many independent
items (games, pairs, puzzles, lines).  They all run through ``run_indexed`` (or
``iter_indexed``), which cuts the items into *chunks* of consecutive indices and runs each
chunk as one task on one of three backends, picked by one option:

- ``jobs=1`` (the default): every chunk in this process, one after another;
- ``jobs=N``: a local pool of N worker processes;
- ``scheduler=...``: a Dask distributed cluster.  ``"local:N"`` starts a ``LocalCluster``
  of N single-threaded worker processes for the run; ``"tcp://HOST:PORT"`` (any Dask
  address) joins a running ``dask scheduler``; a ``distributed.Client`` is used as given
  (and left open); ``scheduler_file=PATH`` joins the scheduler that wrote that file
  (``dask scheduler --scheduler-file PATH``).

**Same results whatever the backend.**  A task is a pure, module-level (so picklable)
function ``task(params, chunk) -> list[result]`` returning one result per item of the
chunk, in order.  Everything random in an item must come from the run's root seed and
the item's index alone (``item_seed``), never from the worker, the chunk or the order of
completion; results are merged in index order.  So the backend, the worker count and the
chunk size change nothing but the wall-clock time.  Chunks (not one task per item) keep
the scheduling cost small: Dask spends about a millisecond per task.

**A new batch job** (a mirrored match, say) needs three things::

    @dataclass(frozen=True)
    class MatchJob:                         # everything a worker needs: small, picklable
        settings: GameSettings
        bots: tuple[str, str]
        seed: int                           # the root seed

    def play_pairs(job: MatchJob, chunk: Chunk[int]) -> list[PairResult]:
        return [play_pair(job, item_seed(job.seed, i, "match")) for i in chunk.items]

    results = run_indexed(play_pairs, MatchJob(...), range(pairs), jobs=jobs,
                          scheduler=scheduler, on_chunk=lambda chunk, done: bar.advance(len(done)))

``items`` is any sequence (``range(n)`` for seeded work, the lines of a file for
``hint --batch``); each chunk carries its slice of it (``chunk.items``) and its indices
(``chunk.indices``).  ``on_chunk`` is called in the calling process as each chunk
finishes (in completion order): that drives progress bars on every backend.

**Faults and Ctrl-C.**  A Dask worker that dies mid-run has its chunks rescheduled on
the others by Dask; since tasks are pure the results are unchanged.  Ctrl-C (or any
exception, or a consumer that stops iterating) ends the run at once on every backend:
the pool's worker processes are terminated, outstanding Dask futures are cancelled, a
cluster started for the run is closed, and the exception propagates, so the caller
writes nothing.  Pool workers ignore SIGINT themselves, and a local cluster's workers
are started with it blocked (from their first instruction, not only once they have
loaded), so Ctrl-C at a terminal (sent to the whole process group) stops the run through
this process alone, whenever it comes.

**On a cluster** every worker must be able to import this package (and any user bot
given as ``module:Class``): start the workers in the same environment.  CP-SAT runs one
solver thread per task; run workers with one thread each (``--nthreads 1``) and as many
worker processes as cores.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import random
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Literal, TypeAlias, TypedDict, TypeVar, Union, Unpack

if TYPE_CHECKING:
    from distributed import Client
    from distributed import Future as DaskFuture

__all__ = [
    "Backend",
    "BackendError",
    "Chunk",
    "RunOptions",
    "SchedulerSpec",
    "chunk_ranges",
    "item_seed",
    "iter_indexed",
    "make_backend",
    "run_indexed",
]

P = TypeVar("P")
T = TypeVar("T")
R = TypeVar("R")

SchedulerSpec: TypeAlias = Union[str, "Client", None]  # Client is imported lazily
"""What ``scheduler=`` takes: ``"local:N"``, a Dask address, a ``distributed.Client``, or None."""

CONNECT_TIMEOUT = 15.0
"""Seconds to reach a Dask scheduler before giving up with a BackendError."""


class BackendError(RuntimeError):
    """The backend cannot be used: no Dask scheduler at the address, a missing scheduler
    file, a cluster with no workers."""


def item_seed(root: int, index: int, purpose: str) -> int:
    """The seed of item ``index`` of a run with root seed ``root``: the only source of
    chance an item may use.  ``purpose`` (``"tournament"``, ``"puzzle"``, ...) keeps the
    seeds of different kinds of work apart."""
    return random.Random(f"rummy-{purpose}/{root}/{index}").getrandbits(48)


@dataclass(frozen=True, slots=True)
class Chunk(Generic[T]):
    """A run of consecutive items: their indices and the items themselves."""

    start: int
    items: Sequence[T]

    @property
    def indices(self) -> range:
        return range(self.start, self.start + len(self.items))

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class Backend:
    """Where the chunks run: ``inline`` (this process), ``pool`` (``workers`` local
    processes) or ``dask`` (a LocalCluster of ``workers`` processes, a scheduler at
    ``address``, the scheduler of ``scheduler_file``, or a given ``client``)."""

    kind: Literal["inline", "pool", "dask"]
    workers: int = 1
    address: str | None = None
    scheduler_file: str | None = None
    client: Client | None = None
    """A ``distributed.Client`` supplied by the caller, used as given and left open."""

    def describe(self) -> str:
        """A short human description, e.g. ``dask LocalCluster, 2 workers``."""
        if self.kind == "inline":
            return "in-process"
        if self.kind == "pool":
            return f"local pool, {self.workers} processes"
        if self.client is not None:
            return "dask client"
        if self.scheduler_file is not None:
            return f"dask scheduler file {self.scheduler_file}"
        if self.address is not None:
            return f"dask scheduler {self.address}"
        return f"dask LocalCluster, {self.workers} workers"


MAX_LOCAL_WORKERS = 256
"""The most worker processes one run starts on this machine (a ``local:N`` cluster, and
``rummy``'s ``--jobs``): a thousand were taken at their word and the machine stalled
starting them."""

_SCHEDULER_FILE_BYTES = 2**20
"""A scheduler file is a few hundred bytes of JSON; a larger one is not one."""


def _check_scheduler_file(path: Path) -> None:
    """ValueError unless ``path`` holds what ``dask scheduler --scheduler-file`` writes (a
    JSON object with the scheduler's ``address``): distributed itself waits half a
    minute on anything else and then fails with a traceback."""
    bad = f"bad scheduler file {str(path)!r}"
    try:
        with path.open("rb") as stream:
            data = stream.read(_SCHEDULER_FILE_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{bad}: {error.strerror or error}") from None
    if len(data) > _SCHEDULER_FILE_BYTES:
        raise ValueError(f"{bad}: larger than a scheduler file ({_SCHEDULER_FILE_BYTES // 2**10} KiB)")
    try:
        described = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError(f"{bad}: not the JSON that dask scheduler --scheduler-file writes") from None
    address = described.get("address") if isinstance(described, dict) else None
    if not isinstance(address, str) or "://" not in address:
        raise ValueError(f"{bad}: no scheduler address in it (a dask scheduler writes one when it starts)")


def make_backend(
    *,
    jobs: int | None = None,
    scheduler: SchedulerSpec = None,
    scheduler_file: str | os.PathLike[str] | None = None,
) -> Backend:
    """The backend the options ask for; ValueError names a bad or conflicting option.

    ``jobs`` (default 1) and the Dask options exclude each other; ``scheduler`` is
    ``"local:N"`` (N >= 1), a Dask address such as ``"tcp://10.0.0.5:8786"``, or a
    ``distributed.Client``.
    """
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    given = [name for name, value in (("scheduler", scheduler), ("scheduler file", scheduler_file)) if value]
    if len(given) > 1:
        raise ValueError("give a scheduler or a scheduler file, not both")
    if given and jobs is not None:
        raise ValueError(f"give jobs or a {given[0]}, not both (the Dask workers do the work)")
    if scheduler_file is not None:
        path = Path(scheduler_file)
        if not path.is_file():
            raise ValueError(f"no scheduler file {str(path)!r} (written by dask scheduler --scheduler-file)")
        _check_scheduler_file(path)
        return Backend("dask", 0, scheduler_file=str(path))
    if scheduler is None:
        count = 1 if jobs is None else jobs
        return Backend("inline" if count == 1 else "pool", count)
    if isinstance(scheduler, str):
        text = scheduler.strip()
        if text.startswith("local:"):
            number = text.removeprefix("local:")
            if not number.isdigit() or not 1 <= int(number) <= MAX_LOCAL_WORKERS:
                raise ValueError(
                    f"bad scheduler {scheduler!r}: "
                    f"local:N needs a worker count N from 1 to {MAX_LOCAL_WORKERS}"
                )
            return Backend("dask", int(number))
        if "://" not in text or text.endswith("://"):
            raise ValueError(
                f"bad scheduler {scheduler!r}: give tcp://HOST:PORT of a dask scheduler, or local:N"
            )
        return Backend("dask", 0, address=text)
    if "distributed" in sys.modules:
        from distributed import Client

        if isinstance(scheduler, Client):
            return Backend("dask", 0, client=scheduler)
    raise ValueError(
        f"scheduler must be 'local:N', a Dask address or a distributed.Client, not {scheduler!r}"
    )


def chunk_ranges(
    count: int, workers: int, *, chunk_size: int | None = None, max_chunk: int = 50
) -> list[range]:
    """Index ranges covering ``0..count-1``: ``chunk_size`` items each, or by default about
    eight chunks per worker (so a slow chunk or a lost worker delays little), at most
    ``max_chunk`` items (progress stays live) and at least one."""
    if chunk_size is not None and chunk_size < 1:
        raise ValueError(f"chunk size must be at least 1, not {chunk_size}")
    if count <= 0:
        return []
    if chunk_size is None:
        chunk_size = min(max_chunk, math.ceil(count / (8 * max(workers, 1))))
    size = max(1, chunk_size)
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


class RunOptions(TypedDict, Generic[T, R], total=False):
    """Where and how ``run_indexed`` and ``iter_indexed`` run (the module docstring):
    ``jobs``, ``scheduler`` or ``scheduler_file`` choose the backend (or a ready ``backend``);
    ``chunk_size`` and ``max_chunk`` cut the items; ``on_chunk`` hears of each finished chunk."""

    jobs: int | None
    scheduler: SchedulerSpec
    scheduler_file: str | os.PathLike[str] | None
    backend: Backend | None
    chunk_size: int | None
    max_chunk: int
    on_chunk: Callable[[Chunk[T], list[R]], None] | None


def run_indexed(
    task: Callable[[P, Chunk[T]], list[R]],
    params: P,
    items: Sequence[T],
    **options: Unpack[RunOptions[T, R]],
) -> list[R]:
    """``task`` over every item, chunk by chunk on the chosen backend; the results in
    item order (one per item).  See the module docstring for the contract."""
    running = iter_indexed(task, params, items, **options)
    with contextlib.closing(running):
        return list(running)


def iter_indexed(
    task: Callable[[P, Chunk[T]], list[R]],
    params: P,
    items: Sequence[T],
    **options: Unpack[RunOptions[T, R]],
) -> Generator[R]:
    """Like ``run_indexed``, but yields each result in item order as soon as it and every
    earlier one are done (``hint --batch`` prints its lines so).  Closing the iterator
    early stops the run as Ctrl-C does; a caller that may stop early or be interrupted
    between items should close it at once (``with contextlib.closing(...)``), not leave
    that to the garbage collector."""
    unknown = sorted(set(options) - set(RunOptions.__annotations__))
    if unknown:  # the type checker says so too; this is for callers it does not see
        raise TypeError(f"unknown run option(s): {', '.join(unknown)}")
    given = options.get("backend")
    chosen = (
        given
        if given is not None
        else make_backend(
            jobs=options.get("jobs"),
            scheduler=options.get("scheduler"),
            scheduler_file=options.get("scheduler_file"),
        )
    )
    chunk_size, max_chunk = options.get("chunk_size"), options.get("max_chunk", 50)
    on_chunk = options.get("on_chunk")
    done: dict[int, list[R]] = {}
    next_chunk = 0
    with contextlib.closing(_run_chunks(task, params, items, chosen, chunk_size, max_chunk)) as running:
        for number, chunk, results in running:
            if len(results) != len(chunk):
                name = getattr(task, "__name__", "task")
                raise RuntimeError(f"{name} gave {len(results)} results for {len(chunk)} items")
            if on_chunk is not None:
                on_chunk(chunk, results)
            done[number] = results
            while next_chunk in done:
                yield from done.pop(next_chunk)
                next_chunk += 1


def _chunks(items: Sequence[T], workers: int, chunk_size: int | None, max_chunk: int) -> list[Chunk[T]]:
    ranges = chunk_ranges(len(items), workers, chunk_size=chunk_size, max_chunk=max_chunk)
    return [Chunk(span.start, items[span.start : span.stop]) for span in ranges]


def _run_chunks(
    task: Callable[[P, Chunk[T]], list[R]],
    params: P,
    items: Sequence[T],
    backend: Backend,
    chunk_size: int | None,
    max_chunk: int,
) -> Generator[tuple[int, Chunk[T], list[R]]]:
    """(chunk number, chunk, results) as each chunk finishes, in completion order."""
    if backend.kind == "inline":
        for number, chunk in enumerate(_chunks(items, 1, chunk_size, max_chunk)):
            yield number, chunk, task(params, chunk)
    elif backend.kind == "pool":
        yield from _run_pool(task, params, _chunks(items, backend.workers, chunk_size, max_chunk), backend)
    else:
        yield from _run_dask(task, params, items, backend, chunk_size, max_chunk)


_POLL_SECONDS = 0.1
"""How often a pool run looks for a Ctrl-C held off while it waits for its workers."""


def _ignore_sigint() -> None:
    """Pool worker initializer: Ctrl-C is the parent's to handle (it ends the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, running tasks included (``shutdown`` would wait for them)."""
    terminate = getattr(pool, "terminate_workers", None)  # public from Python 3.14
    if callable(terminate):
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)  # shutdown() forgets it
    manager = getattr(pool, "_executor_manager_thread", None)  # and this
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=2)
        if process.is_alive():
            process.kill()
            process.join(timeout=2)
    # A worker ended while it wrote a result leaves half a message in the result pipe;
    # the pool's manager thread would wait for the rest forever, and the interpreter for
    # that thread at exit.  With every worker gone, closing this process's end of the
    # pipe turns the wait into end-of-file: the thread sees a broken pool and ends.
    writer = getattr(results, "_writer", None)
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.close()
    # Let that thread finish here.  Still ending when the interpreter exits, it closes its
    # wake-up pipe while the exit hook of concurrent.futures writes to it (Python before
    # 3.13 takes no lock there), and Ctrl-C then ends with "Exception ignored ... Bad file
    # descriptor" and a traceback (seen about once in 25 interrupted tournaments).
    if manager is not None:
        with contextlib.suppress(Exception):
            manager.join(timeout=2)


def _run_pool(
    task: Callable[[P, Chunk[T]], list[R]], params: P, chunks: list[Chunk[T]], backend: Backend
) -> Iterator[tuple[int, Chunk[T], list[R]]]:
    workers = min(backend.workers, max(len(chunks), 1))
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    finished = False
    try:
        # Ctrl-C is held off inside the pool's calls and taken between them: raised in the
        # middle of wait(), it can leave a future's lock held, and the pool's manager
        # thread (which the interpreter joins at exit) then waits for it forever.
        with _sigint_deferred() as interrupted:
            pending: dict[Future[list[R]], int] = {
                pool.submit(task, params, chunk): number for number, chunk in enumerate(chunks)
            }
        if interrupted:
            raise KeyboardInterrupt
        while pending:
            with _sigint_deferred() as interrupted:
                ready: set[Future[list[R]]] = set()
                while not ready and not interrupted:
                    ready, _ = wait(pending, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
            if interrupted:
                raise KeyboardInterrupt
            for future in ready:
                number = pending.pop(future)
                yield number, chunks[number], future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            with _sigint_deferred():  # a second Ctrl-C must not cut the ending short
                _terminate(pool)


def _connect(backend: Backend) -> tuple[Client, Callable[[], None]]:
    """A client for the backend and how to let go of it afterwards."""
    from distributed import Client, LocalCluster

    if backend.client is not None:
        client: Client = backend.client
        return client, lambda: None
    if backend.address is None and backend.scheduler_file is None:
        # Ctrl-C while the cluster starts would leave it half made (distributed then fails
        # to close it at exit): start it whole, close it, then stop.  Held off at the OS
        # level, so that the workers started meanwhile never take it (_sigint_held_off).
        with _sigint_held_off() as interrupted, warnings.catch_warnings():
            # Its HTTP endpoint takes another port when 8787 is busy: nothing to warn about.
            warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
            try:
                cluster = LocalCluster(
                    n_workers=backend.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                    preload=["solver.dask_quiet"],  # the workers leave Ctrl-C to this process
                )
                local_client = Client(cluster, set_as_default=False)
            except Exception:
                # The Ctrl-C reached the workers too before they could ignore it, and
                # they failed to start: that is the Ctrl-C, not a failure to report.
                if interrupted:
                    raise KeyboardInterrupt from None
                raise

        def close_cluster() -> None:
            local_client.close()

            # Worker processes still running a task would make cluster.close() wait about
            # 4 s for them to finish gracefully; closing each nanny with a short timeout
            # kills them within half a second instead.
            async def close_workers() -> None:
                nannies = list(cluster.workers.values())
                await asyncio.gather(*(nanny.close(timeout=0.5) for nanny in nannies), return_exceptions=True)

            # Stopping workers mid-task is the point here: what the scheduler says about the
            # connections that close under it ("Closed comm ... while trying to write", at
            # CRITICAL, with a traceback) is not news to the user.
            with _quiet_logger("distributed"):
                with contextlib.suppress(Exception):
                    cluster.sync(close_workers)
                cluster.close()

        if interrupted:
            close_cluster()
            raise KeyboardInterrupt
        return local_client, close_cluster
    where = backend.address or f"the scheduler of {backend.scheduler_file}"
    try:
        if backend.scheduler_file is not None:
            client = Client(
                scheduler_file=backend.scheduler_file, timeout=CONNECT_TIMEOUT, set_as_default=False
            )
        else:
            client = Client(backend.address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise BackendError(f"cannot reach the Dask scheduler at {where}: {error}") from None
    return client, client.close


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[list[int]]:
    """Hold Ctrl-C off for the block; the list yielded is non-empty if one came meanwhile.
    A process told to ignore SIGINT (started in the background by a shell, ``nohup``)
    keeps ignoring it: catching it here would stop such a run in these windows only."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield caught
        return
    previous = signal.signal(signal.SIGINT, lambda number, _frame: caught.append(number))
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _sigint_held_off() -> Iterator[list[int]]:
    """Hold Ctrl-C off for the block, in this process and in every process started meanwhile.

    ``_sigint_deferred`` alone only catches the signal in Python; a process started by
    exec (multiprocessing's spawn: Dask's workers) resets a caught signal to its default,
    and a Ctrl-C at the terminal, which reaches the whole process group, then stops each
    new worker with a traceback (or "Fatal Python error") while it is still importing,
    before any preload could ignore it.  Here SIGINT is also blocked in the signal mask:
    threads inherit the mask of the thread that creates them, and processes (through
    exec) that of the thread that starts them, from their first instruction on.  The
    cluster's threads are made in the block, so its workers, restarted ones too, never
    take Ctrl-C; this process takes one that came meanwhile when the block ends (the
    list yielded is then non-empty).

    multiprocessing's resource tracker, started with the first process, unblocks SIGINT
    in the thread that starts it (the cluster's IO loop, whose threads start the workers):
    it is started here first, so that the block stays."""
    with _sigint_deferred() as caught:
        if threading.current_thread() is not threading.main_thread() or not hasattr(
            signal, "pthread_sigmask"
        ):
            yield caught
            return
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield caught
        finally:
            # A Ctrl-C pending meanwhile is delivered here, to _sigint_deferred's handler.
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextlib.contextmanager
def _quiet_logger(name: str) -> Iterator[None]:
    """Nothing from the logger ``name`` (and its children) during the block."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _wait_for_workers(client: Client) -> int:
    """Threads across the cluster's workers; waits a while for the first worker to join."""
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except TimeoutError:
        raise BackendError(f"the Dask scheduler has no workers after {CONNECT_TIMEOUT:.0f} s") from None
    return sum(client.nthreads().values())


def _run_dask(
    task: Callable[[P, Chunk[T]], list[R]],
    params: P,
    items: Sequence[T],
    backend: Backend,
    chunk_size: int | None,
    max_chunk: int,
) -> Iterator[tuple[int, Chunk[T], list[R]]]:
    from distributed import as_completed

    client, release = _connect(backend)
    futures: list[DaskFuture[list[R]]] = []
    try:
        workers = _wait_for_workers(client)
        chunks = _chunks(items, workers, chunk_size, max_chunk)
        # pure=False: every chunk is its own task even when two chunks look alike.
        futures = [client.submit(task, params, chunk, pure=False) for chunk in chunks]
        numbers = {future.key: number for number, future in enumerate(futures)}
        for future in as_completed(futures, loop=client.loop):
            number = numbers[future.key]
            yield number, chunks[number], future.result()
        futures = []
    finally:
        if futures:  # stopped early (Ctrl-C, an error, the caller closed the iterator)
            # What the scheduler says about the connections that close as the work is
            # dropped ("Closed comm ... while trying to write", CRITICAL, with a traceback)
            # is the stop itself, not news: quiet while the run ends.
            with _quiet_logger("distributed"):
                with contextlib.suppress(Exception):
                    client.cancel(futures, force=True)
                release()
        else:
            release()
