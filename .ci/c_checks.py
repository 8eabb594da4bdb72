#!/usr/bin/env python3
"""CI for the fast path's C code: a build with warnings as errors, then the C tests against
a build with AddressSanitizer and UndefinedBehaviorSanitizer.

    .venv/bin/python .ci/c_checks.py           # both (run by .ci/run)
    .venv/bin/python .ci/c_checks.py --strict  # only the -Wall -Wextra -Werror build

The builds go to a temporary folder (the working tree's modules stay as installed).  The
sanitized modules are put into a copy of the ``solver`` package, which the tests import
first (``PYTHONPATH``); Python itself is not instrumented, so the sanitizers' runtimes are
preloaded, and leak checks are off (the interpreter keeps objects until exit by design).
The tests: the fast path's and the points program's (re-entry and threads included) and
the fuzz of their entry points with hostile arguments, with more examples than the
default run.  Any sanitizer report ends the run with a non-zero exit.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STRICT = "-Wall -Wextra -Werror"
SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
SANITIZED_TESTS = [
    "tests/test_fastpath.py",
    "tests/test_points.py",
    "tests/test_points_reentry.py",
    "tests/test_c_fuzz.py",
]
FUZZ_EXAMPLES = "600"


def say(message: str) -> None:
    print(f"c_checks: {message}", flush=True)


def build(into: Path, cflags: str, ldflags: str = "") -> Path:
    """Builds both C modules with ``cflags`` into ``into``; returns the folder of the built package."""
    env = os.environ | {"CFLAGS": cflags, "LDFLAGS": ldflags}
    command = [
        sys.executable,
        "-c",
        "from setuptools import setup; setup()",
        "--quiet",
        "build_ext",
        "--force",
        "--build-temp",
        str(into / "temp"),
        "--build-lib",
        str(into / "lib"),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stdout.write(done.stdout + done.stderr)
        raise SystemExit(f"c_checks: the build with {cflags!r} failed")
    return into / "lib"


def runtime(name: str) -> str:
    """The compiler's copy of a sanitizer runtime (``libasan.so``), to preload."""
    found = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True, check=True)
    path = found.stdout.strip()
    if not os.path.isabs(path):
        raise SystemExit(f"c_checks: gcc has no {name} (install the compiler's sanitizer runtimes)")
    return path


def sanitized_tree(lib: Path, tree: Path) -> None:
    """A copy of the ``solver`` package with the sanitized modules in place of the installed ones."""
    shutil.copytree(ROOT / "solver", tree / "solver", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(
        ROOT / "benchmarks", tree / "benchmarks", ignore=shutil.ignore_patterns("__pycache__", "results")
    )
    for module in (lib / "solver" / "fastpath").glob("*.so"):
        shutil.copy2(module, tree / "solver" / "fastpath" / module.name)


def run_sanitized(tree: Path) -> int:
    env = os.environ | {
        "PYTHONPATH": str(tree),
        "LD_PRELOAD": f"{runtime('libasan.so')}:{runtime('libubsan.so')}",
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:halt_on_error=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
        "RUMMY_FUZZ_EXAMPLES": FUZZ_EXAMPLES,
    }
    check = "import solver.fastpath._search as s, solver.fastpath._points as p; print(s.__file__, p.__file__)"
    # Run from the copy: Python puts the working folder first on the path.
    where = subprocess.run(
        [sys.executable, "-c", check], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    if where.returncode != 0 or str(tree) not in where.stdout:
        sys.stdout.write(where.stdout + where.stderr)
        raise SystemExit("c_checks: the sanitized modules are not the ones imported")
    tests = [str(ROOT / name) for name in SANITIZED_TESTS]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT), *tests]
    return subprocess.run(command, cwd=tree, env=env, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--strict", action="store_true", help="only the build with warnings as errors")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rummy-c-checks-") as folder:
        work = Path(folder)
        say(f"building with {STRICT}")
        build(work / "strict", STRICT)
        say("the strict build passed")
        if args.strict:
            return 0
        say(f"building with {SANITIZE}")
        lib = build(work / "sanitize", SANITIZE, "-fsanitize=address,undefined")
        sanitized_tree(lib, work / "tree")
        say(f"running {len(SANITIZED_TESTS)} test files against the sanitized build")
        code = run_sanitized(work / "tree")
    say("sanitizer tests passed" if code == 0 else f"sanitizer tests FAILED (exit {code})")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
