"""A Dask worker preload: the worker ignores Ctrl-C's signal.

A Ctrl-C at the terminal reaches the whole process group, the workers of a local cluster
included; each would print a KeyboardInterrupt traceback while ``solver.runs`` is ending
them.  Ending the run is the calling process's job alone, so the workers ignore SIGINT.
The workers also start with SIGINT blocked (``solver.runs._sigint_held_off``), which
covers the second or so they spend loading before this preload runs; this stays as a
second guard, should anything in a worker unblock it.

When the run ends (by Ctrl-C or not), the scheduler, which lives in the calling process,
may go away while a worker's heartbeat is on the wire; the worker then logs "Failed to
communicate with scheduler during heartbeat." at ERROR with a traceback, after the
run's own last line.  The scheduler of a local cluster going away means the run is
over, so the workers leave that record out (``LostScheduler``); every other record stays.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

__all__ = ["LostScheduler", "dask_setup", "quiet_lost_scheduler"]

HEARTBEAT_LOST = "Failed to communicate with scheduler during heartbeat."
"""What ``distributed.worker`` logs when a heartbeat finds the scheduler gone."""


class LostScheduler(logging.Filter):
    """Leaves out the worker's record of a heartbeat that found the scheduler gone."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != HEARTBEAT_LOST


def quiet_lost_scheduler() -> LostScheduler:
    """Add ``LostScheduler`` to the ``distributed.worker`` logger; the filter added."""
    found = LostScheduler()
    logging.getLogger("distributed.worker").addFilter(found)
    return found


def dask_setup(worker: Any) -> None:
    """Dask calls this in each worker as it starts (``preload``)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    quiet_lost_scheduler()
