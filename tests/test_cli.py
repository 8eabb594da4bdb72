"""The ``rummy`` command as a user runs it: ``check``, ``show`` and ``hint`` (one position
and ``--batch``), with their exit codes (0 yes, 1 a negative answer, 2 bad input) and
``--json`` output that holds JSON only."""

from __future__ import annotations

import json
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from typer.testing import CliRunner

from solver.cli import app

RUNNER = CliRunner()
EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"


def run(*args: str) -> tuple[int, str, str]:
    done = RUNNER.invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def test_check_a_legal_play() -> None:
    code, out, _ = run("check", "7h 8h *9h / 9h 5c 5d", "7h 8h 9h | 5c 5d *5s")
    # human output writes cards as every command does, with suit symbols (issue 37); --json keeps notation
    assert code == 0 and out.startswith("legal: 7♥ 8♥ 9♥ | ★5♠ 5♦ 5♣")
    code, out, _ = run("check", "7h 8h *9h / 9h 5c 5d", "7h 8h 9h | 5c 5d *5s", "--json")
    assert code == 0
    assert json.loads(out) == {
        "position": "7h 8h *9h / 9h 5d 5c",
        "after": "7h 8h 9h | *5s 5d 5c",
        "ok": True,
        "reasons": [],
    }


def test_check_an_illegal_play_lists_the_reasons() -> None:
    code, out, _ = run("check", "7h 8h *9h / 9h 5c 5d", "7h 8h *9h 9h")
    assert code == 1
    assert "illegal" in out and "a sequence holds 9h twice" in out
    code, out, _ = run("check", "7h 8h *9h / 9h 5c 5d", "7h 8h *9h 9h", "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["ok"] is False and len(verdict["reasons"]) == 1


def test_check_bad_notation_is_one_line_and_exit_2() -> None:
    code, out, err = run("check", "7h 8h *9h / 9h 5c 5d", "7h 8h 9x")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "bad card '9x': unknown suit 'x'" in err


def test_a_comma_between_cards_is_named_not_the_card_before_it() -> None:
    """Issue 37: ``/ 10h, Jh`` said "unknown rank '10h'"; the comma is the problem."""
    for position, token, separator in (("/ 10h, Jh", "10h,", ","), ("7h 8h;9h / Jh", "8h;9h", ";")):
        code, out, err = run("hint", position)
        assert code == 2 and out == "" and err.strip().count("\n") == 0
        assert f"bad card '{token}': '{separator}' is not part of a card: separate cards with spaces" in err
        assert "unknown rank" not in err


def test_every_command_writes_cards_one_way() -> None:
    """Issue 37: hint, show and analyze printed suit symbols, check, advise and review the
    notation; human output now writes pieces one way (symbols; tiles in Rummikub)."""
    notation = re.compile(r"(?<![\w*])(?:10|[2-9AJQK])[shdc](?!\w)")
    position = "7h 8h 9h / 10h Jh 2c"
    for args in (
        ("check", position, "7h 8h 9h 10h Jh"),
        ("advise", position, "--players", "2", "--samples", "4"),
        ("show", position),
        ("hint", position),
    ):
        code, out, _ = run(*args)
        assert code == 0, (args, out)
        assert "10♥" in out and not notation.search(out), (args, out)


def test_counts_say_one_card_not_one_cards() -> None:
    from solver.cli.common import counted

    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    # analyze and hint --batch said "1 points" (issue 37)
    code, out, _ = run("analyze", "7h 8h 9h / 10h Ac", "--players", "2")
    assert code == 0 and "1 point left" in out and "1 points" not in out
    result = RUNNER.invoke(app, ["hint", "--batch", "-"], input="7h 8h 9h / 10h Ac\n")
    assert result.exit_code == 0 and "hand Ac, 1 point," in result.stdout


def test_show_pretty_prints_and_json() -> None:
    code, out, _ = run("show", "Kh Kd Kc | *Qh Qd Qc / Ac *")
    assert code == 0 and "K♥ K♦ K♣" in out and "Hand points: 26" in out
    code, out, _ = run("show", "Kh Kd Kc | *Qh Qd Qc / Ac *", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["table"] == "*Qh Qd Qc | Kh Kd Kc" and shown["hand"] == ["Ac", "*"]
    assert shown["hand_points"] == 26


def test_show_numbers_the_melds_as_written_like_hint() -> None:
    code, out, _ = run("show", "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    lines = [line.split() for line in out.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    assert code == 0
    assert lines == [["1.", "K♥", "K♦", "K♣"], ["2.", "Q♥", "Q♦", "Q♣"], ["3.", "J♥", "J♦", "J♣"]]


def test_show_an_impossible_position_is_exit_2() -> None:
    code, out, err = run("show", "Kh Kh Kh Kh / Ac")
    assert code == 2 and out == "" and "4 copies of Kh" in err


def test_hint_prints_the_play_and_its_steps() -> None:
    code, out, _ = run("hint", EXAMPLE)
    assert code == 0 and "Steps" in out and "A♣ from your hand" in out
    code, out, _ = run("hint", "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s")
    assert code == 1


def test_hint_batch_json_answers_every_line_in_order(tmp_path: Path) -> None:
    batch = tmp_path / "positions.txt"
    batch.write_text(f"{EXAMPLE}\n5h 6h 7h / Kc\n/ 7h 8h 9h\n")
    code, out, _ = run("hint", "--batch", str(batch), "--json")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [answer["line"] for answer in answers] == [1, 2, 3]
    assert answers[0]["table"] == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac" and answers[0]["moves"]
    assert answers[1]["status"] == "no_play" and answers[1]["moves"] == []
    assert answers[2]["goes_out"] is True
    assert [group["kind"] for group in answers[0]["rearrangements"]] == ["trade"]
    assert answers[1]["rearrangements"] == []
    assert [group["kind"] for group in answers[2]["rearrangements"]] == ["new"]


def test_hint_shows_the_independent_rearrangements() -> None:
    """Issue 20, item 9: the steps grouped by the card flow, real rearrangements apart."""
    code, out, _ = run("hint", "2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh")
    assert code == 0
    listed = out[out.index("Rearrangements") :].splitlines()[1:3]
    assert [line.strip() for line in listed] == [
        "- Melds 2 and 3 trade cards into new melds 2, 3 and 4, with K♥ from your hand (steps 2-5).",
        "- Meld 1 stays as it is.",
    ]
    code, out, _ = run("hint", "5h 6h 7h | Kc Kd Ks / 8h 2c 3c 4c", "--json")
    groups = json.loads(out)["rearrangements"]
    assert code == 0 and [(g["kind"], g["old_melds"], g["new_melds"]) for g in groups] == [
        ("grow", [1], [1]),
        ("new", [], [2]),
        ("keep", [2], [3]),
    ]


def test_hint_batch_text_answers_every_line_in_order(tmp_path: Path) -> None:
    batch = tmp_path / "positions.txt"
    batch.write_text(f"{EXAMPLE}\n5h 6h 7h / Kc\n")
    code, out, _ = run("hint", "--batch", str(batch))
    assert code == 0
    first = out.index("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac")
    assert first < out.index("5h 6h 7h")


def test_hint_alternatives_in_text_and_json() -> None:
    position = "5h 6h 7h | 9s 9d 9c / 8h 9h Kc Kd Ks 4h"
    code, out, _ = run("hint", position, "--alternatives", "3")
    assert code == 0 and "Alternatives" in out
    assert "2. play K♠ 8♥ 9♥ K♦ K♣  (hand points 4" in out and "4. play" in out and "5. play" not in out
    code, out, _ = run("hint", position, "--alternatives", "2", "--json")
    answer = json.loads(out)
    assert code == 0 and [other["hand_points"] for other in answer["alternatives"]] == [4, 8]
    assert all(other["moves"] for other in answer["alternatives"])
    code, _, err = run("hint", position, "--alternatives", "20")
    assert code == 2 and "--alternatives must be 0 to 19" in err
    code, out, _ = run("hint", "5h 6h 7h / Kc", "--alternatives", "2")
    assert code == 1 and "Alternatives" not in out


def test_version() -> None:
    import solver

    code, out, _ = run("--version")
    assert code == 0 and out.strip() == f"rummy {solver.__version__}"


@pytest.fixture
def sigint_kept() -> Iterator[None]:
    """``main`` ignores Ctrl-C once the command has answered (the process then exits);
    called in this process, the test runner's own handler is put back after."""
    kept = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, kept)


def test_ctrl_c_anywhere_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sigint_kept: None
) -> None:
    """Issue 37: Ctrl-C outside a batch run ended in silence (Typer's exit 130) and, while the
    commands loaded, in a traceback; each is now one line naming what stopped, exit 130."""
    import solver.cli
    import solver.cli.hint

    def interrupted(*_args: object, **_options: object) -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(solver.cli.hint, "hint", interrupted)
    code, _, err = run("hint", EXAMPLE)
    assert code == 130 and err == "interrupted: root hint stopped\n"
    monkeypatch.setattr(solver.cli, "_commands", interrupted)
    with pytest.raises(SystemExit) as ended:
        solver.cli.main()
    assert ended.value.code == 130
    assert capsys.readouterr().err == "interrupted: rummy stopped while starting\n"
    # Loaded, but interrupted while Typer builds the command line from the commands
    # (before a command's own handler: a CI run caught a traceback there under load).
    monkeypatch.setattr(solver.cli, "_commands", lambda: interrupted)
    with pytest.raises(SystemExit) as ended:
        solver.cli.main()
    assert ended.value.code == 130
    assert capsys.readouterr().err == "interrupted: rummy stopped while starting\n"


def test_small_seams_of_the_command_line(tmp_path: Path) -> None:
    """An empty after-table is named, a stray comma in --bots is refused, and a batch file
    written with a byte-order mark reads as its cards."""
    runner = CliRunner()
    checked = runner.invoke(app, ["check", "Kh Kd Kc / Ac", ""])
    assert checked.exit_code == 1 and checked.stdout.startswith("illegal: (an empty table)\n")
    bots = runner.invoke(app, ["tournament", "--bots", "greedy,,random", "--games", "1"])
    assert bots.exit_code == 2 and "empty name" in bots.stderr
    batch = tmp_path / "bom.txt"
    batch.write_bytes("\ufeff/ 7h 8h 9h\n".encode())
    hinted = runner.invoke(app, ["hint", "--batch", str(batch)])
    assert hinted.exit_code == 0 and hinted.stdout.startswith("1: play 7h 8h 9h")


def test_a_ctrl_c_after_the_answer_does_not_cut_the_exit_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sigint_kept: None
) -> None:
    """A Ctrl-C that landed after a batch had printed every line ended the process with
    exit 130 and no word; once the command has answered, Ctrl-C is ignored until exit."""
    import solver.cli

    monkeypatch.setattr(sys, "argv", ["rummy", "show", "/ 7h"])
    with pytest.raises(SystemExit) as ended:
        solver.cli.main()
    assert ended.value.code == 0 and "7♥" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_a_zero_time_limit_is_told_what_is_allowed() -> None:
    """``--time-limit 0`` said "must be between 0 and 3600 seconds, not 0.0"."""
    done = CliRunner().invoke(app, ["tournament", "--games", "2", "--time-limit", "0"])
    assert done.exit_code == 2
    assert done.stderr == "error: time limit must be more than 0 and at most 3600 seconds, not 0\n"


