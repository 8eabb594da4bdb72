"""What the C sources of the fast path must look like (issue: the search as a library).

No mutable state at file scope or in a function's ``static`` variables: a search's state
is its context, so searches in several threads, or one entered again, never meet.  The
only file-scope objects are the tables CPython's module API takes (method tables, the
module definition, the result type's fields), which the module never changes.  And no
function over 80 lines, so that a newcomer reads one step at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

FASTPATH = Path(__file__).resolve().parents[1] / "solver" / "fastpath"
SOURCES = sorted([*FASTPATH.glob("*.c"), *FASTPATH.glob("*.h"), *(FASTPATH / "search").glob("*.[ch]")])
LONGEST_FUNCTION = 80
CPYTHON_TABLES = (
    "PyMethodDef",
    "PyModuleDef",
    "PyModuleDef_Slot",
    "PyStructSequence_Field",
    "PyStructSequence_Desc",
)
"""Types of the definitions CPython's module API takes as non-const pointers."""


@dataclass(frozen=True)
class Function:
    name: str
    first_line: int
    lines: int


def _code(text: str) -> list[str]:
    """The lines with comments and string literals blanked (line numbers kept)."""
    text = re.sub(r"/\*.*?\*/", lambda match: re.sub(r"[^\n]", " ", match.group()), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text.splitlines()


def functions(path: Path) -> list[Function]:
    """Every function definition: its name, first line and length in lines."""
    found: list[Function] = []
    depth = 0
    start: tuple[str, int] | None = None
    header: list[str] = []
    for number, line in enumerate(_code(path.read_text()), start=1):
        if depth == 0:
            header = [*header[-3:], line]
            joined = " ".join(header)
            if (
                "{" in line
                and "(" in joined
                and "=" not in line.split("{")[0]
                and not line.lstrip().startswith(("struct", "typedef", "enum"))
            ):
                match = re.search(r"(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*\{", joined)
                if match:
                    start = (
                        match.group(1),
                        number
                        - (
                            len(header)
                            - 1
                            - next(i for i, part in enumerate(header) if match.group(1) in part)
                        ),
                    )
        depth += line.count("{") - line.count("}")
        if depth == 0 and start is not None and "}" in line:
            found.append(Function(start[0], start[1], number - start[1] + 1))
            start = None
            header = []
    return found


def mutable_statics(path: Path) -> list[str]:
    """File-scope variables and function-level ``static`` variables that are not const."""
    found: list[str] = []
    depth = 0
    for number, line in enumerate(_code(path.read_text()), start=1):
        stripped = line.strip()
        file_static = depth == 0 and re.match(r"static\b", stripped) and "(" not in stripped.split("=")[0]
        const = re.match(r"static\s+const\b", stripped)
        if file_static and not const and not any(kind in stripped for kind in CPYTHON_TABLES):
            found.append(f"{path.name}:{number}: {stripped}")
        if (
            depth == 0
            and re.match(
                r"(?!static|typedef|struct|enum|return|#)\w[\w\s\*]*\s\**\w+(\[.*\])?\s*(=.*)?;$", stripped
            )
            and "(" not in stripped
        ):
            found.append(f"{path.name}:{number}: {stripped}")
        if depth > 0 and re.match(r"static\b", stripped) and not re.match(r"static\s+const\b", stripped):
            found.append(f"{path.name}:{number}: {stripped}")
        depth += line.count("{") - line.count("}")
    return found


def test_the_sources_are_found() -> None:
    names = {path.name for path in SOURCES}
    assert {"module.c", "moves.c", "solve.c", "lp_bound.c", "state.h", "_points.c"} <= names
    assert "_search.c" not in names and "_lp_bound.h" not in names


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_no_mutable_state_outside_a_context(path: Path) -> None:
    assert mutable_statics(path) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_no_function_is_longer_than_80_lines(path: Path) -> None:
    long = [
        f"{path.name}:{f.first_line} {f.name} ({f.lines} lines)"
        for f in functions(path)
        if f.lines > LONGEST_FUNCTION
    ]
    assert long == []


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    source = tmp_path / "sample.c"
    body = "\n".join(f"    x += {i};" for i in range(85))
    source.write_text(
        "static int g_count;\n"
        "static const int table[2] = {1, 2};\n"
        "int visible = 3;\n"
        "static PyMethodDef methods[] = {{NULL}};\n"
        "/* static int in_a_comment; */\n"
        "static int short_one(int x) {\n    static int calls;\n    return x + calls;\n}\n"
        f"static int long_one(int x) {{\n{body}\n    return x;\n}}\n"
    )
    assert [line.split(": ", 1)[1] for line in mutable_statics(source)] == [
        "static int g_count;",
        "int visible = 3;",
        "static int calls;",
    ]
    assert [(f.name, f.lines) for f in functions(source)] == [("short_one", 4), ("long_one", 88)]
