#!/usr/bin/env python3
"""Set up the project's virtual environment when needed, then run one job.

    python3 dev.py hint     # a hint for the example position (the main job)
    python3 dev.py test     # the whole default test suite (installs Chromium and PostgreSQL if missing)
    python3 dev.py rummy ARGS...   # any rummy command

Only the standard library is used here, so it runs on a fresh Python 3.11.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time
import venv
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed-from"
EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
HEARTBEAT_SECONDS = 15.0
"""How often a long set-up step says it is still working."""
APT_LOG = ROOT / "test-artifacts" / "apt-get.log"
"""Where the apt-get output of the Chromium and PostgreSQL installs goes (hundreds of
lines), so that the terminal shows one line of progress and the tests' output."""
POSTGRES_ROOT = Path("/usr/lib/postgresql")
"""Where Debian keeps PostgreSQL's server programs (``VERSION/bin/initdb``), off PATH."""
JOBS = ("hint", "test", "rummy")

Runner = Callable[[Sequence[str]], int]
"""Runs a command and returns its exit code (replaced in the tests)."""
Which = Callable[[str], str | None]
"""Finds a program on PATH (``shutil.which``, looked up when called: the tests replace it)."""


def say(message: str) -> None:
    """One line of progress on stderr (stdout stays the job's own)."""
    print(f"dev.py: {message}", file=sys.stderr, flush=True)


def run_command(command: Sequence[str]) -> int:
    return subprocess.run(list(command), check=False).returncode


def run_logged(command: Sequence[str], log: Path = APT_LOG) -> int:
    """Run a command with its output appended to ``log`` (created with its folder), not
    shown; the exit code as ``run_command``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        return subprocess.run(list(command), check=False, stdout=out, stderr=subprocess.STDOUT).returncode


def run_with_heartbeat(command: Sequence[str], what: str, runner: Runner = run_command) -> None:
    """Run one set-up command, saying every ``HEARTBEAT_SECONDS`` that it is still ``what``;
    a failure stops dev.py with pip's own output above it."""
    started = time.monotonic()
    done = threading.Event()

    def beat() -> None:
        while not done.wait(HEARTBEAT_SECONDS):
            say(f"  ... still {what} ({time.monotonic() - started:.0f} s)")

    ticker = threading.Thread(target=beat, daemon=True)
    ticker.start()
    try:
        code = runner(command)
    finally:
        done.set()
        ticker.join()
    if code != 0:
        say(f"failed while {what} (exit code {code})")
        raise SystemExit(code)
    say(f"  done in {time.monotonic() - started:.0f} s")


def compiled_sources() -> list[Path]:
    """The C sources of the fast path (the points program, the search's folder), in a fixed order."""
    folder = ROOT / "solver" / "fastpath"
    patterns = ("*.c", "*.h", "search/*.c", "search/*.h")
    return sorted(path for pattern in patterns for path in folder.glob(pattern))


def ensure_environment(runner: Runner = run_command) -> None:
    """Create .venv and install the project with its test extra (compiling the fast path's
    C search), unless already current.  Each step is announced, with its usual duration,
    and a long one says every few seconds that it is still working."""
    # The fast path's C modules are compiled at install time: a change to any of their
    # sources (the search, the points program, the header they share) needs a new install.
    sources = [ROOT / "pyproject.toml", *compiled_sources()]
    wanted = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    say("setting up .venv (once; again only when pyproject.toml or the C sources change)")
    if not (BIN / "python").exists():
        say("[1/3] creating the virtual environment .venv (a few seconds)")
        venv.create(VENV, with_pip=True)
    else:
        say("[1/3] .venv exists; bringing it up to date")
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    say("[2/3] upgrading pip inside .venv (a few seconds)")
    run_with_heartbeat([*pip, "--upgrade", "pip"], "upgrading pip", runner)
    say(
        "[3/3] installing the project with its test extra (OR-Tools, SciPy, FastAPI, pytest, "
        "playwright, ...) and compiling the fast path's C search: about a minute on a fresh machine"
    )
    run_with_heartbeat([*pip, "-e", f"{ROOT}[test]"], "installing packages", runner)
    STAMP.write_text(wanted)
    say(".venv is ready")