def test_analyze_with_no_card_to_draw_shows_no_next_card_figures() -> None:
    """With no unseen card it printed "Next card lets you knock 100.0%" beside "Knock: none"."""
    done = CliRunner().invoke(app, ["analyze", "5h 6h 7h / 8h 2c", "--unseen", ""])
    assert done.exit_code == 0, done.output
    assert "no card to draw: a draw changes nothing" in done.stdout
    assert "Next card" not in done.stdout


def test_unreadable_inputs_are_named_in_words(tmp_path: Path) -> None:
    """No raw Python text ("[Errno 2] ...", "'utf-8' codec can't decode ..."), one wording
    for an empty log, and the measurement bots named where `rummy match` takes them."""
    runner = CliRunner()
    binary = tmp_path / "bad.txt"
    binary.write_bytes(b"\xff\xfe7h")
    cases = [
        (["hint", "--batch", str(tmp_path / "missing.txt")], "No such file or directory"),
        (["hint", "--batch", str(binary)], "not UTF-8 text"),
    ]
    for args, words in cases:
        done = runner.invoke(app, args)
        assert done.exit_code == 2 and words in done.stderr and "Errno" not in done.stderr, done.stderr
        assert "codec" not in done.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    said = {
        runner.invoke(app, [command, str(empty)]).stderr.split(": ", 2)[-1]
        for command in ("replay", "review")
    }
    assert said == {"the log is empty: a log starts with a 'game' line\n"}
    done = runner.invoke(app, ["match", "pimc", "nobody", "--pairs", "1"])
    assert done.exit_code == 2 and "oracle" in done.stderr


