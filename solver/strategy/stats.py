"""Statistics of a match between two bots: Wilson interval, Elo, and the SPRT of engine testing.

A match is played in mirrored pairs (the same deal twice, seats swapped), so its unit
of independent evidence is the *pair*, not the game: the two games of a pair share a
deal and their results are correlated.  The functions here therefore take the pair
scores (each in 0, 0.5, 1, 1.5, 2: A's wins in the pair, a shared win counting half)
and treat pairs as clusters:

- ``wilson_interval(successes, n)``: the textbook Wilson score interval of a proportion;
- ``clustered_wilson(pair_scores)``: the Wilson interval of A's score per game, with
  ``n`` replaced by the effective number of games ``n / deff`` (the design effect of
  the pair clusters, never below 1 so a pairing never narrows the interval);
- ``clustered_share(deal_means, games_per_deal)``: the same for a match of 3 or more
  seats, where each deal is played once per seat rotation: a bot's win share per game
  (ties split), the deals as clusters;
- ``elo_from_score`` / ``score_from_elo``: the logistic Elo model
  (``score = 1 / (1 + 10 ** (-elo / 400))``); an Elo interval is the score interval
  mapped through it;
- ``sprt(pair_scores, elo0, elo1)``: the sequential probability ratio test in the
  normal ("GSPRT") approximation that chess testing frameworks (fishtest, OpenBench)
  use with *logistic* Elo bounds: the log-likelihood ratio of "the score is s1"
  against "the score is s0", with the variance estimated from the pair scores
  (the pentanomial model), compared with Wald's bounds ``log(beta / (1 - alpha))`` and
  ``log((1 - beta) / alpha)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

__all__ = [
    "Interval",
    "SprtResult",
    "clustered_share",
    "clustered_wilson",
    "elo_from_score",
    "elo_interval",
    "score_from_elo",
    "sprt",
    "sprt_bounds",
    "wilson_interval",
]


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with its lower and upper bound."""

    estimate: float
    low: float
    high: float

    def to_dict(self, digits: int = 4) -> dict[str, float | None]:
        """Plain data; an infinite bound (an Elo of a 100% or 0% score) is ``None`` (JSON null)."""
        return {
            "estimate": _round(self.estimate, digits),
            "low": _round(self.low, digits),
            "high": _round(self.high, digits),
        }


def _round(value: float, digits: int) -> float | None:
    return None if math.isinf(value) else round(value, digits)


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: float, n: float, *, confidence: float = 0.95) -> Interval:
    """The Wilson score interval of a proportion ``successes / n`` (Wilson 1927).

    ``successes`` may be fractional (a shared win counts half) and ``n`` may be an
    effective sample size; ``n`` must be positive and ``0 <= successes <= n``.
    """
    if not n > 0:
        raise ValueError(f"a proportion needs n > 0, not {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, not {successes}")
    z = _z(confidence)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def _pair_moments(pair_scores: Sequence[float]) -> tuple[float, float]:
    """Mean score per game and the variance of the per-game score of one pair (pair score / 2)."""
    n = len(pair_scores)
    if n == 0:
        raise ValueError("no pairs played")
    for score in pair_scores:
        if not 0 <= score <= 2:
            raise ValueError(f"a pair score is between 0 and 2, not {score}")
    halves = [score / 2 for score in pair_scores]
    mean = sum(halves) / n
    variance = sum((half - mean) ** 2 for half in halves) / n
    return mean, variance


def design_effect(pair_scores: Sequence[float]) -> float:
    """How much the pair clusters inflate the variance of the mean score per game,
    against independent games with the same mean (at least 1)."""
    mean, variance = _pair_moments(pair_scores)
    binomial = mean * (1 - mean) / 2  # variance of the mean of two independent games
    if binomial <= 0:
        return 1.0
    return max(1.0, variance / binomial)


def clustered_wilson(pair_scores: Sequence[float], *, confidence: float = 0.95) -> Interval:
    """The Wilson interval of A's score per game over mirrored pairs, pairs as clusters.

    The ``2 * pairs`` games are worth ``2 * pairs / deff`` independent games, where
    ``deff`` is the design effect of the pairs (``design_effect``).
    """
    mean, _variance = _pair_moments(pair_scores)
    effective = 2 * len(pair_scores) / design_effect(pair_scores)
    return wilson_interval(mean * effective, effective, confidence=confidence)


