"""Tournaments, logs and replay, the bot interface, and the game commands of the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.game import Action, GameSettings, Knock, Pass, Play, PlayerView, play_game
from solver.game.log import LogWriter, read_log, replay
from solver.strategy import Bot, make_bot, make_bots
from solver.strategy.tournament import entry_labels, game_seed, run_tournament

runner = CliRunner()


def results_table(output: str) -> str:
    """The reproducible part of the printed output: everything above the speed table."""
    return output.split("Speed (wall clock")[0]


def test_fifty_game_tournament_completes_in_parallel() -> None:
    # Two random bots: full multi-round Manipulation games at the lowest engine cost.
    args = ["tournament", "--games", "50", "--bots", "random,random", "--seed", "11", "--jobs", "2"]
    outcome = runner.invoke(app, [*args, "--json"])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    results = {row["bot"]: row for row in data["results"]}
    assert set(results) == {"random#1", "random#2"}
    assert all(row["games"] == 50 and row["moves"] > 0 for row in results.values())
    assert 50 <= sum(row["won"] for row in results.values()) <= 100  # a tie counts for both
    assert sum(row["knocks"] for row in results.values()) > 0
    assert set(data["timing"]["mean_ms_per_move"]) == set(results)


def test_same_seed_same_table_whatever_the_jobs(tmp_path: Path) -> None:
    args = [
        "tournament",
        "--games",
        "4",
        "--bots",
        "greedy,random,random",
        "--variant",
        "rummikub",
        "--seed",
        "1",
    ]
    first = runner.invoke(app, [*args, "--jobs", "1", "--out", str(tmp_path / "one.json")])
    second = runner.invoke(app, [*args, "--jobs", "2", "--out", str(tmp_path / "two.json")])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert "games won" in first.stdout and "random#2" in first.stdout
    assert results_table(first.stdout) == results_table(second.stdout)
    one = json.loads((tmp_path / "one.json").read_text())
    two = json.loads((tmp_path / "two.json").read_text())
    assert one["results"] == two["results"]
    other_seed = run_tournament(
        ["greedy", "random", "random"], games=4, settings=GameSettings.rummikub(3), seed=2
    )
    assert [entry.results() for entry in other_seed.entries] != one["results"]


def test_game_seeds_and_labels() -> None:
    assert game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 1)
    assert entry_labels(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]
    with pytest.raises(ValueError, match="unknown bot"):
        run_tournament(["greedy", "nobody"], games=1)


def test_log_replays_to_the_same_final_scores(tmp_path: Path) -> None:
    settings = GameSettings.manipulation(3)
    names = ["greedy", "random", "random"]
    stream = io.StringIO()
    result = play_game(
        settings, make_bots(names, 5), seed=5, listeners=[LogWriter(stream, settings, seed=5, players=names)]
    )
    records = read_log(stream.getvalue().splitlines())
    report = replay(records)
    assert report.ok, report.mismatches
    assert report.result is not None and report.result.final == result.final
    assert report.players == names

    log = tmp_path / "game.jsonl"
    log.write_text(stream.getvalue())
    outcome = runner.invoke(app, ["replay", str(log), "--json"])
    assert outcome.exit_code == 0, outcome.output
    assert json.loads(outcome.stdout)["final"] == list(result.final)

    end = records[-1]
    assert end["type"] == "end"
    tampered = [*records[:-1], {**end, "final": [0, 0, 0]}]
    log.write_text("\n".join(json.dumps(record) for record in tampered))
    outcome = runner.invoke(app, ["replay", str(log)])
    assert outcome.exit_code == 1
    assert "end record" in outcome.stderr and "differs" in outcome.stderr


def test_tournament_logs_replay(tmp_path: Path) -> None:
    settings = GameSettings.rummikub(2)
    result = run_tournament(["random", "greedy"], games=2, settings=settings, seed=3, log_dir=str(tmp_path))
    assert result.games == 2
    for log in sorted(tmp_path.glob("game-*.jsonl")):
        outcome = runner.invoke(app, ["replay", str(log)])
        assert outcome.exit_code == 0, outcome.output
        assert "replay matches the log" in outcome.stdout


class Cautious(Bot):
    """The example of the bot interface's documentation (solver/strategy/bots.py)."""

    name = "cautious"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock() if view.hand_points <= 2 else Pass()
        found = self.best_play(view)
        if found.has_play and (found.goes_out or found.hand_points <= 10):
            return Play(found.table)
        return view.decline()


