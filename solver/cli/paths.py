"""Checks of the files and directories a command will write, made before any work starts.

A tournament that runs for an hour and then cannot write ``--out``, or a game that
crashes at its first line of log, wastes the user's time; so commands check their
output paths first and stop with one line (``error: ...``, exit 2) when a path cannot
be written.  Each check tries what the command will do (create the directory, create a
file in it), so it is right for read-only file systems and for root alike.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from solver.cli.common import fail

__all__ = ["check_output_file", "prepare_output_dir"]


def check_output_file(path: Path, option: str) -> None:
    """Exit 2 unless ``path`` can be written as a file (its directory exists and takes new files)."""
    if path.is_dir():
        fail(f"{option} {path} is a directory; give a file name")
    parent = path.parent
    if not parent.is_dir():
        fail(f"{option} {path}: the directory {parent} does not exist")
    if path.exists():
        try:
            with path.open("a", encoding="utf-8"):
                pass
        except OSError as error:
            fail(f"{option} {path} cannot be written: {error.strerror or error}")
        return
    _check_takes_files(parent, option, path)


def prepare_output_dir(path: Path, option: str) -> None:
    """Create ``path`` (with its parents) if needed; exit 2 unless it is a directory that takes new files."""
    if path.exists() and not path.is_dir():
        fail(f"{option} {path} is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{option} {path} cannot be created: {error.strerror or error}")
    _check_takes_files(path, option, path)


def _check_takes_files(directory: Path, option: str, named: Path) -> None:
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        fail(f"{option} {named} cannot be written: {error.strerror or error}")
