"""The mirrored-pair match: identical deals, reproducibility, worker independence, SPRT stop, CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.game import GameSettings
from solver.strategy.match import MatchSpec, pair_seed, play_pair, run_match

runner = CliRunner()


def _results(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key != "timing"}


@pytest.mark.parametrize("settings", [GameSettings.manipulation(2), GameSettings.machiavelli(2)])
def test_the_two_games_of_a_pair_see_the_same_deals_with_the_seats_swapped(settings: GameSettings) -> None:
    spec = MatchSpec(("greedy", "random"), settings, seed=3)
    for index in range(3):
        pair = play_pair(spec, index)
        first, second = pair.games
        assert (first.a_seat, second.a_seat) == (0, 1)
        assert first.deals and second.deals
        common = min(len(first.deals), len(second.deals))
        assert first.deals[:common] == second.deals[:common]
        assert pair.seed == pair_seed(3, index)
    assert play_pair(spec, 0).games[0].deals[0] != play_pair(spec, 1).games[0].deals[0]


def test_a_match_repeats_exactly_from_its_seed() -> None:
    first = run_match("greedy", "random", pairs=3, seed=11)
    again = run_match("greedy", "random", pairs=3, seed=11)
    other = run_match("greedy", "random", pairs=3, seed=12)
    assert _results(first.to_dict()) == _results(again.to_dict())
    assert [p.games[0].deals for p in first.pairs] != [p.games[0].deals for p in other.pairs]


def test_the_result_does_not_depend_on_workers_or_chunks() -> None:
    alone = run_match("greedy", "random", pairs=4, seed=5, jobs=1)
    pooled = run_match("greedy", "random", pairs=4, seed=5, jobs=2, chunk_size=1)
    assert _results(alone.to_dict()) == _results(pooled.to_dict())
    assert [pair.index for pair in pooled.pairs] == [0, 1, 2, 3]


def test_the_sprt_stops_at_the_same_pair_whatever_the_workers() -> None:
    bounds = (-20.0, 20.0)
    alone = run_match("greedy", "random", pairs=30, seed=2, sprt_elo=bounds)
    assert alone.stopped_early
    assert alone.sprt is not None and alone.sprt.decision == "H1"
    pooled = run_match("greedy", "random", pairs=30, seed=2, sprt_elo=bounds, jobs=2, chunk_size=2)
    assert _results(alone.to_dict()) == _results(pooled.to_dict())
    assert len(pooled.pairs) < 30


def test_the_totals_add_up() -> None:
    result = run_match("greedy", "random", pairs=2, seed=8)
    a, b = result.entries
    assert a.games == b.games == 4
    assert a.won + b.won == pytest.approx(4)
    assert result.score.estimate == pytest.approx(a.won / 4)
    assert result.score.low <= result.score.estimate <= result.score.high
    data = result.to_dict()
    json.dumps(data, allow_nan=False)  # JSON proper: an infinite Elo is null


def test_match_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_match("greedy", "nobody", pairs=1)
    with pytest.raises(ValueError, match="at least one pair"):
        run_match("greedy", "random", pairs=0)
    with pytest.raises(ValueError, match="two bots"):
        run_match("greedy", "random", pairs=1, settings=GameSettings.manipulation(3))
    with pytest.raises(ValueError, match="chunk size"):
        run_match("greedy", "random", pairs=2, chunk_size=0)


def test_cli_match_prints_the_win_rate_with_its_interval_and_repeats() -> None:
    args = ["match", "greedy", "random", "--pairs", "2", "--seed", "4"]
    first = runner.invoke(app, args)
    again = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "win rate" in first.output and "95% CI" in first.output and "Elo" in first.output

    def rate(output: str) -> list[str]:
        return [line for line in output.splitlines() if "win rate" in line]

    assert len(rate(first.output)) == 1
    assert rate(first.output) == rate(again.output)


def test_cli_match_json_and_sprt() -> None:
    result = runner.invoke(app, ["match", "greedy", "random", "--pairs", "2", "--sprt", "0,50", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["pairs"] <= 2 and data["sprt"]["elo0"] == 0 and "a_score" in data


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "nobody"], "unknown bot"),
        (["greedy", "random", "--sprt", "50"], "--sprt takes two"),
        (["greedy", "random", "--sprt", "a,b"], "--sprt takes two numbers"),
        (["greedy", "random", "--sprt", "50,0"], "elo0 < elo1"),
        (["greedy", "random", "--players", "3"], "2 players"),
        (["greedy", "random", "--sprt", "0,inf"], "finite"),
        (["greedy", "random", "--pairs", "0"], "--pairs must be between 1"),
        (["greedy", "random", "greedy", "--deals", "0"], "--deals must be between 1"),
        (["greedy", "random", "--jobs", "0"], "--jobs must be between 1"),
        (["greedy", "random", "--seed", "-1"], "--seed must be 0 or more"),
        (["greedy", "random", "--time-limit", "0"], "time limit"),
        (["greedy", "random", "--variant", "poker"], "unknown variant"),
    ],
)
def test_cli_match_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["match", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_the_strength_benchmark_renders_its_tables() -> None:
    root = str(Path(__file__).resolve().parents[1])  # benchmarks/ ships with the repository
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.strength import render, summarize

    rows = [summarize(run_match("greedy", "random", pairs=1, seed=3))]
    text = render(rows, {"date": "today", "cpu": "cpu", "seed": 3, "jobs": 1, "machine_cores": 2})
    assert "| **greedy** |" in text and "Targets:" in text
    assert "| greedy | random | 1 |" in text


def test_the_strength_benchmark_reports_the_search_bots_choices() -> None:
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.strength import render, summarize

    rows = [summarize(run_match("pimc", "random", pairs=1, seed=3))]
    text = render(rows, {"date": "today", "cpu": "cpu", "seed": 3, "jobs": 1, "machine_cores": 2})
    header = next(line for line in text.splitlines() if line.startswith("| against |"))
    row = next(line for line in text.splitlines() if line.startswith("| random |"))
    assert header.endswith("| hoarding line |")
    assert row.split("|")[-2].strip().endswith("%")  # the bot counts its hoarding lines
