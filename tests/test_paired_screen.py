"""``benchmarks.paired_screen``: two versions of a bot on the same deals, and their paired
difference; the tie rule's experiment classes play with the tie-break on and off."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.paired_screen import screen  # noqa: E402
from benchmarks.tie_rule import PimcFirstListed, PimcTies  # noqa: E402


def _screen_differs_by_the_rates(
    capsys: pytest.CaptureFixture[str], opponent: str, deals: int, unit: str
) -> None:
    """``greedy`` against ``expert`` on ``deals`` deals against ``opponent``: the paired
    difference printed is the difference of the two printed rates (or shares)."""
    args = argparse.Namespace(opponent=opponent, pairs=deals, seed=3, variant="manipulation", jobs=1)
    screen("greedy", "expert", args)
    printed = capsys.readouterr().out
    rates = [float(rate) for rate in re.findall(r": ([\d.]+)% \(", printed)]
    difference = re.search(
        rf"paired difference \(expert - greedy\): ([+-][\d.]+) \+- ([\d.]+) points over {deals} {unit}",
        printed,
    )
    assert len(rates) == 2 and difference is not None, printed
    assert float(difference.group(1)) == pytest.approx(rates[1] - rates[0], abs=0.06)


def test_the_paired_difference_is_the_difference_of_the_two_win_rates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _screen_differs_by_the_rates(capsys, "random", 4, "pairs")


def test_a_four_player_screen_compares_win_shares_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    _screen_differs_by_the_rates(capsys, "random,random,random", 2, "deals")


def test_the_tie_rule_bot_weighs_with_the_tie_break_on() -> None:
    assert PimcTies.evaluator.hoarder_breaks_ties and not PimcFirstListed.evaluator.hoarder_breaks_ties
    assert PimcTies.evaluator.first_out == PimcFirstListed.evaluator.first_out


@pytest.mark.parametrize(
    "argv",
    [
        ["nosuchbot"],
        ["greedy,greedy,greedy,greedy,greedy"],
        ["hoarder", "--variant", "nope"],
        ["greedy", "--pairs", "1"],
    ],
)
def test_a_bad_screen_option_is_one_line_and_exit_2(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.paired_screen import arguments

    monkeypatch.setattr(sys, "argv", ["screen", *argv])
    with pytest.raises(SystemExit) as stopped:
        arguments("screen", seed=1)
    assert stopped.value.code == 2
    printed = capsys.readouterr().err
    assert "Traceback" not in printed and printed.strip().splitlines()[-1].startswith("screen: error: ")


def test_a_screen_that_offers_versions_takes_one_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.paired_screen import arguments

    monkeypatch.setattr(sys, "argv", ["screen", "greedy"])
    assert arguments("screen", seed=1, bots=("ties", "prior")).bot == "ties"
    monkeypatch.setattr(sys, "argv", ["screen", "greedy", "--bot", "prior"])
    assert arguments("screen", seed=1, bots=("ties", "prior")).bot == "prior"
    monkeypatch.setattr(sys, "argv", ["screen", "greedy", "--bot", "nope"])
    with pytest.raises(SystemExit) as stopped:
        arguments("screen", seed=1, bots=("ties", "prior"))
    assert stopped.value.code == 2


def test_the_patient_rule_bots_weigh_with_the_patient_rule_and_the_rule_plays_legal_games() -> None:
    from benchmarks.patient_rule import PatientBot, PimcHoardersTies, PimcPatientPrior, PimcPatientTies
    from solver.game.settings import GameSettings
    from solver.strategy.choice_rules import hoarders_choice, patient_choice
    from solver.strategy.match import run_match

    assert PimcPatientTies.evaluator.tie_rule is patient_choice and PimcPatientTies.prior_margin is None
    assert PimcPatientPrior.evaluator.tie_rule is patient_choice and PimcPatientPrior.prior_margin == 1.0
    assert (
        PimcHoardersTies.evaluator.tie_rule is hoarders_choice
        and PimcHoardersTies.evaluator.prior_margin is None
    )
    rummikub = GameSettings.rummikub(2)
    found = run_match("benchmarks/patient_rule.py:PatientBot", "greedy", pairs=2, seed=4, settings=rummikub)
    assert len(found.pairs) == 2 and all(len(pair.games) == 2 for pair in found.pairs)
    assert PatientBot.name == "patient"


def test_ctrl_c_stops_a_screen_with_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import benchmarks.paired_screen as paired

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(paired, "run_match", interrupted)
    args = argparse.Namespace(opponent="random", pairs=4, seed=3, variant="manipulation", jobs=1)
    with pytest.raises(SystemExit) as stopped:
        screen("greedy", "expert", args)
    assert stopped.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted during greedy: no paired difference"
