"""The layers of DESIGN.md, checked by walking the imports of every module.

Who may import whom: the rules, the referee and the plan never import a backend; the game
(``solver.game``, the rules) never imports the strategy (``solver.strategy``); the two
backends (``solver.cpsat``, ``solver.fastpath``) never import each other or the engine;
the library never imports the service or the CLI; and no two packages import each other
(directly or round a longer loop).  ``import solver`` and the pure layers must not load
OR-Tools, which is checked in a fresh interpreter; the service must start, and answer
what needs no CP-SAT, in an interpreter where OR-Tools cannot be imported at all.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "service")
UNITS = (
    "solver.cpsat",
    "solver.fastpath",
    "solver.engine",
    "solver.game",
    "solver.strategy",
    "solver.puzzles",
    "solver.cli",
    "service",
)
"""Packages that count as one node of the layer graph; every other module is its own."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_imports(tree: ast.Module, module: str, is_package: bool) -> Iterator[str]:
    """Modules imported at run time (at the top or inside functions), skipping the
    ``if TYPE_CHECKING:`` blocks, which only name types."""

    def walk(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (name for other in child.orelse for name in walk_one(other))
                continue
            yield from walk_one(child)

    def walk_one(node: ast.AST) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            yield stem
            yield from (f"{stem}.{alias.name}" for alias in node.names)
        yield from walk(node)

    yield from walk(tree)


def _modules() -> dict[str, tuple[Path, set[str]]]:
    found: dict[str, tuple[Path, set[str]]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = _module_name(path)
            tree = ast.parse(path.read_text(), filename=str(path))
            found[name] = (path, set(_runtime_imports(tree, name, path.name == "__init__.py")))
    return found


MODULES = _modules()


def _unit(module: str) -> str:
    for unit in UNITS:
        if module == unit or module.startswith(unit + "."):
            return unit
    return module


def _imports_of(module: str) -> set[str]:
    """The project modules ``module`` imports at run time."""
    return {name for name in MODULES[module][1] if name in MODULES and name != module}


def test_the_walk_sees_the_imports() -> None:
    # A guard for the walker itself: these imports exist, and the type-only one is skipped.
    assert "solver.cpsat.model" in _imports_of("solver.cpsat.solve")
    assert "solver.fastpath" in _imports_of("solver.engine.dispatch")
    assert "solver.cpsat" in _imports_of("solver.engine.dispatch")  # the lazy one, inside hint()
    assert "solver.engine.result" in _imports_of("solver.report")


def test_the_engine_loads_no_networkx() -> None:
    """A hint needs no card-flow graph (issue 37: ``import solver.engine`` pulled networkx
    through the plan)."""
    code = "import sys, solver.engine\nprint('networkx' in sys.modules, 'solver.plan' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_the_puzzles_use_only_the_public_cp_sat_package() -> None:
    """The puzzles build CP-SAT models of their own on the engine's; they import
    ``solver.cpsat`` itself (its ``__all__``: the instance, the model, the solver settings),
    never one of its modules (issue 37: keeping.py and sat.py reached into instance, model
    and params)."""
    import solver.cpsat

    puzzles = [module for module in MODULES if module.startswith("solver.puzzles")]
    assert puzzles
    for module in puzzles:
        for imported in _imports_of(module):
            if imported.startswith("solver.cpsat"):
                assert imported == "solver.cpsat" or (
                    imported.startswith("solver.cpsat.")
                    and imported.rsplit(".", 1)[1] in solver.cpsat.__all__
                ), f"{module} imports {imported}"


def test_no_import_cycle_between_packages() -> None:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for module in MODULES:
        for imported in _imports_of(module):
            if _unit(module) != _unit(imported) and module != "solver":
                graph.add_edge(_unit(module), _unit(imported))
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, cycles


@pytest.mark.parametrize(
    ("importer", "forbidden"),
    [
        ("solver.cpsat", ("solver.fastpath", "solver.engine")),
        ("solver.fastpath", ("solver.cpsat", "solver.engine")),
        ("solver.cards", ("solver.cpsat", "solver.fastpath", "solver.engine")),
        ("solver.melds", ("solver.cpsat", "solver.fastpath", "solver.engine")),
        ("solver.position", ("solver.cpsat", "solver.fastpath", "solver.engine")),
        ("solver.referee", ("solver.cpsat", "solver.fastpath", "solver.engine")),
        ("solver.solution", ("solver.cpsat", "solver.fastpath", "solver.engine")),
        ("solver.plan", ("solver.cpsat", "solver.fastpath", "solver.engine")),
        ("solver.flow", ("solver.cpsat", "solver.fastpath", "solver.engine", "solver.plan")),
        ("solver.game.rules", ("solver.cpsat", "solver.fastpath", "solver.engine", "solver.game.view")),
        ("solver", ("service", "solver.cli")),
        # DESIGN.md: analysis asks the engine, never a backend (issue 37: it picked between
        # the points program and CP-SAT's enumeration itself)
        ("solver.analysis", ("solver.cpsat", "solver.fastpath")),
        # the engine answers; the plan and the presentation are apart from it (issue 37)
        ("solver.engine", ("solver.plan", "solver.report", "solver.flow")),
        ("solver.puzzles", ("solver.fastpath",)),
        # DESIGN.md: the game is the rules alone; the bots, rollouts, search, advice and review
        # are the strategy, built on it (issue 37: one package held both)
        ("solver.game", ("solver.strategy", "solver.engine", "solver.cpsat", "solver.fastpath")),
        ("solver.strategy", ("solver.cpsat", "solver.fastpath")),
    ],
)
def test_who_may_import_whom(importer: str, forbidden: tuple[str, ...]) -> None:
    """Every module at or under ``importer`` (the library, for ``solver``: not its CLI)."""
    checked = [
        module
        for module in MODULES
        if (module == importer or module.startswith(importer + "."))
        and not (importer == "solver" and module.startswith("solver.cli"))
    ]
    assert checked
    for module in checked:
        for imported in _imports_of(module):
            assert not imported.startswith(forbidden), f"{module} imports {imported}"


@pytest.mark.parametrize(
    "statement",
    [
        "import solver",
        "from solver import Position, Variant, check_play, Hint",
        "import solver.game.rules, solver.game.state, solver.game.scoring, solver.game.view",
        "import solver.game, solver.game.game, solver.game.runner, solver.game.log; solver.game.play_game",
        "import solver.strategy.stats",
        "import solver.plan, solver.flow, solver.referee, solver.exact",
        "import solver.cli; solver.cli.app",  # every rummy command, --help included, starts without OR-Tools
        "import service.app; service.app.create_app()",  # the job that needs it loads it
        "from solver import hint; hint('Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac')",  # the search answers
    ],
)
def test_pure_layers_load_no_or_tools(statement: str) -> None:
    code = f"{statement}\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('ortools')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


NO_OR_TOOLS = """
import importlib.util
import sys

sys.modules["ortools"] = None  # as if not installed: importing fails, find_spec finds nothing
try:
    import ortools.sat.python.cp_model
except ImportError:
    pass
else:
    raise SystemExit("the block does not work: ortools was imported")
assert importlib.util.find_spec("ortools") is None
"""
"""Run first in a fresh interpreter: OR-Tools cannot be imported after it."""


def test_the_service_starts_and_answers_without_or_tools() -> None:
    """With OR-Tools impossible to import, the app builds, documents every endpoint and
    answers what needs no CP-SAT (thread workers, no lifespan: the warm-up loads CP-SAT)."""
    code = NO_OR_TOOLS + (
        "from fastapi.testclient import TestClient\n"
        "import service.app\n"
        "from service.settings import Settings\n"
        "app = service.app.create_app(Settings(executor='thread', workers=1))\n"
        "paths = app.openapi()['paths']\n"
        "client = TestClient(app)\n"
        "hint = client.post('/v1/hint', json={'position': 'Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac'})\n"
        "check = client.post('/v1/check', json={'position': '7h 8h 9h / 10h', 'after': '7h 8h 9h 10h'})\n"
        "print(sorted(paths))\n"
        "print(client.get('/v1/variants').status_code, hint.json()['stats']['engine'], check.json()['ok'])\n"
        "print(sorted(m for m, module in sys.modules.items() if m.startswith('ortools') and module))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    paths, answers, loaded = done.stdout.strip().splitlines()[-3:]
    for path in ("/v1/hint", "/v1/analyze", "/v1/advise", "/v1/check", "/v1/puzzles", "/v1/variants"):
        assert repr(path) in paths
    assert answers.split() == ["200", "search", "True"]
    assert loaded == "[]"


def test_cp_sat_is_loaded_when_a_position_needs_it() -> None:
    code = (
        "from solver import hint\nimport sys\n"
        "found = hint('Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac', fast_path=False)\n"
        "print(found.engine, 'ortools' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["cp-sat", "True"]


def test_the_package_lists_its_lazy_names() -> None:
    """``dir(solver)`` left out ``hint``, ``Hint`` and ``__version__`` (loaded on first use),
    so completion did not offer them."""
    import solver

    assert {"hint", "Hint", "HintStatus", "__version__", "Position"} <= set(dir(solver))
