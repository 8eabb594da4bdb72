#!/usr/bin/env python3
"""Set up the project's virtual environment when needed, then run one job.

    python3 dev.py hint     # a hint for the example position (the main job)
    python3 dev.py test     # the whole default test suite
    python3 dev.py rummy ARGS...   # any rummy command

Only the standard library is used here, so it runs on a fresh Python 3.11.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed-from"
EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"


def ensure_environment() -> None:
    """Create .venv and install the project with its test extra (compiling the fast path's
    C search), unless already current."""
    # The C search is compiled at install time: a change to it needs a new install too.
    sources = [ROOT / "pyproject.toml", ROOT / "solver" / "fastpath" / "_search.c"]
    wanted = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    print("dev.py: installing the project and its test extra into .venv", file=sys.stderr)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-e", f"{ROOT}[test]"], check=True)
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"hint", "test", "rummy"}:
        print(__doc__, file=sys.stderr)
        return 2
    ensure_environment()
    job, rest = argv[0], argv[1:]
    if job == "hint":
        command = [str(BIN / "rummy"), "hint", *(rest or [EXAMPLE])]
    elif job == "test":
        command = [str(BIN / "python"), "-m", "pytest", "-n", "2", *rest]
    else:
        command = [str(BIN / "rummy"), *rest]
    return subprocess.run(command, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
