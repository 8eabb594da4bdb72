"""``rummy --help`` and every command's help read well (issue 20): commands in a sensible
order, the values of choice options listed, no ``<bool>`` on flags, and ``serve --help``
naming every endpoint the service has."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner, Result

from solver.cli import app
from solver.cli.common import COMMAND_ORDER

WIDE = {"COLUMNS": "250", "TERMINAL_WIDTH": "250"}
"""A wide terminal, so that rich does not wrap a long metavar in the middle."""


def _invoke_at(width: int, args: list[str]) -> Result:
    """``rummy ARGS`` with a terminal ``width`` columns wide.  Typer reads the width once,
    when its help module is first imported (``TERMINAL_WIDTH``), so that is set too."""
    from typer import rich_utils

    saved = rich_utils.MAX_WIDTH
    rich_utils.MAX_WIDTH = width
    try:
        return CliRunner().invoke(app, args, env={"COLUMNS": str(width), "TERMINAL_WIDTH": str(width)})
    finally:
        rich_utils.MAX_WIDTH = saved


def _help(*command: str) -> str:
    outcome = _invoke_at(250, [*command, "--help"])
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
        *(
            (name, "--variant", "manipulation|machiavelli|rummikub|rummikub-peer")
            for name in (
                "hint",
                "check",
                "show",
                "analyze",
                "puzzle",
                "advise",
                "play",
                "tournament",
                "match",
            )
        ),
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


def test_serve_help_keeps_one_endpoint_a_line_in_both_layouts() -> None:
    """Rich's panels (a wide terminal) and Click's plain help (80 columns, where the
    panels would cut option names) both list the endpoints one a line, as written;
    the plain help used to run them together into one paragraph."""
    from solver.cli.serve import serve

    endpoint = r"(?:- |• )(?:GET|POST|HEAD) +/"
    written = len(re.findall(endpoint, serve.__doc__ or ""))
    assert written >= 20
    for width in (250, 80):
        outcome = _invoke_at(width, ["serve", "--help"])
        assert outcome.exit_code == 0, outcome.output
        assert "\b" not in outcome.stdout
        lines = [line for line in outcome.stdout.splitlines() if re.search(endpoint, line)]
        assert len(lines) == written, (width, outcome.stdout)
        for line in lines:
            assert re.match(rf"\s*{endpoint}", line) and len(re.findall(endpoint, line)) == 1, (width, line)


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


def _all_commands() -> list[str]:
    return re.findall(r"^│ ([a-z]+) ", _help().split("Commands", 1)[1], flags=re.MULTILINE)


def test_every_command_is_found() -> None:
    assert {*COMMAND_ORDER, "advise", "match", "review"} <= set(_all_commands())


@pytest.mark.parametrize("command", _all_commands())
def test_descriptions_reflow_at_80_columns(command: str) -> None:
    # A docstring's own line breaks used to be kept, so a line longer than the terminal
    # wrapped and left a word or two alone on the next line ("--jobs," in hint's help).
    outcome = _invoke_at(80, [command, "--help"])
    assert outcome.exit_code == 0, outcome.output
    # The description ends where the options begin: Rich's first panel, or Click's plain
    # "Options:" (a command whose panels would not fit: see the test below).
    body = outcome.stdout.split("Usage:", 1)[1]
    ends = ("╭",) if "╭" in body else ("\nArguments:", "\nOptions:")
    description = body[: min(body.index(end) for end in ends if end in body)].splitlines()[1:]
    lines = [line.rstrip() for line in description]
    for number, line in enumerate(lines[:-1]):
        follows = lines[number + 1]
        if line and follows and not follows.lstrip().startswith("•"):
            assert len(line) > 40, f"{command}: a short line inside a paragraph: {line!r}"


@pytest.mark.parametrize("command", _all_commands())
def test_every_option_name_is_whole_at_80_columns(command: str) -> None:
    """Issue 37: at 80 columns (and when not a TTY, where the width is 80) Rich's table cut
    option names ("--knock-only-aft…", "--scheduler-fil…"); such a command's help is now
    Click's plain help, with every name whole."""
    from typer.main import get_command

    outcome = _invoke_at(80, [command, "--help"])
    assert outcome.exit_code == 0, outcome.output
    assert "\u2026" not in outcome.stdout, outcome.stdout
    assert max(len(line) for line in outcome.stdout.splitlines()) <= 80
    from typer._click import Context  # Typer's own copy of Click

    group = get_command(app)
    with Context(group, info_name="rummy") as context:
        found = group.get_command(context, command)  # type: ignore[attr-defined]
    assert found is not None
    for param in found.params:
        for name in (*param.opts, *param.secondary_opts):
            if name.startswith("--"):
                assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", outcome.stdout), (command, name)


def test_objective_is_a_choice_typer_checks() -> None:
    """``--objective`` is Typer's choice (issue 37: it was parsed by hand): a wrong value is
    Click's one line naming the option and its values, exit 2; a right one is taken."""
    outcome = CliRunner().invoke(app, ["hint", "3h 4h 5h / 6h", "--objective", "most"])
    assert outcome.exit_code == 2
    lines = outcome.stderr.strip().splitlines()
    assert lines == [
        "error: Invalid value for '--objective': 'most' is not one of 'points', 'cards'. "
        "(see 'root hint --help')"
    ], lines
    outcome = CliRunner().invoke(app, ["hint", "3h 4h 5h / 6h 7h", "--objective", "cards", "--json"])
    assert outcome.exit_code == 0, outcome.output
    assert json.loads(outcome.stdout)["objective"] == "cards"


@pytest.mark.parametrize("command", _all_commands())
def test_help_shows_no_raw_markup(command: str) -> None:
    """Docstring markup (``code``) reads as backticks in Click's plain help (80 columns):
    ``show --help`` printed them."""
    for width in (80, 250):
        outcome = _invoke_at(width, [command, "--help"])
        assert outcome.exit_code == 0, outcome.output
        assert "``" not in outcome.stdout, (width, outcome.stdout)