def test_a_user_bot_plays_and_loads_by_module_path() -> None:
    settings = GameSettings.machiavelli(2)
    result = play_game(settings, [Cautious(), make_bot("random")], seed=4)
    assert len(result.final) == 2
    assert isinstance(make_bot("test_tournament:Cautious"), Cautious)
    with pytest.raises(ValueError, match="not a subclass"):
        make_bot("json:dumps")


def test_play_a_full_game_against_two_bots_in_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "me.jsonl"
    moves = "help\nbogus\nhint\nok\nknock\ndraw\npass\n" * 400
    outcome = runner.invoke(
        app, ["play", "--bots", "greedy,random", "--seed", "3", "--log", str(log)], input=moves
    )
    assert outcome.exit_code == 0, outcome.output
    text = outcome.stdout
    assert "Your turn" in text and "Hand" in text and "Table" in text
    assert "not understood" in text  # 'bogus' re-prompts
    assert "knock is not a move now: " in text  # mid-turn: the referee's reason, then a new prompt
    assert "Game over" in text and "Game left" not in text
    assert "♠" in text or "♥" in text
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_play_accepts_typed_melds_and_can_be_left(tmp_path: Path) -> None:
    # Machiavelli, seed 9: the person moves first, holding 7♠ 8♠ 9♠ and 2♣ 3♣ 4♣.
    log = tmp_path / "left.jsonl"
    outcome = runner.invoke(
        app,
        ["play", "--variant", "machiavelli", "--bots", "random", "--seed", "9", "--log", str(log)],
        input="2c 3c 4c\ndone\n+ 7s 8s 9s\ndone\nshow\nquit\n",
    )
    assert outcome.exit_code == 0, outcome.output
    assert "illegal" not in outcome.stdout and "not understood" not in outcome.stdout
    assert "Game left" in outcome.stdout and "--seed 9" in outcome.stdout
    records = read_log(log.read_text().splitlines())
    mine = [record for record in records if record["type"] == "action" and record.get("seat") == 0]
    assert [record["action"]["type"] for record in mine] == ["play", "play"]  # type: ignore[index]
    assert "7s 8s 9s" in mine[1]["action"]["table"]  # type: ignore[index]
    assert records[-1] == {"type": "quit", "round": 1, "seat": 0}
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output  # a game left is not a broken log
    assert "left by human (seat 0) in round 1" in replayed.stdout
    truncated = log.read_text().splitlines()[:-1]  # no quit line: the log just stops
    log.write_text("\n".join(truncated) + "\n")
    stopped = runner.invoke(app, ["replay", str(log)])
    assert stopped.exit_code == 1 and "stops before the end" in stopped.stderr
    # Cut before its first deal line too: a log that stops early (it was called a mismatch,
    # "the log has 0 deal/round/end lines, the replay made 1").
    log.write_text(truncated[0] + "\n")
    header_only = runner.invoke(app, ["replay", str(log)])
    assert header_only.exit_code == 1 and "stops before the end" in header_only.stderr
    assert "mismatch" not in header_only.output


def test_play_rejects_a_mismatched_bot_list() -> None:
    bad = runner.invoke(app, ["play", "--players", "4", "--bots", "greedy,random"])
    assert bad.exit_code == 2
    assert "4 players need 3 bots" in bad.stderr


def test_a_log_short_of_lines_stops_early_unless_its_game_ended() -> None:
    """A log cut short replays as one that stops before the end (not a mismatch), but a
    log whose actions finish the game must hold every line: without its final ``end``
    line it is a mismatch, not a clean replay."""
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=5, players=["greedy", "greedy"])
    play_game(settings, make_bots(["greedy", "greedy"], 5), seed=5, listeners=[writer])
    lines = stream.getvalue().splitlines()
    assert replay(read_log(lines)).ok
    no_end = replay(read_log(lines[:-1]))
    assert no_end.result is not None and not no_end.ok
    assert no_end.mismatches == ["the log has 16 deal/round/end lines, the replay made 17"]
    header_only = replay(read_log(lines[:1]))
    assert header_only.result is None and header_only.mismatches == []
    mid_game = replay(read_log(lines[:40]))
    assert mid_game.result is None and mid_game.mismatches == []
