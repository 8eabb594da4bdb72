"""The files a command reads and writes, as a careless or hostile user gives them.

A review of the command line (2026-12-08) found an endless input (``/dev/zero``) eating
12 GB, game logs written over without a word (``review g.jsonl --puzzles g.jsonl``
replaced the game with its puzzles), a bad scheduler file waiting half a minute for a
traceback, ``local:1000`` stalling the machine, a user's bot that fails in ``act()``
printing a traceback, and a 5 MB bad batch line echoed three times.  Each is one line
and exit 2 now, before any work, and nothing the user has is replaced unless
``--overwrite`` says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.cli.paths import MAX_INPUT_BYTES
from solver.position import PROBLEMS_SAID, Position, PositionError
from solver.variants import as_variant

RUNNER = CliRunner()

BAD_BOTS = """
from solver.strategy.bots import Bot


class Raiser(Bot):
    name = "raiser"

    def act(self, view):
        raise RuntimeError("boom")
"""


def run(*args: str, stdin: bytes | str | None = None) -> tuple[int, str, str]:
    done = RUNNER.invoke(app, list(args), input=stdin)
    return done.exit_code, done.stdout, done.stderr


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    line = err.strip()
    assert line.startswith("error: ") and "\n" not in line and "Traceback" not in line, err
    for word in words:
        assert word in line, line


# -- inputs ------------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [("hint", "--batch"), ("review",), ("replay",), ("puzzle", "--from")])
def test_an_endless_input_is_refused_at_the_size_limit(command: tuple[str, ...]) -> None:
    """``/dev/zero`` grew the process to 12 GB before; now reading stops at the limit."""
    code, _, err = run(*command, "/dev/zero")
    one_line_error(code, err, "/dev/zero", f"larger than {MAX_INPUT_BYTES // 2**20} MiB")


def test_binary_on_stdin_is_named_as_on_a_file() -> None:
    code, out, err = run("hint", "--batch", "-", stdin=bytes(range(256)))
    one_line_error(code, err, "the batch from stdin: not UTF-8 text")
    assert out == ""  # not 61 lines of garbage errors


def test_an_empty_batch_name_is_not_called_a_directory() -> None:
    code, _, err = run("hint", "--batch", "")
    one_line_error(code, err, "--batch needs a file name, or - for stdin")


def test_a_huge_bad_batch_line_is_echoed_short(tmp_path: Path) -> None:
    """A 180,000-character line (one meld of 60,000 kings) printed its line and its meld
    whole: 360 KB of error for one line."""
    batch = tmp_path / "b.txt"
    batch.write_text("Kh Kd Kc " * 20_000 + "/ Ac\n", encoding="utf-8")
    code, out, err = run("hint", "--batch", str(batch))
    assert code == 2 and "1 of 1 lines had bad input" in err
    assert len(out) < 600 and "(180,004 characters)" in out and "(60,000 cards)" in out, out[:600]


def test_a_position_error_lists_a_few_problems_and_counts_the_rest() -> None:
    table = " | ".join(f"{rank}h {rank}h {rank}h {rank}h {rank}h" for rank in "23456789TJQK")
    with pytest.raises(PositionError) as raised:
        Position.parse(f"{table} / Ac").validate(as_variant("manipulation"))
    problems = raised.value.problems
    assert len(problems) > PROBLEMS_SAID  # every problem is kept for a program to read
    said = str(raised.value)
    assert said.count(";") == PROBLEMS_SAID and f"and {len(problems) - PROBLEMS_SAID:,} more problem" in said


# -- outputs: nothing the user has is replaced without --overwrite ----------------------------


def test_review_never_writes_its_puzzles_over_the_log(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text('{"type": "game"}\n', encoding="utf-8")
    for extra in ((), ("--overwrite",)):
        code, _, err = run("review", str(log), "--samples", "16", "--puzzles", str(log), *extra)
        one_line_error(code, err, f"--puzzles {log} is the input {log}")
    plot = tmp_path / "old.png"
    plot.write_bytes(b"an earlier plot")
    code, _, err = run("review", str(log), "--plot", str(plot))
    one_line_error(code, err, f"--plot {plot} already exists", "--overwrite")
    assert log.read_text(encoding="utf-8") == '{"type": "game"}\n' and plot.read_bytes() == b"an earlier plot"


def test_play_keeps_an_earlier_log(tmp_path: Path) -> None:
    log = tmp_path / "mygame.jsonl"
    log.write_text("an earlier game\n", encoding="utf-8")
    code, _, err = run("play", "--seed", "1", "--log", str(log), stdin="quit\n")
    one_line_error(code, err, f"--log {log} already exists")
    assert log.read_text(encoding="utf-8") == "an earlier game\n"
    code, _, _ = run("play", "--seed", "1", "--log", str(log), "--overwrite", stdin="quit\n")
    assert code == 0 and log.read_text(encoding="utf-8").startswith('{"type": "game"')


def test_tournament_outputs_are_replaced_only_with_overwrite(tmp_path: Path) -> None:
    logs, results = tmp_path / "logs", tmp_path / "results.json"
    quick = ("tournament", "--bots", "greedy,random", "--seed", "5")
    code, _, _ = run(*quick, "--games", "2", "--logs", str(logs), "--out", str(results))
    assert code == 0
    assert sorted(path.name for path in logs.iterdir()) == ["game-00001.jsonl", "game-00002.jsonl"]
    code, _, err = run(*quick, "--games", "1", "--logs", str(logs))
    one_line_error(code, err, "already holds 2 file(s) game-*.jsonl", "--overwrite")
    code, _, err = run(*quick, "--games", "1", "--out", str(results))
    one_line_error(code, err, f"--out {results} already exists")
    # With --overwrite the directory holds this run's logs only: no earlier game mixed in.
    code, _, _ = run(*quick, "--games", "1", "--logs", str(logs), "--out", str(results), "--overwrite")
    assert code == 0 and [path.name for path in logs.iterdir()] == ["game-00001.jsonl"]
    assert json.loads(results.read_text(encoding="utf-8"))["games"] == 1


def test_an_empty_file_or_a_device_is_written_as_it_is(tmp_path: Path) -> None:
    """A file made empty beforehand (``mktemp``) and /dev/null hold nothing to lose."""
    empty = tmp_path / "made.json"
    empty.touch()
    code, _, _ = run("tournament", "--games", "1", "--bots", "greedy,random", "--out", str(empty))
    assert code == 0 and json.loads(empty.read_text(encoding="utf-8"))["games"] == 1
    code, _, _ = run("tournament", "--games", "1", "--bots", "greedy,random", "--out", "/dev/null")
    assert code == 0


def test_puzzle_checks_its_solutions_file_before_the_work(tmp_path: Path) -> None:
    code, _, err = run("puzzle", "--count", "100", "--difficulty", "expert", "--solutions-to", str(tmp_path))
    one_line_error(code, err, f"--solutions-to {tmp_path} is a directory")
    kept = tmp_path / "sol.txt"
    kept.write_text("earlier solutions\n", encoding="utf-8")
    code, _, err = run("puzzle", "--seed", "1", "--solutions-to", str(kept))
    one_line_error(code, err, "already exists")
    assert kept.read_text(encoding="utf-8") == "earlier solutions\n"


# -- where the work runs -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "not the JSON that dask scheduler --scheduler-file writes"),
        (bytes(range(256)), "not the JSON that dask scheduler --scheduler-file writes"),
        (b"[" * 100_000, "not the JSON that dask scheduler --scheduler-file writes"),
        (b"{}", "no scheduler address in it"),
        (b'{"address": 5}', "no scheduler address in it"),
    ],
)
def test_a_bad_scheduler_file_is_named_at_once(tmp_path: Path, content: bytes, said: str) -> None:
    """distributed waited 30 s on such a file, then failed with an 80-line traceback."""
    batch, scheduler = tmp_path / "b.txt", tmp_path / "scheduler.json"
    batch.write_text("Kh Kd Kc / Ac\n", encoding="utf-8")
    scheduler.write_bytes(content)
    for command in (("hint", "--batch", str(batch)), ("tournament", "--games", "1")):
        code, _, err = run(*command, "--scheduler-file", str(scheduler))
        one_line_error(code, err, "bad scheduler file", said)


def test_a_local_cluster_has_the_limit_of_jobs() -> None:
    code, _, err = run("hint", "--batch", "-", "--scheduler", "local:1000", stdin="Kh Kd Kc / Ac\n")
    one_line_error(code, err, "local:N needs a worker count N from 1 to 256")


# -- a user's bot that fails ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("tournament", "--games", "1", "--bots", "{bots}:Raiser,greedy"),
        ("match", "{bots}:Raiser", "greedy", "--pairs", "1"),
        ("play", "--bots", "{bots}:Raiser", "--seed", "1"),
    ],
)
def test_a_bot_that_fails_in_act_is_one_line_naming_it(tmp_path: Path, command: tuple[str, ...]) -> None:
    bots = tmp_path / "bad_bots.py"
    bots.write_text(BAD_BOTS, encoding="utf-8")
    code, _, err = run(*(part.format(bots=bots) for part in command), stdin="draw\n" * 5)
    one_line_error(code, err, "(Raiser) failed in act(): RuntimeError: boom")


# -- options that were ignored or let through ----------------------------------------------------


@pytest.mark.parametrize("variant", ["manipulation", "machiavelli"])
def test_not_opened_outside_rummikub_is_refused(variant: str) -> None:
    for command in (("hint", "/ 7h 8h 9h"), ("check", "/ 7h 8h 9h", "7h 8h 9h")):
        code, _, err = run(*command, "--variant", variant, "--not-opened")
        one_line_error(code, err, f"--not-opened is Rummikub's opening rule: {variant} has no opening meld")


def test_a_negative_score_is_refused_where_scores_add_up_points_won() -> None:
    code, _, err = run("advise", "/ 7h 8h 9h 2c", "--scores", "-5,0")
    one_line_error(code, err, "a score of -5", "0 or more")


def test_an_after_table_beyond_the_deck_is_bad_input() -> None:
    """It was judged an illegal play (exit 1); a table no deck holds is bad input, as a
    position beyond the deck is."""
    code, _, err = run("check", "/ Ac 2c 3c", "*Ac 2c 3c | * * *5c", "--variant", "machiavelli")
    one_line_error(code, err, "bad after-table", "4 jokers, but the machiavelli deck holds 0")
