"""Output the system refuses (a full disk): one line on stderr and exit 2, never a traceback.

Run as a user would, through the installed ``rummy`` script, with stdout (or the log) on
``/dev/full``, where every write fails with ENOSPC once a buffer is flushed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUMMY = Path(sys.executable).with_name("rummy")
FULL = Path("/dev/full")

pytestmark = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full (Linux)")


def run_into_full(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    with FULL.open("w") as full:
        return subprocess.run(
            [str(RUMMY), *args], stdout=full, stderr=subprocess.PIPE, input=stdin, text=True, timeout=120
        )


@pytest.mark.parametrize(
    "args",
    [
        ("hint", "/ 7h 8h 9h"),
        ("hint", "/ 7h 8h 9h", "--json"),
        ("show", "7h 8h 9h / Ac"),
    ],
)
def test_an_answer_that_cannot_be_written_is_one_line(args: tuple[str, ...]) -> None:
    done = run_into_full(*args)
    assert done.returncode == 2
    assert done.stderr == "error: cannot write the output: No space left on device\n"


def test_a_game_log_that_cannot_be_written_is_one_line() -> None:
    done = subprocess.run(
        [str(RUMMY), "play", "--bots", "greedy", "--log", str(FULL), "--seed", "3"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: cannot write the log {FULL}: No space left on device"
    ]