def test_the_objective_takes_any_case_as_the_variant_does() -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["hint", "/ 7h 8h 9h", "--objective", "CARDS", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["objective"] == "cards", done.output
    bad = runner.invoke(app, ["hint", "/ 7h 8h 9h", "--objective", "pts"])
    assert bad.exit_code == 2 and "'pts' is not one of 'points', 'cards'" in bad.stderr


def test_a_huge_bad_position_is_echoed_short() -> None:
    """An 8,000-character pasted table was echoed whole in its one-line error."""
    table = " | ".join(["Ah 2h 3h"] * 700)
    done = CliRunner().invoke(app, ["hint", f"{table} / 4h"])
    assert done.exit_code == 2
    line = done.stderr.strip()
    assert "\n" not in line and len(line) < 400 and "(7,702 characters)" in line, line
    assert "700 copies of Ah" in line


def test_an_unopened_player_without_an_opening_is_told_why() -> None:
    """``--not-opened`` in Rummikub: with no 30-point meld from the rack the hint says what
    the opening needs (it said only "No legal play: draw."); one that reaches it plays."""
    code, out, _ = run("hint", "/ r1 r2 r3", "--variant", "rummikub", "--not-opened")
    said = " ".join(out.split())
    assert code == 1 and "No opening meld: it needs 30 points from the rack alone" in said  # 1: no play
    code, out, _ = run("hint", "/ r1 r2 r3", "--variant", "rummikub")
    assert code == 0 and "No opening meld" not in out and "goes out" in out
    code, out, _ = run("hint", "/ r10 r11 r12", "--variant", "rummikub", "--not-opened")
    assert code == 0 and "No opening meld" not in out and "goes out" in out


@pytest.mark.parametrize("command", [["hint", "--batch"], ["puzzle", "--solutions-to"], ["review"]])
def test_every_jobs_option_has_the_same_ceiling(tmp_path: Path, command: list[str]) -> None:
    """``--jobs 300`` started 300 worker processes for hint, puzzle and review, where
    tournament and match refuse more than 256."""
    lines = tmp_path / "in.txt"
    lines.write_text("Kh Kd Kc / Ac\n", encoding="utf-8")
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.jsonl").write_text("", encoding="utf-8")  # the option is checked before any log is read
    target = {"hint": [str(lines)], "puzzle": [str(tmp_path / "s.txt")], "review": [str(folder)]}[command[0]]
    outcome = CliRunner().invoke(app, [*command, *target, "--jobs", "300"])
    assert outcome.exit_code == 2, outcome.output
    assert "--jobs must be between 1 and 256, not 300" in outcome.stderr
