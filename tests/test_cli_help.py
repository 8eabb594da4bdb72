"""``rummy --help`` and every command's help read well (issue 20): commands in a sensible
order, the values of choice options listed, no ``<bool>`` on flags, and ``serve --help``
naming every endpoint the service has."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.cli.common import COMMAND_ORDER

WIDE = {"COLUMNS": "250", "TERMINAL_WIDTH": "250"}
"""A wide terminal, so that rich does not wrap a long metavar in the middle."""


def _help(*command: str) -> str:
    outcome = CliRunner().invoke(app, [*command, "--help"], env=WIDE)
    assert outcome.exit_code == 0, outcome.output
    return outcome.stdout


def test_commands_are_listed_in_a_sensible_order() -> None:
    text = _help()
    listed = re.findall(r"^│ (\w+) ", text.split("Commands", 1)[1], flags=re.MULTILINE)
    assert listed[: len(COMMAND_ORDER)] == list(COMMAND_ORDER)
    assert list(COMMAND_ORDER) == [
        "hint",
        "check",
        "show",
        "analyze",
        "puzzle",
        "play",
        "tournament",
        "replay",
        "serve",
    ]


@pytest.mark.parametrize("command", [(), *((name,) for name in COMMAND_ORDER)])
def test_flags_show_no_bool_type(command: tuple[str, ...]) -> None:
    text = _help(*command)
    assert "<bool>" not in text
    assert "--help" in text


@pytest.mark.parametrize(
    ("command", "option", "values"),
    [
        *((name, "--variant", "manipulation|machiavelli|rummikub") for name in ("hint", "check", "show")),
        *((name, "--variant", "manipulation|machiavelli|rummikub") for name in ("analyze", "puzzle")),
        *((name, "--variant", "manipulation|machiavelli|rummikub") for name in ("play", "tournament")),
        ("hint", "--objective", "points|cards"),
        ("puzzle", "--difficulty", "easy|medium|hard|expert"),
        ("serve", "--log-level", "critical|error|warning|info|debug|trace"),
    ],
)
def test_choice_options_list_their_values(command: str, option: str, values: str) -> None:
    line = next(line for line in _help(command).splitlines() if f" {option} " in line)
    assert f"<{values}>" in line


def test_serve_help_lists_every_endpoint() -> None:
    from service.app import create_app

    text = _help("serve")
    schema = create_app().openapi()
    for path, methods in schema["paths"].items():
        for method in methods:
            assert re.search(rf"{method.upper()}\s+{re.escape(path)}\s", text), (method, path)
    for page in ("GET  / ", "GET  /docs"):
        assert page in text


def test_a_wrong_choice_is_one_line_error_and_exit_2() -> None:
    outcome = CliRunner().invoke(app, ["serve", "--log-level", "loud"])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("error: unknown log level 'loud'")
    assert len(outcome.stderr.strip().splitlines()) == 1
    outcome = CliRunner().invoke(app, ["show", "--variant", "poker", "/ Ac"])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("error: ") and len(outcome.stderr.strip().splitlines()) == 1


def test_listed_log_levels_are_the_servers() -> None:
    from service.server import LOG_LEVELS as SERVER_LEVELS
    from solver.cli.serve import LOG_LEVELS

    assert LOG_LEVELS == SERVER_LEVELS


def test_usage_errors_are_one_line_and_exit_2() -> None:
    """An unknown option or command, or a value of the wrong type, is one line on stderr
    naming the problem and where the help is (not Click's box of usage lines)."""
    for args, named in (
        (["hint", "3h 4h 5h / 6h", "--bogus"], "No such option: --bogus"),
        (["nosuch"], "No such command 'nosuch'"),
        (["hint", "3h 4h 5h / 6h", "--time-limit", "abc"], "'--time-limit'"),
    ):
        outcome = CliRunner().invoke(app, args)
        assert outcome.exit_code == 2, args
        lines = outcome.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and named in lines[0], (args, lines)
        assert "--help')" in lines[0]


NARROW = {"COLUMNS": "80", "TERMINAL_WIDTH": "80"}


def _all_commands() -> list[str]:
    return re.findall(r"^│ ([a-z]+) ", _help().split("Commands", 1)[1], flags=re.MULTILINE)


def test_every_command_is_found() -> None:
    assert {*COMMAND_ORDER, "advise", "match", "review"} <= set(_all_commands())


@pytest.mark.parametrize("command", _all_commands())
def test_descriptions_reflow_at_80_columns(command: str) -> None:
    # A docstring's own line breaks used to be kept, so a line longer than the terminal
    # wrapped and left a word or two alone on the next line ("--jobs," in hint's help).
    outcome = CliRunner().invoke(app, [command, "--help"], env=NARROW)
    assert outcome.exit_code == 0, outcome.output
    description = outcome.stdout.split("Usage:", 1)[1].split("╭", 1)[0].splitlines()[1:]
    lines = [line.rstrip() for line in description]
    for number, line in enumerate(lines[:-1]):
        follows = lines[number + 1]
        if line and follows and not follows.lstrip().startswith("•"):
            assert len(line) > 40, f"{command}: a short line inside a paragraph: {line!r}"