def clustered_share(
    cluster_means: Sequence[float], per_cluster: int, *, confidence: float = 0.95
) -> Interval:
    """The Wilson interval of a win share per game over clusters of games (deals), each
    cluster given as its mean share (0 to 1) over ``per_cluster`` games.

    The variance of the estimate is taken from the clusters (the cluster-robust variance
    of a mean of equal clusters: their spread over their number), and never below the
    binomial variance of ``per_cluster`` independent games each: the design effect
    ``deff = max(1, spread / (p (1 - p) / per_cluster))``.  The ``per_cluster * clusters``
    games are then worth ``per_cluster * clusters / deff`` independent ones, and the
    interval is Wilson's for that many.  Nothing is random, so the interval repeats
    exactly.  With ``per_cluster = 2`` it is ``clustered_wilson`` of the pair scores.
    """
    count = len(cluster_means)
    if count == 0:
        raise ValueError("no deals played")
    if per_cluster < 1:
        raise ValueError(f"a deal holds at least one game, not {per_cluster}")
    for value in cluster_means:
        if not 0 <= value <= 1:
            raise ValueError(f"a deal's mean share is between 0 and 1, not {value}")
    mean = sum(cluster_means) / count
    spread = sum((value - mean) ** 2 for value in cluster_means) / count
    binomial = mean * (1 - mean) / per_cluster
    deff = max(1.0, spread / binomial) if binomial > 0 else 1.0
    effective = per_cluster * count / deff
    return wilson_interval(min(mean * effective, effective), effective, confidence=confidence)


def elo_from_score(score: float) -> float:
    """The logistic Elo difference giving an expected score ``score`` (infinite at 0 and 1)."""
    if not 0 <= score <= 1:
        raise ValueError(f"a score is between 0 and 1, not {score}")
    if score == 0:
        return -math.inf
    if score == 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic model)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_interval(score: Interval) -> Interval:
    """A score interval mapped to Elo differences (the map is increasing)."""
    return Interval(elo_from_score(score.estimate), elo_from_score(score.low), elo_from_score(score.high))


SprtDecision = Literal["H1", "H0", "continue"]


@dataclass(frozen=True, slots=True)
class SprtResult:
    """The state of an SPRT: its log-likelihood ratio, Wald's bounds and the decision.

    ``H1`` (A is at least ``elo1`` stronger) when ``llr >= upper``, ``H0`` (at most
    ``elo0``) when ``llr <= lower``, else ``continue``.
    """

    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    decision: SprtDecision

    def to_dict(self) -> dict[str, object]:
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "decision": self.decision,
        }


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: ``(log(beta/(1-alpha)), log((1-beta)/alpha))``."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be between 0 and 1, not {alpha} and {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(pair_scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal-approximation log-likelihood ratio of logistic Elo ``elo1`` against ``elo0``.

    With ``x`` the mean score per game, ``v`` the variance of a pair's per-game score and
    ``N`` the pairs: ``N * (s1 - s0) * (2x - s0 - s1) / (2v)``, where ``s0``, ``s1`` are
    the scores the two Elo bounds predict.  The moments are regularized by one
    pseudo-pair split between the extremes (half a pair scoring 0, half scoring 2), so
    that a run of identical pairs (zero spread) still moves the test, and by a vanishing
    amount once there are many pairs.
    """
    n = len(pair_scores)
    if n == 0:
        raise ValueError("no pairs played")
    _pair_moments(pair_scores)  # range checks
    weights = [1.0] * n + [0.5, 0.5]
    halves = [score / 2 for score in pair_scores] + [0.0, 1.0]
    total = sum(weights)
    mean = sum(w * h for w, h in zip(weights, halves, strict=True)) / total
    variance = sum(w * (h - mean) ** 2 for w, h in zip(weights, halves, strict=True)) / total
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt(
    pair_scores: Sequence[float], elo0: float, elo1: float, *, alpha: float = 0.05, beta: float = 0.05
) -> SprtResult:
    """The SPRT of ``H1: elo >= elo1`` against ``H0: elo <= elo0`` after these pairs."""
    if not elo0 < elo1:
        raise ValueError(f"the SPRT needs elo0 < elo1, not {elo0} and {elo1}")
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr(pair_scores, elo0, elo1)
    decision: SprtDecision = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(elo0, elo1, alpha, beta, llr, lower, upper, decision)
