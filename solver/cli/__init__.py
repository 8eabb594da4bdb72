"""The ``rummy`` command: a thin shell over the library (Typer + rich).

Each subcommand lives in its own module and registers itself on the shared app;
importing them here is what makes them part of the command.
"""

from solver.cli import advise, analyze, game, hint, match, puzzle, review, rules, serve  # noqa: F401
from solver.cli.common import app


def main() -> None:
    """Console-script entry point."""
    app()


__all__ = ["app", "main"]
