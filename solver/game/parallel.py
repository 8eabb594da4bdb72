"""Run chunks of independent work in-process or in a local process pool.

The one place where batch game work (matches) meets an executor, so that moving it to
the project's shared execution layer (``solver.runs``: in-process, local pool, Dask)
changes this module only.  A chunk's work must be a pure function of its chunk (seeds
derived from the root seed and the item index alone); ``map_chunks`` yields each
chunk's result with the chunk's index, in completion order, and the caller merges them
in index order, so the result never depends on ``jobs``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

__all__ = ["chunked", "map_chunks"]

C = TypeVar("C")
R = TypeVar("R")


def chunked(count: int, size: int) -> list[range]:
    """``range(count)`` cut into consecutive ranges of ``size`` items (the last may be shorter)."""
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, not {size}")
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def map_chunks(
    fn: Callable[[C], R], chunks: Sequence[C], *, jobs: int = 1
) -> Generator[tuple[int, R], None, None]:
    """``(index, fn(chunk))`` for every chunk, in completion order.

    ``jobs == 1`` runs in this process, in order; more uses a process pool of that many
    workers (``fn`` and the chunks must pickle).  Closing the iterator early (a stopped
    SPRT) cancels the chunks not yet started.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1:
        for index, chunk in enumerate(chunks):
            yield index, fn(chunk)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: dict[Future[R], int] = {pool.submit(fn, chunk): index for index, chunk in enumerate(chunks)}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: pending[f]):
                    index = pending.pop(future)
                    yield index, future.result()
        finally:
            for future in pending:
                future.cancel()
