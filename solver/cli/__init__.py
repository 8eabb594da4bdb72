"""The ``rummy`` command: a thin shell over the library (Typer + rich).

Each subcommand lives in its own module and registers itself on the shared app;
importing them is what makes them part of the command.  That takes a second or more (the
library, Typer, rich), so this module imports nothing heavy itself: ``main`` loads the
commands where a Ctrl-C is caught, and ``solver.cli.app`` loads them on first use.
"""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.cli.common import RummyTyper

__all__ = ["INTERRUPTED", "app", "main"]

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""


def _commands() -> RummyTyper:
    """The app with every command registered on it."""
    from solver.cli import advise, analyze, game, hint, match, puzzle, review, rules, serve  # noqa: F401
    from solver.cli.common import app

    return app


def main() -> None:
    """Console-script entry point.  Ctrl-C while the commands load, or while Typer builds
    the command line from them (before a command's own handler is in place: on a busy
    machine that takes a second), is, as in a command (``solver.cli.common``), one line on
    stderr and exit 130, not a traceback.  A command that handles Ctrl-C itself exits
    130 with its own line before this sees it."""
    try:
        try:
            commands = _commands()
            commands()
        finally:
            # The command has answered (or failed): a Ctrl-C from here on would only cut the
            # exit short, with exit 130 and no word after a complete answer.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            sys.stdout.flush()  # a full disk shows here, not in a message at the interpreter's exit
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: rummy stopped while starting\n")
        raise SystemExit(INTERRUPTED) from None
    except OSError as error:  # an answer that cannot be written (a full disk, /dev/full)
        _output_failed(error)


def _output_failed(error: OSError) -> None:
    """One line on stderr and exit 2 for an output the system refused (a broken pipe is
    Click's: a silent exit 1); what stdout still buffers is dropped, so that the interpreter
    does not fail on it again at exit."""
    import os

    where = error.filename if error.filename else "the output"
    sys.stderr.write(f"error: cannot write {where}: {error.strerror or error}\n")
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    raise SystemExit(2)


def __getattr__(name: str) -> RummyTyper:
    """``solver.cli.app``: the Typer app, its commands loaded."""
    if name == "app":
        return _commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
