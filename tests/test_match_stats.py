"""The match statistics against textbook values: Wilson intervals, Elo, Wald's SPRT."""

from __future__ import annotations

import math

import pytest

from solver.strategy.stats import (
    clustered_wilson,
    design_effect,
    elo_from_score,
    elo_interval,
    score_from_elo,
    sprt,
    sprt_bounds,
    sprt_llr,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
    ],
)
def test_wilson_interval_matches_newcombe(successes: int, n: int, low: float, high: float) -> None:
    interval = wilson_interval(successes, n)
    assert interval.estimate == pytest.approx(successes / n)
    assert interval.low == pytest.approx(low, abs=5e-5)
    assert interval.high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_closed_form_at_one_half() -> None:
    # p = 1/2, n = 100: centre 1/2, half width z/(1+z²/n) * sqrt(1/400 + z²/40000).
    z = 1.959963984540054
    half = z / (1 + z * z / 100) * math.sqrt(0.25 / 100 + z * z / 40000)
    interval = wilson_interval(50, 100)
    assert interval.low == pytest.approx(0.5 - half)
    assert interval.high == pytest.approx(0.5 + half)


@pytest.mark.parametrize(("successes", "n"), [(1, 0), (-1, 10), (11, 10)])
def test_wilson_interval_rejects_impossible_counts(successes: float, n: float) -> None:
    with pytest.raises(ValueError, match=r"n|successes"):
        wilson_interval(successes, n)


def test_elo_textbook_values() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert score_from_elo(200) == pytest.approx(0.7597, abs=1e-4)
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert score_from_elo(-100) == pytest.approx(1 - score_from_elo(100))
    for elo in (-350.0, -20.0, 0.0, 35.5, 600.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf


def test_elo_interval_maps_the_score_interval() -> None:
    score = wilson_interval(60, 100)
    elo = elo_interval(score)
    assert elo.low < elo.estimate < elo.high
    assert elo.estimate == pytest.approx(elo_from_score(0.6))
    assert elo.low == pytest.approx(elo_from_score(score.low))


def test_independent_pairs_give_the_plain_wilson_interval() -> None:
    # Pair scores in binomial proportions (p = 1/2): no clustering, the design effect is 1.
    pairs = [0.0] * 25 + [1.0] * 50 + [2.0] * 25
    assert design_effect(pairs) == pytest.approx(1.0)
    assert clustered_wilson(pairs) == wilson_interval(100, 200)


def test_correlated_pairs_widen_the_interval() -> None:
    # Each pair split 1-1 or won twice by the same side: twice the binomial variance.
    pairs = [0.0] * 30 + [2.0] * 40 + [1.0] * 30
    plain = wilson_interval(sum(pairs), 2 * len(pairs))
    clustered = clustered_wilson(pairs)
    assert design_effect(pairs) > 1
    assert clustered.estimate == pytest.approx(plain.estimate)
    assert clustered.high - clustered.low > plain.high - plain.low


def test_sprt_bounds_are_walds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19))  # 2.944
    assert lower == pytest.approx(-math.log(19))
    lower, upper = sprt_bounds(0.05, 0.10)
    assert lower == pytest.approx(math.log(0.10 / 0.95))
    assert upper == pytest.approx(math.log(0.90 / 0.05))


def test_sprt_llr_agrees_with_walds_bernoulli_llr() -> None:
    # Independent decisive games (pair scores in binomial proportions at p = 0.53): the
    # normal approximation must agree with the exact Bernoulli log-likelihood ratio
    # W ln(s1/s0) + L ln((1-s1)/(1-s0)) for small Elo bounds.
    p, pairs = 0.53, 10_000
    counts = {2.0: round(pairs * p * p), 0.0: round(pairs * (1 - p) ** 2)}
    counts[1.0] = pairs - counts[2.0] - counts[0.0]
    scores = [score for score, count in counts.items() for _ in range(count)]
    wins = sum(scores)
    losses = 2 * pairs - wins
    s0, s1 = score_from_elo(0), score_from_elo(10)
    exact = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert sprt_llr(scores, 0, 10) == pytest.approx(exact, rel=0.02)


def test_sprt_decisions() -> None:
    strong = [2.0] * 40 + [1.0] * 40 + [0.0] * 10
    assert sprt(strong, 0, 50).decision == "H1"
    null = [2.0] * 200 + [1.0] * 400 + [0.0] * 200
    assert sprt(null, 20, 70).decision == "H0"
    short = [2.0, 1.0, 0.0, 1.0, 2.0]
    result = sprt(short, 0, 50)
    assert result.decision == "continue"
    assert result.lower < result.llr < result.upper


def test_sprt_moves_on_a_run_of_identical_pairs() -> None:
    # Zero spread must not freeze the test (the regularizing pseudo-pair).
    wins = [sprt([2.0] * n, 0, 50) for n in (1, 5, 40)]
    assert 0 < wins[0].llr < wins[1].llr < wins[2].llr
    assert wins[0].decision == "continue"
    assert wins[2].decision == "H1"
    assert sprt([0.0] * 40, 0, 50).decision == "H0"


def test_sprt_rejects_reversed_bounds() -> None:
    with pytest.raises(ValueError, match="elo0 < elo1"):
        sprt([1.0], 50, 0)


def test_pair_scores_must_be_in_range() -> None:
    with pytest.raises(ValueError, match="between 0 and 2"):
        clustered_wilson([1.0, 2.5])
    with pytest.raises(ValueError, match="no pairs"):
        clustered_wilson([])


def test_an_elo_that_rounds_to_nothing_has_no_sign() -> None:
    from solver.cli.match import _fmt_elo

    assert [_fmt_elo(value) for value in (-0.4, 0.0, 0.4, -7.6, 12.5)] == ["0", "0", "0", "-8", "+12"]
    assert (_fmt_elo(float("inf")), _fmt_elo(float("-inf"))) == ("+inf", "-inf")
