"""Checks of the files a command reads and writes, made before any work starts.

A tournament that runs for an hour and then cannot write ``--out``, or a game that
crashes at its first line of log, wastes the user's time; so commands check their
output paths first and stop with one line (``error: ...``, exit 2) when a path cannot
be written.  Each check tries what the command will do (create the directory, create a
file in it), so it is right for read-only file systems and for root alike.

Nothing the user has is lost: an output path that is one of the command's own inputs
is refused, and a file (or a directory of game logs) that already holds something is
replaced only when ``--overwrite`` says so.  Inputs are read through
``read_input_text``, which stops at ``MAX_INPUT_BYTES``: ``/dev/zero`` or a stray
video given as a log is an error line, not a process that eats the memory.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, BinaryIO

import typer

from solver.cli.common import fail

__all__ = [
    "MAX_INPUT_BYTES",
    "OverwriteOption",
    "check_output_file",
    "prepare_output_dir",
    "read_input_stream",
    "read_input_text",
]

MAX_INPUT_BYTES = 64 * 2**20
"""The largest file a command reads (64 MiB: a batch of about a million positions, or
thousands of game logs' worth in one log).  Past it the command stops with one line."""

OverwriteOption = Annotated[
    bool,
    typer.Option("--overwrite", help="Replace output files (or game logs) that already exist."),
]


def read_input_stream(stream: BinaryIO, encoding: str = "utf-8") -> str:
    """The text of ``stream``, read up to ``MAX_INPUT_BYTES``; OSError (EFBIG) past it,
    UnicodeDecodeError for bytes that are not text in ``encoding``."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_INPUT_BYTES // 2**20} MiB, the most a command reads")
    return data.decode(encoding)


def read_input_text(path: Path, encoding: str = "utf-8") -> str:
    """The text of the file ``path``, as ``read_input_stream`` reads it (the same errors,
    and OSError for a file that cannot be opened)."""
    with path.open("rb") as stream:
        return read_input_stream(stream, encoding)


def _same_file(path: Path, other: Path) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def check_output_file(
    path: Path, option: str, *, overwrite: bool = False, inputs: Iterable[Path] = ()
) -> None:
    """Exit 2 unless ``path`` can be written as a file (its directory exists and takes new
    files), is none of the command's ``inputs``, and holds nothing yet unless ``overwrite``
    (an empty file, or a device such as /dev/null, is written as it is)."""
    if path.is_dir():
        fail(f"{option} {path} is a directory; give a file name")
    parent = path.parent
    if not parent.is_dir():
        fail(f"{option} {path}: the directory {parent} does not exist")
    if path.exists():
        for given in inputs:
            if _same_file(path, given):
                fail(f"{option} {path} is the input {given}: give another file name")
        if not overwrite and path.is_file() and path.stat().st_size > 0:
            fail(f"{option} {path} already exists: give another file name, or --overwrite to replace it")
        try:
            with path.open("a", encoding="utf-8"):
                pass
        except OSError as error:
            fail(f"{option} {path} cannot be written: {error.strerror or error}")
        return
    _check_takes_files(parent, option, path)


def prepare_output_dir(path: Path, option: str, *, overwrite: bool = False, holds: str | None = None) -> None:
    """Create ``path`` (with its parents) if needed; exit 2 unless it is a directory that
    takes new files.  With ``holds`` (a file pattern such as ``game-*.jsonl``), files of
    that pattern already there are refused, or with ``overwrite`` removed, so that the
    directory holds this run's files only and no earlier file is mixed in with them."""
    if path.exists() and not path.is_dir():
        fail(f"{option} {path} is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{option} {path} cannot be created: {error.strerror or error}")
    _check_takes_files(path, option, path)
    earlier = sorted(path.glob(holds)) if holds else []
    if earlier and not overwrite:
        fail(
            f"{option} {path} already holds {len(earlier)} file(s) {holds} ({earlier[0].name}...): "
            "give a new or empty directory, or --overwrite to replace them"
        )
    for found in earlier:
        try:
            found.unlink()
        except OSError as error:
            fail(f"{option} {path}: cannot remove the earlier {found.name}: {error.strerror or error}")


def _check_takes_files(directory: Path, option: str, named: Path) -> None:
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        fail(f"{option} {named} cannot be written: {error.strerror or error}")
