"""Where batch commands run: the ``--jobs`` / ``--scheduler`` / ``--scheduler-file`` options,
and Ctrl-C handling, shared by ``tournament``, ``puzzle``, ``hint --batch`` and matches.

The options map onto ``solver.runs.make_backend``; a bad or conflicting option is an
``error: ...`` line and exit 2.  ``interruptible`` turns Ctrl-C into one line on stderr
and exit 130 (the shell's code for SIGINT), after the run layer has ended its workers;
commands write their output files only after a run completes, so nothing partial is left.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from solver.cli import INTERRUPTED
from solver.cli.common import err, fail
from solver.runs import MAX_LOCAL_WORKERS, Backend, BackendError, make_backend

__all__ = [
    "INTERRUPTED",
    "JobsOption",
    "SchedulerFileOption",
    "SchedulerOption",
    "backend_from_options",
    "interruptible",
]

JobsOption = Annotated[
    int | None,
    typer.Option(
        help="Worker processes on this machine (default 1: this process). Results do not depend on it."
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        help="Run on Dask instead: tcp://HOST:PORT of a running dask scheduler, "
        "or local:N for a local cluster of N worker processes. Same results."
    ),
]
SchedulerFileOption = Annotated[
    Path | None,
    typer.Option(help="Run on the Dask scheduler that wrote this file (dask scheduler --scheduler-file)."),
]


MAX_JOBS = MAX_LOCAL_WORKERS
"""The most worker processes one command starts (``--jobs``), as for ``local:N``."""


def check_jobs(jobs: int | None) -> None:
    """Exit 2 unless ``--jobs`` is 1 to ``MAX_JOBS`` (or not given), as for ``tournament``
    and ``match``: 300 was taken at its word.  A command checks it before reading its input."""
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        fail(f"--jobs must be between 1 and {MAX_JOBS}, not {jobs}")


def backend_from_options(jobs: int | None, scheduler: str | None, scheduler_file: Path | None) -> Backend:
    """The backend the options ask for, or exit 2 naming the bad option."""
    check_jobs(jobs)
    try:
        return make_backend(jobs=jobs, scheduler=scheduler, scheduler_file=scheduler_file)
    except ValueError as error:
        message = str(error).replace("jobs must", "--jobs must").replace("give jobs or", "give --jobs or")
        fail(message)


@contextmanager
def interruptible(what: str, left: str = "nothing written") -> Iterator[None]:
    """Run a batch: Ctrl-C ends it with one stderr line (``what`` stopped, what is
    ``left``) and exit 130; an unreachable Dask scheduler is an error line and exit 2."""
    try:
        yield
    except KeyboardInterrupt:
        err.print(f"interrupted: {what} stopped, workers ended, {left}", markup=False)
        # The workers are gone; what is left is the interpreter's exit, whose collection
        # of a large heap took seconds on a busy machine.  Nothing here needs finalizing.
        gc.freeze()
        raise typer.Exit(INTERRUPTED) from None
    except BackendError as error:
        fail(str(error))
