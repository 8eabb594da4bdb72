"""Where a request's time goes: the phases of its job, measured where the job runs.

A job runs on a pool worker (a process or a thread), so the request that waits for it
cannot see inside it.  The job marks its phases (``with phase("engine"): ...``); the pool
runs every job through ``timed_call``, which sends the phases back beside the result,
and the pool adds what only the server can see (how long the job queued, how long the
round trip took beyond the worker's own time) to the request's ``RequestTimes``
(``current_times``), which the access log and the metrics read when the answer is sent.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = ["RequestTimes", "Timed", "current_times", "phase", "timed_call"]

T = TypeVar("T")

_local = threading.local()


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Time the block as the job's phase ``name`` (milliseconds, added up if repeated).
    Outside a timed job (a library call, a test) it only runs the block."""
    phases: dict[str, float] | None = getattr(_local, "phases", None)
    if phases is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        phases[name] = phases.get(name, 0.0) + (time.perf_counter() - start) * 1000


@dataclass(frozen=True, slots=True)
class Timed(Generic[T]):
    """A job's result with its phases and its whole time in the worker (milliseconds)."""

    result: T
    phases: dict[str, float]
    worker_ms: float


def timed_call(function: Callable[..., T], *args: Any, **kwargs: Any) -> Timed[T]:
    """Run ``function(*args, **kwargs)`` on this worker, collecting its phases."""
    phases: dict[str, float] = {}
    _local.phases = phases
    start = time.perf_counter()
    try:
        result = function(*args, **kwargs)
    finally:
        _local.phases = None
    return Timed(result, phases, (time.perf_counter() - start) * 1000)


@dataclass
class RequestTimes:
    """What the server learned about one request's job, in milliseconds: its lane, the
    wait for a worker, the job's phases, the worker's whole time, and the rest of the
    round trip (sending the job and its answer between the processes)."""

    lane: str | None = None
    queue_ms: float | None = None
    worker_ms: float | None = None
    transfer_ms: float | None = None
    phases: dict[str, float] = field(default_factory=dict)

    def fields(self) -> dict[str, Any]:
        """The non-empty figures, rounded, for a log line."""
        found: dict[str, Any] = {}
        if self.lane is not None:
            found["lane"] = self.lane
        for name in ("queue_ms", "worker_ms", "transfer_ms"):
            value = getattr(self, name)
            if value is not None:
                found[name] = round(value, 3)
        for name, value in self.phases.items():
            found[f"{name}_ms"] = round(value, 3)
        return found


current_times: ContextVar[RequestTimes | None] = ContextVar("current_times", default=None)
"""The times of the request being served (set by the access middleware), or None."""
