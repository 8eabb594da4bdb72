"""``review`` and ``rummy review``: every decision with a choice judged, bands by the documented
thresholds, summaries that add up, reproducible by seed, bad logs refused in one line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.game import GameSettings, make_bots, play_game
from solver.game.log import LogError, LogWriter, read_log
from solver.game.review import BANDS, Review, band_of, review

QUICK = {"samples": 2, "budget_seconds": 600.0}


@pytest.fixture(scope="module")
def log_text() -> str:
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=3, players=["expert", "greedy"])
    play_game(settings, make_bots(["expert", "greedy"], 3), seed=3, listeners=[writer])
    # The first round (up to the second deal) keeps the default run fast; such a cut log
    # replays clean, as a game still in progress does.
    lines = stream.getvalue().splitlines()
    deals = [i for i, line in enumerate(lines) if '"type": "deal"' in line]
    return "\n".join(lines[: deals[1] + 1]) + "\n"


@pytest.mark.slow
def test_a_whole_game_is_reviewed() -> None:
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=4, players=["greedy", "random"])
    play_game(settings, make_bots(["greedy", "random"], 4), seed=4, listeners=[writer])
    found = review(read_log(stream.getvalue().splitlines()), seats=[1], samples=2, budget_seconds=0.001)
    assert found.summaries[0].decisions == len(found.decisions) > 0
    rounds = {decision.round_number for decision in found.decisions}
    assert len(rounds) > 1


@pytest.fixture(scope="module")
def reviewed(log_text: str) -> Review:
    return review(read_log(log_text.splitlines()), seats=[0], **QUICK)  # type: ignore[arg-type]


def test_bands_follow_the_documented_thresholds() -> None:
    assert [band for band, _ in BANDS] == ["blunder", "mistake", "inaccuracy", "ok"]
    assert band_of(0) == "ok" and band_of(4.99) == "ok"
    assert band_of(5) == "inaccuracy" and band_of(14.9) == "inaccuracy"
    assert band_of(15) == "mistake" and band_of(34.9) == "mistake"
    assert band_of(35) == "blunder" and band_of(500) == "blunder"


def test_only_the_chosen_seat_is_reviewed_and_every_decision_is_banded(reviewed: Review) -> None:
    assert reviewed.decisions, "a whole game has decisions with a choice"
    for decision in reviewed.decisions:
        assert decision.seat == 0
        assert decision.loss.estimate >= 0
        assert decision.band == band_of(decision.loss.estimate)
        assert decision.options >= 2 and decision.samples == 2
        if decision.loss.estimate == 0:
            assert decision.band == "ok"
    phases = {decision.phase for decision in reviewed.decisions}
    assert "meld" in phases


def test_the_summary_adds_up(reviewed: Review) -> None:
    (summary,) = reviewed.summaries
    assert summary.player == "expert"
    assert summary.decisions == len(reviewed.decisions)
    assert sum(summary.bands.values()) == summary.decisions
    assert summary.total_loss == pytest.approx(sum(d.loss.estimate for d in reviewed.decisions))
    assert summary.error_rate == pytest.approx(
        sum(d.band != "ok" for d in reviewed.decisions) / len(reviewed.decisions)
    )


def test_reproducible_by_seed(log_text: str, reviewed: Review) -> None:
    again = review(read_log(log_text.splitlines()), seats=[0], **QUICK)  # type: ignore[arg-type]
    first, second = reviewed.to_dict(), again.to_dict()
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_a_log_that_does_not_replay_is_refused(log_text: str) -> None:
    lines = log_text.splitlines()
    index = next(i for i, line in enumerate(lines) if '"type": "action"' in line and '"seat": 0' in line)
    record = json.loads(lines[index])
    record["seat"] = 1
    lines[index] = json.dumps(record)
    with pytest.raises(LogError, match="does not replay"):
        review(read_log(lines), **QUICK)  # type: ignore[arg-type]


def test_a_seat_outside_the_game_is_refused(log_text: str) -> None:
    with pytest.raises(ValueError, match="seat 2 is not in this 2-player game"):
        review(read_log(log_text.splitlines()), seats=[2], **QUICK)  # type: ignore[arg-type]


def test_cli_prints_each_decisions_band_and_the_summary(log_text: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    runner = CliRunner()
    done = runner.invoke(app, ["review", str(path), "--seat", "1", "--samples", "2", "--budget", "600"])
    assert done.exit_code == 0, done.stderr
    assert "Decisions" in done.stdout and "Summary" in done.stdout and "greedy" in done.stdout
    assert any(band in done.stdout for band in ("ok", "inaccuracy", "mistake", "blunder"))
    done = runner.invoke(
        app, ["review", str(path), "--seat", "1", "--samples", "2", "--budget", "600", "--json"]
    )
    data = json.loads(done.stdout)
    assert [summary["seat"] for summary in data["summary"]] == [1]
    assert all(decision["seat"] == 1 for decision in data["decisions"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "seat 4 is not in this 2-player game"),
        (["--budget", "0"], "--budget must be"),
        (["--samples", "1"], "--samples must be"),
        (["--seed", "-3"], "--seed must be"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(
    log_text: str, tmp_path: Path, args: list[str], message: str
) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    done = CliRunner().invoke(app, ["review", str(path), "--samples", "2", *args])
    assert done.exit_code == 2
    assert done.stderr.startswith("error: ") and message in done.stderr and done.stderr.count("\n") == 1


def test_cli_refuses_a_missing_or_malformed_log(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["review", str(tmp_path / "none.jsonl")])
    assert done.exit_code == 2 and done.stderr.startswith("error: cannot read")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n')
    done = runner.invoke(app, ["review", str(bad)])
    assert done.exit_code == 2 and done.stderr.startswith("error: bad log")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = runner.invoke(app, ["review", str(empty)])
    assert done.exit_code == 2 and "empty" in done.stderr
