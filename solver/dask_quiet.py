"""A Dask worker preload: the worker ignores Ctrl-C's signal.

A Ctrl-C at the terminal reaches the whole process group, the workers of a local cluster
included; each would print a KeyboardInterrupt traceback while ``solver.runs`` is ending
them.  Ending the run is the calling process's job alone, so the workers ignore SIGINT.
The workers also start with SIGINT blocked (``solver.runs._sigint_held_off``), which
covers the second or so they spend loading before this preload runs; this stays as a
second guard, should anything in a worker unblock it.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

__all__ = ["dask_setup"]


def dask_setup(worker: Any) -> None:
    """Dask calls this in each worker as it starts (``preload``)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
