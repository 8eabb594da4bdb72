"""No library function is longer than 80 lines (issue #37).

Every function and method in ``solver/`` outside ``solver/cli/`` is measured with
``ast`` from its ``def`` line to its last line (decorators excluded), so a long one is
split into helpers with one job each rather than grown further.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "solver"
EXCLUDED = LIBRARY / "cli"
MAX_LINES = 80


def _library_files() -> Iterator[Path]:
    """The Python files of the library, the CLI left out."""
    for path in sorted(LIBRARY.rglob("*.py")):
        if EXCLUDED not in path.parents:
            yield path


def _function_lengths(path: Path) -> Iterator[tuple[str, int]]:
    """Each function of ``path`` as ``file:line name`` with its length in lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            where = f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
            yield where, node.end_lineno - node.lineno + 1


def test_the_walk_sees_the_library() -> None:
    lengths = dict(item for path in _library_files() for item in _function_lengths(path))
    assert any(where.endswith(" hint") for where in lengths)
    assert not any(where.startswith("solver/cli/") for where in lengths)


def test_no_library_function_over_80_lines() -> None:
    too_long = [
        f"{where} ({lines} lines)"
        for path in _library_files()
        for where, lines in _function_lengths(path)
        if lines > MAX_LINES
    ]
    assert not too_long, "functions over 80 lines: " + ", ".join(too_long)