def chromium_path() -> Path:
    """Where the browser tests look for Chromium (``RUMMY_CHROMIUM``, as tests/test_web.py)."""
    return Path(os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium"))


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install_commands(
    package: str, which: Which | None = None, is_root: Callable[[], bool] = _is_root
) -> tuple[list[list[str]], str | None]:
    """The apt-get commands that install Debian's ``package`` here, or why none can.

    Root runs apt-get itself; anyone else needs sudo (which may ask for a password)."""
    which = which or shutil.which
    if which("apt-get") is None:
        return [], f"there is no apt-get on this machine (the tests expect Debian's {package} package)"
    prefix: list[str] = []
    if not is_root():
        if which("sudo") is None:
            return [], "installing needs root, and sudo is missing"
        prefix = ["sudo"]
    apt = [*prefix, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    return [[*apt, "update", "-q"], [*apt, "install", "-y", "-q", package]], None


def browser_install_command(
    which: Which | None = None, is_root: Callable[[], bool] = _is_root
) -> tuple[list[list[str]], str | None]:
    """The apt-get commands that install Debian's Chromium here, or why none can."""
    return apt_install_commands("chromium", which, is_root)


def _apt_install(commands: list[list[str]], runner: Runner) -> str | None:
    """Run ``commands`` (output to the apt log); what failed, or None."""
    for command in commands:
        if runner(command) != 0:
            return f"{' '.join(command)} failed (its output is in {APT_LOG})"
    return None


def ensure_browser(
    runner: Runner = run_logged,
    which: Which | None = None,
    is_root: Callable[[], bool] = _is_root,
) -> bool:
    """Make sure the browser tests (tests/test_web.py) find Chromium: install Debian's
    package when it is missing and that is possible, else say why and what to do.

    True when the tests can run; with ``RUMMY_SKIP_BROWSER=1`` nothing is checked (the
    browser tests skip themselves)."""
    if os.environ.get("RUMMY_SKIP_BROWSER") == "1":
        return True
    browser = chromium_path()
    if browser.exists():
        return True
    commands, problem = browser_install_command(which, is_root)
    if problem is None:
        say(f"Chromium is missing at {browser}: installing Debian's chromium for the browser tests")
        say(f"  (apt-get's output goes to {APT_LOG}; a minute or two)")
        problem = _apt_install(commands, runner)
    if problem is None and browser.exists():
        say("Chromium installed")
        return True
    if problem is None:
        problem = f"the chromium package installed, but {browser} is still missing (set RUMMY_CHROMIUM)"
    say(
        f"Chromium is missing at {browser} and cannot be installed: {problem}.  Install it "
        "(sudo apt-get install chromium, or point RUMMY_CHROMIUM at a Chromium), or skip the "
        "browser tests with: RUMMY_SKIP_BROWSER=1 python3 dev.py test"
    )
    return False


def postgres_present(which: Which | None = None, debian: Path | None = None) -> bool:
    """Whether the store's tests find PostgreSQL's ``initdb`` (as tests/pg_server.py looks:
    on PATH, else in Debian's ``/usr/lib/postgresql/VERSION/bin``)."""
    which = which or shutil.which
    return which("initdb") is not None or any((debian or POSTGRES_ROOT).glob("*/bin/initdb"))


def ensure_postgres(
    runner: Runner = run_logged,
    which: Which | None = None,
    is_root: Callable[[], bool] = _is_root,
    debian: Path | None = None,
) -> bool:
    """Make sure the game store's tests (tests/test_game_store.py) can start a throwaway
    PostgreSQL server: install Debian's package when it is missing and that is possible,
    else say why and what to do.  True when they can; those tests run always (they fail,
    never skip, without PostgreSQL), so there is no switch to skip them."""
    debian = debian or POSTGRES_ROOT
    if postgres_present(which, debian):
        return True
    commands, problem = apt_install_commands("postgresql", which, is_root)
    if problem is None:
        say("PostgreSQL is missing: installing Debian's postgresql for the game store's tests")
        say(f"  (apt-get's output goes to {APT_LOG}; a minute or so)")
        problem = _apt_install(commands, runner)
    if problem is None and postgres_present(which, debian):
        say("PostgreSQL installed")
        return True
    if problem is None:
        problem = f"the postgresql package installed, but initdb is in neither PATH nor {debian}/*/bin"
    say(
        f"PostgreSQL's initdb is missing and cannot be installed: {problem}.  Install it "
        "(sudo apt-get install postgresql, or put a folder with initdb and pg_ctl on PATH): "
        "the game store's tests run against a real PostgreSQL server"
    )
    return False


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in JOBS:
        if argv:
            say(f"unknown job {argv[0]!r}: the jobs are {', '.join(JOBS)}")
        print(__doc__, file=sys.stderr)
        return 2
    job, rest = argv[0], argv[1:]
    # The browser and PostgreSQL first: when one cannot be had, say so before the minute of set-up.
    if job == "test" and not (ensure_browser() and ensure_postgres()):
        return 1
    ensure_environment()
    if job == "hint":
        command = [str(BIN / "rummy"), "hint", *(rest or [EXAMPLE])]
    elif job == "test":
        command = [str(BIN / "python"), "-m", "pytest", "-n", "2", *rest]
    else:
        command = [str(BIN / "rummy"), *rest]
    return subprocess.run(command, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
