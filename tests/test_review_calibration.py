"""The calibration benchmark's game seeds: its own deal per game, or duplicate deals."""

from __future__ import annotations

import itertools
import sys

import pytest

from benchmarks.review_calibration import STRENGTH_ORDER, CalibrationJob, game_bots, game_seed
from benchmarks.speed import RESULTS

PAIRINGS = len(list(itertools.combinations(STRENGTH_ORDER, 2)))


def test_own_deals_differ_per_game() -> None:
    job = CalibrationJob(seed=11, games=4, rounds=2)
    seeds = [game_seed(job, index) for index in range(4 * PAIRINGS)]
    assert len(set(seeds)) == len(seeds)


def test_duplicate_deals_are_shared_across_pairings_and_mirrored_in_seats() -> None:
    job = CalibrationJob(seed=11, games=4, rounds=2, duplicate=True)
    for pairing in range(PAIRINGS):
        first = [game_seed(job, pairing * 4 + game) for game in range(4)]
        assert first == [game_seed(job, game) for game in range(4)]  # the same deals in every pairing
        assert first[0] == first[1] and first[2] == first[3] and first[0] != first[2]
        a, b = game_bots(pairing * 4, 4), game_bots(pairing * 4 + 1, 4)
        assert a == (b[1], b[0])  # the two games of a deal swap the seats
    assert game_seed(job, 0) != game_seed(CalibrationJob(seed=12, games=4, rounds=2, duplicate=True), 0)


def test_ctrl_c_stops_the_calibration_with_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import benchmarks.review_calibration as calibration

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(calibration, "run_indexed", interrupted)
    monkeypatch.setattr(sys, "argv", ["review_calibration", "--seed", "99", "--games", "2"])
    with pytest.raises(SystemExit) as stopped:
        calibration.main()
    assert stopped.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted: no calibration table"
    assert not (RESULTS / "review_calibration-99.json").exists()


def test_a_bad_random_bot_or_odd_duplicate_games_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import benchmarks.review_calibration as calibration

    for argv, said in (
        (["--random-bot", "nope:Nope"], "cannot load bot 'nope:Nope'"),
        (["--games", "3", "--duplicate"], "--games must be even"),
        (["--games", "0"], "must be at least 1"),
    ):
        monkeypatch.setattr(sys, "argv", ["review_calibration", *argv])
        with pytest.raises(SystemExit) as stopped:
            calibration.main()
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err.strip().splitlines()[-1]
